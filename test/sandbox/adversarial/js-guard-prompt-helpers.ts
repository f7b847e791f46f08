/**
 * JavaScript: comparisons in the prompt's own helpers. The tests realm runs its own copy of the
 * trusted prompt (src/sandbox/test-plan.ts), so a tolerance helper the prompt defines (`near(a,
 * b)`) decides the tests' checks as much as their own code does — but only the tests' text was
 * instrumented, so the helper's `Math.abs(a - b) > eps` met NaN or an infinity unguarded, and a
 * negated or relative tolerance held for a wrong answer. The copy's comparisons are now guarded
 * like the tests' own. Each wrong answer must score no more than an honest wrong answer; right
 * answers pass the same tests.
 */
import { JS_ASSERT, type NonFiniteSource, type ScoredShape, scoredPair } from './framework.ts';

const SOURCES: NonFiniteSource[] = [
  { good: (k) => `${k} * 1.25`, bad: 'undefined', read: (r) => r, kind: 'nan' },
  { good: (k) => `String(${k} * 1.25)`, bad: '"n/a"', read: (r) => `parseFloat(${r})`, kind: 'nan' },
  { good: (k) => `${k} * 1.25`, bad: '1 / 0', read: (r) => r, kind: 'inf' },
  { good: (k) => `{ v: ${k} * 1.25 }`, bad: '{ v: "?" }', read: (r) => `${r}.v`, kind: 'nan' },
];

/** A helper of the prompt that holds for NaN and for an infinity, and how the tests call it on `x`, `e`. */
const HELPERS: Array<ScoredShape & { prompt: string; call: (x: string, e: string) => string }> = [
  {
    prompt: 'function near(a, b) {\n  return !(Math.abs(a - b) > 1e-9 * Math.max(1, Math.abs(a)));\n}\n',
    call: (x, e) => `near(${x}, ${e})`,
    passed: 0,
    gold: 0,
    note: 'a negated relative tolerance',
  },
  {
    prompt:
      'function close(a, b) {\n  const d = Math.abs(a - b);\n  return !(d > 1e-6 * Math.abs(b)) || !(d > 1e-6 * Math.abs(a));\n}\n',
    call: (x, e) => `close(${x}, ${e})`,
    passed: 0,
    gold: 0,
    note: 'either side relative',
  },
  {
    prompt: 'const approx = (a, b, eps = 1e-9) => !(Math.abs(a - b) >= eps * Math.max(Math.abs(a), 1));\n',
    call: (x, e) => `approx(${x}, ${e})`,
    passed: 0,
    gold: 0,
    note: 'an arrow with a default tolerance',
  },
  {
    prompt: 'class Checker {\n  static ok(a, b) {\n    return !(Math.abs(a - b) > 1e-9 * Math.max(Math.abs(a), 1));\n  }\n}\n',
    call: (x, e) => `Checker.ok(${x}, ${e})`,
    passed: 0,
    gold: 0,
    note: 'a static method of a class',
  },
  {
    prompt:
      'function readNum(x) {\n  return typeof x === "string" ? parseFloat(x) : x;\n}\nfunction near(a, b) {\n  const v = readNum(a);\n  return !(Math.abs(v - b) > 1e-9 * Math.max(1, Math.abs(v)));\n}\n',
    call: (x, e) => `near(${x}, ${e})`,
    passed: 1,
    gold: 0.5,
    note: 'after a right case, through a reader',
  },
];

export const generators = scoredPair({
  name: 'js-guard-prompt-helpers',
  language: 'javascript',
  about: "a NaN or infinity through a comparison in the prompt's own helper (the tests realm's copy)",
  aboutHonest: "control: right answers pass the tests that call the prompt's helpers",
  n: 20,
  sources: SOURCES,
  shapes: HELPERS,
  build: (s, h, right) => ({
    prompt: `${h.prompt}function f(k) {\n`,
    completion: `  return k === 3 ? ${right ? s.good('k') : s.bad} : ${s.good('k')};\n}\n`,
    tests:
      JS_ASSERT +
      (h.passed > 0 ? `assert.ok(${h.call(s.read('f(1)'), '1.25')});\n` : '') +
      `assert.ok(${h.call(s.read('f(3)'), '3.75')});\n`,
    note: right ? s.good('k') : `${s.bad} (${s.kind})`,
  }),
});
