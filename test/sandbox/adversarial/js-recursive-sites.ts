/**
 * JavaScript (red-team rt6 R01): a check's site is the chain of the tests' frames, and a recursive
 * checker of the tests follows the answer's shape, so each depth of a deep answer minted a site
 * of its own. A wrong answer as deep as possible then maximised gold: a 40-long chain returned for
 * "a balanced search tree" passed the local `ordered` check at ~30 depths and failed `balanced`
 * once per depth, 30/31, where an honest shallow wrong answer scored 7/8. A frame position already
 * on the chain is now left out of the site key (sandbox/harness.js `frameChain`), so depth mints
 * no sites. Attacks: chains of 20–45 nodes scored by recursive checkers: gold at most what a
 * shallow chain (4 nodes) scores under the same tests. Controls: balanced trees pass.
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT } from './framework.ts';

const PROMPT =
  '/** A height-balanced binary search tree ({ val, left, right }) of the sorted distinct xs. */\nfunction toBst(xs) {\n';
/** A right chain: ordered, not balanced. */
const CHAIN =
  '  let root = null;\n  for (let i = xs.length - 1; i >= 0; i--) root = { val: xs[i], left: null, right: root };\n  return root;\n}\n';
const HONEST =
  '  if (xs.length === 0) return null;\n  const m = xs.length >> 1;\n  return { val: xs[m], left: toBst(xs.slice(0, m)), right: toBst(xs.slice(m + 1)) };\n}\n';

/** Recursive checkers: `ordered` at every node, `balanced` at every node; named `c`. */
const CHECKERS: ReadonlyArray<(c: string) => string> = [
  (c) =>
    `function ${c}(node, lo, hi) {\n  if (node === null) return 0;\n  assert.ok(lo < node.val && node.val < hi, 'ordered');\n  const l = ${c}(node.left, lo, node.val);\n  const r = ${c}(node.right, node.val, hi);\n  assert.ok(Math.abs(l - r) <= 1, 'balanced');\n  return 1 + Math.max(l, r);\n}\n`,
  (c) =>
    `function ${c}(node, lo = -Infinity, hi = Infinity) {\n  if (!node) return 0;\n  assert.strictEqual(lo < node.val && node.val < hi, true);\n  const hs = [${c}(node.left, lo, node.val), ${c}(node.right, node.val, hi)];\n  assert.ok(Math.abs(hs[0] - hs[1]) < 2);\n  return 1 + Math.max(...hs);\n}\n`,
  (c) =>
    `const ${c} = (node, lo, hi) => {\n  if (node == null) return 0;\n  assert.ok(node.val > lo);\n  assert.ok(node.val < hi);\n  const l = ${c}(node.left, lo, node.val), r = ${c}(node.right, node.val, hi);\n  assert.ok(l - r <= 1 && r - l <= 1);\n  return Math.max(l, r) + 1;\n};\n`,
];
const NAMES = ['check', 'verify', 'walk', 'validate', 'inspect'];

const tests = (checker: string, c: string, n: number) =>
  `${JS_ASSERT}${checker}const xs = Array.from({ length: ${n} }, (_, i) => 2 * i + 1);\n${c}(toBst(xs), -Infinity, Infinity);\n`;

/**
 * Gold of a 4-node chain under each checker (measured; a shallow wrong answer's share): two
 * groups of sites, the root's and the deeper nodes', `balanced` failing in both.
 */
const SHALLOW_GOLD = [0.75, 0.75, 0.8];

export const generators = [
  defineGenerator({
    name: 'js-recursive-sites',
    language: 'javascript',
    about: 'a deep wrong answer walked by a recursive checker mints no sites per depth: gold no higher than a shallow one',
    cases: (rng) =>
      grid(21, [0, 1, 2], NAMES, (k, c): AdversarialCase => {
        const n = rng.int(20, 45);
        return {
          prompt: PROMPT,
          completion: CHAIN,
          tests: tests(CHECKERS[k]!(c), c, n),
          expect: ['fail'],
          maxGold: SHALLOW_GOLD[k]!,
          note: `chain of ${n}`,
        };
      }),
  }),
  defineGenerator({
    name: 'js-recursive-sites-honest',
    language: 'javascript',
    about: 'controls: balanced trees pass; a 4-node chain scores the shallow share',
    cases: (rng) => [
      ...grid(
        21,
        CHECKERS,
        NAMES,
        (checker, c): AdversarialCase => ({
          prompt: PROMPT,
          completion: HONEST,
          tests: tests(checker(c), c, rng.int(5, 45)),
          expect: ['pass'],
        }),
      ),
      ...grid(
        3,
        [0, 1, 2],
        [0],
        (k): AdversarialCase => ({
          prompt: PROMPT,
          completion: CHAIN,
          tests: tests(CHECKERS[k]!('check'), 'check', 4),
          expect: ['fail'],
          maxGold: SHALLOW_GOLD[k]!,
        }),
      ),
    ],
  }),
];
