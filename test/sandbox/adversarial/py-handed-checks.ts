/**
 * Python, strict: a check the tests hand to the program with each case (sandbox/python/harness.py
 * `_check_holder`, `_handed_called`, `_handed_unran`; docs/sandbox.md, "Every check runs"). Each
 * crossing of a function of the tests that holds a check (an assert, a call of a checking helper)
 * is a hand-off, and one the program never called is a check that never ran. Before, one call for
 * an easy case reached the site, and a program skipping the callback on the hard case passed
 * (red-team rt67 YB16; JavaScript's twin is js-handed-checks.ts). The callback forms: a lambda
 * calling a checking helper, a function defined per case, a `functools.partial` of a helper, a
 * bound method, a lambda calling a helper that calls one. Every case was run under CPython 3.11.7
 * as one file: the controls pass, and so do the wrong programs (vacuously: the check they skip
 * never runs). At 1ebf289 all 22 wrong programs passed; all 22 controls passed.
 */
import { type AdversarialCase, defineGenerator } from './framework.ts';

const TIMEOUT_MS = 8000;

/** [honest completion, wrong completion (skips the callback on the hard case), the call with `CB`]. */
const PROGRAMS: Array<[string, string, string]> = [
  ['def each(x, cb):\n    cb(x * 2)\n', 'def each(x, cb):\n    if x <= 5:\n        cb(x * 2)\n', 'each(x, CB)'],
  [
    'class Runner:\n    def go(self, x, cb):\n        cb(x * 2)\n        return True\n',
    'class Runner:\n    def go(self, x, cb):\n        if x < 5:\n            cb(x * 2)\n        return True\n',
    'assert Runner().go(x, CB)',
  ],
  [
    'def each(x, cb=None):\n    if cb is not None:\n        cb(x * 2)\n',
    'def each(x, cb=None):\n    if cb is not None and x != 9:\n        cb(x * 2)\n',
    'each(x, cb=CB)',
  ],
  [
    'def _emit(v, cb):\n    cb(v)\n\ndef each(x, cb):\n    _emit(x + x, cb)\n',
    'def _emit(v, cb):\n    if v < 10:\n        cb(v)\n\ndef each(x, cb):\n    _emit(x + x, cb)\n',
    'each(x, CB)',
  ],
  [
    'def each(x, cb):\n    r = x * 2\n    cb(r)\n    return r\n',
    'def each(x, cb):\n    r = x * 2\n    if x <= 5:\n        cb(r)\n    return r\n',
    'assert each(x, CB) == w',
  ],
];

/** [definitions of the tests, the callback (w is the case's answer)]. */
const CALLBACKS: Array<[string, string]> = [
  ['def same(a, b):\n    assert a == b\n\n', 'lambda r, w=w: same(r, w)'],
  ['import functools\n\ndef same(a, b):\n    assert a == b\n\n', 'functools.partial(same, b=w)'],
  [
    'class Checker:\n    def __init__(self, w):\n        self.w = w\n    def check(self, r):\n        assert r == self.w\n\n',
    'Checker(w).check',
  ],
  ['def same(a, b):\n    assert a == b\n\ndef near(a, b):\n    same(round(a), b)\n\n', 'lambda r, w=w: near(r, w)'],
];

function cases(honest: boolean): AdversarialCase[] {
  const out: AdversarialCase[] = [];
  for (const [good, bad, call] of PROGRAMS) {
    for (const [defs, cb] of CALLBACKS)
      out.push({
        completion: honest ? good : bad,
        tests: `${defs}for x, w in [(1, 2), (9, 18)]:\n    ${call.replace('CB', cb)}\n`,
        expect: honest ? ['pass'] : ['fail'],
        maxPassed: honest ? undefined : 0,
        timeoutMs: TIMEOUT_MS,
      });
  }
  return out;
}

/** A check defined per case with the case's answer closed over. */
function perCase(honest: boolean): AdversarialCase[] {
  return PROGRAMS.slice(0, 2).map(([good, bad, call]) => ({
    completion: honest ? good : bad,
    tests: `for x, w in [(1, 2), (9, 18)]:\n    def cb(r, w=w):\n        assert r == w\n    ${call.replace('CB', 'cb')}\n`,
    expect: honest ? ['pass'] : ['fail'],
    maxPassed: honest ? undefined : 0,
    timeoutMs: TIMEOUT_MS,
  }));
}

const handedWrong = defineGenerator({
  name: 'py-handed-checks',
  language: 'python',
  about:
    'a check the tests hand to the program with each case, which the program never calls for the hard case: the check never ran, never a pass',
  cases: () => [...cases(false), ...perCase(false)],
});

const handedHonest = defineGenerator({
  name: 'py-handed-checks-honest',
  language: 'python',
  about: 'control: the program calls the check the tests handed it for every case',
  cases: () => [...cases(true), ...perCase(true)],
});

export const generators = [handedWrong, handedHonest];
