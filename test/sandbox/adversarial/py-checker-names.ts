/**
 * Python: checkers reached by a name other than their own. The tests call the candidate outside
 * the check (`got = fact(n)`) in a `try` that prints what was raised, and check through a method
 * (`c.eq`, `self.assertEq`, a static method), an alias, a `functools.partial`, a dict or namespace
 * value, `getattr(c, 'eq')`, or a checker handed to a runner as a parameter. The skip scan saw
 * only calls by the helper's own bare name, so a program raising on the hard cases skipped those
 * checks unseen and kept the pass its easy cases earned, where the same program returning a wrong
 * value failed. A checking method called in a loop over the answer was likewise not required to
 * run (an empty answer passed). Now a called expression is resolved by the identifiers in it
 * (sandbox/python/harness.py, `_helpers_of`). Controls: the same tests on an honest program, a
 * `fail(msg)` helper of only `assert False` never reached, a docstring read from a test function.
 */
import { honestFact, raisingFact } from './fact-programs.ts';
import { defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 8000;
const CASES = '[(0, 1), (1, 1), (5, 120), (6, 720)]';
const PER_CASE = (check: string) =>
  `for n, w in ${CASES}:\n    try:\n        got = fact(n)\n        ${check}\n    except Exception as e:\n        print('FAIL', n, e)\n`;

/** Checker definitions and the call that reaches one; the passes an honest wrong value gets. */
const STYLES: Array<[string, number]> = [
  [`class Checker:\n    def eq(self, a, b):\n        assert a == b, (a, b)\n\nc = Checker()\n${PER_CASE('c.eq(got, w)')}`, 0],
  [`class Check:\n    @staticmethod\n    def eq(a, b):\n        assert a == b\n\n${PER_CASE('Check.eq(got, w)')}`, 0],
  [`def check_eq(a, b):\n    assert a == b\n\neq = check_eq\n${PER_CASE('eq(got, w)')}`, 0],
  [`import functools\ndef check_eq(a, b):\n    assert a == b\n\n${PER_CASE('functools.partial(check_eq, got)(w)')}`, 0],
  [`def check_eq(a, b):\n    assert a == b\n\nCHECKS = {'eq': check_eq}\n${PER_CASE("CHECKS['eq'](got, w)")}`, 0],
  [
    `import types\ndef check_eq(a, b):\n    assert a == b\n\nns = types.SimpleNamespace(eq=check_eq)\n${PER_CASE('ns.eq(got, w)')}`,
    0,
  ],
  [`class C:\n    def eq(self, a, b):\n        assert a == b\n\nc = C()\n${PER_CASE("getattr(c, 'eq')(got, w)")}`, 0],
  [
    `def check_eq(a, b):\n    assert a == b\n\ndef run(check):\n    ${PER_CASE('check(got, w)').replace(/\n/g, '\n    ')}\nrun(check_eq)\n`,
    0,
  ],
  [
    `class Base:\n    def assertEq(self, a, b):\n        assert a == b, (a, b)\n\nclass T(Base):\n    def test_small(self):\n        self.assertEq(fact(1), 1)\n\n    def test_big(self):\n        r = fact(5)\n        self.assertEq(r, 120)\n\nt = T()\nfor name in sorted(dir(t)):\n    if name.startswith('test_'):\n        try:\n            getattr(t, name)()\n        except Exception as e:\n            print('FAIL', name, e)\n`,
    1,
  ],
  [`def check_eq(a, b):\n    assert a == b\n\nchk = lambda a, b: check_eq(a, b)\n${PER_CASE('chk(got, w)')}`, 0],
  [
    `def check_eq(a, b):\n    assert a == b\n\nCHECKS = {'eq': check_eq}\n${PER_CASE('list(map(lambda c: c(got, w), CHECKS.values()))')}`,
    0,
  ],
  [`def check_eq(a, b):\n    assert a == b\n\nCHECKS = [check_eq]\n${PER_CASE('[c(got, w) for c in CHECKS]')}`, 0],
];
const attacks = raisingFact(
  'python',
  'py-checker-names',
  'a check reached through a method, alias, partial, container or parameter, skipped by an exception the tests swallow',
  48,
  STYLES,
);

/** A checking method called in a loop over the answer: every call of it must run. */
const LOOPS = [
  'class C:\n    def divides(self, n, d):\n        assert n % d == 0\n\nc = C()\nc.divides(12, 1)\nfor d in divisors(12):\n    c.divides(12, d)\n',
  'class C:\n    @classmethod\n    def divides(cls, n, d):\n        assert n % d == 0\n\nC.divides(12, 1)\nfor d in divisors(12):\n    C.divides(12, d)\n',
];

const loops = defineGenerator({
  name: 'py-checker-names-loops',
  language: 'python',
  about: 'a checking method in a loop over an empty answer never ran: not a pass',
  cases: () =>
    grid(20, LOOPS, ['return []', 'return ()', "return ''", 'return {}', 'return iter([])'], (tests, body) => ({
      completion: `def divisors(n):\n    ${body}\n`,
      tests,
      expect: ['fail', 'error'],
      timeoutMs: TIMEOUT_MS,
    })),
});

/** Honest programs under the same tests, and rewrite-sensitive honest tests. */
const HONEST = [
  ...STYLES.map(([tests]) => tests),
  "def fail(msg):\n    assert False, msg\n\nfor n, w in [(3, 6), (4, 24)]:\n    if fact(n) != w:\n        fail('wrong at %d' % n)\nassert fact(0) == 1\n",
  'def test_three():\n    """three factorial"""\n    assert fact(3) == 6\n\ntest_three()\nassert test_three.__doc__ == \'three factorial\'\n',
  "class Pause:\n    def __await__(self):\n        yield 'paused'\n\nasync def cases():\n    for n, w in [(0, 1), (5, 120)]:\n        try:\n            got = fact(n)\n            assert got == w\n        except Exception as e:\n            await Pause()\n\nco = cases()\ntry:\n    co.send(None)\nexcept StopIteration:\n    pass\n",
];

const honest = honestFact(
  'python',
  'py-checker-names-honest',
  'controls: the checker styles on an honest program, an unreached fail() marker helper, a docstring, a finished coroutine',
  26,
  HONEST,
);

const honestLoops = defineGenerator({
  name: 'py-checker-names-loops-honest',
  language: 'python',
  about: 'controls: the checking-method loops on an honest divisors',
  cases: () =>
    grid(20, LOOPS, [0, 1], (tests, i) => ({
      completion: `def divisors(n):\n    return [d for d in range(1, n + 1) if n % d == 0]\n${i ? '# variant\n' : ''}`,
      tests,
      expect: ['pass'],
      timeoutMs: TIMEOUT_MS,
    })),
});

export const generators = [attacks, loops, honest, honestLoops];
