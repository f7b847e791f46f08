/**
 * Python (red-team rt7-py K06_h, K07_h): tests that read more of the entry point than its calls.
 * In the tests' interpreter the entry point is a forwarder, so `inspect.getsource(fact)` ("must
 * be recursive") raised OSError and `fact.cache_info()` of an `lru_cache` entry point raised
 * AttributeError: honest programs failed. The forwarder now carries the program's source text
 * (plain data, served by the tests' own linecache) and forwards the methods the tests name.
 * Controls: honest programs pass. Twins: an iterative program fails a "must be recursive" check,
 * a wrong value fails with the cache read, and an entry point without a cache fails its
 * `cache_info()` read, as under CPython.
 */
import { type AdversarialCase, defineGenerator, grid, type Rng } from './framework.ts';

const NAMES = ['fact', 'factorial', 'fac', 'bang', 'prod_to'];
const prompt = (f: string) => `def ${f}(n):\n    """Return n! for an int n >= 0."""\n`;
const recursive = (f: string) => `    return 1 if n < 2 else n * ${f}(n - 1)\n`;
const iterative = '    r = 1\n    for i in range(2, n + 1):\n        r *= i\n    return r\n';
const cached = (f: string, body: string) => `${body}\nimport functools\n${f} = functools.lru_cache(maxsize=None)(${f})\n`;
const wrongRecursive = (f: string) => `    return 1 if n < 2 else n * ${f}(n - 2)\n`;

/** Tests reading the source: `f(` after the signature, or the recursion by line. */
const SOURCE_TESTS: ReadonlyArray<(f: string, rng: Rng) => string> = [
  (f) => `import inspect\nassert '${f}(' in inspect.getsource(${f}).split(':', 1)[1]\nassert ${f}(5) == 120\n`,
  (f) =>
    `import inspect\nsrc = inspect.getsource(${f})\nassert src.startswith('def ${f}')\nassert src.count('${f}(') >= 2\nassert ${f}(6) == 720\n`,
  (f, rng) =>
    `from inspect import getsourcelines\nlines, start = getsourcelines(${f})\nassert start == 1\nassert any('${f}(n - 1)' in line for line in lines[1:])\nassert ${f}(${rng.int(3, 7)}) > 1\n`,
  (f) =>
    `import inspect, ast\ntree = ast.parse(inspect.getsource(${f}))\ncalls = [c for c in ast.walk(tree) if isinstance(c, ast.Call) and getattr(c.func, 'id', '') == '${f}']\nassert calls, 'must be recursive'\nassert ${f}(4) == 24\n`,
];

/** Tests reading the cache of an `lru_cache` entry point. */
const CACHE_TESTS: ReadonlyArray<(f: string, rng: Rng) => string> = [
  (f) => `assert ${f}(20) == 2432902008176640000\nassert ${f}(21) == 51090942171709440000\nassert ${f}.cache_info().hits >= 1\n`,
  (f) => `${f}(10)\n${f}.cache_clear()\nassert ${f}.cache_info().currsize == 0\nassert ${f}(5) == 120\n`,
  (f, rng) =>
    `n = ${rng.int(8, 12)}\nassert ${f}(n) == __import__('math').factorial(n)\ninfo = ${f}.cache_info()\nassert info.misses >= 1\nassert info.maxsize is None\n`,
];

const honest = defineGenerator({
  name: 'py-function-reads',
  language: 'python',
  about: "controls: tests reading the entry point's source or its lru_cache methods pass honest programs",
  cases: (rng) => [
    ...grid(
      12,
      SOURCE_TESTS,
      NAMES,
      (t, f, i): AdversarialCase => ({
        prompt: prompt(f),
        completion: i % 3 === 2 ? cached(f, recursive(f)) : recursive(f),
        tests: t(f, rng),
        expect: ['pass'],
        note: `source read ${i % SOURCE_TESTS.length}${i % 3 === 2 ? ', lru_cache' : ''}`,
      }),
    ),
    ...grid(
      12,
      CACHE_TESTS,
      NAMES,
      (t, f, i): AdversarialCase => ({
        prompt: prompt(f),
        completion: cached(f, recursive(f)),
        tests: t(f, rng),
        expect: ['pass'],
        note: `cache read ${i % CACHE_TESTS.length}`,
      }),
    ),
  ],
});

const wrong = defineGenerator({
  name: 'py-function-reads-wrong',
  language: 'python',
  about: 'iterative programs fail a recursion check, wrong values and uncached entry points fail the cache reads',
  cases: (rng) => [
    ...grid(
      8,
      SOURCE_TESTS,
      NAMES,
      (t, f, i): AdversarialCase => ({
        prompt: prompt(f),
        completion: i % 2 === 0 ? iterative : cached(f, iterative),
        tests: t(f, rng),
        expect: ['fail'],
        note: `source read ${i % SOURCE_TESTS.length}, iterative${i % 2 === 0 ? '' : ', lru_cache'}`,
      }),
    ),
    ...grid(
      6,
      CACHE_TESTS,
      NAMES,
      (t, f, i): AdversarialCase => ({
        prompt: prompt(f),
        completion: cached(f, wrongRecursive(f)),
        tests: t(f, rng),
        expect: ['fail'],
        note: `cache read ${i % CACHE_TESTS.length}, wrong value`,
      }),
    ),
    ...grid(
      6,
      CACHE_TESTS,
      NAMES,
      (t, f, i): AdversarialCase => ({
        prompt: prompt(f),
        completion: recursive(f),
        tests: t(f, rng),
        expect: ['fail', 'error'],
        note: `cache read ${i % CACHE_TESTS.length}, no cache`,
      }),
    ),
  ],
});

export const generators = [honest, wrong];
