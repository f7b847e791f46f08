/**
 * Python: what the tests read on an exception the program raised. It came in to the tests as its
 * class made again from `args` alone: fields a class sets in `__init__` (`self.code = code`),
 * notes (`add_note`), a builtin's members not kept in `args` (`FileNotFoundError(2, msg,
 * 'a.txt').filename`) and `__cause__` (`raise ValueError(...) from err`) were lost, and a class
 * whose `__init__` takes other arguments than it stores (`def __init__(self, a, b):
 * super().__init__(f'{a}-{b}')`) arrived as a RuntimeError. Now the exception is made as its
 * builtin base makes it, its own fields and members cross as data, and its cause comes with it.
 * Members of the program's IntEnum and StrEnum crossed as their int or str (`f(1) is C.R` failed):
 * they cross as members now. Controls: honest programs pass; wrong twins fail.
 */
import { type TwinShape, twinPair } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines. */
const TIMEOUT_MS = 8000;

const handled = (call: string, cls: string, checks: string) =>
  `try:\n    ${call}\nexcept ${cls} as e:\n${checks
    .split('\n')
    .filter(Boolean)
    .map((l) => `    ${l}\n`)
    .join('')}else:\n    assert False, 'no exception'\n`;

const SHAPES: readonly TwinShape[] = [
  {
    // A function of the program in a field named like the prompt's method is not the method.
    prompt:
      'class AppError(Exception):\n    def __init__(self, code):\n        super().__init__("app")\n        self.code = code\n\n    def fatal(self):\n        return self.code >= 500\n\n\ndef run(x):\n    """Raise AppError(503) for a negative x, else return x."""\n',
    honest: '    if x < 0:\n        raise AppError(503)\n    return x\n',
    wrong: '    if x < 0:\n        e = AppError(200)\n        e.fatal = lambda: True\n        raise e\n    return x\n',
    tests: handled('run(-1)', 'AppError', 'assert e.fatal()'),
  },
  {
    prompt:
      'class ParseError(Exception):\n    def __init__(self, code):\n        super().__init__("parse error")\n        self.code = code\n\n\ndef parse(s):\n    """Raise ParseError(len(s)) for a non-numeric s, else return int(s)."""\n',
    honest: '    if not s.isdigit():\n        raise ParseError(len(s))\n    return int(s)\n',
    wrong: '    if not s.isdigit():\n        raise ParseError(0)\n    return int(s)\n',
    tests: handled("parse('abc')", 'ParseError', 'assert e.code == 3\nassert str(e) == "parse error"'),
  },
  {
    prompt:
      'class RangeErr(ValueError):\n    def __init__(self, lo, hi):\n        super().__init__(f"{lo}..{hi}")\n        self.lo, self.hi = lo, hi\n\n\ndef check(x, lo, hi):\n    """Return x if lo <= x <= hi, else raise RangeErr(lo, hi)."""\n',
    honest: '    if not lo <= x <= hi:\n        raise RangeErr(lo, hi)\n    return x\n',
    wrong: '    if not lo <= x <= hi:\n        raise RangeErr(hi, lo)\n    return x\n',
    tests: handled(
      'check(9, 1, 5)',
      'ValueError',
      'assert isinstance(e, RangeErr)\nassert (e.lo, e.hi) == (1, 5)\nassert e.args == ("1..5",)',
    ),
  },
  {
    prompt: 'def to_int(s):\n    """int(s), or ValueError("bad number") raised from the original error."""\n',
    honest: '    try:\n        return int(s)\n    except ValueError as err:\n        raise ValueError("bad number") from err\n',
    wrong: '    try:\n        return int(s)\n    except ValueError:\n        raise ValueError("bad number") from None\n',
    tests: handled("to_int('x')", 'ValueError', 'assert str(e) == "bad number"\nassert isinstance(e.__cause__, ValueError)'),
  },
  {
    prompt: 'def load(path):\n    """Raise FileNotFoundError(2, "No such file", path): nothing exists."""\n',
    honest: '    raise FileNotFoundError(2, "No such file", path)\n',
    wrong: '    raise FileNotFoundError(2, "No such file")\n',
    tests: handled("load('a.txt')", 'OSError', 'assert e.errno == 2\nassert e.filename == "a.txt"'),
  },
  {
    prompt: 'def validate(xs):\n    """Raise ValueError("invalid") with a note naming the first negative item."""\n',
    honest:
      '    for x in xs:\n        if x < 0:\n            e = ValueError("invalid")\n            e.add_note(f"item {x}")\n            raise e\n',
    wrong: '    for x in xs:\n        if x < 0:\n            raise ValueError("invalid")\n',
    tests: handled('validate([1, -2, -3])', 'ValueError', 'assert getattr(e, "__notes__", None) == ["item -2"]'),
  },
  {
    prompt:
      'class AppError(Exception):\n    pass\n\n\ndef run(cmd):\n    """AppError("failed"), caused by the KeyError of an unknown cmd."""\n    table = {"a": 1}\n',
    honest: '    try:\n        return table[cmd]\n    except KeyError as k:\n        raise AppError("failed") from k\n',
    wrong: '    if cmd not in table:\n        raise AppError("failed")\n    return table[cmd]\n',
    tests: handled("run('z')", 'AppError', 'assert type(e.__cause__) is KeyError\nassert e.__cause__.args == ("z",)'),
  },
  {
    prompt:
      'from enum import IntEnum\n\n\nclass Level(IntEnum):\n    LOW = 1\n    HIGH = 2\n\n\ndef level(x):\n    """Level.HIGH for x > 10, else Level.LOW."""\n',
    honest: '    return Level.HIGH if x > 10 else Level.LOW\n',
    wrong: '    return 2 if x > 10 else 1\n',
    tests: 'assert level(11) is Level.HIGH\nassert level(3) is Level.LOW\nassert level(3) == 1\n',
  },
  {
    prompt:
      'from enum import StrEnum\n\n\nclass Side(StrEnum):\n    LEFT = "l"\n    RIGHT = "r"\n\n\ndef side(x):\n    """Side.LEFT for x < 0, else Side.RIGHT."""\n',
    honest: '    return Side.LEFT if x < 0 else Side.RIGHT\n',
    wrong: '    return "l" if x < 0 else "r"\n',
    tests: 'assert isinstance(side(-1), Side)\nassert side(-1) is Side.LEFT and side(1) == "r"\n',
  },
];

export const generators = twinPair({
  name: 'py-exception-fields',
  language: 'python',
  about: 'wrong twins (wrong field, no cause, no member, plain value for an enum member): fail',
  aboutHonest: 'controls: honest programs whose exceptions (fields, notes, members, causes) or enum members the tests read pass',
  n: 27,
  shapes: SHAPES,
  // Trailing blank lines keep the variants apart without changing them.
  vary: (completion, i) => completion + '\n'.repeat(Math.floor(i / SHAPES.length)),
  timeoutMs: TIMEOUT_MS,
});
