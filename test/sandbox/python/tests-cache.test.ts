/**
 * The Python runtime compiles a problem's tests once and keeps the compiled form (by verdict
 * mode, tests and prompt) for the programs that share them. A cached entry must give exactly the
 * verdicts a fresh compile gives: per program, per prompt, and whatever the previous program did.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PythonRuntime } from '../../../src/sandbox/python/runtime.ts';
import { ADD_OK, ADD_TESTS, ADD_WRONG } from './helpers.ts';

describe('python sandbox: compiled tests shared between programs', () => {
  const rt = new PythonRuntime({ memoryMb: 64, stdoutLimit: 65536, minAssertions: 1, verdict: 'strict', seed: 0 });
  afterAll(() => rt.close());

  it('right and wrong solutions of one problem, interleaved, keep their own verdicts', async () => {
    const seen: string[] = [];
    for (const code of [ADD_OK, ADD_WRONG, ADD_OK, ADD_WRONG, ADD_OK]) {
      const r = await rt.run({ code, tests: ADD_TESTS }, 5000);
      seen.push(`${r.status} ${r.passed}/${r.total}`);
    }
    expect(seen).toEqual(['pass 3/3', 'fail 0/3', 'pass 3/3', 'fail 0/3', 'pass 3/3']);
  });

  it("the same tests under another prompt use that prompt's helpers", async () => {
    // The tests call the prompt's `helper`, not the solution's redefinition of it.
    const tests = 'assert f() == helper()\n';
    // Prompts end in a docstring, as HumanEval's do (a prompt that does not parse has no helpers).
    const promptOne = 'def helper():\n    return 1\n\ndef f():\n    """Return helper()."""\n';
    const promptTwo = 'def helper():\n    return 2\n\ndef f():\n    """Return helper()."""\n';
    const completion = '    return 2\n\ndef helper():\n    return 2\n';
    const run = (prompt: string) => rt.run({ code: prompt + completion, tests, prompt }, 5000);
    const verdicts: string[] = [];
    for (const prompt of [promptOne, promptTwo, promptOne, promptTwo]) verdicts.push((await run(prompt)).status);
    expect(verdicts).toEqual(['fail', 'pass', 'fail', 'pass']);
  });

  it("a program reading the collector's counters reads the same whatever ran before it", async () => {
    // Seen by a fresh hostile pass: (84, 0, 0) as a worker's first program, (85, 0, 0) after
    // another program on other tests, so `sum(gc.get_count()) % 2` decided pass or fail.
    const fresh = new PythonRuntime({ memoryMb: 64, stdoutLimit: 65536, minAssertions: 1, verdict: 'strict', seed: 0 });
    try {
      const code = 'import gc\n\ndef f():\n    print(gc.get_count())\n    return sum(gc.get_count()) % 2\n';
      const first = await fresh.run({ code, tests: 'assert f() in (0, 1)\n' }, 5000);
      await fresh.run({ code: ADD_OK, tests: ADD_TESTS }, 5000);
      const later = await fresh.run({ code, tests: 'assert f() in (1, 0)\n' }, 5000);
      expect(first.status).toBe('pass');
      expect(later.stdout).toBe(first.stdout);
    } finally {
      fresh.close();
    }
  });

  it('tests that do not compile are reported every time', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await rt.run({ code: ADD_OK, tests: 'assert add(1, 2) == 3\nassert (\n' }, 5000);
      expect(r.status).toBe('syntax_error');
    }
    expect((await rt.run({ code: ADD_OK, tests: ADD_TESTS }, 5000)).status).toBe('pass');
  });

  it("a program that patches the compiler's and marshal's functions changes nothing for the next", async () => {
    const tamper = [
      'import marshal, builtins, ast',
      "marshal.loads = lambda *a, **k: compile('pass', 'tests.py', 'exec')",
      "builtins.compile = lambda *a, **k: compile('pass', 'tests.py', 'exec')",
      'ast.parse = lambda *a, **k: ast.Module([], [])',
    ].join('\n');
    const first = await rt.run({ code: `${tamper}\n${ADD_WRONG}`, tests: ADD_TESTS }, 5000);
    expect(first.status).toBe('fail');
    const next = await rt.run({ code: ADD_WRONG, tests: ADD_TESTS }, 5000);
    expect(`${next.status} ${next.passed}/${next.total}`).toBe('fail 0/3');
    const fresh = await rt.run({ code: ADD_WRONG, tests: `${ADD_TESTS}\n# another problem's tests\n` }, 5000);
    expect(`${fresh.status} ${fresh.passed}/${fresh.total}`).toBe('fail 0/3');
  });
});

describe('python sandbox: cached tests and callbacks across hostile programs', () => {
  const rt = new PythonRuntime({ memoryMb: 64, stdoutLimit: 65536, minAssertions: 1, verdict: 'strict', seed: 0 });
  const parity = new PythonRuntime({ memoryMb: 64, stdoutLimit: 65536, minAssertions: 1, verdict: 'parity', seed: 0 });
  afterAll(() => {
    rt.close();
    parity.close();
  });

  // The tests keep what the program's calls of their callback saw; every run must start from a
  // fresh namespace and the image's interpreter, whatever the previous program did with the
  // callback, the program side's bridge or the device.
  const tests = [
    'calls = []',
    'def note(v):',
    '    calls.append(v)',
    '    return len(calls)',
    'assert run_with(note, 3) == 3',
    'assert calls == [0, 1, 2]',
  ].join('\n');
  const honest = 'def run_with(f, n):\n    r = 0\n    for i in range(n):\n        r = f(i)\n    return r\n';
  const hostile = [
    'import os, marshal',
    'class AE:',
    '    def __eq__(self, o):',
    '        return True',
    '    __hash__ = object.__hash__',
    'def run_with(f, n):',
    '    for i in range(50):',
    '        f(AE())',
    '    for c in f.__closure__ or ():',
    '        try:',
    '            c.cell_contents = None',
    '        except Exception:',
    '            pass',
    "    fd = os.open('/dev/anchor', os.O_RDWR)",
    "    os.write(fd, b'\\xff' * 12)",
    '    return n',
  ].join('\n');

  it('a hostile program changes nothing for the next one on the same tests', async () => {
    const seen: string[] = [];
    for (const code of [honest, hostile, honest, hostile, `${honest}\nrun_with = lambda f, n: n\n`, honest]) {
      const r = await rt.run({ code, tests }, 5000);
      seen.push(`${r.status} ${r.passed}/${r.total}`);
    }
    expect(seen).toEqual(['pass 2/2', 'fail 1/2', 'pass 2/2', 'fail 1/2', 'fail 1/2', 'pass 2/2']);
  });

  it('one-interpreter runs between two-interpreter runs keep every verdict', async () => {
    const seen: string[] = [];
    for (const [r, code] of [
      [parity, honest],
      [rt, hostile],
      [parity, hostile],
      [rt, honest],
      [parity, honest],
    ] as const) {
      const res = await r.run({ code, tests }, 5000);
      seen.push(`${res.status} ${res.passed}/${res.total}`);
      // The same runtime also runs a program without separate tests (one interpreter).
      const solo = await r.run({ code: `${honest}\nassert run_with(lambda v: v, 2) == 1\n` }, 5000);
      seen.push(solo.status);
    }
    expect(seen).toEqual(['pass 2/2', 'pass', 'fail 1/2', 'pass', 'fail 1/2', 'pass', 'pass 2/2', 'pass', 'pass 2/2', 'pass']);
  });
});
