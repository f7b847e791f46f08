/**
 * Python: an exception the program raises reaches the tests with its `__context__` (the exception
 * it was raised while handling) and `__suppress_context__` (`raise ... from None`), as under one
 * interpreter (sandbox/python/harness.py `_raised`, `_rebuild_exc`; docs/python.md). Before, only
 * `__cause__` crossed: tests requiring a clean error (`e.__context__ is None`, or `from None`'s
 * `__suppress_context__`) passed a program that raised inside its own `except` (red-team rt69
 * PB03) and failed one that wrote `from None` (rt69 PC13). Every case was run under CPython 3.11.7
 * as one file (program, then tests): the wrong programs fail an assert, the controls pass. At
 * 0c23d54, 8 of the 20 wrong programs passed and 8 of the 20 controls failed.
 */
import { type AdversarialCase, defineGenerator } from './framework.ts';

/** The exception classes the program raises. */
const ERRORS: readonly string[] = ['LookupError', 'ValueError', 'RuntimeError', 'KeyError'];

/**
 * What the tests require of the error `e` of `load({}, 'a')`, and how a wrong and an honest
 * program raise it (E: the class): [check, wrong `except` body, honest `except` body].
 */
const SHAPES: Array<[string, string, string]> = [
  // A clean error: nothing handled behind it.
  ['e.__context__ is None', 'raise E(k)', 'missing = True\n    if missing:\n        raise E(k)'],
  // `from None`: the context is suppressed.
  ['e.__suppress_context__ is True and e.__cause__ is None', 'raise E(k)', 'raise E(k) from None'],
  // The lookup's error is kept behind it (raised while handling it).
  ['isinstance(e.__context__, KeyError)', 'missing = True\n    if missing:\n        raise E(k)', 'raise E(k)'],
  // Chained on purpose: the cause is the KeyError and the context is suppressed.
  ['isinstance(e.__cause__, KeyError) and e.__suppress_context__', 'raise E(k)', 'raise E(k) from err'],
  // Shown alone: what `traceback` would print has no "During handling" section.
  ['e.__suppress_context__ or e.__context__ is None', 'raise E(k)', 'raise E(k) from None'],
];

function cases(honest: boolean): AdversarialCase[] {
  const out: AdversarialCase[] = [];
  for (const err of ERRORS)
    for (const [check, wrong, right] of SHAPES) {
      const body = (honest ? right : wrong).replace(/\bE\(/g, `${err}(`);
      // The honest "raise outside the handler" forms leave the `except` first.
      const raisesAfter = body.startsWith('missing');
      const completion = raisesAfter
        ? `def load(d, k):\n    missing = False\n    try:\n        return d[k]\n    except KeyError:\n        missing = True\n    if missing:\n        raise ${err}(k)\n`
        : `def load(d, k):\n    try:\n        return d[k]\n    except KeyError as err:\n        ${body}\n`;
      out.push({
        completion,
        tests: `try:\n    load({}, 'a')\n    raised = None\nexcept ${err} as e:\n    raised = e\nassert raised is not None\ne = raised\nassert ${check}\nassert load({'a': 1}, 'a') == 1\n`,
        expect: honest ? ['pass'] : ['fail'],
      });
    }
  return out;
}

export const generators = [
  defineGenerator({
    name: 'py-exception-context',
    language: 'python',
    about:
      "a wrong program's error carries (or lacks) the exception it was raised while handling, which the tests check: its __context__ and __suppress_context__ cross",
    cases: () => cases(false),
  }),
  defineGenerator({
    name: 'py-exception-context-honest',
    language: 'python',
    about: 'control: `raise ... from None`, `from err`, raising inside or after the handler, each as the tests ask, pass',
    cases: () => cases(true),
  }),
];
