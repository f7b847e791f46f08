/**
 * JavaScript generators for values that must not count as answers, whatever door they come in
 * by: NaN (and an invalid Date) entering the tests realm as a settled promise, a thrown value, a
 * `cause` or a tests' callback's argument rather than a return value; a refused answer (a Proxy,
 * a getter, NaN, over a cap) that the tests catch as "it threw"; an error whose class is forged
 * by its `name`; a wrong program mutating an argument the tests check is left alone (arguments
 * used to cross as copies, so the tests never saw it). Honest controls (NaN the tests ask for,
 * errors of every honest shape, in-place algorithms on the tests' arguments) pass.
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT as ASSERT } from './framework.ts';

/** NaN-valued answers, each with the expression the tests read the number from (`R` = the answer). */
const NAN_VALUES: Array<[string, string]> = [
  ['NaN', 'R'],
  ['[NaN]', 'R[0]'],
  ['{ v: NaN }', 'R.v'],
  ['new Map([["v", NaN]])', 'R.get("v")'],
  ['new Date(NaN)', 'R.getTime()'],
  ['[[0, NaN]]', 'R[0][1]'],
  ['new Float64Array([NaN])', 'R[0]'],
  ['0 / 0', 'R'],
];

/** Doors into the tests realm other than a plain return value; `V` is the value, `READ` the check. */
const DOORS: Array<{ completion: string; tests: string }> = [
  {
    completion: 'async function f(x) {\n  return V;\n}\n',
    tests: 'async function test() {\n  const R = await f(3);\n  assert.ok(!(Math.abs(READ - 6) > 1e-9));\n}\ntest();\n',
  },
  {
    completion: 'function f(x) {\n  return Promise.resolve(V);\n}\n',
    tests: 'f(3).then((R) => assert.ok(!(READ < 6) && !(READ > 6)));\n',
  },
  {
    completion: 'function each(x, cb) {\n  cb(V);\n}\n',
    tests:
      'function test() {\n  let R;\n  each(3, (v) => {\n    R = v;\n  });\n  assert.ok(!(Math.abs(READ - 6) > 1e-9));\n}\ntest();\n',
  },
  {
    completion: 'function f(x) {\n  throw { value: V };\n}\n',
    tests:
      'function test() {\n  let R;\n  try {\n    f(3);\n  } catch (e) {\n    R = e.value;\n  }\n  assert.ok(!(Math.abs(READ - 6) >= 1e-9));\n}\ntest();\n',
  },
  {
    completion: 'async function f(x) {\n  throw new Error("no", { cause: V });\n}\n',
    tests:
      'async function test() {\n  let R;\n  await f(3).catch((e) => {\n    R = e.cause;\n  });\n  assert.ok(!(Math.abs(READ - 6) > 1e-9));\n}\ntest();\n',
  },
  {
    completion: 'function f(x) {\n  return Promise.reject(new AggregateError([], "no", { cause: V }));\n}\n',
    tests:
      'async function test() {\n  const R = await f(3).then(() => 0, (e) => e.cause);\n  assert.ok(!(Math.abs(READ - 6) > 1e-9));\n}\ntest();\n',
  },
];

const nanDoors = defineGenerator({
  name: 'js-nan-doors',
  language: 'javascript',
  about: 'NaN or an invalid Date reaching the tests by a promise, a callback argument or a thrown value: never a pass',
  cases: () =>
    grid(24, DOORS, NAN_VALUES, (door, [value, read]) => ({
      completion: door.completion.replace('V', value),
      tests: ASSERT + door.tests.replace('READ', read).replace('READ', read),
      expect: ['fail', 'error'],
      // A check reading the refused value's stand-in may hold vacuously; the refusal fails the run.
      maxPassed: 1,
      note: `${value} via ${door.completion.split('\n')[0]}`,
    })),
});

/** Honest uses of NaN by tests that ask for it (they mention NaN), by the same doors. */
const nanHonest = defineGenerator({
  name: 'js-nan-doors-honest',
  language: 'javascript',
  about: 'control: NaN the tests ask for (Number.isNaN), by promise, callback, throw and cause, passes',
  cases: () =>
    grid(20, DOORS, NAN_VALUES.slice(0, 4), (door, [value, read]) => ({
      completion: door.completion.replace('V', value),
      tests:
        ASSERT +
        door.tests
          .replace('assert.ok(!(Math.abs(READ - 6) > 1e-9));', `assert.ok(Number.isNaN(${read}));`)
          .replace('assert.ok(!(Math.abs(READ - 6) >= 1e-9));', `assert.ok(Number.isNaN(${read}));`)
          .replace('assert.ok(!(READ < 6) && !(READ > 6))', `assert.ok(Number.isNaN(${read}))`),
      expect: ['pass'],
      note: `${value} via ${door.completion.split('\n')[0]}`,
    })),
});

/** Answers the snapshot refuses (not data), returned where the tests expect a throw. */
const NOT_DATA = [
  'new Proxy({}, {})',
  '{ get v() { return 1; } }',
  '{ valueOf() { return 1; } }',
  '{ toString() { return "bad"; } }',
  '{ then(r) { r(1); } }',
  'new Array(300000).fill(0)',
  'NaN',
  '[new Proxy([], {})]',
  "'x'.repeat(5 * 1024 * 1024)",
  'new Date(NaN)',
];

/** Tests that expect `parse('bad')` to throw (`C` = the call). */
const EXPECT_THROW: Array<{ tests: (c: string) => string; async?: boolean }> = [
  { tests: (c) => `function test() {\n  assert.throws(() => ${c});\n  assert.strictEqual(parse('4'), 4);\n}\ntest();\n` },
  {
    tests: (c) =>
      `function test() {\n  let threw = false;\n  try {\n    ${c};\n  } catch {\n    threw = true;\n  }\n  assert.ok(threw);\n}\ntest();\n`,
  },
  {
    tests: (c) =>
      `async function test() {\n  await assert.rejects(async () => ${c});\n  assert.strictEqual(await parse('4'), 4);\n}\ntest();\n`,
    async: true,
  },
  {
    tests: (c) =>
      `async function test() {\n  const r = await Promise.allSettled([${c}]);\n  assert.strictEqual(r[0].status, 'rejected');\n}\ntest();\n`,
    async: true,
  },
];

const refusalCaught = defineGenerator({
  name: 'js-refusal-caught',
  language: 'javascript',
  about: 'a refused answer (Proxy, getter, coercion hook, thenable, NaN, over a cap) where the tests expect a throw: fail',
  cases: () =>
    grid(24, NOT_DATA, EXPECT_THROW, (bad, shape) => ({
      completion: `${shape.async ? 'async ' : ''}function parse(s) {\n  if (s === 'bad') return ${bad};\n  return Number(s);\n}\n`,
      tests: ASSERT + shape.tests("parse('bad')"),
      expect: ['fail', 'error'],
      // The right answer for '4' may pass its own check; the refusal fails the run.
      maxPassed: 2,
      note: bad,
    })),
});

/** An error made to look like another class by its name (own or on its prototype). */
const FORGED_ERRORS: Array<[string, string]> = [
  ['RangeError', 'const e = new Error("neg");\n  e.name = "RangeError";\n  throw e;'],
  ['TypeError', 'throw Object.assign(new Error("bad"), { name: "TypeError" });'],
  ['RangeError', 'class E extends Error {}\n  E.prototype.name = "RangeError";\n  throw new E("neg");'],
  ['SyntaxError', 'const e = new TypeError("x");\n  Object.defineProperty(e, "name", { value: "SyntaxError" });\n  throw e;'],
  ['AggregateError', 'const e = new Error("x");\n  e.name = "AggregateError";\n  e.errors = [];\n  throw e;'],
];

/** How the tests check the class (`K` = the expected class). */
const CLASS_CHECKS: Array<(k: string) => string> = [
  (k) => `assert.throws(() => f(-1), ${k});`,
  (k) => `try {\n    f(-1);\n    assert.fail('no throw');\n  } catch (e) {\n    assert.ok(e instanceof ${k});\n  }`,
  (k) => `assert.throws(() => f(-1), (e) => e instanceof ${k});`,
  (k) => `assert.throws(() => f(-1), (e) => Object.getPrototypeOf(e) === ${k}.prototype);`,
];

const forgedErrorClass = defineGenerator({
  name: 'js-error-class-by-name',
  language: 'javascript',
  about: "an error whose name (own or its prototype's) says another class: it is not that class, as under Node",
  cases: () =>
    grid(20, FORGED_ERRORS, CLASS_CHECKS, ([k, body], check) => ({
      completion: `function f(x) {\n  ${body}\n}\n`,
      tests: `${ASSERT}function test() {\n  ${check(k)}\n}\ntest();\n`,
      expect: ['fail'],
      maxPassed: 0,
      note: `${k}: ${body.split('\n')[0]}`,
    })),
});

/** Honest errors: native classes, subclasses with their own names, causes, aggregates. */
const HONEST_ERRORS: Array<{ body: string; check: string }> = [
  { body: 'throw new RangeError("neg");', check: 'assert.throws(() => f(-1), RangeError);' },
  { body: 'throw new TypeError("bad");', check: "assert.throws(() => f(-1), { name: 'TypeError', message: 'bad' });" },
  {
    body: 'class ValidationError extends Error {}\n  ValidationError.prototype.name = "ValidationError";\n  throw new ValidationError("v");',
    check: "assert.throws(() => f(-1), { name: 'ValidationError', message: 'v' });",
  },
  {
    body: 'class NotFound extends RangeError {\n    constructor(m) {\n      super(m);\n      this.name = "NotFound";\n    }\n  }\n  throw new NotFound("nf");',
    check: "assert.throws(() => f(-1), (e) => e instanceof RangeError && e.name === 'NotFound');",
  },
  {
    body: 'throw new Error("outer", { cause: new TypeError("inner") });',
    check: 'assert.throws(() => f(-1), (e) => e.cause instanceof TypeError && e.cause.message === "inner");',
  },
  {
    body: 'throw new AggregateError([new RangeError("a")], "all");',
    check: 'assert.throws(() => f(-1), (e) => e instanceof AggregateError && e.errors[0] instanceof RangeError);',
  },
  {
    body: 'const e = new SyntaxError("s");\n  e.name = "SyntaxError";\n  throw e;',
    check: 'assert.throws(() => f(-1), SyntaxError);',
  },
];

const honestErrors = defineGenerator({
  name: 'js-error-class-honest',
  language: 'javascript',
  about: 'control: honest errors (native classes, subclasses with their own names, causes, aggregates) keep passing',
  cases: (rng) =>
    grid(21, HONEST_ERRORS, [0, 1, 2], (h, k) => {
      const n = rng.int(1, 50);
      return {
        completion: `function f(x) {\n  if (x < 0) {\n    ${h.body}\n  }\n  return x * ${k + 2};\n}\n`,
        tests: `${ASSERT}function test() {\n  ${h.check}\n  assert.strictEqual(f(${n}), ${n * (k + 2)});\n}\ntest();\n`,
        expect: ['pass'],
        note: h.body.split('\n')[0],
      } satisfies AdversarialCase;
    }),
});

/**
 * Honest in-place work on the tests' arguments, and the tests' checks of the argument after the
 * call.
 */
const IN_PLACE: Array<{ honest: string; tests: (v: number) => string }> = [
  {
    honest: 'function f(a) {\n  a.reverse();\n}\n',
    tests: (v) => `const a = [1, 2, ${v}];\n  f(a);\n  assert.deepStrictEqual(a, [${v}, 2, 1]);`,
  },
  {
    honest: 'function f(a) {\n  a.sort((x, y) => x - y);\n  return a;\n}\n',
    tests: (v) => `const a = [${v}, 1, 0];\n  assert.strictEqual(f(a), a);\n  assert.deepStrictEqual(a, [0, 1, ${v}]);`,
  },
  {
    honest: 'function f(o) {\n  o.total = o.xs.reduce((s, x) => s + x, 0);\n  delete o.tmp;\n}\n',
    tests: (v) =>
      `const o = { xs: [1, ${v}], tmp: 1 };\n  f(o);\n  assert.deepStrictEqual(o, { xs: [1, ${v}], total: ${v + 1} });`,
  },
  {
    honest: 'function f(m) {\n  m.set("k", (m.get("k") ?? 0) + 1);\n}\n',
    tests: (v) => `const m = new Map([['k', ${v}]]);\n  f(m);\n  assert.strictEqual(m.get('k'), ${v + 1});`,
  },
  {
    honest: 'function f(s) {\n  s.add(0);\n  return s.size;\n}\n',
    tests: (v) => `const s = new Set([${v}]);\n  assert.strictEqual(f(s), 2);\n  assert.ok(s.has(0) && s.has(${v}));`,
  },
  {
    honest: 'function f(rows) {\n  for (const r of rows) r.push(r.length);\n}\n',
    tests: (v) =>
      `const rows = [[${v}], []];\n  const first = rows[0];\n  f(rows);\n  assert.deepStrictEqual(rows, [[${v}, 1], [0]]);\n  assert.strictEqual(rows[0], first);`,
  },
  {
    honest: 'function f(a, b) {\n  b.push(...a.splice(0, 1));\n}\n',
    tests: (v) => `const a = [${v}, 2];\n  const b = [];\n  f(a, b);\n  assert.deepStrictEqual([a, b], [[2], [${v}]]);`,
  },
];

const inPlaceHonest = defineGenerator({
  name: 'js-arguments-in-place-honest',
  language: 'javascript',
  about:
    "control: honest in-place work on the tests' arguments (reverse, sort, keys, Map, Set, nested rows) is seen by the tests",
  cases: (rng) =>
    grid(21, IN_PLACE, [0, 1, 2], (c) => ({
      completion: c.honest,
      tests: `${ASSERT}function test() {\n  ${c.tests(rng.int(3, 90))}\n}\ntest();\n`,
      expect: ['pass'],
    })),
});

/** Wrong programs that mutate what they were asked to leave alone (`A` = the tests' argument). */
const MUTATORS = [
  'a.sort((x, y) => x - y);\n  return a.slice();',
  'const r = a.reverse();\n  return r.slice().reverse();',
  'a.push(0);\n  a.pop();\n  a[0] = a[0] + 0.5;\n  return a.map(Math.floor);',
  'a.length = 0;\n  return [3, 1, 2];',
  'a.splice(0, 1);\n  return [3, 1, 2];',
  'a.fill(7);\n  return [3, 1, 2];',
  'a.unshift(9);\n  return [3, 1, 2];',
];

/** How the tests check that their argument was left alone. */
const UNCHANGED: Array<(f: string) => string> = [
  (f) => `const a = [3, 1, 2];\n  ${f};\n  assert.deepStrictEqual(a, [3, 1, 2]);`,
  (f) => `const a = [3, 1, 2];\n  const copy = [...a];\n  ${f};\n  assert.deepStrictEqual(a, copy);`,
  (f) => `const a = [3, 1, 2];\n  ${f};\n  assert.strictEqual(a.join(','), '3,1,2');`,
];

const inPlaceWrong = defineGenerator({
  name: 'js-arguments-mutated',
  language: 'javascript',
  about: 'a wrong program mutates the argument the tests check is left alone: the tests see it, never a pass',
  cases: () =>
    grid(21, MUTATORS, UNCHANGED, (m, check) => ({
      completion: `function f(a) {\n  ${m}\n}\n`,
      tests: `${ASSERT}function test() {\n  ${check('f(a)')}\n}\ntest();\n`,
      expect: ['fail'],
      maxPassed: 0,
      note: m.split('\n')[0],
    })),
});

/** Honest iterators returned as answers (`N` = a size), and how the tests consume them. */
const ITERATORS = [
  'function* f(n) {\n  for (let i = 0; i < n; i++) yield i * i;\n}\n',
  'function f(n) {\n  return Array.from({ length: n }, (_, i) => i * i).values();\n}\n',
  'function f(n) {\n  return new Set(Array.from({ length: n }, (_, i) => i * i)).values();\n}\n',
  'function f(n) {\n  return new Map(Array.from({ length: n }, (_, i) => [i * i, i])).keys();\n}\n',
  'function* f(n) {\n  let i = 0;\n  while (true) yield i * i++;\n}\n',
];

const CONSUME: Array<(n: number) => string> = [
  (n) => `assert.deepStrictEqual([...f(${n})].slice(0, ${n}), Array.from({ length: ${n} }, (_, i) => i * i));`,
  (n) => `const it = f(${n});
  assert.strictEqual(it.next().value, 0);
  assert.strictEqual(it.next().value, 1);`,
  (n) => `let k = 0;
  for (const v of f(${n})) {
    assert.strictEqual(v, k * k);
    if (++k === ${n}) break;
  }`,
  (n) => `const [a, b, c] = f(${n});
  assert.deepStrictEqual([a, b, c], [0, 1, 4]);`,
];

const honestIterators = defineGenerator({
  name: 'js-iterator-answers-honest',
  language: 'javascript',
  about: 'control: generators and engine iterators returned as answers (finite and endless) are consumed lazily and pass',
  cases: (rng) =>
    grid(20, ITERATORS, CONSUME, (completion, consume, i) => ({
      completion,
      // The endless generator is only consumed lazily (not by spreading).
      tests: `${ASSERT}function test() {
  ${(i % ITERATORS.length === 4 && consume === CONSUME[0] ? CONSUME[1]! : consume)(rng.int(3, 9))}
}
test();
`,
      expect: ['pass'],
    })),
});

/** Wrong iterators: a wrong item, a NaN item or too few items, read by spreading or destructuring. */
const wrongIterators = defineGenerator({
  name: 'js-iterator-answers-wrong',
  language: 'javascript',
  about: 'wrong generators and iterators (a wrong or NaN item, too few items) fail when the tests read them',
  cases: (rng) =>
    grid(20, ['i * i + (i === 1 ? 1 : 0)', 'i === 2 ? NaN : i * i', 'i * 2'], [CONSUME[0]!, CONSUME[3]!], (item, consume) => ({
      completion: `function* f(n) {\n  for (let i = 0; i < n; i++) yield ${item};\n}\n`,
      tests: `${ASSERT}function test() {\n  ${consume(rng.int(3, 9))}\n}\ntest();\n`,
      expect: ['fail', 'error'],
      maxPassed: 0,
      note: item,
    })),
});

export const generators = [
  nanDoors,
  nanHonest,
  refusalCaught,
  forgedErrorClass,
  honestErrors,
  inPlaceHonest,
  inPlaceWrong,
  honestIterators,
  wrongIterators,
];
