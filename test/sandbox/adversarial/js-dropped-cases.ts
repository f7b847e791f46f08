/**
 * JavaScript: a quiet loop of the tests (no check, marker or throw of its own) that collects
 * answers and drops the cases the program threw on in three more ways — a `try` with no `catch`
 * whose `finally` jumps out (`finally { continue; }`), a `catch` that removes the case from the
 * tests' own bookkeeping (`got.delete(n)`, `todo.splice(i, 1)`, `delete got[n]`), or a `catch`
 * that throws the tests' own error in its place (`throw new Skip(e.message)`) for an outer
 * `catch` to drop (`if (!(e instanceof Skip)) throw e;`). Each passed a wrong program before (a
 * fresh hostile pass, 2026-12-06, rt55 F01/F05/F06); they are now dropped cases as a swallowing
 * handler's are. Attacks: fail. Controls: honest programs under the same tests pass.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

const CASES = 'const cases = [[1, 1], [2, 4], [3, 9], [50, 2500], [70, 4900]];\n';
const CHECK_LIST = 'for (const [g, w] of got) assert.strictEqual(g, w);\n';

/** Tests whose collecting loop drops a case the program threw on. */
const DROPPING: readonly string[] = [
  `${CASES}const got = [];\nfor (const [n, w] of cases) {\n  try {\n    got.push([sq(n), w]);\n  } finally {\n    continue;\n  }\n}\n${CHECK_LIST}`,
  `${CASES}const got = [];\nfunction collect() {\n  for (const [n, w] of cases) {\n    try {\n      got.push([sq(n), w]);\n    } finally {\n      if (got.length < cases.length) continue;\n    }\n  }\n}\ncollect();\n${CHECK_LIST}`,
  `${CASES}const got = new Map();\nfor (const [n, w] of cases) {\n  try {\n    got.set(n, sq(n));\n  } catch (e) {\n    got.delete(n);\n  }\n}\nfor (const [n, w] of cases) if (got.has(n)) assert.strictEqual(got.get(n), w);\n`,
  `${CASES}const got = {};\nfor (const [n, w] of cases) {\n  try {\n    got[n] = sq(n);\n  } catch {\n    delete got[n];\n  }\n}\nfor (const [n, w] of cases) if (n in got) assert.strictEqual(got[n], w);\n`,
  `${CASES}const todo = cases.map(([n]) => n);\nconst got = [];\nfor (const [n, w] of cases) {\n  try {\n    got.push([sq(n), w]);\n  } catch (e) {\n    todo.splice(todo.indexOf(n), 1);\n  }\n}\n${CHECK_LIST}`,
  `${CASES}class Skip extends Error {}\nconst got = [];\nfor (const [n, w] of cases) {\n  try {\n    try {\n      got.push([sq(n), w]);\n    } catch (e) {\n      throw new Skip(e.message);\n    }\n  } catch (e) {\n    if (!(e instanceof Skip)) throw e;\n  }\n}\n${CHECK_LIST}`,
  `${CASES}const got = [];\nfor (const [n, w] of cases) {\n  try {\n    try {\n      got.push([sq(n), w]);\n    } catch (e) {\n      throw { skip: n };\n    }\n  } catch (e) {\n    if (!e.skip) throw e;\n  }\n}\n${CHECK_LIST}`,
];

const WRONG = [
  "function sq(n) {\n  if (n > 10) throw new RangeError('too big');\n  return n * n;\n}\n",
  'function sq(n) {\n  if (n > 60) throw new Error(String(n));\n  return n * n;\n}\n',
];
const HONEST = 'function sq(n) {\n  return n * n;\n}\n';

export const generators = [
  defineGenerator({
    name: 'js-dropped-cases',
    language: 'javascript',
    about: 'wrong programs whose errors a quiet loop drops (finally jump, removing handler, replaced and swallowed): fail',
    cases: () =>
      grid(21, DROPPING, [...WRONG, `${WRONG[0]}// again\n`], (tests, completion) => ({
        prompt: '',
        completion,
        tests: JS_ASSERT + tests,
        expect: ['fail'],
      })),
  }),
  defineGenerator({
    name: 'js-dropped-cases-honest',
    language: 'javascript',
    about: 'controls: honest programs under the same tests pass',
    cases: () =>
      grid(21, DROPPING, [0, 1, 2], (tests, i) => ({
        prompt: '',
        completion: `${HONEST}${'\n'.repeat(i)}`,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
  }),
];
