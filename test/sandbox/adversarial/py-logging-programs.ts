/**
 * Python: programs and tests that log. `logging` asks `sys._getframe` for its caller, which the
 * sandbox's audit hook refuses, so every `logging.warning(…)` (and any level that is enabled) of
 * an honest program or of the tests raised "sys._getframe is not available" and the run was an
 * `error` (found while adding report-only handlers to the swallowed-collections rule, d9c3ce2).
 * The image's `logging` now reports "(unknown file)" for its caller, as it does where frames are
 * unavailable. Controls: honest programs logging at every level, with a named logger, after
 * `basicConfig`, and tests that log, pass; wrong twins fail.
 */
import { defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines and none of these cases loops. */
const TIMEOUT_MS = 8000;

/** Logging statements placed in the program's function (n is its argument). */
const LOGS = [
  "logging.warning('f(%s)', n)",
  "logging.error('computing %d', n)",
  "logging.getLogger(__name__).warning('n=%s', n)",
  "logging.critical('x')",
  "logging.basicConfig(level=logging.DEBUG)\n    logging.debug('n=%r', n)",
  "logging.log(logging.WARNING, 'n %s', n)",
  "logging.getLogger('calc').error('n=%s', n)",
  "logging.info('quiet')\n    logging.warning('loud')",
  "logging.exception('no error')",
  "logging.warning('%s', {'n': n})",
];

const TESTS = 'assert f(2) == 4\nassert f(-3) == 9\n';
const LOGGING_TESTS = "import logging\n\nlogging.warning('checking f')\nassert f(2) == 4\nassert f(-3) == 9\n";

export const generators = [
  defineGenerator({
    name: 'py-logging-programs-honest',
    language: 'python',
    about: 'controls: honest programs that log (any level, named loggers, basicConfig), and tests that log, pass',
    cases: () =>
      grid(20, LOGS, [TESTS, LOGGING_TESTS], (log, tests) => ({
        prompt: '',
        completion: `import logging\n\n\ndef f(n):\n    ${log}\n    return n * n\n`,
        tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
  defineGenerator({
    name: 'py-logging-programs-wrong',
    language: 'python',
    about: 'wrong programs that log: fail',
    cases: () =>
      grid(20, LOGS, [TESTS, LOGGING_TESTS], (log, tests) => ({
        prompt: '',
        completion: `import logging\n\n\ndef f(n):\n    ${log}\n    return n * abs(n) + 0\n`,
        tests,
        expect: ['fail'],
        maxPassed: 1,
        timeoutMs: TIMEOUT_MS,
      })),
  }),
];
