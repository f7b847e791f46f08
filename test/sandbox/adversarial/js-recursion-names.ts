/**
 * JavaScript (red-team rt6 C01–C07, S06h): a post-order recursive walk of the tests under another
 * name than its own. The tests walk a tree of cases (`{ n, w, kids }`), checking the children before
 * the node; a program right on the easy cases (the leaves) and throwing on the rest throws at the
 * node after its children recorded the node's check, so the check "recorded since the node's
 * activation was entered" and the error skipped nothing, and the tests swallowed it: the program
 * passed, where a wrong value failed. The static rule (a function naming itself in its body has
 * loose checks) missed recursion by a named function expression called through its variable
 * (`const walk = function visit(t) {…}`), an alias (`const each = walk`), an object-literal method
 * or property, an assigned arrow (`walk = (t) => …`), a static class method and mutual recursion.
 * A function scope entered again while an activation of it is open now has every check of that
 * activation skipped when an error leaves it (sandbox/harness.js `lastEnter`, `unwound`).
 * Attacks: the raising `fact` (fact-programs.ts) fails; the same tests with a wrong value fail;
 * controls: the same walks, and walks judging an expected error, on an honest program pass. Names,
 * trees and swallowing tails are drawn from the generator's rng.
 */
import { factShapeGenerators } from './fact-programs.ts';
import type { Rng } from './framework.ts';

const FACT = [1, 1, 2, 6, 24, 120, 720, 5040];

/** A node literal. */
const node = (n: number, kids: string[]) => `{ n: ${n}, w: ${FACT[n]}, kids: [${kids.join(', ')}] }`;

/** A leaf the raising program gets right (n < 2). */
const leaf = (rng: Rng) => node(rng.int(0, 1), []);

/**
 * A tree whose inner nodes are hard (n ≥ 2) and whose leaves are easy, each inner node's first
 * child a leaf: the first node to throw (post-order) has a child that recorded the check.
 */
function treeOf(rng: Rng, depth: number): string {
  const kids = [leaf(rng)];
  if (depth > 1 && rng.next() < 0.6) kids.push(treeOf(rng, depth - 1));
  for (let i = rng.int(0, 2); i > 0; i--) kids.push(leaf(rng));
  return node(rng.int(2, 7), kids);
}

/** One to three trees. */
function treesOf(rng: Rng): string {
  return `[\n  ${Array.from({ length: rng.int(1, 3) }, () => treeOf(rng, rng.int(1, 3))).join(',\n  ')},\n]`;
}

const EQS = ['strictEqual', 'deepStrictEqual', 'equal'];
const WALKS = ['walk', 'visit', 'check', 'verify', 'descend'];
const OTHERS = ['each', 'recur', 'again', 'next', 'go'];
const HOLDERS = ['T', 'Tree', 'Walker', 'Suite'];

/** The node check (in a walk over `t`). */
const check = (rng: Rng, t = 't') => `const got = fact(${t}.n);\n  assert.${rng.pick(EQS)}(got, ${t}.w);`;

/**
 * The tests' end: the walk `ref` over `trees`, reached by reference (a call of it inside a `try` is a
 * helper call, whose checks the `try` notes anyway), its error swallowed.
 */
function tail(rng: Rng, ref: string): string {
  return rng.pick([
    `try {\n  trees.forEach(${ref});\n  console.log('all trees ok');\n} catch (e) {\n  console.log('FAILED:', String(e));\n}\n`,
    `for (const t of trees) {\n  try {\n    [t].forEach(${ref});\n  } catch (e) {\n    console.log('tree failed');\n  }\n}\n`,
    `let failed = 0;\ntry {\n  trees.map(${ref});\n} catch {\n  failed++;\n}\nconsole.log(failed, 'failed');\n`,
    `Promise.resolve()\n  .then(() => trees.forEach(${ref}))\n  .catch(console.error);\n`,
    `async function main() {\n  const rs = await Promise.allSettled(trees.map((t) => Promise.resolve(t).then(${ref})));\n  console.log(rs.filter((r) => r.status === 'rejected').length, 'trees failed');\n}\nmain();\n`,
  ]);
}

/** A tests shape (its names, trees and tail drawn from `rng`). */
type Shape = (rng: Rng) => string;

const SHAPES: Shape[] = [
  // rt6 C01: a named function expression recursing through its variable.
  (rng) => {
    const w = rng.pick(WALKS);
    return `const trees = ${treesOf(rng)};\nconst ${w} = function ${w}Node(t) {\n  t.kids.forEach(${w});\n  ${check(rng)}\n};\n${tail(rng, w)}`;
  },
  // rt6 C02: an alias.
  (rng) => {
    const w = rng.pick(WALKS);
    const a = rng.pick(OTHERS);
    return `const trees = ${treesOf(rng)};\nfunction ${w}(t) {\n  t.kids.forEach(${a});\n  ${check(rng)}\n}\nconst ${a} = ${w};\n${tail(rng, w)}`;
  },
  // rt6 C03: an object-literal method.
  (rng) => {
    const h = rng.pick(HOLDERS);
    return `const trees = ${treesOf(rng)};\nconst ${h} = {\n  walk(t) {\n    t.kids.forEach(${h}.walk);\n    ${check(rng).replace('\n', '\n  ')}\n  },\n};\n${tail(rng, `${h}.walk`)}`;
  },
  // rt6 C05: an assigned arrow.
  (rng) => {
    const w = rng.pick(WALKS);
    return `const trees = ${treesOf(rng)};\nlet ${w};\n${w} = (t) => {\n  t.kids.forEach(${w});\n  ${check(rng)}\n};\n${tail(rng, w)}`;
  },
  // rt6 C06: a static class method.
  (rng) => {
    const h = rng.pick(HOLDERS);
    return `const trees = ${treesOf(rng)};\nclass ${h} {\n  static walk(t) {\n    t.kids.forEach(${h}.walk);\n    ${check(rng).replace('\n', '\n  ')}\n  }\n}\n${tail(rng, `${h}.walk`)}`;
  },
  // rt6 C07: mutual recursion.
  (rng) => {
    const w = rng.pick(WALKS);
    const a = rng.pick(OTHERS);
    return `const trees = ${treesOf(rng)};\nfunction ${a}Kids(t) {\n  t.kids.forEach(${w});\n}\nfunction ${w}(t) {\n  ${a}Kids(t);\n  ${check(rng)}\n}\n${tail(rng, w)}`;
  },
  // An alias held by an object.
  (rng) => {
    const w = rng.pick(WALKS);
    const a = rng.pick(OTHERS);
    return `const trees = ${treesOf(rng)};\nconst ops = {};\nfunction ${w}(t) {\n  t.kids.forEach(ops.${a});\n  ${check(rng)}\n}\nops.${a} = ${w};\n${tail(rng, `ops.${a}`)}`;
  },
  // An arrow as an object property.
  (rng) => {
    const h = rng.pick(HOLDERS);
    return `const trees = ${treesOf(rng)};\nconst ${h} = {\n  walk: (t) => {\n    t.kids.forEach(${h}.walk);\n    ${check(rng).replace('\n', '\n  ')}\n  },\n};\n${tail(rng, `${h}.walk`)}`;
  },
  // An anonymous function expression assigned to a property.
  (rng) => {
    const h = rng.pick(HOLDERS);
    return `const trees = ${treesOf(rng)};\nconst ${h} = {};\n${h}.tree = function (t) {\n  t.kids.forEach(${h}.tree);\n  ${check(rng)}\n};\n${tail(rng, `${h}.tree`)}`;
  },
  // Mutual recursion through two object-literal methods.
  (rng) => {
    const h = rng.pick(HOLDERS);
    return `const trees = ${treesOf(rng)};\nconst ${h} = {\n  walk(t) {\n    ${h}.kids(t);\n    ${check(rng).replace('\n', '\n  ')}\n  },\n  kids(t) {\n    t.kids.forEach(${h}.walk);\n  },\n};\n${tail(rng, `${h}.walk`)}`;
  },
  // A named function expression handed to `map` by its variable.
  (rng) => {
    const w = rng.pick(WALKS);
    return `const trees = ${treesOf(rng)};\nconst ${w} = function inner(t) {\n  t.kids.map(${w});\n  ${check(rng)}\n};\n${tail(rng, w)}`;
  },
  // A bound alias.
  (rng) => {
    const w = rng.pick(WALKS);
    const a = rng.pick(OTHERS);
    return `const trees = ${treesOf(rng)};\nfunction ${w}(t) {\n  t.kids.forEach(${a});\n  ${check(rng)}\n}\nconst ${a} = ${w}.bind(null);\n${tail(rng, w)}`;
  },
];

/** Walks judging an expected error (an honest program throws a RangeError for n < 0). */
const JUDGED: Shape[] = [
  // rt6 S06h: a static recursive walk, no try.
  (rng) => {
    const h = rng.pick(HOLDERS);
    return `const trees = ${treesOf(rng)};\nclass ${h} {\n  static walk(t) {\n    t.kids.forEach(${h}.walk);\n    assert.strictEqual(fact(t.n), t.w);\n  }\n}\ntrees.forEach(${h}.walk);\n`;
  },
  // A negative leaf, its error judged in the walk's own catch (an alias recursion).
  (rng) => {
    const w = rng.pick(WALKS);
    const a = rng.pick(OTHERS);
    const tree = node(rng.int(2, 6), [leaf(rng), '{ n: -' + rng.int(1, 3) + ', w: null, kids: [] }']);
    return `const trees = [${tree}];\nfunction ${w}(t) {\n  t.kids.forEach(${a});\n  try {\n    const got = fact(t.n);\n    assert.strictEqual(got, t.w);\n  } catch (e) {\n    assert.ok(t.n < 0 && e instanceof RangeError, 'only n < 0 throws');\n  }\n}\nconst ${a} = ${w};\n${w}(trees[0]);\n`;
  },
  // A named function expression with assert.throws for the negative nodes.
  (rng) => {
    const w = rng.pick(WALKS);
    return `const trees = ${treesOf(rng)};\ntrees[0].kids.push({ n: -${rng.int(1, 4)}, w: null, kids: [] });\nconst ${w} = function visit(t) {\n  t.kids.forEach(${w});\n  if (t.w === null) assert.throws(() => fact(t.n), RangeError);\n  else assert.strictEqual(fact(t.n), t.w);\n};\ntrees.forEach(${w});\n`;
  },
  // Mutual recursion, the outer handler judging a negative node's error.
  (rng) => {
    const w = rng.pick(WALKS);
    return `function kidsOf(t) {\n  t.kids.forEach(${w});\n}\nfunction ${w}(t) {\n  kidsOf(t);\n  const got = fact(t.n);\n  assert.strictEqual(got, t.w);\n}\n${w}(${treeOf(rng, 2)});\ntry {\n  ${w}({ n: ${rng.int(2, 5)}, w: 0, kids: [{ n: -1, w: 0, kids: [] }] });\n} catch (e) {\n  assert.ok(e instanceof RangeError);\n}\n`;
  },
];

export const generators = factShapeGenerators(
  'js-recursion-names',
  {
    attacks:
      'a post-order recursive walk by another name (expression, alias, method, assignment, mutual), its error swallowed: fails',
    honest: 'controls: the walks, and walks judging an expected error, on an honest program',
  },
  SHAPES,
  JUDGED,
);
