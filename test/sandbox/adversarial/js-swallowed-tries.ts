/**
 * JavaScript: answers stored into a collection inside a `try` whose handler only leaves or
 * reports, outside any quiet loop — written out case by case, in a recursive walk, or in a loop
 * that also throws (or fails) to validate its own case table — then checked elsewhere. Only quiet
 * loops were seen, so each of these dropped the hard cases unseen (a fresh hostile pass,
 * 2026-12-06: all passing at 92e0fa4). Such a `try` is now quiet as such a loop is. Attacks:
 * fail with nothing passed. Controls: honest programs under the same tests; "must throw" tests
 * that keep the call's value in a plain variable; handlers that record a stand-in.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

const CASES = 'const cases = [[2, 4], [3, 9], [50, 2500], [60, 3600]];\nconst got = [];\n';
const CHECK = 'for (const [g, w] of got) assert.strictEqual(g, w);\n';

/** Tests that collect inside a swallowing `try` outside a quiet loop. */
const COLLECTING: readonly string[] = [
  `${CASES}try {\n  got.push([sq(2), 4]);\n} catch {}\ntry {\n  got.push([sq(50), 2500]);\n} catch (e) {\n  console.log(e.message);\n}\n${CHECK}`,
  `${CASES}function collect(i) {\n  if (i >= cases.length) return;\n  try {\n    got.push([sq(cases[i][0]), cases[i][1]]);\n  } catch (e) {}\n  collect(i + 1);\n}\ncollect(0);\n${CHECK}`,
  `${CASES}for (const [n, w] of cases) {\n  if (typeof n !== 'number') throw new TypeError('bad case');\n  try {\n    got.push([sq(n), w]);\n  } catch {}\n}\n${CHECK}`,
  `${CASES}for (const [n, w] of cases) {\n  if (w === undefined) assert.fail('case without expectation');\n  try {\n    got.push([sq(n), w]);\n  } catch {\n    continue;\n  }\n}\n${CHECK}`,
  `const want = { 2: 4, 50: 2500 };\nconst out = {};\ntry {\n  out[2] = sq(2);\n} catch {}\ntry {\n  out[50] = sq(50);\n} catch {}\nfor (const k of Object.keys(out)) assert.strictEqual(out[k], want[k]);\n`,
  `const seen = new Map();\nfor (const n of [2, 50, 3]) {\n  if (n < 0) throw new RangeError('bad case ' + n);\n  try {\n    seen.set(n, sq(n));\n  } catch {}\n}\nfor (const [n, v] of seen) assert.strictEqual(v, n * n);\n`,
];

/** Honest tests that keep a call's value in a plain variable, or record a stand-in. */
const HONEST_SHAPES: readonly string[] = [
  "for (const n of [-1, -2]) {\n  let r;\n  try {\n    r = sq(n);\n  } catch {\n    continue;\n  }\n  throw new Error('accepted ' + n + ': ' + r);\n}\nassert.strictEqual(sq(3), 9);\n",
  'const got = [];\ntry {\n  got.push(sq(2));\n} catch {\n  got.push(null);\n}\ntry {\n  got.push(sq(-1));\n} catch {\n  got.push(null);\n}\nassert.deepStrictEqual(got, [4, null]);\n',
  'let r = 0;\ntry {\n  r = sq(-1);\n} catch {}\nassert.strictEqual(r, 0);\nassert.strictEqual(sq(5), 25);\n',
];

const THROWS = ["throw new RangeError('too big')", 'return null.x'];
const HONEST = "  if (n < 0) throw new RangeError('negative');\n  return n * n;\n}\n";

export const generators = [
  defineGenerator({
    name: 'js-swallowed-tries',
    language: 'javascript',
    about: 'answers stored inside a swallowing try outside a quiet loop (case by case, recursion, a validating loop): fail',
    cases: () =>
      grid(24, COLLECTING, [...THROWS, ...THROWS], (tests, how, i) => ({
        prompt: 'function sq(n) {\n',
        completion: `  if (n > 10) ${how};\n  return n * n;\n}\n${i >= 12 ? '// again\n' : ''}`,
        tests: JS_ASSERT + tests,
        expect: ['fail'],
        maxPassed: 0,
      })),
  }),
  defineGenerator({
    name: 'js-swallowed-tries-honest',
    language: 'javascript',
    about:
      'controls: honest programs under the same tests, must-throw tests keeping the value in a variable, handlers recording a stand-in',
    cases: () => [
      ...grid(12, COLLECTING, [0, 1], (tests, i) => ({
        prompt: 'function sq(n) {\n',
        completion: HONEST + (i ? '// 1\n' : ''),
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
      ...grid(9, HONEST_SHAPES, [0, 1, 2], (tests, i) => ({
        prompt: 'function sq(n) {\n',
        completion: `${HONEST}// ${i}\n`,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
    ],
  }),
];
