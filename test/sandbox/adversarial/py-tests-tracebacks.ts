/**
 * Python: tests that format or print a traceback. `traceback` reads `tb_frame` (and
 * `print_stack` asks `sys._getframe`), which the audit hook refused in both interpreters, so an
 * honest program whose tests call `traceback.print_exc()` in an except clause was an `error`
 * (found by a probe, 2026-12-06). In strict mode the tests' interpreter runs no code of the
 * program, so the tests may read their own frames there; the program's interpreter still may not.
 * Controls: honest programs pass under tests that print, format, extract or walk tracebacks and
 * stacks, in a checking function and at top level; wrong twins fail.
 */
import { defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines and none of these cases loops. */
const TIMEOUT_MS = 8000;

/** What the tests do with the program's ValueError `e` (bound in the except clause). */
const HANDLERS = [
  'traceback.print_exc()',
  "s = traceback.format_exc()\n    assert 'ValueError' in s",
  'traceback.print_exception(e)',
  "assert 'neg' in ''.join(traceback.format_exception(e))",
  "assert 'neg' in ''.join(traceback.TracebackException.from_exception(e).format())",
  'assert len(traceback.extract_tb(e.__traceback__)) >= 1',
  'traceback.print_stack()',
  'assert len(traceback.format_stack()) >= 1',
  'traceback.print_tb(e.__traceback__)',
  'assert len(list(traceback.walk_tb(e.__traceback__))) >= 1',
];

/** The tests: the handler runs in a checking function, or at top level. */
function tests(handler: string, inFunction: boolean): string {
  const body = `assert c(2) == 4\ntry:\n    c(-1)\nexcept ValueError as e:\n    ${handler}\nassert c(3) == 6\n`;
  if (!inFunction) return `import traceback\n\nc = f\n${body}`;
  const indented = body
    .split('\n')
    .map((l) => (l ? `    ${l}` : l))
    .join('\n');
  return `import traceback\n\n\ndef check(c):\n${indented}\n\ncheck(f)\n`;
}

const HONEST = "def f(n):\n    if n < 0:\n        raise ValueError('neg')\n    return 2 * n\n";
const WRONG = "def f(n):\n    if n < 0:\n        raise ValueError('neg')\n    return 2 * n + (n == 3)\n";

export const generators = [
  defineGenerator({
    name: 'py-tests-tracebacks-honest',
    language: 'python',
    about: 'controls: honest programs under tests that print, format or walk tracebacks and stacks pass',
    cases: () =>
      grid(20, HANDLERS, [true, false], (handler, inFunction) => ({
        prompt: '',
        completion: HONEST,
        tests: tests(handler, inFunction),
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
  defineGenerator({
    name: 'py-tests-tracebacks-wrong',
    language: 'python',
    about: 'wrong programs under tests that use traceback: fail',
    cases: () =>
      grid(20, HANDLERS, [true, false], (handler, inFunction) => ({
        prompt: '',
        completion: WRONG,
        tests: tests(handler, inFunction),
        expect: ['fail'],
        // c(2) == 4 and the handler's own assert, if it has one.
        maxPassed: 2,
        timeoutMs: TIMEOUT_MS,
      })),
  }),
];
