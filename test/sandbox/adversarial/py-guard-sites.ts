/**
 * Python (issue 25): partial credit from a comparison guard. In `strict`, an ordering comparison of
 * the tests that meets a NaN or an infinity they never mention fails the run. It used to raise
 * inside the tests, so the assert it sat in never recorded that execution — and a site that passed
 * on the earlier passes of a loop (or through a helper it calls, or a generator it consumes)
 * stayed passed: 1/1 on a failed run, where an honest wrong answer scores 0/1; a `try` in the tests
 * that caught it let a later assert pass on the value it refused, and a comparison outside the
 * assert in a loop (`ok = not d > eps` / `assert ok`) stopped the run before its assert failed.
 * Now the guard lets the tests run on and no assert passes after it. Every such shape must score
 * no more than an honest failing answer would; a guard that fires after every assert passed
 * (steering a `raise`) counts as one failed site. Controls: right answers pass the same tests, and
 * tests that mention nan or inf keep the language's semantics.
 */
import { type AdversarialCase, type NonFiniteSource, type SourcedShape, scoredPair } from './framework.ts';

const TIMEOUT_MS = 8000;

const SOURCES: NonFiniteSource[] = [
  { good: (k) => `str(${k} * 1.25)`, bad: '"n" + "an"', read: (r) => `float(${r})`, kind: 'nan' },
  {
    good: (k) => `struct.pack("<d", ${k} * 1.25)`,
    bad: 'struct.pack("<d", float("n" + "an"))',
    read: (r) => `struct.unpack("<d", ${r})[0]`,
    kind: 'nan',
  },
  { good: (k) => `${k} * 1.25`, bad: 'float("1e400")', read: (r) => r, kind: 'inf' },
  { good: (k) => `str(${k} * 1.25)`, bad: '"1e999"', read: (r) => `float(${r})`, kind: 'inf' },
];

/** The tolerance check of `x` against `e`, as the tests write it. */
function close(s: NonFiniteSource, x: string, e: string): string {
  return s.kind === 'nan' ? `not abs(${x} - ${e}) > 1e-9` : `abs(${x} - ${e}) <= 1e-9 * max(abs(${x}), ${e})`;
}

/**
 * A shape of tests, and the most a wrong answer at case 3 may score on it (passed, gold): what an
 * honest wrong answer scores, except where the guard steers a `raise` after every assert passed —
 * there an honest wrong answer is an `error` whose passed sites gold still counts (1/1), and the
 * guard's failed run counts the guard as one failed site (1/2).
 */
const SHAPES: SourcedShape[] = [
  { tests: (s) => `assert ${close(s, s.read('f(3)'), '3.75')}\n`, passed: 0, gold: 0, note: 'inside the assert' },
  {
    tests: (s) => `for k in [1, 2, 3]:\n    assert ${close(s, s.read('f(k)'), 'k * 1.25')}\n`,
    passed: 0,
    gold: 0,
    note: 'a loop whose first cases are right',
  },
  {
    tests: (s) =>
      `def near(a, b):\n    return ${close(s, 'a', 'b')}\n\nfor k in [1, 2, 3]:\n    assert near(${s.read('f(k)')}, k * 1.25)\n`,
    passed: 0,
    gold: 0,
    note: 'in a helper, in a loop',
  },
  {
    tests: (s) => `assert all(${close(s, s.read('f(k)'), 'k * 1.25')} for k in [1, 2, 3])\n`,
    passed: 0,
    gold: 0,
    note: 'in a generator the assert consumes',
  },
  {
    tests: (s) => `try:\n    ok = ${close(s, s.read('f(3)'), '3.75')}\nexcept Exception:\n    ok = True\nassert ok\n`,
    passed: 0,
    gold: 0,
    note: 'outside the assert, caught by the tests',
  },
  {
    tests: (s) =>
      `for k in [1, 2, 3]:\n    try:\n        assert ${close(s, s.read('f(k)'), 'k * 1.25')}\n    except AssertionError:\n        pass\n`,
    passed: 0,
    gold: 0,
    note: 'in a loop whose failures the tests catch',
  },
  {
    tests: (s) =>
      `assert ${close(s, s.read('f(1)'), '1.25')}\nif not (${close(s, s.read('f(3)'), '3.75')}):\n    raise ValueError("wrong")\n`,
    passed: 1,
    gold: 0.5,
    note: 'steering a raise after every assert passed',
  },
  {
    tests: (s) => `ok = ${close(s, s.read('f(3)'), '3.75')}\nassert ok\n`,
    passed: 0,
    gold: 0,
    note: 'outside the assert',
  },
  {
    tests: (s) => `for k in [1, 2, 3]:\n    ok = ${close(s, s.read('f(k)'), 'k * 1.25')}\n    assert ok\n`,
    passed: 0,
    gold: 0,
    note: 'outside the assert, in a loop whose first cases are right',
  },
];

function program(s: NonFiniteSource, right: boolean): string {
  return `import struct\n\ndef f(k):\n    return ${right ? s.good('k') : s.bad} if k == 3 else ${s.good('k')}\n`;
}

const TESTS_HEAD = 'import struct\n';

/** Tests that mention nan or inf ask for it: a comparison with it keeps the language's meaning. */
const MENTIONED: AdversarialCase[] = [
  {
    completion: 'def f(k):\n    return "nan"\n',
    tests: 'import math\nx = float(f(3))\nassert math.isnan(x)\nassert not x > 0\n',
    expect: ['pass'],
    timeoutMs: TIMEOUT_MS,
  },
  {
    completion: 'def f(k):\n    return float("1e400")\n',
    tests: 'import math\nfor k in [1, 2]:\n    assert f(k) >= 1e308 and math.isinf(f(k))\n',
    expect: ['pass'],
    timeoutMs: TIMEOUT_MS,
  },
];

export const generators = scoredPair({
  name: 'py-guard-sites',
  language: 'python',
  about: 'a NaN or infinity through a guarded comparison scores no more than an honest failing answer',
  aboutHonest: 'control: right answers pass every shape; tests that mention nan or inf keep the semantics',
  n: 36,
  sources: SOURCES,
  shapes: SHAPES,
  build: (s, shape, right) => ({
    completion: program(s, right),
    tests: TESTS_HEAD + shape.tests(s),
    note: right ? s.good('k') : `${s.bad} (${s.kind})`,
  }),
  common: { timeoutMs: TIMEOUT_MS },
  controls: MENTIONED,
});
