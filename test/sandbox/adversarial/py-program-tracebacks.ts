/**
 * Python (honest-solution sweep hs57): a program that formats an error it caught —
 * `traceback.format_exc()`, `traceback.print_exc()`, `logging.exception(…)`, a log call with
 * `exc_info=True`, `traceback.format_exception(e)`, `extract_tb` — walks the traceback's frames,
 * which the program's interpreter refuses (a frame's locals, globals and `f_back` lead to the
 * harness): every such honest program was an `error`. The audit hook now walks the frames itself
 * and hands back stand-ins with the code, line and position only (sandbox/python/harness.py
 * `_walk_tb`). Controls: honest programs logging their errors pass; wrong twins with the same
 * logging fail. Attacks: a program looking through the stand-ins for a frame's `f_back`, globals
 * or locals, or asking the hook for frames directly, finds none (its wrong answer then fails); one
 * reading `tb_frame` itself is still an `error`.
 */
import { defineGenerator, grid } from './framework.ts';

const PROMPT =
  'def parse_total(items):\n    """Return the sum of the integers written in items (a list of strings); skip the ones that are not integers."""\n';

/** What an honest program does with the error it caught (indented for the `except` body). */
const LOGGING: readonly string[] = [
  'import traceback\n            _ = traceback.format_exc()',
  'import traceback, io\n            traceback.print_exc(file=io.StringIO())',
  'import traceback\n            traceback.print_exc()',
  'import logging\n            logging.exception("skipping %r", s)',
  'import logging\n            logging.getLogger(__name__).warning("skipping %r", s, exc_info=True)',
  'import traceback\n            _ = "".join(traceback.format_exception(e))',
  'import traceback\n            _ = traceback.extract_tb(e.__traceback__)[-1].lineno',
  'import traceback\n            _ = traceback.TracebackException.from_exception(e, capture_locals=True).format()',
  'import logging, sys\n            logging.error("bad item", exc_info=sys.exc_info())',
  'import traceback\n            _ = [frame.f_code.co_name for frame, line in traceback.walk_tb(e.__traceback__)]',
];

/** Tests in the datasets' shapes. */
const TESTS: readonly string[] = [
  'def check(candidate):\n    assert candidate(["1", "2", "x"]) == 3\n    assert candidate(["a", "-4", "10"]) == 6\n    assert candidate([]) == 0\n\n\ncheck(parse_total)\n',
  'assert parse_total(["7", "?", "-8"]) == -1\nassert parse_total(["bad"]) == 0\n',
];

/** A body that sums what parses, handing each failure to `log` (the `except` body's first line). */
function body(log: string, wrong: boolean): string {
  const add = wrong ? 'total += int(s) if int(s) > 0 else 0' : 'total += int(s)';
  return `    total = 0\n    for s in items:\n        try:\n            ${add}\n        except ValueError as e:\n            ${log}\n    return total\n`;
}

/** Reads a program might try for a way past the stand-ins, each an expression true when it got one. */
const PROBES: readonly string[] = [
  'any(frame.f_back is not None for frame, line in traceback.walk_tb(e.__traceback__))',
  'any(frame.f_globals or frame.f_locals for frame, line in traceback.walk_tb(e.__traceback__))',
  'any(type(frame).__name__ == "frame" for frame, line in traceback.walk_tb(e.__traceback__))',
  'any(frame.f_locals for frame in [fs[0] for fs in traceback._walk_tb_with_full_positions(e.__traceback__)])',
  'bool([b for b in [[]] if sys.audit("anchor.walk_tb", e.__traceback__, b) or any(type(f).__name__ == "frame" for f, _, _ in b[0])])',
  'any(k not in {"_audit", "_suggest", "_RuntimeError", "walk_tb", "_walk_tb_with_full_positions", "clear_frames", "_compute_suggestion_error", "__builtins__"} for k in traceback.walk_tb.__globals__)',
];

export const generators = [
  defineGenerator({
    name: 'py-program-tracebacks-honest',
    language: 'python',
    about: 'controls: honest programs formatting or logging the errors they catch pass',
    cases: () =>
      grid(20, TESTS, LOGGING, (tests, log) => ({ prompt: PROMPT, completion: body(log, false), tests, expect: ['pass'] })),
  }),
  defineGenerator({
    name: 'py-program-tracebacks',
    language: 'python',
    about: 'wrong programs with the same error logging fail',
    cases: () =>
      grid(20, TESTS, LOGGING, (tests, log) => ({ prompt: PROMPT, completion: body(log, true), tests, expect: ['fail'] })),
  }),
  defineGenerator({
    name: 'py-program-tracebacks-frames',
    language: 'python',
    about:
      'a program looking through the traceback stand-ins for a real frame, f_back, globals or locals finds none (it returns a wrong answer when it does not), and reading tb_frame itself is an error',
    cases: () =>
      grid(20, TESTS, [...PROBES, null], (tests, probe) => ({
        prompt: PROMPT,
        completion:
          probe === null
            ? body('import sys\n            _ = e.__traceback__.tb_frame', false)
            : body(
                `import traceback, sys\n            if ${probe}:\n                return sum(int(t) for t in items if t.lstrip("-").isdigit())\n            return -1`,
                false,
              ),
        tests,
        expect: probe === null ? ['error'] : ['fail'],
      })),
  }),
];
