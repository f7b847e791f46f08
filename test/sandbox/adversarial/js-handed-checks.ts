/**
 * JavaScript (red-team rt67 ZA21, ZA24): a check the tests hand to the program with each case
 * (`for (const [x, w] of cases) candidate(x, (r) => assert.strictEqual(r, w))`). Its site was
 * reached once a single case's callback ran, so a program calling the callback on the easy cases
 * and skipping it on the hard ones passed (Node runs no check for the skipped case either, and
 * passes it). Each crossing of a function is a handle of its own; a handle holding a check that
 * the program never called is now a check that never ran (sandbox/snapshot.js, `uncalledCheck`).
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** Programs answering `x * 2` through the callback: [honest, wrong (skips a hard case)]. */
const PROGRAMS: readonly (readonly [string, string])[] = [
  ['function each(x, cb) {\n  cb(x * 2);\n}\n', 'function each(x, cb) {\n  if (x <= 5) cb(x * 2);\n}\n'],
  ['function each(x, cb) {\n  cb(x * 2);\n}\n', 'function each(x, cb) {\n  if (x % 2 === 1 && x > 3) return;\n  cb(x * 2);\n}\n'],
  [
    'function each(x, cb) {\n  setTimeout(() => cb(x * 2), 1);\n}\n',
    'function each(x, cb) {\n  if (x < 6) setTimeout(() => cb(x * 2), 1);\n}\n',
  ],
  [
    'function each(x, cb) {\n  Promise.resolve(x * 2).then(cb);\n}\n',
    'function each(x, cb) {\n  if (x < 6) Promise.resolve(x * 2).then(cb);\n}\n',
  ],
  [
    'function each(x, cb) {\n  try {\n    cb(x * 2);\n  } finally {\n  }\n}\n',
    'function each(x, cb) {\n  try {\n    if (x > 5) throw new Error("skip");\n    cb(x * 2);\n  } catch {}\n}\n',
  ],
];

/** Tests handing a checking callback with each case (cases 1, 2 easy; 9 hard). */
const TESTS: readonly string[] = [
  'for (const [x, w] of [[1, 2], [9, 18]]) each(x, (r) => assert.strictEqual(r, w));\n',
  'function same(a, b) {\n  assert.strictEqual(a, b);\n}\nfor (const [x, w] of [[1, 2], [2, 4], [9, 18]]) each(x, (r) => same(r, w));\n',
  '[[1, 2], [9, 18]].forEach(([x, w]) => each(x, (r) => assert.deepStrictEqual(r, w)));\n',
  'const cases = [[2, 4], [9, 18]];\nfor (let i = 0; i < cases.length; i++) {\n  const w = cases[i][1];\n  each(cases[i][0], function (r) {\n    assert.ok(r === w);\n  });\n}\n',
];

export const generators = [
  defineGenerator({
    name: 'js-handed-checks',
    language: 'javascript',
    about:
      'wrong programs calling the checking callback the tests hand over on easy cases only: fail (strict: a case whose check never ran)',
    cases: () =>
      grid(
        20,
        PROGRAMS,
        TESTS,
        ([, wrong], tests): AdversarialCase => ({ completion: wrong, tests: JS_ASSERT + tests, expect: ['fail'] }),
      ),
  }),
  defineGenerator({
    name: 'js-handed-checks-honest',
    language: 'javascript',
    about: 'controls: programs calling it for every case pass, as do callbacks without a check left uncalled',
    cases: () => [
      ...grid(
        20,
        PROGRAMS,
        TESTS,
        ([honest], tests): AdversarialCase => ({ completion: honest, tests: JS_ASSERT + tests, expect: ['pass'] }),
      ),
      ...[
        // An error callback (a failure marker, no check site) the program rightly never calls.
        'for (const [x, w] of [[1, 2], [9, 18]]) each(x, (r) => assert.strictEqual(r, w), () => assert.fail("no error expected"));\n',
        // One checker function handed with every case, called for each.
        'const seen = [];\nconst check = (r) => { seen.push(r); assert.ok(r % 2 === 0); };\nfor (const x of [1, 2, 9]) each(x, check);\nsetTimeout(() => assert.strictEqual(seen.length, 3), 5);\n',
        // A logger without a check, handed over and never called.
        'const log = [];\neach(3, (r) => assert.strictEqual(r, 6), (m) => log.push(m));\n',
      ].map((tests) => ({
        completion: 'function each(x, cb, other) {\n  setTimeout(() => cb(x * 2), 1);\n}\n',
        tests: JS_ASSERT + tests,
        expect: ['pass' as const],
      })),
    ],
  }),
];
