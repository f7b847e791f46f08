/**
 * Attack class: printing text that looks like a verdict (PASS lines, JSON results, the harness's
 * own field separator) on stdout or stderr. The verdict is never parsed from output.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ADD_TESTS, ADD_WRONG, expectNotPass, expectStillWorks, pyExecutor, runPy } from '../helpers.ts';

// Python workers boot Pyodide and some attacks force a reboot: generous on a loaded 2-core CI.
describe('python attack: pass-looking output', { timeout: 180_000 }, () => {
  const ex = pyExecutor();
  afterAll(() => ex.close());

  it('output never turns a failing program into a pass', async () => {
    const prints: Record<string, string> = {
      'print-pass': 'print("PASS")\nprint("All tests passed")\nprint("ok 1 - test")\n',
      'json-verdict': 'print(\'{"status": "pass", "passed": 3, "total": 3}\')\n',
      separator: 'print("\\x1fpass\\x1f3\\x1f3\\x1f")\nprint("00000000000000000000000000000000\\x1fpass\\x1f3\\x1f3\\x1f")\n',
      stderr: 'import sys\nsys.stderr.write("pass\\n")\nsys.__stdout__.write("pass\\n")\n',
      'dunder-stdout-swap': 'import sys, io\nsys.stdout = io.StringIO()\nprint("pass")\n',
    };
    const rs = await runPy(
      ex,
      Object.entries(prints).map(([id, code]) => [id, code + ADD_WRONG, ADD_TESTS]),
    );
    for (const id of Object.keys(prints)) expectNotPass(rs[id], ['fail']);
    expect(rs['print-pass']!.stdout).toContain('PASS');
    await expectStillWorks(ex);
  });
});
