/**
 * JavaScript (issue 25): a run in which the boundary refused an answer passes no site. In
 * `strict`, a value that is not plain data (a Proxy, a getter, an own `toString`, NaN or an
 * invalid Date the tests never mention) is refused on its way into the tests realm. When the call
 * sat outside the check it feeds (`const r = f(x); assert.deepStrictEqual(r, …)` in a loop), the
 * harness cannot tell which later check the value was for, and the checks that passed on earlier
 * cases kept their pass (1/2 where an honest wrong answer scores 0/1). The harness records the
 * refusal where it happens — not from the error, which the tests may catch — and such a run
 * reports 0 passed sites. Shapes: a loop with the call outside the check, the refusal caught and
 * replaced by the expected value, answers collected then checked, a right case before the refused
 * call, and a refused call whose error the tests swallow before right checks or after them all. Controls: right
 * answers pass every shape; NaN where the tests ask for it is no refusal.
 */
import { type AdversarialCase, JS_ASSERT, scoredPair } from './framework.ts';
import { buildRefused, REFUSED } from './js-refused-sites.ts';

const SHAPES = [
  {
    tests: 'for (const x of [0, 1, 2]) {\n  const r = f(x);\n  assert.deepStrictEqual(r, { v: x });\n}\n',
    note: 'a loop, the call outside the check',
  },
  {
    tests:
      'for (const x of [0, 1, 2]) {\n  let r;\n  try {\n    r = f(x);\n  } catch {\n    r = { v: x };\n  }\n  assert.deepStrictEqual(r, { v: x });\n}\n',
    note: 'the refusal caught and replaced by the expected value',
  },
  {
    tests:
      'const out = [];\nfor (const x of [0, 1, 2]) {\n  try {\n    out.push(f(x));\n  } catch {\n    out.push({ v: x });\n  }\n}\nout.forEach((r, x) => assert.deepStrictEqual(r, { v: x }));\n',
    note: 'answers collected, then checked',
  },
  {
    tests: 'assert.deepStrictEqual(f(0), { v: 0 });\nconst r = f(2);\nassert.deepStrictEqual(r, { v: 2 });\n',
    note: 'a right case before the refused call',
  },
  {
    tests: 'try {\n  f(2);\n} catch {}\nfor (const x of [0, 1]) assert.deepStrictEqual(f(x), { v: x });\n',
    note: 'the refused call swallowed before right checks',
  },
  {
    tests: 'for (const x of [0, 1]) assert.deepStrictEqual(f(x), { v: x });\ntry {\n  f(2);\n} catch {}\n',
    note: 'the refused call swallowed after every check passed',
  },
].map((s) => ({ ...s, passed: 0, gold: 0 }));

const CONTROLS: AdversarialCase[] = [
  {
    // NaN where the tests ask for it crosses: no refusal, every site passes.
    completion: 'function f(x) { return x < 2 ? { v: x } : { v: 0 / 0 }; }\n',
    tests: `${JS_ASSERT}for (const x of [0, 1, 2]) {\n  const r = f(x);\n  if (x < 2) assert.deepStrictEqual(r, { v: x });\n  else assert.ok(Number.isNaN(r.v));\n}\n`,
    expect: ['pass'],
  },
  {
    completion: 'function f(x) { return { v: x < 2 ? x : new Date(NaN) }; }\n',
    tests: `${JS_ASSERT}assert.deepStrictEqual(f(0), { v: 0 });\nconst r = f(2);\nassert.ok(Number.isNaN(r.v.getTime())); // an invalid Date, as asked\n`,
    expect: ['pass'],
  },
  {
    // An honest wrong answer in the same loop keeps its ordinary count (the first check passes).
    completion: 'function f(x) { return { v: x === 2 ? 7 : x }; }\n',
    tests: `${JS_ASSERT}assert.deepStrictEqual(f(0), { v: 0 });\nfor (const x of [1, 2]) {\n  const r = f(x);\n  assert.deepStrictEqual(r, { v: x });\n}\n`,
    expect: ['fail'],
    note: 'honest wrong answer: 1/2, as before',
  },
];

export const generators = scoredPair({
  name: 'js-refused-runs',
  language: 'javascript',
  about: 'a run with a refused answer passes no site, wherever the refused call sat',
  aboutHonest: 'control: right answers pass every shape; NaN where the tests ask for it is no refusal',
  n: 30,
  sources: REFUSED,
  shapes: SHAPES,
  build: buildRefused,
  controls: CONTROLS,
});
