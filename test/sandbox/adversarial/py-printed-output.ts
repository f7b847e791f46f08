/**
 * Python: tests that capture what the program prints (`contextlib.redirect_stdout`,
 * `redirect_stderr`, `sys.stdout = io.StringIO()`) and check the text. With the program in its
 * own interpreter its prints went to the run's output, never to the tests' buffer, so every
 * honest printing program failed such tests. What the program prints while it serves a call of
 * the tests now goes to the tests' own `sys.stdout`/`sys.stderr`, as in one interpreter.
 * Controls: honest programs pass; wrong twins (wrong text, wrong stream, nothing printed) fail.
 */
import { defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines. */
const TIMEOUT_MS = 8000;

const PROMPT = 'def show(n):\n    """Print the numbers 1..n, one per line."""\n';

/** How the tests capture and check `show(3)`'s text ('1\n2\n3\n'). */
const CAPTURES: readonly string[] = [
  "import io, contextlib\nbuf = io.StringIO()\nwith contextlib.redirect_stdout(buf):\n    show(3)\nassert buf.getvalue() == '1\\n2\\n3\\n'\n",
  "import io, sys\nold = sys.stdout\nsys.stdout = io.StringIO()\ntry:\n    show(3)\n    out = sys.stdout.getvalue()\nfinally:\n    sys.stdout = old\nassert out.split() == ['1', '2', '3']\n",
  "from contextlib import redirect_stdout\nfrom io import StringIO\n\ndef captured(f, *a):\n    s = StringIO()\n    with redirect_stdout(s):\n        f(*a)\n    return s.getvalue()\n\nassert captured(show, 3) == '1\\n2\\n3\\n'\nassert captured(show, 1) == '1\\n'\n",
  'import io, contextlib\nfor n in (1, 2, 3):\n    buf = io.StringIO()\n    with contextlib.redirect_stdout(buf):\n        show(n)\n    assert buf.getvalue().splitlines() == [str(i) for i in range(1, n + 1)]\n',
  "import io, unittest.mock, sys\nwith unittest.mock.patch('sys.stdout', new_callable=io.StringIO) as out:\n    show(3)\nassert out.getvalue() == '1\\n2\\n3\\n'\n",
];

/** Honest bodies: print, sys.stdout.write, the byte buffer, a joined print, print with flush. */
const HONEST: readonly string[] = [
  '    for i in range(1, n + 1):\n        print(i)\n',
  '    import sys\n    for i in range(1, n + 1):\n        sys.stdout.write(str(i) + "\\n")\n',
  '    import sys\n    for i in range(1, n + 1):\n        sys.stdout.buffer.write(b"%d\\n" % i)\n',
  '    if n:\n        print("\\n".join(str(i) for i in range(1, n + 1)))\n',
  '    for i in range(1, n + 1):\n        print(i, end="\\n", flush=True)\n',
];

/** Wrong bodies: one short, the wrong stream, nothing printed (returned instead), extra text. */
const WRONG: readonly string[] = [
  '    for i in range(1, n):\n        print(i)\n',
  '    import sys\n    for i in range(1, n + 1):\n        print(i, file=sys.stderr)\n',
  '    return "\\n".join(str(i) for i in range(1, n + 1)) + "\\n"\n',
  '    for i in range(1, n + 1):\n        print(i, i)\n',
  '    for i in range(n, 0, -1):\n        print(i)\n',
];

export const generators = [
  defineGenerator({
    name: 'py-printed-output-honest',
    language: 'python',
    about: 'controls: honest printing programs under tests that capture their output pass',
    cases: () =>
      grid(25, CAPTURES, HONEST, (tests, body) => ({
        prompt: PROMPT,
        completion: body,
        tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
  defineGenerator({
    name: 'py-printed-output',
    language: 'python',
    about: 'wrong printing programs (short, wrong stream, returned not printed, extra text) under the same tests: fail',
    cases: () =>
      grid(25, CAPTURES, WRONG, (tests, body) => ({
        prompt: PROMPT,
        completion: body,
        tests,
        expect: ['fail'],
        maxPassed: 0,
        timeoutMs: TIMEOUT_MS,
      })),
  }),
];
