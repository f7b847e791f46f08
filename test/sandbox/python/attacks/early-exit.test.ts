/**
 * Attack class: ending the program early so the tests never run — sys.exit, exit/quit, raising
 * SystemExit / KeyboardInterrupt / GeneratorExit, os._exit (which exits the interpreter) — in the
 * solution or from inside the function under test. None may pass; the runtime keeps working.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ADD_TESTS, expectNotPass, expectStillWorks, pyExecutor, runPy } from '../helpers.ts';

// Python workers boot Pyodide and some attacks force a reboot: generous on a loaded 2-core CI.
describe('python attack: early exit', { timeout: 180_000 }, () => {
  const ex = pyExecutor();
  afterAll(() => ex.close());

  it('no early exit passes, in the program or during the tests', async () => {
    const exits = {
      'sys-exit-0': 'import sys\nsys.exit(0)\n',
      'sys-exit-none': 'import sys\nsys.exit()\n',
      exit: 'exit(0)\n',
      quit: 'quit()\n',
      'raise-systemexit': 'raise SystemExit(0)\n',
      'raise-keyboardinterrupt': 'raise KeyboardInterrupt\n',
      'raise-generatorexit': 'raise GeneratorExit\n',
      'os-exit': 'import os\nos._exit(0)\n',
      'exit-in-candidate': 'def add(a, b):\n    import sys\n    sys.exit(0)\n',
      'os-exit-in-candidate': 'def add(a, b):\n    import os\n    os._exit(0)\n',
      atexit: 'import atexit, sys\natexit.register(lambda: None)\nsys.exit(0)\n',
    };
    const rs = await runPy(
      ex,
      Object.entries(exits).map(([id, code]) => [
        id,
        code.includes('def add') ? code : code + 'def add(a, b):\n    return 0\n',
        ADD_TESTS,
      ]),
    );
    for (const id of Object.keys(exits)) expectNotPass(rs[id], ['error']);
    expect(rs['sys-exit-0']!.error).toMatch(/exited early \(SystemExit\)/);
    expect(rs['os-exit']!.error).toMatch(/os\._exit/);
    await expectStillWorks(ex);
  });

  it('a program whose tests run sys.exit(0) after failing nothing still needs its assertions', async () => {
    // Single-string mode (no separate tests): exiting before any assert is not a pass.
    const rs = await runPy(ex, [
      ['single', 'def add(a, b):\n    return a + b\nimport sys\nsys.exit(0)\nassert add(1, 2) == 3\n'],
    ]);
    expectNotPass(rs.single, ['error']);
  });
});
