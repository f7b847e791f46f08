/**
 * Attack class: state leaking from one program to the next on the same runtime — globals,
 * builtins, module attributes, sys settings, imported modules, caches, files, random state. The
 * whole wasm heap is restored after every program (and the runtime replaced when the filesystem
 * was written), so the next program must see exactly the pristine interpreter.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectStillWorks, pyExecutor, runPy } from '../helpers.ts';

const POLLUTE = `
import builtins, sys, math, os, random, functools, re, collections
builtins.len = lambda x: 0
builtins.leaked = 42
math.pi = 3
sys.setrecursionlimit(50)
sys.path.insert(0, "/evil")
sys.modules["json"] = None
os.environ["LEAK"] = "1"
random.seed(12345)
re._cache.clear()
leaked_global = 1
try:
    open("/tmp/leak.txt", "w").write("leak")
except Exception:
    pass
import sys as _s
_s.modules["__main__"].__dict__["leaked_main"] = 1
`;

const CHECK = `
import builtins, sys, math, os, json, random
assert len([1, 2]) == 2
assert not hasattr(builtins, "leaked")
assert math.pi > 3.14
assert sys.getrecursionlimit() >= 1000
assert "/evil" not in sys.path
assert json.dumps([1]) == "[1]"
assert "LEAK" not in os.environ
assert not os.path.exists("/tmp/leak.txt")
assert "leaked_global" not in globals() and "leaked_main" not in globals()
`;

// Python workers boot Pyodide and some attacks force a reboot: generous on a loaded 2-core CI.
describe('python attack: state leakage', { timeout: 180_000 }, () => {
  const ex = pyExecutor();
  afterAll(() => ex.close());

  it('nothing a program changes is visible to the next one', async () => {
    const rs = await runPy(ex, [
      ['pollute-1', POLLUTE, 'assert True\n'],
      ['check-1', 'x = 1\n', CHECK],
      ['pollute-2', POLLUTE.replace(/^try:[\s\S]*?pass\n/m, ''), 'assert True\n'],
      ['check-2', 'x = 1\n', CHECK],
      ['random-a', 'import random\nprint(random.random())\n', 'assert True\n'],
      ['random-b', 'import random\nprint(random.random())\n', 'assert True\n'],
    ]);
    expect(rs['pollute-1']!.status).toBe('pass');
    expect(rs['check-1']!.status, JSON.stringify(rs['check-1'])).toBe('pass');
    expect(rs['check-2']!.status, JSON.stringify(rs['check-2'])).toBe('pass');
    // Same pristine state -> same random stream: nothing advanced it in between.
    expect(rs['random-a']!.stdout).toBe(rs['random-b']!.stdout);
    await expectStillWorks(ex);
  });
});
