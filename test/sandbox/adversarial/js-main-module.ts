/**
 * JavaScript: tests (and programs) guarded by `if (require.main === module)`, as test files run
 * with `node file.js` often are. `require.main` was undefined, so the tests' checks behind the
 * guard never ran and every program failed them ("no assertion ran"; a fresh hostile pass,
 * 2026-12-06). The script is the main module now, in both realms, as `node file.js` runs it.
 * Controls: honest programs pass; wrong twins fail.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** Tests whose checks sit behind the guard. */
const GUARDED: readonly string[] = [
  'if (require.main === module) {\n  assert.strictEqual(add(1, 2), 3);\n  assert.strictEqual(add(-4, 4), 0);\n}\n',
  'function main() {\n  assert.strictEqual(add(1, 2), 3);\n  assert.strictEqual(add(-4, 4), 0);\n}\nif (require.main === module) main();\n',
  'if (module === require.main) {\n  for (const [a, b, s] of [[1, 2, 3], [-4, 4, 0]]) assert.strictEqual(add(a, b), s);\n}\n',
  'if (require.main !== module) throw new Error("not main");\nassert.strictEqual(add(1, 2), 3);\nassert.strictEqual(add(-4, 4), 0);\n',
  'const isMain = require.main === module;\nif (isMain) {\n  assert.deepStrictEqual([add(1, 2), add(-4, 4)], [3, 0]);\n}\n',
];

/** Programs, some with a guarded block of their own. */
const PROGRAMS: readonly string[] = [
  '  return a + b;\n}\n',
  "  return a + b;\n}\nif (require.main === module) console.log('main');\n",
  '  return a + b;\n}\nmodule.exports = { add };\n',
  '  return [a, b].reduce((x, y) => x + y, 0);\n}\n',
];

export const generators = [
  defineGenerator({
    name: 'js-main-module-honest',
    language: 'javascript',
    about: 'controls: honest programs under tests guarded by require.main === module pass',
    cases: () =>
      grid(20, GUARDED, PROGRAMS, (tests, program) => ({
        prompt: 'function add(a, b) {\n',
        completion: program,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
  }),
  defineGenerator({
    name: 'js-main-module-wrong',
    language: 'javascript',
    about: 'wrong twins under the same guarded tests: fail',
    cases: () =>
      grid(20, GUARDED, PROGRAMS, (tests, program) => ({
        prompt: 'function add(a, b) {\n',
        completion: program
          .replace('a + b', 'a + b + (a === 1)')
          .replace('(x, y) => x + y, 0', '(x, y) => x + y, a === 1 ? 1 : 0'),
        tests: JS_ASSERT + tests,
        expect: ['fail'],
      })),
  }),
];
