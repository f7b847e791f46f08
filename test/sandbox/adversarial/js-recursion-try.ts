/**
 * JavaScript (red-team rt7 C01–C06): a per-node `try` inside a recursive walker that recurses by
 * another name (an object's method, an alias, a named function expression, an assigned arrow, a
 * static method, mutual recursion). The walk records a node's check in the nested activation
 * before the outer node's `height` throws, and the `try`'s handler logs: the rt6 re-entry rule sat
 * only on function scopes, so the outer node's check counted as recorded and the run passed. A
 * `try` scope entered again while open now has every check of that entry skipped
 * (sandbox/harness.js `enterTry`, `caught`). Attacks: a `height` that throws on deep trees fails;
 * controls: the honest `height` passes.
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT, type Rng } from './framework.ts';

const PROMPT = '/** height of a tree node { kids: [...] }: a leaf has height 1 */\nfunction height(t) {\n';
const HONEST = '  let h = 0;\n  for (const k of t.kids) h = Math.max(h, height(k));\n  return h + 1;\n}\n';
const RAISING =
  "  if (t.kids.some((k) => k.kids.length > 0)) throw new Error('deep trees not supported');\n  return t.kids.length ? 2 : 1;\n}\n";
const LOGS = ["console.log('node failed:', e.message)", "console.error('FAIL', String(e))", 'failures.push(e)'];

/** One to three trees, each at least three deep. */
function trees(rng: Rng): string {
  const deep = () => `node(node(${rng.pick(['leaf()', 'node(leaf())', 'leaf(), leaf()'])}), leaf())`;
  return `[${Array.from({ length: rng.int(1, 3) }, deep).join(', ')}]`;
}
const body = (rng: Rng, recurse: string) =>
  `    try {\n      ${recurse};\n      const got = height(t);\n      assert.strictEqual(got, expected(t));\n    } catch (e) {\n      ${rng.pick(LOGS)};\n    }\n`;

const SHAPES: ReadonlyArray<(rng: Rng) => string> = [
  (rng) => `const T = {\n  walk(t) {\n${body(rng, 't.kids.forEach(T.walk)')}  },\n};\ntrees.forEach(T.walk);\n`,
  (rng) => `function walk(t) {\n${body(rng, 't.kids.forEach(each)')}}\nconst each = walk;\ntrees.forEach(walk);\n`,
  (rng) => `const walk = function visit(t) {\n${body(rng, 't.kids.forEach(walk)')}};\ntrees.forEach(walk);\n`,
  (rng) => `let walk;\nwalk = (t) => {\n${body(rng, 't.kids.forEach(walk)')}};\ntrees.forEach(walk);\n`,
  (rng) => `class Walk {\n  static walk(t) {\n${body(rng, 't.kids.forEach(Walk.walk)')}  }\n}\ntrees.forEach(Walk.walk);\n`,
  (rng) =>
    `function visitKids(t) {\n  t.kids.forEach(walk);\n}\nfunction walk(t) {\n${body(rng, 'visitKids(t)')}}\ntrees.forEach(walk);\n`,
];

const tests = (rng: Rng, shape: (rng: Rng) => string) =>
  `${JS_ASSERT}const failures = [];\nconst leaf = () => ({ kids: [] });\nconst node = (...kids) => ({ kids });\nconst trees = ${trees(rng)};\nfunction expected(t) {\n  return 1 + Math.max(0, ...t.kids.map(expected));\n}\n${shape(rng)}`;

const cases = (rng: Rng, completion: string, expect: AdversarialCase['expect']) =>
  grid(24, SHAPES, [0, 1, 2, 3], (shape): AdversarialCase => ({ prompt: PROMPT, completion, tests: tests(rng, shape), expect }));

export const generators = [
  defineGenerator({
    name: 'js-recursion-try',
    language: 'javascript',
    about:
      'a per-node try in a walker recursing by another name, its handler logging: the outer node\u2019s check is skipped, fail',
    cases: (rng) => cases(rng, RAISING, ['fail']),
  }),
  defineGenerator({
    name: 'js-recursion-try-honest',
    language: 'javascript',
    about: 'controls: the same walks on an honest height pass',
    cases: (rng) => cases(rng, HONEST, ['pass']),
  }),
];
