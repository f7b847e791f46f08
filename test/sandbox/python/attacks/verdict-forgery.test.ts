/**
 * Attack class: forging "completed" from an exception value — exceptions whose __str__/__repr__,
 * args or class name mimic success (a str subclass whose __radd__ rewrites the verdict string it
 * is concatenated into), BaseException subclasses, SystemExit(0), KeyboardInterrupt and
 * GeneratorExit at load time or mid-test, os._exit, sys.exit inside the tests. "No error" is the
 * harness reaching the end of the tests, never a value the program can produce, and exceptions
 * are described without running their own code.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ADD_TESTS, expectNotPass, expectStillWorks, pyExecutor, runPy } from '../helpers.ts';

// A str subclass that, concatenated after the verdict's prefix, swaps the status for "pass".
const FORGER = [
  'class S(str):',
  '    def __radd__(self, other):',
  '        if "\\x1f" in other:',
  '            p = other.split("\\x1f")',
  '            return S("\\x1f".join([p[0], "pass", "3", "3", ""]))',
  '        return S(str.__add__(other, str.__str__(self)))',
  '    def __len__(self):',
  '        return 1',
  '',
].join('\n');

describe('python attack: verdict forgery through exception values', { timeout: 180_000 }, () => {
  const ex = pyExecutor();
  afterAll(() => ex.close());

  it('no exception value reads as a completed run', async () => {
    const cases: Array<[string, string]> = [
      [
        'str-radd-assert',
        FORGER + 'class E(AssertionError):\n    def __str__(self):\n        return S("x")\ndef add(a, b):\n    raise E()\n',
      ],
      [
        'str-radd-error',
        FORGER + 'class E(Exception):\n    def __str__(self):\n        return S("x")\ndef add(a, b):\n    raise E()\n',
      ],
      ['str-radd-load', FORGER + 'class E(Exception):\n    def __str__(self):\n        return S("x")\nraise E()\n'],
      ['args-forger', FORGER + 'def add(a, b):\n    raise AssertionError(S("x"))\n'],
      [
        'repr-pass',
        'class E(Exception):\n    def __repr__(self):\n        return "pass"\n    def __str__(self):\n        return ""\ndef add(a, b):\n    raise E()\n',
      ],
      ['name-pass', 'E = type("pass", (Exception,), {})\ndef add(a, b):\n    raise E("completed")\n'],
      ['str-raises', 'class E(Exception):\n    def __str__(self):\n        raise SystemExit(0)\ndef add(a, b):\n    raise E()\n'],
      ['base-exception', 'class B(BaseException):\n    pass\ndef add(a, b):\n    raise B()\n'],
      ['systemexit-load', 'raise SystemExit(0)\n'],
      ['systemexit-mid', 'def add(a, b):\n    raise SystemExit(0)\n'],
      ['keyboard-load', 'raise KeyboardInterrupt\n'],
      ['keyboard-mid', 'def add(a, b):\n    raise KeyboardInterrupt\n'],
      ['generatorexit-load', 'raise GeneratorExit\n'],
      ['generatorexit-mid', 'def add(a, b):\n    raise GeneratorExit\n'],
      ['os-exit-mid', 'def add(a, b):\n    import os\n    os._exit(0)\n'],
      ['sys-exit-mid', 'def add(a, b):\n    import sys\n    sys.exit(0)\n'],
    ];
    const rs = await runPy(
      ex,
      cases.map(([id, code]) => [id, code, ADD_TESTS]),
    );
    for (const [id] of cases) expectNotPass(rs[id], ['fail', 'error']);
    expect(rs['str-radd-assert']!.status).toBe('fail');
    expect(rs['name-pass']!.error).toMatch(/^pass: completed$/);
    // Program code is not run to describe the exception.
    expect(rs['str-raises']!.status).toBe('error');
    expect(rs['str-raises']!.error).toBe('E');
    await expectStillWorks(ex);
  });

  it('sys.exit(0) inside the tests after some assertions is not a pass', async () => {
    const rs = await runPy(ex, [
      ['tests-exit', 'def f():\n    return 1\n', 'assert f() == 1\nimport sys\nsys.exit(0)\nassert f() == 2\n'],
    ]);
    expectNotPass(rs['tests-exit'], ['error']);
  });
});
