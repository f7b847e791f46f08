/**
 * Python: a program-defined dataclass that declares the field carrying the answer
 * `field(compare=False)`, so the expected value the tests build with the class (no prompt defines
 * it) equals any answer. A program dataclass crosses as T's stand-in compared over every field:
 * the program cannot declare part of its answer invisible. Controls: honest dataclasses (with and
 * without compare=False fields holding the right values) pass.
 */
import { defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 8000;

const HIDDEN = [
  'y: int = field(compare=False)',
  'y: int = field(default=0, compare=False)',
  'y: object = field(compare=False, repr=False)',
  'y: int = field(compare=False, hash=False)',
];
const SHAPES: Array<(y: string) => string> = [
  (y) => `@dataclass\nclass Point:\n    x: int\n    ${y}\n`,
  (y) => `@dataclass(frozen=True)\nclass Point:\n    x: int\n    ${y}\n`,
  (y) => `@dataclass(order=True)\nclass Point:\n    x: int\n    ${y}\n`,
  (y) => `@dataclass(eq=True)\nclass Point:\n    x: int\n    ${y}\n    z: int = 0\n`,
  (y) => `@dataclass\nclass Point:\n    x: int\n    ${y}\n\n    def norm(self):\n        return self.x\n`,
];

const hidden = defineGenerator({
  name: 'py-hidden-fields',
  language: 'python',
  about: 'compare=False on the field the tests check, with the expected value built from the program class: never a pass',
  cases: () =>
    grid(20, HIDDEN, SHAPES, (y, shape) => ({
      completion: `from dataclasses import dataclass, field\n\n${shape(y)}\n\ndef f(n):\n    return Point(n, 99)\n`,
      tests: 'assert f(3) == Point(3, 4)\n',
      expect: ['fail'],
      maxPassed: 0,
      timeoutMs: TIMEOUT_MS,
      note: `${y} in ${shape('')}`,
    })),
});

const honest = defineGenerator({
  name: 'py-hidden-fields-honest',
  language: 'python',
  about: 'control: honest program dataclasses built by the tests pass',
  cases: () =>
    grid(20, HIDDEN, SHAPES, (y, shape) => ({
      completion: `from dataclasses import dataclass, field\n\n${shape(y)}\n\ndef f(n):\n    return Point(n, n + 1)\n`,
      tests: 'assert f(3) == Point(3, 4)\nassert f(4) != Point(4, 6)\n',
      expect: ['pass'],
      timeoutMs: TIMEOUT_MS,
      note: `${y} in ${shape('')}`,
    })),
});

export const generators = [hidden, honest];
