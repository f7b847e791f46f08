/**
 * Python (red-team rt61 DD01, MS01): what a dict answer gives for a missing key is behaviour the
 * tests can observe (`r['z']` raising KeyError or answering 0), and it did not cross: a
 * `defaultdict` whose factory was no builtin type came to the tests without it, and a program
 * dict subclass with `__missing__` as a plain dict, so a wrong answer passed "a missing key
 * raises KeyError" — under CPython the lookup answers and the check fails. Such an answer is now
 * no plain data (a strict `fail` naming the type); a factory the tests can have as their own (a
 * builtin type, a standard class such as Counter or deque) crosses with it
 * (sandbox/python/harness.py, `_Enc.value` 'defaultdict', `_own_missing`).
 * Wrong: missing keys that answer, under checks that they raise. Controls: dicts whose
 * missing-key behaviour crosses (plain dicts, Counter, defaultdict of a builtin or standard
 * type or of None, program subclasses without `__missing__`), under checks CPython passes.
 */
import { defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 8000;

const PROMPT = 'def counts(s):\n    """Return a mapping of each character of s to how often it occurs."""\n';

const body = (ctor: string, before = '') =>
  `${before}    d = ${ctor}\n    for ch in s:\n        d[ch] = d.get(ch, 0) + 1\n    return d\n`;

/** Answers whose missing keys answer instead of raising. */
const WRONG: readonly string[] = [
  body('defaultdict(lambda: 0)', '    from collections import defaultdict\n'),
  body('defaultdict(lambda: None)', '    from collections import defaultdict\n'),
  body('defaultdict(partial(int))', '    from collections import defaultdict\n    from functools import partial\n'),
  body('defaultdict(Zero)', '    from collections import defaultdict\n\n    class Zero:\n        pass\n'),
  body('Tally()', '    class Tally(dict):\n        def __missing__(self, k):\n            return 0\n'),
  body('Tally()', '    class Tally(dict):\n        def __missing__(self, k):\n            self[k] = 0\n            return 0\n'),
  body(
    'Tally()',
    '    from collections import Counter\n\n    class Tally(Counter):\n        def __missing__(self, k):\n            return -1\n',
  ),
  body(
    'Tally()',
    '    from collections import defaultdict\n\n    class Tally(defaultdict):\n        def __missing__(self, k):\n            return 0\n',
  ),
];

const check = (lines: string) =>
  `\n\ndef check(candidate):\n    r = candidate('aab')\n    assert r == {'a': 2, 'b': 1}\n${lines}\n\ncheck(counts)\n`;

/** Checks that a missing key raises KeyError (CPython fails them for every WRONG answer). */
const RAISES: readonly string[] = [
  check(
    "    try:\n        r['z']\n    except KeyError:\n        pass\n    else:\n        assert False, 'missing key must raise'\n",
  ),
  check(
    "    got = []\n    for k in 'abz':\n        try:\n            got.append(r[k])\n        except KeyError:\n            got.append('none')\n    assert got == [2, 1, 'none']\n",
  ),
  check(
    "    def lookup(k):\n        try:\n            return r[k]\n        except KeyError:\n            return 'missing'\n\n    assert lookup('z') == 'missing'\n",
  ),
];

/** Honest answers and a check of their missing keys that CPython passes. */
const HONEST: ReadonlyArray<readonly [string, string]> = [
  [body('{}'), RAISES[0]!],
  [body('dict(defaultdict(lambda: 0))', '    from collections import defaultdict\n'), RAISES[2]!],
  [body('defaultdict(None)', '    from collections import defaultdict\n'), RAISES[1]!],
  [body('Tally()', '    class Tally(dict):\n        pass\n'), RAISES[0]!],
  [body('defaultdict(int)', '    from collections import defaultdict\n'), check("    assert r['z'] == 0\n")],
  [body('defaultdict(list)', '    from collections import defaultdict\n'), check("    assert r['z'] == []\n")],
  [body('defaultdict(Counter)', '    from collections import defaultdict, Counter\n'), check("    assert r['z'] == {}\n")],
  [body('defaultdict(deque)', '    from collections import defaultdict, deque\n'), check("    assert list(r['z']) == []\n")],
  [body('Counter()', '    from collections import Counter\n'), check("    assert r['z'] == 0\n")],
  [
    body('DD(int)', '    from collections import defaultdict\n\n    class DD(defaultdict):\n        pass\n'),
    check("    assert r['z'] == 0 and len(r) == 3\n"),
  ],
];

export const generators = [
  defineGenerator({
    name: 'py-missing-keys',
    language: 'python',
    about: 'a dict answer whose missing keys answer (a lambda factory, __missing__) fails "missing key raises"',
    cases: () =>
      grid(24, WRONG, RAISES, (completion, tests) => ({
        prompt: PROMPT,
        completion,
        tests,
        expect: ['fail'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
  defineGenerator({
    name: 'py-missing-keys-honest',
    language: 'python',
    about: 'controls: dicts whose missing-key behaviour crosses pass',
    cases: () =>
      grid(20, HONEST, [0, 1], ([completion, tests], twice) => ({
        prompt: PROMPT,
        completion,
        tests: twice ? tests.replace("r = candidate('aab')", "r = candidate('aab')\n    assert len(r) == 2") : tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
];
