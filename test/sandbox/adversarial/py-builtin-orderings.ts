/**
 * Python (issue 25): a NaN through a comparison a builtin makes on the tests' behalf. `min()`,
 * `max()` and `sorted()` compare with `<`, false for NaN, so a NaN the tests made themselves
 * (`float(v)` over the answer's text, `struct.unpack` over its bytes) is skipped or left in place:
 * `max(abs(a - b) for ...) <= eps` passes an answer with a NaN in the middle, `xs == sorted(xs)`
 * (or `list.sort()`) an unsorted one, `min(xs) >= lo and max(xs) <= hi` one out of range. The
 * tests' own `<` is guarded; their min/max/sorted and a list's `sort()` now refuse a NaN they
 * compare (an item or its key) the same way when the tests never mention NaN. Controls: right answers, NaN where the tests mention it, and
 * infinities (which these builtins order correctly: not refused by them).
 */
import { type AdversarialCase, scoredPair } from './framework.ts';

const TIMEOUT_MS = 8000;

/** How the program writes an answer item (a number's text), an item that reads as NaN, and how the tests read `v`. */
const SOURCES: Array<{ item: (n: string) => string; bad: string; read: (v: string) => string }> = [
  { item: (n) => `"${n}"`, bad: '"nan"', read: (v) => `float(${v})` },
  { item: (n) => `" ${n} "`, bad: '" NaN "', read: (v) => `float(${v})` },
  { item: (n) => `"${n}"`, bad: '"-nan"', read: (v) => `float(${v}.strip())` },
  {
    item: (n) => `struct.pack("<d", ${n})`,
    bad: 'struct.pack("<d", float("n" + "an"))',
    read: (v) => `struct.unpack("<d", ${v})[0]`,
  },
  { item: (n) => `"${n}"`, bad: '"+NaN"', read: (v) => `float(${v}) * 1.0` },
];

/** Tests the right answer 1, 2, 3 (in `right` order) passes; a wrong one has the NaN in the middle of `ends`. */
const SHAPES: Array<{ tests: (read: (v: string) => string) => string; ends: [string, string]; right: string[]; note: string }> = [
  {
    tests: (r) => `xs = [${r('v')} for v in f()]\nassert xs == sorted(xs)\n`,
    ends: ['3.0', '1.0'],
    right: ['1.0', '2.0', '3.0'],
    note: 'is it sorted: sorted',
  },
  {
    tests: (r) => `errs = [abs(${r('v')} - e) for v, e in zip(f(), [1.0, 2.0, 3.0])]\nassert max(errs) <= 1e-9\n`,
    ends: ['1.0', '3.0'],
    right: ['1.0', '2.0', '3.0'],
    note: 'the largest error: max of a list',
  },
  {
    tests: (r) => `assert max(abs(${r('v')} - e) for v, e in zip(f(), [1.0, 2.0, 3.0])) <= 1e-9\n`,
    ends: ['1.0', '3.0'],
    right: ['1.0', '2.0', '3.0'],
    note: 'the largest error: max of a generator',
  },
  {
    tests: (r) => `xs = [${r('v')} for v in f()]\nassert len(xs) == 3 and min(xs) >= 1 and max(xs) <= 3\n`,
    ends: ['1.0', '3.0'],
    right: ['1.0', '2.0', '3.0'],
    note: 'in range: min and max',
  },
  {
    tests: (r) =>
      `pairs = [(${r('v')}, i) for i, v in enumerate(f())]\nassert [i for _, i in sorted(pairs, key=lambda p: p[0], reverse=True)] == [0, 1, 2]\n`,
    ends: ['3.0', '1.0'],
    right: ['3.0', '2.0', '1.0'],
    note: 'sorted by a key',
  },
  {
    tests: (r) => `xs = [${r('v')} for v in f()]\nys = list(xs)\nys.sort()\nassert ys == xs\n`,
    ends: ['3.0', '1.0'],
    right: ['1.0', '2.0', '3.0'],
    note: 'is it sorted: list.sort()',
  },
];

const CONTROLS: AdversarialCase[] = [
  {
    completion: 'def f():\n    return ["2", "1"]\n',
    tests:
      'class Box:\n    def __init__(self, v):\n        self.v = v\n\n    def sort(self, key=None):\n        return sorted(self.v, key=key)\n\n' +
      'assert Box([float(v) for v in f()]).sort() == [1.0, 2.0]\nxs = [(float(v), v) for v in f()]\nxs.sort(key=lambda p: -p[0])\nassert xs[0][1] == "2"\n',
    expect: ['pass'],
    timeoutMs: TIMEOUT_MS,
  },
  {
    completion: 'def f():\n    return ["3", "nan", "1"]\n',
    tests: 'import math\nxs = [float(v) for v in f()]\nassert xs == sorted(xs) and math.isnan(xs[1])\n',
    expect: ['pass'],
    timeoutMs: TIMEOUT_MS,
  },
  {
    completion: 'def f():\n    return ["1", "inf"]\n',
    tests: 'xs = [float(v) for v in f()]\nassert sorted(xs, reverse=True)[1] == 1 and min(xs) == 1 and len(xs) == 2\n',
    expect: ['pass'],
    timeoutMs: TIMEOUT_MS,
  },
  {
    completion: 'def f():\n    return ["b", "c", "a"]\n',
    tests: 'assert sorted(f()) == ["a", "b", "c"]\nassert max(f(), key=len) == "b"\nassert min(3, 1, 2) == 1\n',
    expect: ['pass'],
    timeoutMs: TIMEOUT_MS,
  },
];

export const generators = scoredPair({
  name: 'py-builtin-orderings',
  language: 'python',
  about: 'a NaN through min(), max() or sorted() of the tests: never a pass',
  aboutHonest: 'control: right answers pass; NaN where the tests mention it; infinities; plain min/max/sorted',
  n: 30,
  sources: SOURCES,
  shapes: SHAPES.map((s) => ({ ...s, passed: 0, gold: 0 })),
  build: (src, shape, right) => {
    const items = right ? shape.right.map(src.item) : [src.item(shape.ends[0]), src.bad, src.item(shape.ends[1])];
    return {
      completion: `import struct\n\ndef f():\n    return [${items.join(', ')}]\n`,
      tests: `import struct\n${shape.tests(src.read)}`,
      note: right ? 'right' : src.bad,
    };
  },
  common: { timeoutMs: TIMEOUT_MS },
  controls: CONTROLS,
});
