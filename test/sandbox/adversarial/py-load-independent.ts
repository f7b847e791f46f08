/**
 * Python generator: a verdict does not depend on the machine's load. Each program either does a
 * bounded amount of work (about half its CPU budget, measured on the 2-core development machine;
 * more than a third of it, so at a third of a CPU a wall-clock limit would stop it) and answers,
 * or never stops; each runs once as is and once while the sandbox workers get a third of the CPU
 * (see `loaded` in framework.ts). The time limit is the CPU time of the worker thread that runs the
 * interpreters (src/sandbox/cpu-budget.ts), so the bounded programs keep their verdict (`fail`
 * with one passed site, or `pass`) and the endless ones stay `timeout`. Under a wall-clock limit
 * the bounded ones became `timeout` when loaded. The shapes cover bytecode loops, recursion, the
 * regex engine, long builtins (sort, str.count, json, factorial), generators and C-level
 * iterator loops that run no bytecode at all.
 */
import { defineGenerator, loadIndependentCases } from './framework.ts';

/** CPU budget of these cases, ms: about twice what the bounded work needs. */
const BUDGET_MS = 600;

/** Bounded work of various shapes: the body of `work(n)` and the `n` to call it with. */
const BOUNDED: Array<{ body: string; n: number }> = [
  { body: 's = 0\n    for i in range(n):\n        s += i & 7\n    return s', n: 2_400_000 },
  { body: 's = i = 0\n    while i < n:\n        s ^= i * 31\n        i += 1\n    return s', n: 1_500_000 },
  { body: 'def fib(k):\n        return k if k < 2 else fib(k - 1) + fib(k - 2)\n    return fib(n)', n: 29 },
  { body: 'import re\n    return 1 if re.match(r"^(a+)+b$", "a" * n) else 0', n: 22 },
  { body: 'xs = [(i * 7919) % 100003 for i in range(n)]\n    xs.sort()\n    return xs[5]', n: 300_000 },
  { body: 't = 0\n    for k in range(90):\n        t += ("xy" * n).count("yx")\n    return t', n: 1_000_000 },
  {
    body: 'import json\n    a = [{"i": i, "s": str(i)} for i in range(n)]\n    return sum(len(json.dumps(a)) for _ in range(8))',
    n: 30_000,
  },
  {
    body: 't = 0\n    for r in range(8):\n        d = {"k%d" % i: i for i in range(n)}\n        t += len(d)\n    return t',
    n: 40_000,
  },
  { body: 'def g():\n        for i in range(n):\n            yield i\n    return sum(x for x in g())', n: 1_500_000 },
  { body: 'import math\n    return int(sum(math.sqrt(i) for i in range(n)))', n: 1_000_000 },
  { body: 'import math\n    return math.factorial(n) % 1000007', n: 100_000 },
  {
    body: 'import itertools\n    return sum(1 for _ in range(4) for _ in itertools.permutations(range(n)))',
    n: 9,
  },
];

/** Programs that never finish (or would take far beyond any budget): the body of `work(n)`. */
const ENDLESS: string[] = [
  'while True:\n        pass',
  'while True:\n        try:\n            n += 1\n        except Exception:\n            pass',
  'def f():\n        try:\n            return f() + 1\n        except RecursionError:\n            return f() + 1\n    return f()',
  'import re\n    return 1 if re.match(r"^(a+)+$", "a" * 40 + "!") else 0',
  'import itertools\n    for x in itertools.count():\n        n = x\n    return n',
  'def g():\n        while True:\n            yield 1\n    return sum(g())',
  's = 0\n    while True:\n        s += len("ab" * 10 ** 5)',
  'import time\n    t = time.time()\n    while time.time() < t + 10 ** 6:\n        pass\n    return 0',
  'import json\n    while True:\n        json.dumps(list(range(1000)))',
  'x = 3\n    while True:\n        x = x * x % (10 ** 100 + 7)',
  // Loops of builtins over C iterators: no bytecode runs at all.
  'return 1 if any(iter(int, 1)) else 0',
  'import itertools\n    return sum(itertools.repeat(1))',
];

function program(body: string): string {
  return `def work(n):\n    ${body}\n`;
}

/** Tests: one site that passes for any int, and (unless `honest`) one no answer meets. */
function tests(n: number, honest: boolean): string {
  return `r = work(${n})\nassert isinstance(r, int)\n${honest ? '' : 'assert r == -1\n'}`;
}

const loadIndependent = defineGenerator({
  name: 'py-load-independent',
  language: 'python',
  about: 'bounded work keeps its verdict and endless work stays `timeout` when the machine is loaded (CPU-time limits)',
  cases: () =>
    loadIndependentCases({
      budgetMs: BUDGET_MS,
      bounded: BOUNDED.map((b) => ({
        completion: program(b.body),
        tests: (honest: boolean) => tests(b.n, honest),
        note: b.body.split('\n')[0]!,
      })),
      endless: ENDLESS.map((body) => ({ completion: program(body), tests: tests(1, false), note: body.split('\n')[0]! })),
    }),
});

export const generators = [loadIndependent];
