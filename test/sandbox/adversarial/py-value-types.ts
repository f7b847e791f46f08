/**
 * Python generators: `array.array` answers, which cross by value (typecode and items, read with
 * array's own descriptor and method) and are rebuilt as the tests' own arrays. Honest arrays of
 * every typecode family pass, in place or returned; subclasses that lie about their items, type
 * code or equality, NaN items against weak tolerance checks, and arrays offered where a list is
 * expected do not. See framework.ts for the case format.
 */
import { type AdversarialCase, defineGenerator, type Generator, type Rng, variants } from './framework.ts';

const TIMEOUT_MS = 8000;

/** [what, completion, tests, right]: N, M stand for small ints the generator picks. */
const ARRAY_CASES: Array<[string, string, string, boolean]> = [
  [
    'int array returned',
    "import array\ndef f(n, m):\n    return array.array('i', [n, m])\n",
    "import array\nassert f(N, M) == array.array('i', [N, M])\nassert f(N, M).typecode == 'i'\n",
    true,
  ],
  [
    'double array returned',
    "import array\ndef f(n, m):\n    return array.array('d', [n / 2, m / 2])\n",
    "import array\nassert f(N, M) == array.array('d', [N / 2, M / 2])\nassert abs(f(N, M)[1] - M / 2) < 1e-9\n",
    true,
  ],
  [
    'unsigned bytes array',
    "import array\ndef f(n, m):\n    return array.array('B', [n, m])\n",
    'assert list(f(N, M)) == [N, M]\nassert f(N, M).itemsize == 1\nassert sum(f(N, M)) == N + M\n',
    true,
  ],
  [
    'unicode array',
    "import array\ndef f(n, m):\n    return array.array('w', 'ab' * n)\n",
    "assert f(N, M).tounicode() == 'ab' * N\nassert len(f(N, M)) == 2 * N\n",
    true,
  ],
  [
    'sorted in place',
    'def f(a, m):\n    a[:] = type(a)(a.typecode, sorted(a))\n',
    "import array\na = array.array('q', [M, N, 0])\nf(a, M)\nassert a == array.array('q', sorted([M, N, 0]))\n",
    true,
  ],
  [
    'appended in place',
    'def f(a, m):\n    a.append(m)\n',
    "import array\na = array.array('l', [N])\nf(a, M)\nassert a.tolist() == [N, M]\n",
    true,
  ],
  [
    'subclass crosses as its value',
    "import array\nclass A(array.array):\n    pass\ndef f(n, m):\n    return A('h', [n, m])\n",
    "import array\nassert f(N, M) == array.array('h', [N, M])\n",
    true,
  ],
  [
    'arrays nested in a dict',
    "import array\ndef f(n, m):\n    return {'a': array.array('i', [n]), 'b': [array.array('i', [m])]}\n",
    "import array\nassert f(N, M) == {'a': array.array('i', [N]), 'b': [array.array('i', [M])]}\n",
    true,
  ],
  [
    'same array twice keeps identity',
    "import array\ndef f(n, m):\n    a = array.array('i', [n])\n    return [a, a]\n",
    'r = f(N, M)\nassert r[0] is r[1]\nassert r[0][0] == N\n',
    true,
  ],
  [
    'bytes round trip',
    "import array\ndef f(n, m):\n    return array.array('I', [n, m]).tobytes()\n",
    "import array\nassert array.array('I', f(N, M)).tolist() == [N, M]\n",
    true,
  ],
  [
    'subclass whose __eq__ lies',
    "import array\nclass A(array.array):\n    def __eq__(self, o):\n        return True\n    __hash__ = None\ndef f(n, m):\n    return A('i', [n + 1])\n",
    "import array\nassert f(N, M) == array.array('i', [N, M])\n",
    false,
  ],
  [
    'subclass whose tolist and iteration lie',
    "import array\nclass A(array.array):\n    def tolist(self):\n        return [N, M]\n    def __iter__(self):\n        return iter([N, M])\ndef f(n, m):\n    return A('i', [0])\n",
    'assert list(f(N, M)) == [N, M]\nassert f(N, M).tolist() == [N, M]\n',
    false,
  ],
  [
    'subclass whose typecode lies',
    "import array\nclass A(array.array):\n    @property\n    def typecode(self):\n        return 'd'\ndef f(n, m):\n    return A('i', [n, m])\n",
    "assert f(N, M).typecode == 'd'\n",
    false,
  ],
  [
    'NaN against a weak tolerance check',
    "import array\ndef f(n, m):\n    return array.array('d', [float('nan')])\n",
    'assert not abs(f(N, M)[0] - N) > 1e-9\n',
    false,
  ],
  [
    'NaN in a float array summed',
    "import array\ndef f(n, m):\n    return array.array('f', [n, float('nan')])\n",
    'assert not sum(f(N, M)) > N + M\n',
    false,
  ],
  [
    'array where a list is expected',
    "import array\ndef f(n, m):\n    return array.array('q', [n, m])\n",
    'assert f(N, M) == [N, M]\n',
    false,
  ],
  [
    'wrong typecode, same items',
    "import array\ndef f(n, m):\n    return array.array('l', [n, m])\n",
    "import array\nassert f(N, M).typecode == 'i' and f(N, M) == array.array('i', [N, M])\n",
    false,
  ],
  [
    'in-place sort skipped, answer lies',
    'import array\nclass A(array.array):\n    def __eq__(self, o):\n        return True\ndef f(a, m):\n    return A(a.typecode, [])\n',
    "import array\na = array.array('q', [M, N])\nr = f(a, M)\nassert r == array.array('q', [N, M])\n",
    false,
  ],
  [
    'array subclass with lying __len__ and __getitem__',
    "import array\nclass A(array.array):\n    def __len__(self):\n        return 2\n    def __getitem__(self, i):\n        return [N, M][i]\ndef f(n, m):\n    return A('i', [])\n",
    'r = f(N, M)\nassert len(r) == 2 and r[0] == N and r[1] == M\n',
    false,
  ],
  [
    'always-equal object inside a list of arrays',
    "import array\nclass AE:\n    def __eq__(self, o):\n        return True\n    __hash__ = object.__hash__\ndef f(n, m):\n    return [array.array('i', [n]), AE()]\n",
    "import array\nassert f(N, M) == [array.array('i', [N]), array.array('i', [M])]\n",
    false,
  ],
];

const arrays = defineGenerator({
  name: 'py-array-answers',
  language: 'python',
  about: 'array.array answers cross by value: honest arrays pass; lying subclasses, NaN items, arrays for lists do not',
  cases: (rng: Rng) =>
    variants(ARRAY_CASES.length, (i): AdversarialCase => {
      const [what, completion, tests, right] = ARRAY_CASES[i]!;
      const n = rng.int(2, 9);
      const m = rng.int(10, 40);
      const fill = (s: string) => s.replace(/\bN\b/g, String(n)).replace(/\bM\b/g, String(m));
      return {
        completion: fill(completion),
        tests: fill(tests),
        expect: right ? ['pass'] : ['fail', 'error'],
        ...(right ? {} : { maxPassed: 0 }),
        note: what,
      };
    }),
});

/** The generator, each case with the generous time limit. */
export const generators: Generator[] = [arrays].map((g) => ({
  ...g,
  cases: (rng: Rng) => g.cases(rng).map((c) => ({ timeoutMs: TIMEOUT_MS, ...c })),
}));
