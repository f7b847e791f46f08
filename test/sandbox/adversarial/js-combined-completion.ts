/**
 * JavaScript generators: completion is observed in a self-contained script too (program and tests
 * given as one script, as `anchor-rl sandbox run` takes a whole program): the same unfinished
 * shapes as with separate tests — async tests that never finish, `forEach(async …)`, async
 * methods that reject or wait on a thenable that never calls back — are never a pass, and honest
 * async scripts still pass.
 */
import { METHOD_SHAPES, UNFINISHED_METHOD_CASES, unfinishedMethodCase } from './js-async-methods.ts';
import { NEVER, SHAPES } from './js-completion.ts';
import { type AdversarialCase, defineGenerator, JS_ASSERT as ASSERT, variants } from './framework.ts';

const unfinished = defineGenerator({
  name: 'js-combined-never-finish',
  language: 'javascript',
  about: 'one script: a wrong async answer that never settles, where the tests do not await it',
  cases: () =>
    variants(NEVER.length * SHAPES.length, (i) => {
      let never = NEVER[i % NEVER.length]!;
      const shape = SHAPES[Math.floor(i / NEVER.length)]!;
      // A thenable answer whose `then` the tests call directly (`dbl(4).then(…)`) is the program's
      // own code swallowing the tests' callback in a shared realm: no promise exists to observe
      // (a documented limit of one-script programs). The other shapes await it.
      if (never.includes('then()') && /^dbl\(\d\)\.then\(/m.test(shape((x) => `dbl(${x})`))) never = NEVER[0]!;
      return {
        completion: `${never.includes('await') ? 'async ' : ''}function dbl(x) {\n  ${never}\n}\n`,
        tests: ASSERT + shape((x) => `dbl(${x})`),
        combined: true,
        expect: ['fail', 'timeout', 'error'],
        maxPassed: 1,
        note: `${never} / shape ${Math.floor(i / NEVER.length)}`,
      } satisfies AdversarialCase;
    }),
});

const methods = defineGenerator({
  name: 'js-combined-async-methods',
  language: 'javascript',
  about: "one script: a check inside the tests' async method never runs (it rejects or never settles)",
  cases: () => variants(UNFINISHED_METHOD_CASES, (i) => unfinishedMethodCase(i, true)),
});

const honest = defineGenerator({
  name: 'js-combined-honest-async',
  language: 'javascript',
  about: 'one script: honest async answers checked in async tests and methods pass',
  cases: () =>
    variants(SHAPES.length + METHOD_SHAPES.length * 2, (i) => {
      const answer =
        i % 2 === 0
          ? 'async function dbl(x) {\n  await null;\n  return x * 2;\n}\n'
          : 'function dbl(x) {\n  return Promise.resolve(x * 2);\n}\n';
      const tests =
        i < SHAPES.length
          ? SHAPES[i]!((x) => `dbl(${x})`)
          : `${METHOD_SHAPES[(i - SHAPES.length) % METHOD_SHAPES.length]!('assert.strictEqual(await dbl(3), 6);')}assert.strictEqual(1, 1);\n`;
      return { completion: answer, tests: ASSERT + tests, combined: true, expect: ['pass'] } satisfies AdversarialCase;
    }),
});

export const generators = [unfinished, methods, honest];
