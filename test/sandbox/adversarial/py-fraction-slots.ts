/**
 * Python (red-team rt61 F01, F02): a Fraction whose slots the program set by hand (`f._numerator
 * = 2; f._denominator = 4`, a negative denominator) was rebuilt in the tests through Fraction's
 * constructor, which normalised it — so it equalled the right answer there, while under CPython
 * Fraction's own `==`, `str` and `denominator` read the raw slots and the check fails. It now
 * crosses with its slots as they are (sandbox/python/harness.py, `_Dec` 'Q'), and the tests'
 * own Fraction methods read them as CPython's do.
 * Wrong: raw slots under checks of the normalised value (CPython fails them). Controls: honest
 * Fractions (made by Fraction, arithmetic, `limit_denominator`, a subclass) and raw slots under
 * checks CPython passes for them (`float(r)`, the raw `numerator`) pass.
 */
import { defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 8000;

const PROMPT = 'from fractions import Fraction\n\n\ndef value():\n    """Return the fraction asked for."""\n';

/** Ways to hand back a Fraction whose slots are N and D as written. */
const RAW: readonly string[] = [
  '    f = Fraction(1, 3)\n    f._numerator = N\n    f._denominator = D\n    return f\n',
  '    f = object.__new__(Fraction)\n    f._numerator, f._denominator = N, D\n    return f\n',
  '    import copy\n    f = copy.copy(Fraction(5, 7))\n    f._numerator = N\n    f._denominator = D\n    return f\n',
  '    class F(Fraction):\n        pass\n    f = F(1, 3)\n    f._numerator, f._denominator = N, D\n    return f\n',
  '    f = Fraction(1, 3)\n    object.__setattr__(f, "_numerator", N)\n    object.__setattr__(f, "_denominator", D)\n    return [f][0]\n',
];

/** Raw slots and the value they stand for, normalised. */
const PAIRS: ReadonlyArray<readonly [string, string, string, string]> = [
  ['2', '4', '1', '2'],
  ['-1', '-2', '1', '2'],
  ['1', '-2', '-1', '2'],
  ['3', '9', '1', '3'],
  ['10', '4', '5', '2'],
];

const fill = (shape: string, n: string, d: string) => shape.replace('N', n).replace('D', d);

/** Checks of the normalised value p/q: CPython fails every one for raw slots not in lowest terms. */
const STRICT_CHECKS = [
  (p: string, q: string) => `    r = candidate()\n    assert r == Fraction(${p}, ${q})\n`,
  (p: string, q: string) => `    r = candidate()\n    assert str(r) == '${p}/${q}'\n`,
  (p: string, q: string) => `    r = candidate()\n    assert (r.numerator, r.denominator) == (${p}, ${q})\n`,
  (p: string, q: string) => `    r = candidate()\n    assert r in [Fraction(${p}, ${q})]\n`,
];

const tests = (body: string) => `\n\ndef check(candidate):\n${body}\n\ncheck(value)\n`;

const caseOf = (completion: string, body: string, expect: 'pass' | 'fail', note?: string) => ({
  prompt: PROMPT,
  completion,
  tests: tests(body),
  expect: [expect] as const,
  timeoutMs: TIMEOUT_MS,
  ...(note ? { note } : {}),
});

/** Honest completions and the value they return. */
const HONEST: ReadonlyArray<readonly [string, string, string]> = [
  ['    return Fraction(2, 4)\n', '1', '2'],
  ['    return Fraction(1, 3) + Fraction(1, 6)\n', '1', '2'],
  ['    return Fraction(-3, 6)\n', '-1', '2'],
  ['    return Fraction(0.1).limit_denominator(100)\n', '1', '10'],
  ['    class F(Fraction):\n        pass\n    return F(6, 4)\n', '3', '2'],
];

export const generators = [
  defineGenerator({
    name: 'py-fraction-slots',
    language: 'python',
    about: 'a Fraction with hand-set slots not in lowest terms fails checks of the normalised value',
    cases: () =>
      grid(20, RAW, STRICT_CHECKS, (shape, check, i) => {
        const [n, d, p, q] = PAIRS[Math.floor(i / 4) % PAIRS.length]!;
        return caseOf(fill(shape, n, d), check(p, q), 'fail', `raw ${n}/${d} checked against ${p}/${q}`);
      }),
  }),
  defineGenerator({
    name: 'py-fraction-slots-honest',
    language: 'python',
    about: 'controls: honest Fractions pass; raw slots pass the checks CPython passes them',
    cases: () => [
      ...grid(10, HONEST, STRICT_CHECKS.slice(0, 2), ([completion, p, q], check) => caseOf(completion, check(p, q), 'pass')),
      ...grid(
        10,
        RAW,
        [
          (n: string, d: string) => `    r = candidate()\n    assert float(r) == ${n} / ${d}\n`,
          (n: string, d: string) => `    r = candidate()\n    assert (r.numerator, r.denominator) == (${n}, ${d})\n`,
        ],
        (shape, check, i) => {
          const [n, d] = PAIRS[i % PAIRS.length]!;
          return caseOf(fill(shape, n, d), check(n, d), 'pass', `raw ${n}/${d} read as CPython reads it`);
        },
      ),
    ],
  }),
];
