/**
 * JavaScript (red-team rt6 E01–E03, S07h/S08h): checks in `async` fulfilment handlers. The
 * instrumentation wraps every async function of the tests in a tracked wrapper; the skip rule knew a
 * fulfilment handler only by the scope id its own text opens with, so an async handler
 * (`.then(async (r) => assert…)`, `.then(check.bind(null, w))` with an `async function check`,
 * `Promise.allSettled` over `.then(asyncCheck)`, async function expressions and methods) skipped by
 * a rejection carried no check, and `.catch(console.error)` / `.catch(() => {})` swallowed the
 * error: a program right on the easy cases and throwing on the rest passed, where a wrong value
 * failed. The same cause failed honest tests: an expected rejection judged by an async rejection
 * handler (`.catch(async (e) => assert.ok(e instanceof RangeError))`) never judged. The tracked
 * wrapper now stands for the function it wraps (sandbox/harness.js `async`, `boundTargets`).
 * Attacks: the raising `fact` (fact-programs.ts) fails; the same tests with a wrong value fail;
 * controls: the same tests and expected rejections judged by async handlers on an honest program
 * pass. Names and cases are drawn from the generator's rng.
 */
import { factCases, factShapeGenerators } from './fact-programs.ts';
import type { Rng } from './framework.ts';

const CHECKS = ['check', 'verify', 'expectEq', 'same', 'judge', 'compare', 'agree'];
const RESULTS = ['r', 'got', 'res', 'value', 'out', 'actual'];
const CLASSES = ['Expect', 'Checks', 'Judge', 'Verdict'];
const MAKERS = ['checkFor', 'expectFor', 'makeCheck', 'judgeOf'];
const EQS = ['strictEqual', 'deepStrictEqual', 'equal'];
/** A rejection logged, swallowed. */
const LOGS = [
  "console.error('case', n, 'failed:', String(e))",
  "console.log('FAIL', n)",
  'console.log(String(e))',
  "console.warn('fact(' + n + ') rejected')",
];

/** A tests shape with async handlers (its names and cases drawn from `rng`); an honest wrong value passes 0 sites. */
type Shape = (rng: Rng) => string;

// (The three async *method* shapes were judged right before the fix too — the instrumentation rewrites
// an async method differently, `track` in sandbox/harness.js — and stay for cover.)
const SHAPES: Shape[] = [
  // rt6 E01: an async arrow as the fulfilment handler, a logging `.catch`.
  (rng) => {
    const r = rng.pick(RESULTS);
    return `for (const [n, w] of ${factCases(rng)})\n  factAsync(n)\n    .then(async (${r}) => {\n      assert.${rng.pick(EQS)}(${r}, w);\n    })\n    .catch((e) => ${rng.pick(LOGS)});\n`;
  },
  // rt6 E02: an async function declaration, bound, and `.catch(console.error)`.
  (rng) => {
    const c = rng.pick(CHECKS);
    const r = rng.pick(RESULTS);
    return `async function ${c}(w, ${r}) {\n  assert.${rng.pick(EQS)}(${r}, w);\n}\nfor (const [n, w] of ${factCases(rng)}) factAsync(n).then(${c}.bind(null, w)).catch(console.error);\n`;
  },
  // rt6 E03: allSettled over `.then(async …)`, the rejected ones logged.
  (rng) =>
    `async function main() {\n  const rs = await Promise.allSettled(${factCases(rng)}.map(([n, w]) => factAsync(n).then(async (r) => assert.${rng.pick(EQS)}(r, w))));\n  for (const r of rs) if (r.status === 'rejected') console.log('FAILED', String(r.reason));\n}\nmain();\n`,
  // An async function expression made per case, `.catch(() => {})`.
  (rng) => {
    const m = rng.pick(MAKERS);
    const r = rng.pick(RESULTS);
    return `const ${m} = (w) =>\n  async function (${r}) {\n    assert.${rng.pick(EQS)}(${r}, w);\n  };\n${factCases(rng)}.forEach(([n, w]) => {\n  factAsync(n).then(${m}(w)).catch(() => {});\n});\n`;
  },
  // A named async function expression, bound, under Promise.all with a logging catch per case.
  (rng) => {
    const c = rng.pick(CHECKS);
    return `const ${c} = async function ${c}One(w, r) {\n  assert.${rng.pick(EQS)}(r, w);\n};\nasync function main() {\n  await Promise.all(${factCases(rng)}.map(([n, w]) => factAsync(n).then(${c}.bind(undefined, w)).catch(console.error)));\n}\nmain();\n`;
  },
  // An async object-literal method handed to then (`expect(w).toBe`).
  (rng) => {
    const m = rng.pick(MAKERS);
    return `const ${m} = (w) => ({\n  async toBe(r) {\n    assert.${rng.pick(EQS)}(r, w);\n  },\n});\nfor (const [n, w] of ${factCases(rng)}) factAsync(n).then(${m}(w).toBe).catch((e) => ${rng.pick(LOGS)});\n`;
  },
  // A static async method, bound; Promise.all's rejection logged (the others' taken by its reactions).
  (rng) => {
    const k = rng.pick(CLASSES);
    return `class ${k} {\n  static async eq(w, r) {\n    assert.${rng.pick(EQS)}(r, w);\n  }\n}\nPromise.all(${factCases(rng)}.map(([n, w]) => factAsync(n).then(${k}.eq.bind(${k}, w)))).catch(console.error);\n`;
  },
  // Awaited one by one, each `.catch(console.error)`.
  (rng) =>
    `async function main() {\n  for (const [n, w] of ${factCases(rng)}) await factAsync(n).then(async (r) => assert.${rng.pick(EQS)}(r, w)).catch(console.error);\n}\nmain();\n`,
  // then(async f, g): g logs the rejection f never saw.
  (rng) => {
    const r = rng.pick(RESULTS);
    return `for (const [n, w] of ${factCases(rng)})\n  factAsync(n).then(\n    async (${r}) => {\n      assert.${rng.pick(EQS)}(${r}, w);\n    },\n    (e) => ${rng.pick(LOGS)},\n  );\n`;
  },
  // The sync candidate called in a then, an async arrow checker bound.
  (rng) => {
    const c = rng.pick(CHECKS);
    return `const ${c} = async (w, r) => assert.${rng.pick(EQS)}(r, w);\nfor (const [n, w] of ${factCases(rng)})\n  Promise.resolve(n)\n    .then((k) => fact(k))\n    .then(${c}.bind(null, w))\n    .catch(() => undefined);\n`;
  },
  // allSettled over `.then(asyncCheck)` made by a factory of async arrows, the rejected ones counted.
  (rng) => {
    const m = rng.pick(MAKERS);
    return `const ${m} = (w) => async (r) => {\n  assert.${rng.pick(EQS)}(r, w);\n};\nasync function main() {\n  const rs = await Promise.allSettled(${factCases(rng)}.map(([n, w]) => factAsync(n).then(${m}(w))));\n  const failed = rs.filter((x) => x.status === 'rejected').length;\n  console.log(failed, 'of', rs.length, 'failed');\n}\nmain();\n`;
  },
  // An async handler that awaits before it checks.
  (rng) => {
    const r = rng.pick(RESULTS);
    return `for (const [n, w] of ${factCases(rng)})\n  factAsync(n)\n    .then(async (${r}) => {\n      await null;\n      assert.${rng.pick(EQS)}(${r}, w);\n    })\n    .catch(() => {});\n`;
  },
  // An async instance method bound to its instance.
  (rng) => {
    const k = rng.pick(CLASSES);
    return `class ${k} {\n  constructor(w) {\n    this.w = w;\n  }\n  async eq(r) {\n    assert.${rng.pick(EQS)}(r, this.w);\n  }\n}\nfor (const [n, w] of ${factCases(rng)}) {\n  const x = new ${k}(w);\n  factAsync(n).then(x.eq.bind(x)).catch((e) => ${rng.pick(LOGS)});\n}\n`;
  },
  // An async arrow in a class field, handed to then unbound.
  (rng) => {
    const k = rng.pick(CLASSES);
    return `class ${k} {\n  constructor(w) {\n    this.w = w;\n  }\n  eq = async (r) => {\n    assert.${rng.pick(EQS)}(r, this.w);\n  };\n}\nfor (const [n, w] of ${factCases(rng)}) factAsync(n).then(new ${k}(w).eq).catch(() => {});\n`;
  },
  // An async arrow as an object property (`expect(w).toBe`).
  (rng) => {
    const m = rng.pick(MAKERS);
    return `const ${m} = (w) => ({ toBe: async (r) => assert.${rng.pick(EQS)}(r, w) });\nasync function main() {\n  await Promise.all(${factCases(rng)}.map(([n, w]) => factAsync(n).then(${m}(w).toBe).catch(console.error)));\n}\nmain();\n`;
  },
];

/** Expected rejections judged by async handlers (an honest program rejects n < 0 with a RangeError). */
const JUDGED: Shape[] = [
  // rt6 S07h.
  (rng) =>
    `for (const [n, w] of ${rng.pick(['[[3, 6], [-1, null], [5, 120]]', '[[-2, null], [4, 24]]', '[[0, 1], [6, 720], [-1, null]]'])})\n  factAsync(n)\n    .then((r) => assert.strictEqual(r, w))\n    .catch(async (e) => {\n      assert.ok(w === null && e instanceof RangeError, 'only n < 0 rejects');\n    });\n`,
  // rt6 S08h.
  (rng) =>
    `async function main() {\n  for (const [n, w] of ${rng.pick(['[[3, 6], [-1, null]]', '[[-3, null], [5, 120], [1, 1]]'])})\n    await factAsync(n).then(\n      async (r) => assert.strictEqual(r, w),\n      async (e) => assert.ok(w === null && e instanceof RangeError),\n    );\n}\nmain();\n`,
  // Both handlers async, the rejection one judging the error.
  (rng) => {
    const r = rng.pick(RESULTS);
    return `for (const [n, w] of [[2, 2], [-1, null], [${rng.int(3, 6)}, null]]) {\n  const want = w ?? [1, 1, 2, 6, 24, 120, 720][n];\n  factAsync(n)\n    .then(async (${r}) => {\n      assert.strictEqual(${r}, want);\n    })\n    .catch(async (e) => assert.ok(n < 0 && e instanceof RangeError));\n}\n`;
  },
  // An async function declaration as the rejection handler.
  (rng) => {
    const c = rng.pick(CHECKS);
    return `async function ${c}Range(e) {\n  assert.ok(e instanceof RangeError, 'a RangeError');\n}\nfactAsync(-${rng.int(1, 4)}).then(() => assert.fail('no rejection')).catch(${c}Range);\nfor (const [n, w] of ${factCases(rng)}) factAsync(n).then(async (r) => assert.strictEqual(r, w)).catch(console.error);\n`;
  },
  // allSettled: an async check on the value, the expected rejection judged by its reason.
  (rng) =>
    `async function main() {\n  const rs = await Promise.allSettled([factAsync(4).then(async (r) => assert.strictEqual(r, 24)), factAsync(-${rng.int(1, 5)})]);\n  assert.strictEqual(rs[0].status, 'fulfilled');\n  assert.ok(rs[1].reason instanceof RangeError);\n}\nmain();\n`,
  // An async function expression judging an awaited rejection.
  (rng) => {
    const m = rng.pick(MAKERS);
    return `const ${m} = (kind) =>\n  async function (e) {\n    assert.ok(e instanceof kind);\n  };\nasync function main() {\n  await factAsync(-1).then(() => assert.fail('no rejection'), ${m}(RangeError));\n  assert.strictEqual(await factAsync(${rng.int(2, 6)}) > 0, true);\n}\nmain();\n`;
  },
];

export const generators = factShapeGenerators(
  'js-async-handlers',
  {
    attacks:
      'async fulfilment handlers (arrows, declarations, expressions, methods) a rejection skips, the error swallowed: no site passes',
    honest: 'controls: expected rejections judged by async handlers, and the attack shapes on an honest program',
  },
  SHAPES,
  JUDGED,
);
