/**
 * Python: a prompt whose last definition is no stub (its body already holds code after the
 * docstring: `table = {...}`, `seen = set()`, a first guard) and a completion that goes on,
 * indented, inside it. The tests' interpreter took that definition for a helper of the prompt's
 * and ran its own unfinished copy: every honest program failed (its answers were the copy's
 * `None`), and a wrong one passed tests that a `None` satisfies. The definition the completion
 * goes on with is the program's now. Controls: honest programs pass; wrong twins fail; a
 * completion that starts a new top-level definition leaves a finished prompt helper the prompt's.
 */
import { defineGenerator, type TwinShape, twinPair, variants } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines. */
const TIMEOUT_MS = 8000;

const SHAPES: readonly TwinShape[] = [
  {
    prompt: 'def lookup(key):\n    """The value of key in the table, or -1."""\n    table = {"a": 1, "b": 2}\n',
    honest: '    return table.get(key, -1)\n',
    wrong: '    return table.get(key, 0)\n',
    tests: "assert lookup('a') == 1\nassert lookup('z') == -1\n",
  },
  {
    prompt: 'def dedupe(xs):\n    """xs without repeats, first occurrences kept in order."""\n    seen = set()\n    out = []\n',
    honest: '    for x in xs:\n        if x not in seen:\n            seen.add(x)\n            out.append(x)\n    return out\n',
    wrong: '    return sorted(set(xs))\n',
    tests: 'assert dedupe([3, 1, 3, 2, 1]) == [3, 1, 2]\nassert dedupe([]) == []\n',
  },
  {
    prompt: 'def safe_div(a, b):\n    """a / b, or None when b is 0."""\n    if b == 0:\n        return None\n',
    honest: '    return a / b\n',
    wrong: '    return a // b\n',
    tests: 'assert safe_div(1, 0) is None\nassert safe_div(7, 2) == 3.5\n',
  },
  {
    prompt: 'def warn(msg):\n    """Log msg; return nothing."""\n    prefix = "warning: "\n',
    honest: '    print(prefix + msg)\n',
    wrong: '    return prefix + msg\n',
    tests: "assert warn('x') is None\n",
  },
  {
    prompt:
      'class Counter2:\n    """Counts calls of hit()."""\n\n    def __init__(self):\n        self.n = 0\n\n    def hit(self):\n        self.n += 1\n',
    honest: '        return self.n\n',
    wrong: '        return self.n - 1\n',
    tests: 'c = Counter2()\nc.hit()\nassert c.hit() == 2\n',
  },
];

/** Spacing that keeps variants apart without changing them (a comment at column 0 is allowed). */
const pad = (i: number) => (i >= SHAPES.length * 2 ? '# the rest\n' : '') + '\n'.repeat(Math.floor(i / SHAPES.length) % 2);

export const generators = [
  ...twinPair({
    name: 'py-continued-prompts',
    language: 'python',
    about: "wrong completions going on inside the prompt's last, non-stub definition: fail",
    aboutHonest: "controls: honest completions going on inside the prompt's last, non-stub definition pass",
    n: 20,
    shapes: SHAPES,
    vary: (completion, i) => pad(i) + completion,
    timeoutMs: TIMEOUT_MS,
  }),
  defineGenerator({
    name: 'py-continued-prompts-helpers',
    language: 'python',
    about:
      "a finished helper the prompt ends with stays the prompt's: a completion rebinding it at top level does not change the tests' helper",
    cases: () =>
      variants(20, (i) => ({
        prompt: 'def double(x):\n    """Twice x (the tests use it too)."""\n    return 2 * x\n',
        completion:
          `${'\n'.repeat(i % 3)}def quad(x):\n    return double(double(x))\n` +
          (i % 2 ? '\n\ndef double(x):\n    return 0\n' : ''),
        tests: 'assert double(3) == 6\nassert quad(1) == 4\n',
        // Rebinding `double` to 0 also breaks the program's own quad: fail; else pass.
        expect: i % 2 ? ['fail'] : ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
];
