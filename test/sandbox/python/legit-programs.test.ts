/**
 * Legitimate Python programs must pass in the sandbox, so the defences do not cost correct
 * solutions: classes, dataclasses, generators, closures, recursion, comprehensions, the common
 * standard-library modules, exceptions caught inside the solution, printing, unicode, big ints,
 * floats, sorting with keys, regex, typing annotations, a raised recursion limit — and statuses
 * and counts are right for failing, erroring and syntactically broken programs.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { pyExecutor, runPy } from './helpers.ts';

const LEGIT: Record<string, [string, string]> = {
  classes: [
    'class Stack:\n    def __init__(self):\n        self.xs = []\n    def push(self, x):\n        self.xs.append(x)\n    def pop(self):\n        return self.xs.pop()\n',
    's = Stack()\ns.push(1)\ns.push(2)\nassert s.pop() == 2\nassert s.pop() == 1\n',
  ],
  dataclass: [
    'from dataclasses import dataclass, field\n@dataclass(order=True)\nclass P:\n    x: int\n    y: int = 0\n    tags: list = field(default_factory=list)\n',
    'assert sorted([P(2), P(1, 5)])[0] == P(1, 5)\n',
  ],
  namedtuple: [
    'from collections import namedtuple, Counter, defaultdict, deque, OrderedDict\nPt = namedtuple("Pt", "x y")\ndef f(xs):\n    return Counter(xs).most_common(1)[0][0]\n',
    'assert f("abracadabra") == "a"\nassert Pt(1, 2).y == 2\nd = deque([1, 2])\nd.appendleft(0)\nassert list(d) == [0, 1, 2]\n',
  ],
  generators: [
    'def gen(n):\n    for i in range(n):\n        yield i * i\n',
    'assert list(gen(4)) == [0, 1, 4, 9]\nassert sum(x for x in gen(10) if x % 2) == 165\n',
  ],
  closures: [
    'def counter():\n    n = 0\n    def inc():\n        nonlocal n\n        n += 1\n        return n\n    return inc\n',
    'c = counter()\nc()\nassert c() == 2\n',
  ],
  recursion: [
    'import sys\nsys.setrecursionlimit(5000)\ndef fact(n):\n    return 1 if n == 0 else n * fact(n - 1)\n',
    'assert fact(20) == 2432902008176640000\nassert len(str(fact(1000))) == 2568\n',
  ],
  stdlib: [
    'import math, itertools, functools, heapq, bisect, re, string, fractions, decimal, statistics, operator, copy, hashlib, json\n@functools.lru_cache(maxsize=None)\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n',
    'assert fib(80) == 23416728348467685\nassert list(itertools.permutations("ab")) == [("a", "b"), ("b", "a")]\nassert heapq.nsmallest(2, [5, 1, 3]) == [1, 3]\nassert bisect.bisect([1, 2, 4], 3) == 2\nassert re.findall(r"\\d+", "a1b22") == ["1", "22"]\nassert math.isclose(math.sqrt(2) ** 2, 2)\nassert fractions.Fraction(1, 3) + fractions.Fraction(1, 6) == fractions.Fraction(1, 2)\nassert hashlib.md5(b"x").hexdigest() == "9dd4e461268c8034f5c8564e155c67a6"\nassert json.loads(json.dumps({"a": [1]})) == {"a": [1]}\nassert statistics.median([3, 1, 2]) == 2\n',
  ],
  exceptions: [
    'def safe_div(a, b):\n    try:\n        return a / b\n    except ZeroDivisionError:\n        return None\n    finally:\n        pass\n',
    'assert safe_div(1, 0) is None\nassert safe_div(4, 2) == 2\ntry:\n    raise KeyError("k")\nexcept KeyError as e:\n    assert "k" in str(e)\n',
  ],
  printing: ['def f():\n    print("hello", 1, [2])\n    return "ok"\n', 'assert f() == "ok"\n'],
  unicode: ['def rev(s):\n    return s[::-1]\n', 'assert rev("héllo ✓") == "✓ olléh"\nassert len("日本語") == 3\n'],
  typing: [
    'from typing import List, Optional, Dict\ndef f(xs: List[int], d: Optional[Dict[str, int]] = None) -> int:\n    return sum(xs)\n',
    'assert f([1, 2, 3]) == 6\n',
  ],
  'sort-key': [
    'def f(words):\n    return sorted(words, key=lambda w: (len(w), w))\n',
    'assert f(["bb", "a", "ab"]) == ["a", "ab", "bb"]\n',
  ],
  'random-seeded': [
    'import random\ndef f():\n    random.seed(1)\n    return [random.randint(0, 9) for _ in range(3)]\n',
    'assert f() == f()\n',
  ],
  'string-format': ['def f(x):\n    return f"{x:.2f}|{x!r}|{x:>6}"\n', 'assert f(1.5) == "1.50|1.5|   1.5"\n'],
  'global-state': [
    'COUNT = 0\ndef bump():\n    global COUNT\n    COUNT += 1\n    return COUNT\n',
    'bump()\nassert bump() == 2\n',
  ],
  'stdin-eof': [
    'def f():\n    try:\n        return input()\n    except EOFError:\n        return None\n',
    'assert f() is None\n',
  ],
  'mbpp-style-top-level': [
    'def add(a, b):\n    return a + b\n',
    'assert add(1, 2) == 3\nassert add(2, 2) == 4\nassert add(0, 0) == 0\n',
  ],
};

// Python workers boot Pyodide and some attacks force a reboot: generous on a loaded 2-core CI.
describe('python sandbox: legitimate programs', { timeout: 180_000 }, () => {
  const ex = pyExecutor({ timeoutMs: 5000 });
  afterAll(() => ex.close());

  it('legitimate programs pass with their assertions counted', async () => {
    const rs = await runPy(
      ex,
      Object.entries(LEGIT).map(([id, [code, tests]]) => [id, code, tests]),
    );
    for (const id of Object.keys(LEGIT)) expect(rs[id]!.status, `${id}: ${JSON.stringify(rs[id])}`).toBe('pass');
    expect(rs['mbpp-style-top-level']!.passed).toBe(3);
    expect(rs['mbpp-style-top-level']!.total).toBe(3);
    expect(rs.printing!.stdout).toBe('hello 1 [2]\n');
  });

  it('failing, erroring and broken programs get the right status and counts', async () => {
    const rs = await runPy(ex, [
      [
        'second-assert-fails',
        'def add(a, b):\n    return 3\n',
        'assert add(1, 2) == 3\nassert add(2, 2) == 4, "two plus two"\nassert add(0, 0) == 0\n',
      ],
      ['name-error', 'def add(a, b):\n    return c\n', 'assert add(1, 2) == 3\n'],
      ['syntax-code', 'def add(a, b)\n    return a + b\n', 'assert add(1, 2) == 3\n'],
      ['syntax-tests', 'def add(a, b):\n    return a + b\n', 'assert add(1, 2) ==\n'],
      ['indent', 'def add(a, b):\nreturn a + b\n', 'assert add(1, 2) == 3\n'],
      ['no-asserts', 'def add(a, b):\n    return a + b\n', 'add(1, 2)\n'],
    ]);
    expect(rs['second-assert-fails']!.status).toBe('fail');
    expect(rs['second-assert-fails']!.passed).toBe(1);
    expect(rs['second-assert-fails']!.total).toBe(3);
    expect(rs['second-assert-fails']!.error).toMatch(/two plus two/);
    expect(rs['name-error']!.status).toBe('error');
    expect(rs['name-error']!.error).toMatch(/NameError/);
    expect(rs['syntax-code']!.status).toBe('syntax_error');
    expect(rs['syntax-tests']!.status).toBe('syntax_error');
    expect(rs.indent!.status).toBe('syntax_error');
    expect(rs['no-asserts']!.status).toBe('fail');
    expect(rs['no-asserts']!.error).toMatch(/no assertion ran/);
    expect(rs['no-asserts']!.code).toBe('tests_not_run');
  });
});
