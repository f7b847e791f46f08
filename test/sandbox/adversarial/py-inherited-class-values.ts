/**
 * Python (red-team rt71 PH01): class attributes a class of the tests' inherits from a base of
 * theirs. The program's stand-in for the class carried the class's own attributes only, so an
 * honest program reading `x.unit` or `type(x).unit`, where `unit = 5` lives on the tests' base
 * class, raised AttributeError. Now the stand-in carries the data attributes of the tests' own
 * classes along the MRO, the nearest first (sandbox/python/harness.py, `_class_values`), and a
 * program changing one through the instance it was given is refused as for the class's own
 * (`changed_class`; py-tests-class-changes). Every case was run under CPython 3.11.7 as one file
 * (program, then tests): the honest programs pass, the wrong ones fail an assert.
 */
import { classUseGenerators } from './py-tests-class-changes.ts';

/** The tests' classes: [definition, expression making an instance]. `unit` 5 and `tags` ('a',) are inherited; `v` is 2 per instance. */
const CLASSES: readonly (readonly [string, string])[] = [
  ['class Base:\n    unit = 5\n    tags = ("a",)\nclass R(Base):\n    def __init__(self):\n        self.v = 2\n', 'R()'],
  [
    'class Root:\n    unit = 5\nclass Mid(Root):\n    tags = ("a",)\nclass R(Mid):\n    def __init__(self):\n        self.v = 2\n',
    'R()',
  ],
  [
    'from dataclasses import dataclass\nclass Base:\n    unit = 5\n    tags = ("a",)\n@dataclass\nclass R(Base):\n    v: int = 2\n',
    'R()',
  ],
  [
    'class Base:\n    unit = 1\n    tags = ("a",)\nclass Mid(Base):\n    unit = 5\nclass R(Mid):\n    def __init__(self):\n        self.v = 2\n',
    'R()',
  ],
];

/** Honest programs: [body of `use(x)` (answers 10), the tests' check after the call]. */
const HONEST: readonly (readonly [string, string])[] = [
  ['return x.v * x.unit', 'R.unit == 5'],
  ['return x.v * type(x).unit', "R.tags == ('a',)"],
  ['return len(x.tags) * 10', 'R.unit == 5'],
  ['return getattr(x, "unit") * 2', "R.tags == ('a',)"],
  ['return (x.unit + len(type(x).tags)) + 4', 'R.unit == 5'],
  ['return 10 if hasattr(type(x), "unit") else 0', 'R.unit == 5'],
];

/** Wrong programs: [body of `use(x)` (answers 10), the tests' check of their class after the call]. */
const WRONG: readonly (readonly [string, string])[] = [
  ['type(x).unit = 7\n    return x.v * 5', 'R.unit == 5'],
  ['type(x).unit += 1\n    return x.v * 5', 'R().unit == 5'],
  ['setattr(type(x), "tags", ())\n    return 10', "R.tags == ('a',)"],
  ['x.__class__.unit = 0\n    return 10', 'R().v * R.unit == 10'],
  ['type(x).tags = type(x).tags + ("b",)\n    return 10', 'len(R.tags) == 1'],
];

export const generators = classUseGenerators({
  name: 'py-inherited-class-values',
  about: [
    "wrong programs changing a class attribute a class of the tests' inherits: refused (not a pass)",
    "controls: honest programs reading class attributes a class of the tests' inherits pass",
  ],
  classes: CLASSES,
  wrong: WRONG,
  honest: HONEST,
  answer: 10,
  counts: [20, 24],
});
