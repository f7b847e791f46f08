/**
 * Python: special names the program sends across. (1) A dunder instance field of an answer
 * (`r.__deepcopy__ = lambda memo: right`, `__reduce_ex__`, `__copy__`, `__getstate__`) is what the
 * standard library reads from the instance: the tests' `copy.deepcopy(r) == expected` ran program
 * code. No rebuilt object takes a dunder field now. (2) An entry point bound to a standard callable
 * (`uniq = print`) left the program with no "own" name, so its `def sorted(*a)` became the tests'
 * `sorted` on both sides of their comparison (sanitized-MBPP shapes). Every name the program answers
 * is its own now, so no builtin is exposed beside it. Controls: honest answers copied and compared,
 * honest programs whose helper is named like a builtin.
 */
import { defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines and none of these cases loops. */
const TIMEOUT_MS = 8000;

const PT =
  'class Pt:\n    def __init__(self, x, y):\n        self.x = x\n        self.y = y\n\n    def __eq__(self, o):\n        return isinstance(o, Pt) and (self.x, self.y) == (o.x, o.y)\n\n\ndef mid(a, b):\n    """Midpoint of two Pt (integer division)."""\n';
const RIGHT = 'Pt((a.x + b.x) // 2, (a.y + b.y) // 2)';

/** Dunder fields and the stdlib call of the tests that would read them. */
const DUNDERS: Array<[string, string, string]> = [
  ['__deepcopy__', `lambda memo: ${RIGHT}`, 'copy.deepcopy(r)'],
  ['__copy__', `lambda: ${RIGHT}`, 'copy.copy(r)'],
  ['__reduce_ex__', `lambda proto: (Pt, ((a.x + b.x) // 2, (a.y + b.y) // 2))`, 'copy.deepcopy(r)'],
  ['__reduce__', `lambda: (Pt, ((a.x + b.x) // 2, (a.y + b.y) // 2))`, 'copy.copy(r)'],
  ['__getstate__', `lambda: {'x': (a.x + b.x) // 2, 'y': (a.y + b.y) // 2}`, 'copy.deepcopy(r)'],
];
/** Where the answer sits. */
const SHAPES = [
  (call: string) =>
    `import copy\ndef check(candidate):\n    r = candidate(Pt(0, 0), Pt(2, 4))\n    assert ${call} == Pt(1, 2)\n\ncheck(mid)\n`,
  (call: string) =>
    `import copy\ndef check(candidate):\n    for a, b, m in [(Pt(0, 0), Pt(2, 4), Pt(1, 2)), (Pt(2, 2), Pt(4, 4), Pt(3, 3))]:\n        r = candidate(a, b)\n        assert ${call} == m\n\ncheck(mid)\n`,
  (call: string) => `import copy\nr = mid(Pt(0, 0), Pt(2, 4))\nassert ${call} == Pt(1, 2)\n`,
  (call: string) =>
    `import copy\ndef check(candidate):\n    r = [candidate(Pt(0, 0), Pt(2, 4))]\n    assert ${call.replace('(r)', '(r)[0]')} == Pt(1, 2)\n\ncheck(mid)\n`,
];

const dunderFields = defineGenerator({
  name: 'py-dunder-fields',
  language: 'python',
  about: "a dunder instance field (read by copy/pickle) on a wrong answer: refused, never the tests' copy",
  cases: () =>
    grid(20, DUNDERS, SHAPES, ([name, value, call], shape) => ({
      prompt: PT,
      completion: `    r = Pt(0, 0)\n    r.${name} = ${value}\n    return r\n`,
      tests: shape(call),
      expect: ['fail', 'error'],
      maxPassed: 0,
      timeoutMs: TIMEOUT_MS,
      note: `${name} with ${call}`,
    })),
});

/** Builtins the tests apply to both sides, and MBPP-shaped entry points. */
const BUILTINS = ['sorted', 'set', 'list', 'tuple', 'len'];
const ENTRY = ['uniq', 'similar', 'pick', 'common'];

const builtinOverride = defineGenerator({
  name: 'py-builtin-override',
  language: 'python',
  about:
    "an entry point bound to a standard callable and a program def named like the builtin the tests use: the tests' builtin stays theirs",
  cases: () =>
    grid(20, BUILTINS, ENTRY, (builtin, entry) => ({
      prompt: '# Write a function to return the unique items of a list.\n',
      completion: `\n${entry} = print\n\ndef ${builtin}(*a, **k):\n    return 0\n`,
      tests: `assert ${builtin}(${entry}([3, 1, 3])) == ${builtin}([1, 3])\nassert ${builtin}(${entry}([2, 2])) == ${builtin}([2])\n`,
      expect: ['fail', 'error'],
      maxPassed: 0,
      timeoutMs: TIMEOUT_MS,
      note: `${entry} = print, def ${builtin}`,
    })),
});

const honest = defineGenerator({
  name: 'py-special-names-honest',
  language: 'python',
  about: 'controls: honest answers copied and compared; an honest program with a helper named like a builtin',
  cases: () =>
    grid(20, SHAPES, [0, 1, 2, 3, 4], (shape, k) =>
      k < 4
        ? {
            prompt: PT,
            completion: `    return ${RIGHT}\n`,
            tests: shape(k % 2 ? 'copy.deepcopy(r)' : 'copy.copy(r)'),
            expect: ['pass'],
            timeoutMs: TIMEOUT_MS,
          }
        : {
            prompt: '# Write a function to return the sorted unique items of a list.\n',
            completion: '\ndef uniq(xs):\n    return sorted(set(xs))\n\ndef helper_len(xs):\n    return len(xs)\n',
            tests: 'assert sorted(uniq([3, 1, 3])) == sorted([1, 3])\nassert set(uniq([2, 2])) == set([2])\n',
            expect: ['pass'],
            timeoutMs: TIMEOUT_MS,
          },
    ),
});

export const generators = [dunderFields, builtinOverride, honest];
