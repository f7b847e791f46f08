/**
 * Python: the tests' objects the program holds copies of (sandbox/python/harness.py, `_p_keep`,
 * `_p_sync`, `_t_sync`; docs/sandbox.md, "Python programs", and docs/python.md). Each call's
 * shared arguments cross as copies; before red-team rt66 only what the program left in them when
 * the call answered came back, so (A) a list, dict or set the program kept (a global, an
 * instance's field, a closure, a generator) and changed at a later call never reached the
 * tests' object (rt66 P01, P02, P22 passed wrong programs; honest P03, P41 failed), (B) a call
 * that raised brought nothing back (P04, P21, P26 passed; honest P05 failed), and (C) a tests'
 * callback the program called during a call read the tests' objects as they were before it
 * (P07, P25 passed; honest P06 failed). Each pair below is one program judged by tests asking
 * for a copy (wrong: the program shares) or for the shared object (honest). Every case was run
 * under CPython 3.11.7 as one file: the wrong ones fail there, the controls pass.
 */
import { type AdversarialCase, defineGenerator } from './framework.ts';

const TIMEOUT_MS = 8000;

/** [initial value, a statement changing `c`, the value after it]. */
const KINDS: Array<[string, string, string]> = [
  ['[1, 2]', 'c.append(3)', '[1, 2, 3]'],
  ['[3, 1, 2]', 'c.sort()', '[1, 2, 3]'],
  ["{'a': 1}", "c['b'] = 2", "{'a': 1, 'b': 2}"],
  ['{1, 2}', 'c.discard(1)', '{2}'],
  ['[[1], [2]]', 'c[0].append(9)', '[[1, 9], [2]]'],
  ['[1, 2]', 'c.clear()', '[]'],
  ["{'a': 1, 'b': 2}", "c.pop('a')", "{'b': 2}"],
];

/** Where the program keeps the argument ([completion, tests]; `OP` is the change, `X` the tests' object). */
const KEPT: Array<[string, string]> = [
  [
    '_kept = []\n\ndef keep(c):\n    _kept.append(c)\n    return 0\n\ndef touch():\n    for c in _kept:\n        OP\n    return 1\n',
    'keep(X)\nassert touch() == 1\n',
  ],
  [
    'class Keeper:\n    def __init__(self, c):\n        self.c = c\n    def touch(self):\n        c = self.c\n        OP\n        return 1\n',
    'k = Keeper(X)\nassert k.touch() == 1\n',
  ],
  ['def keeper(c):\n    def touch():\n        OP\n        return 1\n    return touch\n', 't = keeper(X)\nassert t() == 1\n'],
  [
    "class Reg:\n    items = {}\n\ndef keep(c):\n    Reg.items['k'] = c\n\ndef touch():\n    c = Reg.items['k']\n    OP\n    return 1\n",
    'keep(X)\nassert touch() == 1\n',
  ],
  ['def gen(c):\n    yield 1\n    OP\n    yield 2\n', 'g = gen(X)\nassert next(g) == 1\nassert next(g) == 2\n'],
  [
    '_prev = []\n\ndef f(c):\n    if _prev:\n        c2 = _prev[0]\n        OP2\n    _prev[:] = [c]\n    return 0\n',
    'assert f(X) == 0\nassert f([0]) == 0\n',
  ],
];

/** How the call raises after changing its argument ([completion, the call in the tests, what the tests catch]). */
const RAISING: Array<[string, string, string]> = [
  ["def f(c):\n    OP\n    raise ValueError('no')\n", 'f(X)', 'ValueError'],
  ["def f(c):\n    OP\n    return {}['z']\n", 'f(X)', 'KeyError'],
  ['class Bad(Exception):\n    pass\n\ndef f(c):\n    OP\n    raise Bad()\n', 'f(X)', 'Exception'],
  ['class M:\n    def f(self, c):\n        OP\n        return 1 // 0\n', 'M().f(X)', 'ZeroDivisionError'],
  ["class M:\n    @staticmethod\n    def f(c):\n        OP\n        raise LookupError('x')\n", 'M.f(X)', 'LookupError'],
  ["def _inner(c):\n    OP\n    raise RuntimeError('deep')\n\ndef f(c):\n    _inner(c)\n", 'f(X)', 'RuntimeError'],
];

/** How the program calls the tests' callback after changing `c` ([completion, the call in the tests with `CB`]). */
const CALLING: Array<[string, string]> = [
  ['def f(c, cb):\n    OP\n    cb()\n    return 0\n', 'f(X, CB)'],
  ['def f(c, cb):\n    OP\n    cb()\n    return 0\n', 'f(c=X, cb=CB)'],
  ['class M:\n    def f(self, c, cb):\n        OP\n        cb()\n        return 0\n', 'M().f(X, CB)'],
  ['def _helper(c, cb):\n    OP\n    cb()\n\ndef f(c, cb):\n    _helper(c, cb)\n    return 0\n', 'f(X, CB)'],
  [
    '_kept = []\n\ndef keep(c):\n    _kept.append(c)\n\ndef f(cb):\n    for c in _kept:\n        OP\n    cb()\n    return 0\n',
    'keep(X)\nf(CB)',
  ],
];

function fill(src: string, op: string): string {
  return src
    .replace(/^( *)OP2$/m, (_, ind: string) => ind + op.replace(/\bc\b/g, 'c2'))
    .replace(/^( *)OP$/m, (_, ind: string) => ind + op);
}

/** The first four kinds (list, sorted list, dict, set): enough variants per holder, in the suite's time. */
const FEW = KINDS.slice(0, 4);

function keptCases(honest: boolean): AdversarialCase[] {
  const out: AdversarialCase[] = [];
  for (const [prog, call] of KEPT)
    for (const [init, op, after] of FEW)
      out.push({
        completion: fill(prog, op),
        tests: `x = ${init}\n${call.replace('X', 'x')}assert x == ${honest ? after : init}\n`,
        expect: honest ? ['pass'] : ['fail', 'error'],
        timeoutMs: TIMEOUT_MS,
      });
  return out;
}

function raisingCases(honest: boolean): AdversarialCase[] {
  const out: AdversarialCase[] = [];
  RAISING.forEach(([prog, call, caught], i) => {
    for (const [j, [init, op, after]] of KINDS.entries()) {
      if ((i + j) % 2 === 1) continue;
      out.push({
        completion: fill(prog, op),
        tests: `x = ${init}\ntry:\n    ${call.replace('X', 'x')}\n    assert False\nexcept ${caught}:\n    pass\nassert x == ${honest ? after : init}\n`,
        expect: honest ? ['pass'] : ['fail', 'error'],
        timeoutMs: TIMEOUT_MS,
      });
    }
  });
  return out;
}

function callbackCases(honest: boolean): AdversarialCase[] {
  const out: AdversarialCase[] = [];
  for (const [prog, call] of CALLING)
    for (const [init, op, after] of FEW)
      out.push({
        completion: fill(prog, op),
        tests:
          `x = ${init}\nseen = []\n${call.replace('X', 'x').replace('CB', `lambda: seen.append(x == ${honest ? after : init})`)}\n` +
          `assert seen == [True]\n`,
        expect: honest ? ['pass'] : ['fail', 'error'],
        timeoutMs: TIMEOUT_MS,
      });
  return out;
}

const keptWrong = defineGenerator({
  name: 'py-kept-arguments',
  language: 'python',
  about:
    "a tests' list, dict or set the program keeps and changes at a later call, changes before raising, or changes before calling the tests' callback, where the tests ask for it untouched: never a pass",
  cases: () => [...keptCases(false), ...raisingCases(false), ...callbackCases(false)],
});

const keptHonest = defineGenerator({
  name: 'py-kept-arguments-honest',
  language: 'python',
  about:
    'control: the tests see what the program did to their object through a copy it kept, before a call of it raised, and from inside their callback, as under CPython',
  cases: () => [...keptCases(true), ...raisingCases(true), ...callbackCases(true)],
});

export const generators = [keptWrong, keptHonest];
