/**
 * JavaScript (red-team rt6 X03): tests that catch the program's error per case and go on to the
 * next case without checking that one — a safe wrapper whose flag the loop tests before its check
 * (`const r = attempt(() => fact(n)); if (!r.ok) continue;`), a `try`/`catch` with `continue`, an
 * array callback that returns from its `catch`. A program right on the easy cases that throws on
 * the rest **passed** (every check it reached held), where a wrong value fails. A pass of a loop of
 * the tests in which a call of the program threw, the tests caught it, and none of the loop's
 * checks ran, now fails the loop's checks (sandbox/harness.js, caughtInPass). Controls: the same
 * shapes on an honest program, and expected errors the pass judges with a check.
 */
import { factCases, factShapeGenerators } from './fact-programs.ts';
import type { Rng } from './framework.ts';

const EQS = ['strictEqual', 'deepStrictEqual', 'equal'];

/** A tests shape (cases from `rng`; easy cases first, so the loop's check passes first). */
type Shape = (rng: Rng) => string;

const ATTEMPT =
  'function attempt(f) {\n  try {\n    return { ok: true, v: f() };\n  } catch (e) {\n    return { ok: false, e };\n  }\n}\n';

const SHAPES: Shape[] = [
  (rng) =>
    `${ATTEMPT}for (const [n, w] of ${factCases(rng, true)}) {\n  const r = attempt(() => fact(n));\n  if (!r.ok) {\n    console.log('threw on', n);\n    continue;\n  }\n  assert.${rng.pick(EQS)}(r.v, w);\n}\n`,
  (rng) =>
    `for (const [n, w] of ${factCases(rng, true)}) {\n  let v;\n  try {\n    v = fact(n);\n  } catch {\n    continue;\n  }\n  assert.${rng.pick(EQS)}(v, w);\n}\n`,
  (rng) =>
    `for (const [n, w] of ${factCases(rng, true)}) {\n  let v;\n  try {\n    v = fact(n);\n  } catch (e) {\n    console.log('skipped', n, String(e));\n    continue;\n  }\n  assert.${rng.pick(EQS)}(v, w);\n}\n`,
  (rng) =>
    `${factCases(rng, true)}.forEach(([n, w]) => {\n  let v;\n  try {\n    v = fact(n);\n  } catch {\n    return;\n  }\n  assert.${rng.pick(EQS)}(v, w);\n});\n`,
  (rng) =>
    `for (const [n, w] of ${factCases(rng, true)}) {\n  let v;\n  try {\n    v = fact(n);\n  } catch {\n    v = undefined;\n  }\n  if (v === undefined) continue;\n  assert.${rng.pick(EQS)}(v, w);\n}\n`,
  (rng) =>
    `const cases = ${factCases(rng, true)};\nlet i = 0;\nwhile (i < cases.length) {\n  const [n, w] = cases[i++];\n  let v = null;\n  try {\n    v = fact(n);\n  } catch {}\n  if (v !== null) assert.${rng.pick(EQS)}(v, w);\n}\n`,
  (rng) =>
    `const safe = (f, x) => {\n  try {\n    return f(x);\n  } catch {\n    return null;\n  }\n};\nfor (const [n, w] of ${factCases(rng, true)}) {\n  const v = safe(fact, n);\n  if (v === null) continue;\n  assert.${rng.pick(EQS)}(v, w);\n}\n`,
  (rng) =>
    `const results = ${factCases(rng, true)}.map(([n, w]) => {\n  try {\n    const v = fact(n);\n    assert.${rng.pick(EQS)}(v, w);\n    return 'ok';\n  } catch (e) {\n    if (e && e.code === 'ERR_ASSERTION') throw e;\n    return 'skipped';\n  }\n});\nconsole.log(results.join(' '));\n`,
  (rng) =>
    `outer: for (const group of [${factCases(rng, true)}]) {\n  for (const [n, w] of group) {\n    let v;\n    try {\n      v = fact(n);\n    } catch {\n      continue outer;\n    }\n    assert.${rng.pick(EQS)}(v, w);\n  }\n}\n`,
  (rng) =>
    `const cases = ${factCases(rng, true)};\nfor (let i = 0; i < cases.length; i++) {\n  const r = attempt(() => fact(cases[i][0]));\n  if (r.ok) assert.${rng.pick(EQS)}(r.v, cases[i][1]);\n}\n${ATTEMPT}`,
];

/** Expected errors a pass judges with a check of its own (controls). */
const JUDGED: Shape[] = [
  (rng) =>
    `for (const n of [-${rng.int(1, 3)}, -${rng.int(4, 9)}]) {\n  try {\n    fact(n);\n    assert.fail('no error for ' + n);\n  } catch (e) {\n    assert.ok(e instanceof RangeError);\n  }\n}\n`,
  (rng) =>
    `${ATTEMPT}for (const n of [-${rng.int(1, 9)}, -${rng.int(10, 20)}]) {\n  const r = attempt(() => fact(n));\n  assert.strictEqual(r.ok, false);\n}\n`,
  (rng) =>
    `for (const n of [-${rng.int(1, 9)}]) {\n  let threw = false;\n  try {\n    fact(n);\n  } catch {\n    threw = true;\n  }\n  assert.ok(threw);\n}\nfor (const [n, w] of ${factCases(rng, true)}) assert.strictEqual(fact(n), w);\n`,
];

export const generators = factShapeGenerators(
  'js-caught-passes',
  {
    attacks:
      "tests that catch the program's error per case and go on without checking that case (a safe wrapper's flag, catch + continue): no site passes",
    honest: 'controls: the same shapes on an honest program, and expected errors judged by a check in the same pass',
  },
  SHAPES,
  JUDGED,
);
