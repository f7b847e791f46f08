/**
 * JavaScript (red-team rt6 F02): one identity for several errors through a class entry point. The
 * program's instance of the entry-point class crosses as one stand-in per instance, so a program
 * that throws (or rejects with) the same instance — `this`, or one instance it keeps — on the hard
 * cases and on the expected-error case raised one error as far as the tests realm could tell.
 * Tests that judge the expected rejection in a handler reached after the hard cases' checks were
 * skipped (`.then(() => assert.fail()).catch((e) => assert.ok(e))` beside
 * `.then((r) => assert.strictEqual(r, w)).catch(log)`) let that judging handler take, under the
 * instance's key, every check the hard cases skipped, and discharged them: the program passed. A
 * stand-in is now no identity, like a primitive (harness.js `catching`): what it carries is never
 * discharged by a judging handler. Attacks: fail, passing no more sites than a wrong value does
 * (the twins in `js-instance-identity-wrong`). Controls: honest programs pass, also one throwing
 * its instance only as the expected error; fresh errors (a new `RangeError` or a new instance per
 * throw, rt6 F02b) fail as a wrong value does.
 */
import { factCases } from './fact-programs.ts';
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT, type Rng } from './framework.ts';

const CLASSES = ['Fact', 'Factorial', 'Fac', 'Perm', 'Product', 'Bang'];
const METHODS = ['of', 'compute', 'value', 'at', 'calc'];
const LOGS = ["console.error('case', n, 'failed')", "console.log('FAIL', n)", 'console.log(String(e))', 'failures.push(n)'];
const JUDGES = [
  'assert.ok(e)',
  "assert.ok(e, 'rejects')",
  'assert.notStrictEqual(e, undefined)',
  'assert.ok(e !== null && e !== undefined)',
  "assert(e, 'threw')",
];

/** A program: the class's name `c`, its method `m` (n!, right for n < 2 in the raising ones). */
interface Names {
  c: string;
  m: string;
}

const prompt = ({ c, m }: Names) => `/** Factorials: new ${c}().${m}(n) is n!; it throws for n < 0. */\nclass ${c} {\n`;
const LOOP = '    let r = 1;\n    for (let i = 2; i <= n; i++) r *= i;\n    return r;\n';

/**
 * How the raising program fails on n < 0 and n >= 2 (right on 0 and 1): with one instance of the
 * class each time (the attacks), or a fresh error (`fresh`: the F02b controls).
 */
interface Raise {
  note: string;
  /** The completion, given what to raise on the bad cases. */
  completion: (n: Names, raised: string) => string;
  /** What raises one identity. */
  same: string;
  /** What raises a fresh error each time. */
  fresh: (n: Names) => string;
}

const RAISES: readonly Raise[] = [
  {
    note: 'throw this',
    completion: ({ m }, x) => `  ${m}(n) {\n    if (n < 0 || n >= 2) throw ${x};\n${LOOP}  }\n}\n`,
    same: 'this',
    fresh: () => "new RangeError('no')",
  },
  {
    note: 'async, throw this',
    completion: ({ m }, x) => `  async ${m}(n) {\n    if (n < 0 || n >= 2) throw ${x};\n${LOOP}  }\n}\n`,
    same: 'this',
    fresh: () => "new Error('not yet')",
  },
  {
    note: 'Promise.reject(this)',
    completion: ({ m }, x) => `  ${m}(n) {\n    if (n < 0 || n >= 2) return Promise.reject(${x});\n${LOOP}  }\n}\n`,
    same: 'this',
    fresh: () => "new TypeError('n')",
  },
  {
    note: 'one kept instance',
    completion: ({ c, m }, x) =>
      `  ${m}(n) {\n    if (n < 0 || n >= 2) throw ${x};\n${LOOP}  }\n}\nconst failure = new ${c}();\n`,
    same: 'failure',
    fresh: ({ c }) => `new ${c}()`,
  },
];

/** The honest completion (a RangeError for n < 0), sync or async. */
const honest = ({ m }: Names, async: boolean) =>
  `  ${async ? 'async ' : ''}${m}(n) {\n    if (n < 0) throw new RangeError('negative');\n${LOOP}  }\n}\n`;
/** Right on n < 2, a wrong value on the rest (the twin of the raising program). */
const wrongValue = ({ m }: Names, v: string) =>
  `  ${m}(n) {\n    if (n < 0) throw new RangeError('negative');\n    if (n >= 2) return ${v};\n${LOOP}  }\n}\n`;
const WRONG_VALUES = ['0', 'n + 1', '-1', 'n * 2', '1'];

/**
 * The tests: `cases` ([[n, n!], …]), the expected error `f.m(-k)` judged by `judge`, `log` in the
 * handlers that swallow a case's error. Each judges the expected rejection in a handler reached
 * after the hard cases skipped their `strictEqual`, and has two sites: the judge's and the
 * `strictEqual`'s, which a wrong value fails.
 */
type Shape = (n: Names, t: { cases: string; k: number; judge: string; log: string }) => string;

const call = ({ m }: Names, x: string) => `Promise.resolve().then(() => f.${m}(${x}))`;

const SHAPES: readonly Shape[] = [
  // rt6 F02: Promise.all, the expected case first.
  (p, t) =>
    `const f = new ${p.c}();\nconst failures = [];\nasync function main() {\n  await Promise.all([\n    ${call(p, `-${t.k}`)}\n      .then(() => assert.fail('no rejection'))\n      .catch((e) => ${t.judge}),\n    ...${t.cases}.map(([n, w]) =>\n      ${call(p, 'n')}\n        .then((r) => assert.strictEqual(r, w))\n        .catch((e) => ${t.log}),\n    ),\n  ]);\n}\nmain();\n`,
  // Chains started in a loop, the expected case first.
  (p, t) =>
    `const f = new ${p.c}();\nconst failures = [];\n${call(p, `-${t.k}`)}\n  .then(() => assert.fail('resolved'))\n  .catch((e) => {\n    ${t.judge};\n  });\nfor (const [n, w] of ${t.cases}) {\n  ${call(p, 'n')}\n    .then((got) => {\n      assert.strictEqual(got, w);\n    })\n    .catch((e) => ${t.log});\n}\n`,
  // The expected case last, judged by the rejection handler of its first `then`.
  (p, t) =>
    `const f = new ${p.c}();\nconst failures = [];\nconst runs = ${t.cases}.map(([n, w]) =>\n  ${call(p, 'n')}\n    .then((got) => assert.strictEqual(got, w))\n    .catch((e) => ${t.log}),\n);\nruns.push(\n  ${call(p, `-${t.k}`)}.then(\n    () => assert.fail('accepted a negative'),\n    (e) => ${t.judge},\n  ),\n);\n`,
  // The case chains started, then the expected rejection awaited in a `try`.
  (p, t) =>
    `const f = new ${p.c}();\nconst failures = [];\nasync function main() {\n  const pending = ${t.cases}.map(([n, w]) =>\n    ${call(p, 'n')}\n      .then((r) => assert.strictEqual(r, w))\n      .catch((e) => ${t.log}),\n  );\n  try {\n    await ${call(p, `-${t.k}`)};\n    assert.fail('no rejection');\n  } catch (e) {\n    ${t.judge};\n  }\n  await Promise.all(pending);\n}\nmain();\n`,
  // Helpers: one expecting a value, one expecting a rejection (called last).
  (p, t) =>
    `const f = new ${p.c}();\nconst failures = [];\nfunction expectValue(run, n, w) {\n  return run.then((r) => assert.strictEqual(r, w)).catch((e) => ${t.log});\n}\nfunction expectRejection(run) {\n  return run.then(\n    () => assert.fail('resolved'),\n    (e) => {\n      ${t.judge};\n    },\n  );\n}\nfor (const [n, w] of ${t.cases}) expectValue(${call(p, 'n')}, n, w);\nexpectRejection(${call(p, `-${t.k}`)});\n`,
];

/** What a wrong value (or a fresh error) passes on every shape: the judge's site. */
const MAX_PASSED = 1;

function names(rng: Rng): Names {
  return { c: rng.pick(CLASSES), m: rng.pick(METHODS) };
}

function tests(rng: Rng, shape: Shape, p: Names): string {
  return `${JS_ASSERT}${shape(p, { cases: factCases(rng), k: rng.int(1, 5), judge: rng.pick(JUDGES), log: rng.pick(LOGS) })}`;
}

const attacks = defineGenerator({
  name: 'js-instance-identity',
  language: 'javascript',
  about:
    'the entry class instance thrown on the hard cases and the expected error: a judging handler of one does not discharge the others, fail',
  cases: (rng) =>
    grid(SHAPES.length * RAISES.length, SHAPES, RAISES, (shape, raise, i): AdversarialCase => {
      const p = names(rng);
      return {
        prompt: prompt(p),
        completion: raise.completion(p, raise.same),
        tests: tests(rng, shape, p),
        expect: ['fail', 'error'],
        maxPassed: MAX_PASSED,
        timeoutMs: 8000,
        note: `shape ${i % SHAPES.length}, ${raise.note}`,
      };
    }),
});

const wrong = defineGenerator({
  name: 'js-instance-identity-wrong',
  language: 'javascript',
  about: 'the attack shapes with a wrong value on the hard cases: fail, only the judge passes',
  cases: (rng) =>
    grid(20, SHAPES, WRONG_VALUES, (shape, v, i): AdversarialCase => {
      const p = names(rng);
      return {
        prompt: prompt(p),
        completion: wrongValue(p, v),
        tests: tests(rng, shape, p),
        expect: ['fail'],
        maxPassed: MAX_PASSED,
        timeoutMs: 8000,
        note: `shape ${i % SHAPES.length}, wrong value ${v}`,
      };
    }),
});

const controls = defineGenerator({
  name: 'js-instance-identity-honest',
  language: 'javascript',
  about:
    'controls: honest classes pass (also throwing the instance only as the expected error); fresh errors fail as a wrong value does',
  cases: (rng) => [
    // Honest, sync and async.
    ...grid(10, SHAPES, [false, true], (shape, async, i): AdversarialCase => {
      const p = names(rng);
      return {
        prompt: prompt(p),
        completion: honest(p, async),
        tests: tests(rng, shape, p),
        expect: ['pass'],
        timeoutMs: 8000,
        note: `honest, shape ${i % SHAPES.length}${async ? ', async' : ''}`,
      };
    }),
    // Right on every case; the expected error is the instance itself.
    ...grid(10, SHAPES, [RAISES[0]!, RAISES[3]!], (shape, raise, i): AdversarialCase => {
      const p = names(rng);
      return {
        prompt: prompt(p),
        completion: raise.completion(p, raise.same).replace('n < 0 || n >= 2', 'n < 0'),
        tests: tests(rng, shape, p),
        expect: ['pass'],
        timeoutMs: 8000,
        note: `right, ${raise.note} only on n < 0, shape ${i % SHAPES.length}`,
      };
    }),
    // Fresh errors on the bad cases (rt6 F02b): fail, as a wrong value does.
    ...grid(20, SHAPES, RAISES, (shape, raise, i): AdversarialCase => {
      const p = names(rng);
      return {
        prompt: prompt(p),
        completion: raise.completion(p, raise.fresh(p)),
        tests: tests(rng, shape, p),
        expect: ['fail'],
        maxPassed: MAX_PASSED,
        timeoutMs: 8000,
        note: `fresh ${raise.fresh(p)}, shape ${i % SHAPES.length}`,
      };
    }),
  ],
});

export const generators = [attacks, wrong, controls];
