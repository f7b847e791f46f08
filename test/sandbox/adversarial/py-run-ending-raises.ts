/**
 * Python, beside js-run-ending-throws.ts: a raise that ends the tests from inside a pass of one of
 * their loops. Tests with no `try` that call the program outside the assert (`for n, w in cases:
 * got = fact(n); assert got == w`) and a program right on the easy cases that raises on the first
 * hard one ended as `error` with the loop's assert passed on the easy cases, where a wrong value
 * fails it. The interrupted pass now fails the loop's asserts, and those of a tests' function
 * called from inside it (harness.py, _interrupted_loops): no site passes. Controls: the same
 * shapes on an honest program, one with an assert before the loop.
 */
import { factCases, honestFact, raisingShapes, wrongShapes } from './fact-programs.ts';
import { defineGenerator, type Rng } from './framework.ts';

const GOTS = ['got', 'r', 'actual', 'out'];

const SHAPES: ReadonlyArray<(rng: Rng) => string> = [
  (rng) => {
    const g = rng.pick(GOTS);
    return `for n, w in ${factCases(rng, true)}:\n    ${g} = fact(n)\n    assert ${g} == w, (n, ${g})\n`;
  },
  (rng) =>
    `cases = ${factCases(rng, true)}\ni = 0\nwhile i < len(cases):\n    n, w = cases[i]\n    i += 1\n    v = fact(n)\n    assert v == w\n`,
  (rng) => {
    const t = rng.pick(['check', 'test', 'run_tests']);
    return `def ${t}(candidate):\n    for n, w in ${factCases(rng, true)}:\n        v = candidate(n)\n        assert v == w\n\n${t}(fact)\n`;
  },
  (rng) => {
    const c = rng.pick(['check_one', 'verify', 'expect_fact']);
    return `def ${c}(n, w):\n    v = fact(n)\n    assert v == w\n\nfor n, w in ${factCases(rng, true)}:\n    ${c}(n, w)\n`;
  },
  (rng) =>
    `def outcomes():\n    for n, w in ${factCases(rng, true)}:\n        yield fact(n), w\n\nfor v, w in outcomes():\n    assert v == w\n`,
  (rng) => `for i, (n, w) in enumerate(${factCases(rng, true)}):\n    v = fact(n)\n    assert v == w, i\n`,
];

const NAME = 'py-run-ending-raises';

export const generators = [
  raisingShapes(
    'python',
    NAME,
    'a raise that ends the tests from inside a pass of one of their loops (no try, the call outside the assert): no site passes',
    SHAPES,
  ),
  wrongShapes('python', NAME, SHAPES),
  defineGenerator({
    name: `${NAME}-honest`,
    language: 'python',
    about: 'controls: the loop shapes on an honest program',
    cases: (rng) => {
      const tests = [...SHAPES.map((s) => s(rng)), `assert fact(1) == 1\n${SHAPES[0]!(rng)}`];
      return honestFact('python', `${NAME}-honest`, '', Math.max(20, tests.length * 2), tests).cases(rng);
    },
  }),
];
