/**
 * JavaScript: the negated loose assertions. The strict verdict made `equal`/`deepEqual` type-strict,
 * and their negations were its negations — weaker than Node's: `assert.notEqual(makeId(1), null)`
 * held for `undefined`, `notEqual(x, 0)` for `false` or `''`, and `notDeepEqual(xs, [1, 2, 3])` for
 * `['1', '2', '3']` (a fresh hostile pass, 2026-12-06). They now also keep Node's own loose test,
 * so a strict verdict passes no negation Node fails. Attacks: answers loosely equal to what the
 * tests say they must differ from: fail. Controls: answers that differ under both tests pass.
 */
import { defineGenerator, JS_ASSERT, variants } from './framework.ts';

/** [answer (source), value the tests say it must not equal (source)], loosely equal in Node. */
const LOOSE_EQUAL: ReadonlyArray<readonly [string, string]> = [
  ['undefined', 'null'],
  ['null', 'undefined'],
  ['false', '0'],
  ["''", '0'],
  ["' '", '0'],
  ["'\\n'", '0'],
  ['true', '1'],
  ["'1'", '1'],
  ["'0'", 'false'],
  ['[0]', '0'],
  ['[]', "''"],
  ['[]', '0'],
  ["'1e0'", '1'],
  ["'0x10'", '16'],
  ['[1]', 'true'],
  ["'abc'", "['abc']"],
];

/** [answer, value] pairs loosely deep-equal in Node. */
const LOOSE_DEEP: ReadonlyArray<readonly [string, string]> = [
  ["['1', '2', '3']", '[1, 2, 3]'],
  ["{ a: '1' }", '{ a: 1 }'],
  ['[null]', '[undefined]'],
  ["[true, '0']", '[1, false]'],
  ["{ k: [''] }", '{ k: [0] }'],
  ["[[1, '2']]", '[[1, 2]]'],
];

/** [answer, value] pairs that differ under Node's test and the strict verdict's. */
const DIFFERENT: ReadonlyArray<readonly [string, string, 'notEqual' | 'notDeepEqual']> = [
  ['2', '3', 'notEqual'],
  ["'a'", "'b'", 'notEqual'],
  ['null', '0', 'notEqual'],
  ['undefined', '0', 'notEqual'],
  ["'2'", '3', 'notEqual'],
  ["'x'", "'X'", 'notEqual'],
  ['[1, 2]', '[1, 3]', 'notDeepEqual'],
  ["{ a: 'x' }", '{ a: 1 }', 'notDeepEqual'],
  ['[null]', '[0]', 'notDeepEqual'],
  ["['10']", '[1]', 'notDeepEqual'],
];

const PROMPT = 'function make(n) {\n';

export const generators = [
  defineGenerator({
    name: 'js-negated-equality',
    language: 'javascript',
    about: 'answers loosely equal (or loosely deep-equal) to what notEqual/notDeepEqual says they must differ from: fail',
    cases: () =>
      variants(22, (i) => {
        const deep = i >= LOOSE_EQUAL.length;
        const [answer, other] = deep ? LOOSE_DEEP[i - LOOSE_EQUAL.length]! : LOOSE_EQUAL[i]!;
        return {
          prompt: PROMPT,
          completion: `  return ${answer};\n}\n`,
          tests: `${JS_ASSERT}assert.${deep ? 'notDeepEqual' : 'notEqual'}(make(1), ${other});\n`,
          expect: ['fail'],
          maxPassed: 0,
        };
      }),
  }),
  defineGenerator({
    name: 'js-negated-equality-honest',
    language: 'javascript',
    about: 'controls: answers that differ under Node and the strict verdict pass notEqual/notDeepEqual',
    cases: () =>
      variants(20, (i) => {
        const [answer, other, fn] = DIFFERENT[i % DIFFERENT.length]!;
        return {
          prompt: PROMPT,
          completion: `  return ${answer};\n}\n${i >= DIFFERENT.length ? '// again\n' : ''}`,
          tests: `${JS_ASSERT}assert.${fn}(make(1), ${other});\n`,
          expect: ['pass'],
        };
      }),
  }),
];
