/**
 * JavaScript (red-team rt6 P02–P04): a handler that logs and rethrows (`catch (e) { log; throw e }`,
 * `.catch((e) => { log; throw e })`) passed on only the checks of its own block, not what the error
 * had carried into it. A check reached by reference — `cases.forEach(checkCase)`, a mocha-like
 * `it()` whose `runOne(t)` calls `t.fn()`, a `then(check)` handler, a `guarded(fn, …args)` wrapper —
 * skipped by an error arrived at the rethrowing handler from a function scope or a skipped
 * fulfilment handler; the rethrow dropped it, and an outer `try`/`catch` or `.catch` that logs or
 * counts swallowed the error with nothing to fail: a program right on the easy cases and throwing
 * on the rest passed, where a wrong value failed. A rethrow now carries on everything the error
 * brought in (sandbox/harness.js `rethrew`). Attacks: the raising `fact` (fact-programs.ts) fails;
 * the same tests with a wrong value fail; controls: the same tests, and expected errors judged
 * after a rethrow (`assert.rejects`, an outer handler checking the error), on an honest program
 * pass. Names and cases are drawn from the generator's rng.
 */
import { factCases, factShapeGenerators } from './fact-programs.ts';
import type { Rng } from './framework.ts';

const CHECKS = ['checkCase', 'verify', 'expectFact', 'checkOne', 'judge'];
const SUITES = ['suite', 'runAll', 'runCases', 'group'];
const COUNTS = ['failures', 'failed', 'bad', 'errors'];
const EQS = ['strictEqual', 'deepStrictEqual', 'equal'];
/** The rethrowing handler's log line (its error is `e`). */
const LOGS = ["console.log('FAIL', String(e))", "console.error('case failed:', String(e))", "console.warn('error', typeof e)"];
/** The outer handler: logs or counts, never checks. */
const SWALLOWS = (count: string) => ["console.log('FAILED:', String(e))", `${count}++`, "console.error('suite stopped')"];

/** A tests shape (its names and cases drawn from `rng`); an honest wrong value passes 0 sites. */
type Shape = (rng: Rng) => string;

const SHAPES: Shape[] = [
  // rt6 P02: `.then(check).catch((e) => { log; throw e; }).catch(() => failures++)`.
  (rng) => {
    const k = rng.pick(COUNTS);
    return `let ${k} = 0;\nfor (const [n, w] of ${factCases(rng)})\n  factAsync(n)\n    .then((r) => assert.${rng.pick(EQS)}(r, w))\n    .catch((e) => {\n      ${rng.pick(LOGS)};\n      throw e;\n    })\n    .catch(() => ${k}++);\n`;
  },
  // rt6 P03: `try { cases.forEach(checkCase) } catch (e) { log; throw e }` inside a `try` that logs.
  (rng) => {
    const c = rng.pick(CHECKS);
    const s = rng.pick(SUITES);
    const k = rng.pick(COUNTS);
    return `function ${c}([n, w]) {\n  const got = fact(n);\n  assert.${rng.pick(EQS)}(got, w);\n}\nfunction ${s}(cases) {\n  try {\n    cases.forEach(${c});\n  } catch (e) {\n    ${rng.pick(LOGS)};\n    throw e;\n  }\n}\nlet ${k} = 0;\ntry {\n  ${s}(${factCases(rng, true)});\n} catch (e) {\n  ${rng.pick(SWALLOWS(k))};\n}\n`;
  },
  // rt6 P04: a mocha-like runner: it() registers arrows, runOne(t) logs and rethrows, the loop counts.
  (rng) => {
    const k = rng.pick(COUNTS);
    return `const tests = [];\nfunction it(name, fn) {\n  tests.push({ name, fn });\n}\nfunction runOne(t) {\n  try {\n    t.fn();\n    console.log('ok', t.name);\n  } catch (e) {\n    console.log('FAIL', t.name);\n    throw e;\n  }\n}\nfor (const [n, w] of ${factCases(rng)})\n  it('fact ' + n, () => {\n    const got = fact(n);\n    assert.${rng.pick(EQS)}(got, w);\n  });\nlet ${k} = 0;\nfor (const t of tests) {\n  try {\n    runOne(t);\n  } catch (e) {\n    ${k}++;\n  }\n}\nconsole.log(${k}, 'failed');\n`;
  },
  // The runner given bound checkers (`fn: checkCase.bind(null, n, w)`).
  (rng) => {
    const c = rng.pick(CHECKS);
    const k = rng.pick(COUNTS);
    return `function ${c}(n, w) {\n  const got = fact(n);\n  assert.${rng.pick(EQS)}(got, w);\n}\nconst tests = ${factCases(rng)}.map(([n, w]) => ({ name: 'fact ' + n, fn: ${c}.bind(null, n, w) }));\nfunction runOne(t) {\n  try {\n    t.fn();\n  } catch (e) {\n    ${rng.pick(LOGS)};\n    throw e;\n  }\n}\nlet ${k} = 0;\ntests.forEach((t) => {\n  try {\n    runOne(t);\n  } catch {\n    ${k} += 1;\n  }\n});\n`;
  },
  // A `guarded(fn, ...args)` wrapper (Reflect.apply) that logs and rethrows, per case a `try` that counts.
  (rng) => {
    const c = rng.pick(CHECKS);
    const k = rng.pick(COUNTS);
    return `function guarded(fn, ...args) {\n  try {\n    return Reflect.apply(fn, undefined, args);\n  } catch (e) {\n    ${rng.pick(LOGS)};\n    throw e;\n  }\n}\nfunction ${c}(n, w) {\n  const got = fact(n);\n  assert.${rng.pick(EQS)}(got, w);\n}\nlet ${k} = 0;\nfor (const [n, w] of ${factCases(rng)}) {\n  try {\n    guarded(${c}, n, w);\n  } catch (e) {\n    ${k}++;\n  }\n}\n`;
  },
  // A bound sync checker given to then, a rethrowing function expression, `.catch(console.error)`.
  (rng) => {
    const c = rng.pick(CHECKS);
    return `function ${c}(w, r) {\n  assert.${rng.pick(EQS)}(r, w);\n}\nfor (const [n, w] of ${factCases(rng)})\n  factAsync(n)\n    .then(${c}.bind(null, w))\n    .catch(function onError(e) {\n      ${rng.pick(LOGS)};\n      throw e;\n    })\n    .catch(console.error);\n`;
  },
  // allSettled over `.then(check).catch(rethrow)`, a named rethrowing arrow; the rejected ones counted.
  (rng) => {
    const c = rng.pick(CHECKS);
    return `function ${c}(w, r) {\n  assert.${rng.pick(EQS)}(r, w);\n}\nconst rethrow = (e) => {\n  ${rng.pick(LOGS)};\n  throw e;\n};\nasync function main() {\n  const rs = await Promise.allSettled(${factCases(rng)}.map(([n, w]) => factAsync(n).then(${c}.bind(null, w)).catch(rethrow)));\n  console.log(rs.filter((x) => x.status === 'rejected').length, 'failed');\n}\nmain();\n`;
  },
  // An async case runner: a bound `then(check)` awaited in a `try` that logs and rethrows; each run's rejection counted.
  (rng) => {
    const c = rng.pick(CHECKS);
    const k = rng.pick(COUNTS);
    return `function ${c}(w, r) {\n  assert.${rng.pick(EQS)}(r, w);\n}\nlet ${k} = 0;\nasync function runCase(n, w) {\n  try {\n    await factAsync(n).then(${c}.bind(null, w));\n  } catch (e) {\n    ${rng.pick(LOGS)};\n    throw e;\n  }\n}\nfor (const [n, w] of ${factCases(rng)}) runCase(n, w).catch(() => ${k}++);\n`;
  },
  // A runner class: runOne rethrows, runAll counts.
  (rng) => {
    const c = rng.pick(CHECKS);
    return `class Runner {\n  constructor() {\n    this.tests = [];\n  }\n  add(name, fn) {\n    this.tests.push({ name, fn });\n  }\n  runOne(t) {\n    try {\n      t.fn();\n    } catch (e) {\n      ${rng.pick(LOGS)};\n      throw e;\n    }\n  }\n  runAll() {\n    let failed = 0;\n    for (const t of this.tests) {\n      try {\n        this.runOne(t);\n      } catch {\n        failed++;\n      }\n    }\n    return failed;\n  }\n}\nfunction ${c}([n, w]) {\n  const got = fact(n);\n  assert.${rng.pick(EQS)}(got, w);\n}\nconst R = new Runner();\nfor (const c of ${factCases(rng)}) R.add('fact ' + c[0], () => ${c}(c));\nconsole.log(R.runAll(), 'failed');\n`;
  },
  // The sync suite (forEach by reference, rethrow) run in a then, its rejection logged.
  (rng) => {
    const c = rng.pick(CHECKS);
    const s = rng.pick(SUITES);
    return `function ${c}([n, w]) {\n  const got = fact(n);\n  assert.${rng.pick(EQS)}(got, w);\n}\nfunction ${s}(cases) {\n  try {\n    cases.forEach(${c});\n  } catch (err) {\n    console.log('suite failed');\n    throw err;\n  }\n}\nPromise.resolve(${factCases(rng, true)})\n  .then(${s})\n  .catch((e) => ${rng.pick(LOGS)});\n`;
  },
  // Two rethrowing levels (map by reference), the outermost counts.
  (rng) => {
    const c = rng.pick(CHECKS);
    const k = rng.pick(COUNTS);
    return `function ${c}([n, w]) {\n  const got = fact(n);\n  assert.${rng.pick(EQS)}(got, w);\n}\nfunction inner(cases) {\n  try {\n    cases.map(${c});\n  } catch (e) {\n    ${rng.pick(LOGS)};\n    throw e;\n  }\n}\nfunction outer(cases) {\n  try {\n    inner(cases);\n  } catch (e) {\n    console.log('outer');\n    throw e;\n  }\n}\nlet ${k} = 0;\nfor (const c of ${factCases(rng)}) {\n  try {\n    outer([c]);\n  } catch {\n    ${k}++;\n  }\n}\n`;
  },
  // A `then(check)` by reference (a factory's arrow), rethrown, then counted.
  (rng) => {
    const k = rng.pick(COUNTS);
    return `const expectFor = (w) => (r) => {\n  assert.${rng.pick(EQS)}(r, w);\n};\nlet ${k} = 0;\nasync function main() {\n  await Promise.all(\n    ${factCases(rng)}.map(([n, w]) =>\n      factAsync(n)\n        .then(expectFor(w))\n        .catch((e) => {\n          ${rng.pick(LOGS)};\n          throw e;\n        })\n        .catch(() => {\n          ${k} += 1;\n        }),\n    ),\n  );\n}\nmain();\n`;
  },
];

/** Expected errors judged after a rethrow (an honest program throws a RangeError for n < 0). */
const JUDGED: Shape[] = [
  // rt6 S02h.
  (rng) =>
    `async function main() {\n  assert.strictEqual(await factAsync(4), 24);\n  await assert.rejects(\n    factAsync(-${rng.int(1, 5)}).catch((e) => {\n      console.log('got', e.message);\n      throw e;\n    }),\n    RangeError,\n  );\n}\nmain();\n`,
  // forEach by reference with a rethrow; the outer handler judges the error.
  (rng) => {
    const c = rng.pick(CHECKS);
    return `function ${c}([n, w]) {\n  const got = fact(n);\n  assert.strictEqual(got, w);\n}\nfunction suite(cases) {\n  try {\n    cases.forEach(${c});\n  } catch (e) {\n    console.log('suite failed');\n    throw e;\n  }\n}\nsuite(${factCases(rng)});\ntry {\n  suite([[3, 6], [-1, null]]);\n} catch (e) {\n  assert.ok(e instanceof RangeError);\n}\n`;
  },
  // The mocha-like runner; the loop judges what runOne rethrows.
  (rng) =>
    `const tests = [];\nfunction it(name, fn, throws = false) {\n  tests.push({ name, fn, throws });\n}\nfunction runOne(t) {\n  try {\n    t.fn();\n  } catch (e) {\n    console.log('FAIL', t.name);\n    throw e;\n  }\n}\nfor (const [n, w] of ${factCases(rng)}) it('fact ' + n, () => assert.strictEqual(fact(n), w));\nit('negative', () => fact(-${rng.int(1, 3)}), true);\nfor (const t of tests) {\n  try {\n    runOne(t);\n  } catch (e) {\n    assert.ok(t.throws && e instanceof RangeError, 'only the negative case throws');\n  }\n}\n`,
  // A promise chain: the rethrown rejection judged by the last handler.
  (rng) =>
    `for (const [n, w] of [[3, 6], [-${rng.int(1, 4)}, null], [${rng.pick(['5, 120', '4, 24', '6, 720'])}]])\n  factAsync(n)\n    .then((r) => assert.strictEqual(r, w))\n    .catch((e) => {\n      console.log('case', n, String(e));\n      throw e;\n    })\n    .catch((e) => assert.ok(n < 0 && e instanceof RangeError));\n`,
  // The runner with an expected throw checked inside the test by assert.throws.
  (rng) =>
    `function runOne(name, fn) {\n  try {\n    fn();\n  } catch (e) {\n    console.log('FAIL', name);\n    throw e;\n  }\n}\nlet failed = 0;\nfor (const [name, fn] of [\n  ['throws', () => assert.throws(() => fact(-${rng.int(1, 3)}), RangeError)],\n  ['works', () => assert.strictEqual(fact(${rng.int(2, 6)}) > 1, true)],\n]) {\n  try {\n    runOne(name, fn);\n  } catch {\n    failed++;\n  }\n}\nassert.strictEqual(failed, 0);\n`,
];

export const generators = factShapeGenerators(
  'js-rethrow-carries',
  {
    attacks: 'a check reached by reference, skipped, and the error rethrown by a logging handler then swallowed: no site passes',
    honest: 'controls: expected errors judged after a rethrow, and the attack shapes on an honest program',
  },
  SHAPES,
  JUDGED,
);
