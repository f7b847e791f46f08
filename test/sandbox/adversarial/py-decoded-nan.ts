/**
 * Python: a NaN hidden where the boundary sees only data — bytes the tests decode with `struct`,
 * `array` or `memoryview.cast`, a string they parse with `float()` — against tolerance checks
 * written as negations (every ordering with NaN is false). The strict verdict guards the tests'
 * own ordering comparisons when neither the tests nor the prompt mention NaN. Controls: honest
 * bytes and strings decoded to finite floats, NaN where the tests ask with math.isnan.
 */
import { defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 8000;

/** How the completion hides a NaN, and how the tests decode the answer `R`. */
const HIDDEN: Array<[string, string]> = [
  ['struct.pack("<d", float("nan"))', 'struct.unpack("<d", R)[0]'],
  ['struct.pack(">f", float("nan"))', 'struct.unpack(">f", R)[0]'],
  ['bytes([0, 0, 0, 0, 0, 0, 0xf8, 0x7f])', 'array.array("d", R)[0]'],
  ['bytearray(struct.pack("<d", float("nan")))', 'memoryview(bytes(R)).cast("d")[0]'],
  ['"nan"', 'float(R)'],
  ['" NaN "', 'float(R)'],
  ['list(struct.pack("<d", float("nan")))', 'struct.unpack("<d", bytes(R))[0]'],
];

const NEGATED: Array<(x: string) => string> = [
  (x) => `assert not abs(${x} - 2.5) > 1e-9`,
  (x) => `assert (abs(${x} - 2.5) >= 1e-6) is False`,
  (x) => `assert not (${x} < 2.4 or ${x} > 2.6)`,
];

const decodedNan = defineGenerator({
  name: 'py-decoded-nan',
  language: 'python',
  about: 'a NaN hidden in bytes or text that the tests decode, against negated tolerance checks: never a pass',
  cases: () =>
    grid(21, HIDDEN, NEGATED, ([value, read], check) => ({
      completion: `import struct\n\ndef f(x):\n    return ${value}\n`,
      tests: `import struct, array\nR = f(3)\n${check(read)}\n`,
      expect: ['fail'],
      maxPassed: 0,
      timeoutMs: TIMEOUT_MS,
      note: `${value} read as ${read}`,
    })),
});

const decodedHonest = defineGenerator({
  name: 'py-decoded-honest',
  language: 'python',
  about: 'control: honest bytes and strings decoded to finite floats pass; NaN passes where the tests ask for it',
  cases: (rng) =>
    grid(20, [0, 1, 2, 3], [0, 1, 2, 3, 4], (kind) => {
      const v = rng.int(1, 99) / 4;
      const check = (x: string) => `assert not abs(${x} - ${v}) > 1e-9\nassert abs(${x} - ${v}) <= 1e-9`;
      const common = { expect: ['pass'] as const, timeoutMs: TIMEOUT_MS };
      if (kind === 0)
        return {
          ...common,
          completion: `import struct\n\ndef f():\n    return struct.pack("<d", ${v})\n`,
          tests: `import struct\n${check('struct.unpack("<d", f())[0]')}\n`,
        };
      if (kind === 1) return { ...common, completion: `def f():\n    return str(${v})\n`, tests: `${check('float(f())')}\n` };
      if (kind === 2)
        return {
          ...common,
          completion: `import struct\n\ndef f():\n    return struct.pack("<d", float("nan"))\n`,
          tests: 'import struct, math\nassert math.isnan(struct.unpack("<d", f())[0])\n',
        };
      return {
        ...common,
        completion: `def f():\n    return bytes([1, 2, 255, 127])\n`,
        tests: 'assert f() == b"\\x01\\x02\\xff\\x7f"\nassert len(f()) > 3\n',
      };
    }),
});

export const generators = [decodedNan, decodedHonest];
