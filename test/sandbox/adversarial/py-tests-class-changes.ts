/**
 * Python: a program changing a class of the tests' through the instance it was given
 * (`type(x).uses += 1`, `x.__class__.registry.append(...)`, a class attribute deleted or added, a
 * special method patched in).
 * The program holds a stand-in of the tests' class in its own interpreter: the change stayed on
 * the stand-in and the tests' check of their class passed (red-team rt70 Q21, rt64 Y14). Now the
 * stand-in's attributes are recorded as made, and a run whose program changed them is refused
 * when the program answers or calls back (sandbox/python/harness.py, `changed_class`), as a run
 * whose program changed what it cannot reach. Every case was run under CPython 3.11.7 as one file
 * (program, then tests): the wrong programs fail an assert, the controls pass.
 */
import { type AdversarialCase, defineGenerator, grid } from './framework.ts';

/** The tests' classes: [definition, expression making an instance]. Each has `base = 10`, `seen = []`, `v = 3` per instance. */
const CLASSES: readonly (readonly [string, string])[] = [
  [
    'class R:\n    base = 10\n    seen = []\n    def __init__(self):\n        self.v = 3\n    def total(self):\n        return self.v + type(self).base\n',
    'R()',
  ],
  [
    'from dataclasses import dataclass, field\n@dataclass\nclass R:\n    v: int = 3\n    base = 10\n    seen = []\n    def total(self):\n        return self.v + type(self).base\n',
    'R()',
  ],
  [
    'class Base:\n    base = 10\n    seen = []\nclass R(Base):\n    base = 10\n    seen = []\n    def __init__(self):\n        self.v = 3\n    def total(self):\n        return self.v + type(self).base\n',
    'R()',
  ],
];

/** Wrong programs: [body of `use(x)` (answers 3), the tests' check of their class after the call]. */
const WRONG: readonly (readonly [string, string])[] = [
  ['type(x).base += 1\n    return x.v', 'R.base == 10'],
  ['x.__class__.base = 0\n    return x.v', 'R.base == 10'],
  ['type(x).seen.append(1)\n    return x.v', 'R.seen == []'],
  ['type(x).seen += [1]\n    return x.v', 'len(R.seen) == 0'],
  ['del type(x).base\n    return x.v', "'base' in R.__dict__"],
  ['type(x).extra = 1\n    return x.v', "not hasattr(R, 'extra')"],
  ['setattr(type(x), "base", 11)\n    return x.v', 'R().total() == 13'],
  ['type(x).base = 0\n    r = x.total()\n    type(x).base = 10\n    return r - 10', 'R.base == 10 and use(R()) == 3'],
  // Special and `_sunder_` names: the class's behaviour, and data under names the enum module's look like.
  ['type(x).__eq__ = lambda a, b: True\n    return x.v', 'R() != 5'],
  ['type(x).__len__ = lambda self: 0\n    return x.v', "not hasattr(R(), '__len__')"],
  ['type(x)._seen_ = [1]\n    return x.v', "not hasattr(R, '_seen_')"],
  ["type(x).__doc__ = 'changed'\n    return x.v", "R.__doc__ != 'changed'"],
];

/** Honest programs: [body of `use(x)` (answers 3), the tests' check]. */
const HONEST: readonly (readonly [string, string])[] = [
  ['return x.v', 'R.base == 10'],
  ['return x.total() - type(x).base', 'R.seen == []'],
  ['return len(type(x).seen) + x.v', 'R.base == 10'],
  ['return x.v if isinstance(x, type(x)) else 0', 'R.base == 10'],
  ['y = type(x)()\n    return y.v', 'R.base == 10'],
  ['return getattr(type(x), "base") - 7', 'R.seen == []'],
  ['x.v = 3\n    return x.v', 'R.base == 10'],
];

/** [the tests' class definition, an expression making an instance]. */
type TestsClass = readonly [string, string];
/** [body of `use(x)`, the tests' check after the call]. */
type UseRow = readonly [string, string];

/**
 * A pair of generators over the tests' `classes`: `wrong` programs `use(x)` (refused or failing)
 * and `honest` ones (passing), each answering `answer` and followed by the tests' check.
 */
export function classUseGenerators(o: {
  name: string;
  about: readonly [string, string];
  classes: readonly TestsClass[];
  wrong: readonly UseRow[];
  honest: readonly UseRow[];
  answer: number;
  counts: readonly [number, number];
}) {
  const make =
    (expect: AdversarialCase['expect']) =>
    ([body, check]: UseRow, [cls, inst]: TestsClass): AdversarialCase => ({
      completion: `def use(x):\n    ${body}\n`,
      tests: `${cls}\nassert use(${inst}) == ${o.answer}\nassert ${check}\n`,
      expect,
    });
  return [
    defineGenerator({
      name: o.name,
      language: 'python',
      about: o.about[0],
      cases: () => grid(o.counts[0], o.wrong, o.classes, make(['fail', 'error'])),
    }),
    defineGenerator({
      name: `${o.name}-honest`,
      language: 'python',
      about: o.about[1],
      cases: () => grid(o.counts[1], o.honest, o.classes, make(['pass'])),
    }),
  ];
}

export const generators = classUseGenerators({
  name: 'py-tests-class-changes',
  about: [
    "wrong programs changing a class of the tests' through the instance they were given: refused (not a pass)",
    "controls: honest programs reading a class of the tests' through its instance pass",
  ],
  classes: CLASSES,
  wrong: WRONG,
  honest: HONEST,
  answer: 3,
  counts: [36, 21],
});
