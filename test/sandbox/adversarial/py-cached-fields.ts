/**
 * Python (red-team rt7-py D01): a prompt class's `functools.cached_property` answered by the
 * answer's own field. A cached property is a non-data descriptor, so an instance field of its
 * name is read instead of computing it: a program returning a wrong `Span` with
 * `s.__dict__['length'] = 4` passed `assert f(xs).length == 4`. The field is now dropped when the
 * answer is rebuilt in the tests' interpreter, which computes the property from the data.
 * Attacks: wrong data with the cached field set: fail. Controls: honest answers pass, also one
 * that read the property in the program before returning it.
 */
import { type AdversarialCase, defineGenerator, grid } from './framework.ts';

const PROPS = ['length', 'width', 'size', 'extent', 'span'];
const prompt = (prop: string) =>
  `from functools import cached_property\n\nclass Span:\n    def __init__(self, lo, hi):\n        self.lo = lo\n        self.hi = hi\n\n    @cached_property\n    def ${prop}(self):\n        return self.hi - self.lo\n\ndef bounds(xs):\n    """The Span from min(xs) to max(xs)."""\n`;
/** Ways the program sets the cached value on a wrong answer. */
const FORGE: ReadonlyArray<(prop: string, want: number) => string> = [
  (prop, want) => `    s = Span(0, 0)\n    s.__dict__['${prop}'] = ${want}\n    return s\n`,
  (prop, want) => `    s = Span(min(xs), min(xs))\n    vars(s)['${prop}'] = ${want}\n    return s\n`,
  (prop, want) => `    s = Span(0, 1)\n    s.__dict__.update({'${prop}': ${want}})\n    return s\n`,
  (prop, want) => `    s = Span.__new__(Span)\n    s.__dict__.update(lo=0, hi=0, ${prop}=${want})\n    return s\n`,
];
const HONEST: ReadonlyArray<(prop: string) => string> = [
  () => '    return Span(min(xs), max(xs))\n',
  (prop) => `    s = Span(min(xs), max(xs))\n    s.${prop}\n    return s\n`,
];

export const generators = [
  defineGenerator({
    name: 'py-cached-fields',
    language: 'python',
    about: 'a cached_property of a prompt class answered by the answer\u2019s own field: fail',
    cases: (rng) =>
      grid(20, FORGE, PROPS, (forge, prop): AdversarialCase => {
        const lo = rng.int(-5, 5);
        const hi = lo + rng.int(2, 9);
        return {
          prompt: prompt(prop),
          completion: forge(prop, hi - lo),
          tests: `assert bounds([${lo}, ${hi}, ${lo + 1}]).${prop} == ${hi - lo}\n`,
          expect: ['fail'],
        };
      }),
  }),
  defineGenerator({
    name: 'py-cached-fields-honest',
    language: 'python',
    about: 'controls: honest answers (the property computed in the tests, or already cached in the program) pass',
    cases: (rng) =>
      grid(20, HONEST, PROPS, (honest, prop): AdversarialCase => {
        const lo = rng.int(-5, 5);
        const hi = lo + rng.int(2, 9);
        return {
          prompt: prompt(prop),
          completion: honest(prop),
          tests: `b = bounds([${lo}, ${hi}, ${lo + 1}])\nassert b.${prop} == ${hi - lo}\nassert (b.lo, b.hi) == (${lo}, ${hi})\n`,
          expect: ['pass'],
        };
      }),
  }),
];
