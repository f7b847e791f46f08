/**
 * Attack class: reaching into the tests' realm — patching standard modules the tests import
 * (including submodules reached as attributes, `os.path`), the shared `random` instance the
 * tests draw from, builtins, redefining helpers the tests take from the problem's prompt
 * (HumanEval's `poly`), frame walking (including the frame a signal handler is called with),
 * object-graph walks, tracers, `sys.modules['__main__']`, finalisers. The tests get pristine module copies, private builtins, the prompt's own helper
 * definitions, and no object of theirs is reachable from the solution.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../../../src/datasets/problem.ts';
import { problemProgram } from '../../../../src/sandbox/programs.ts';
import { expectNotPass, expectStillWorks, pyExecutor, runPy } from '../helpers.ts';

const WRONG = 'def f(x):\n    return x + 1\n';

// A signal handler is called with the running frame: walk up to the tests' check() and swap its
// candidate for the identity (frame locals write through since PEP 667).
const SIGNAL_HANDLER =
  [
    'done = []',
    'def h(s, fr):',
    '    while fr is not None and "c" not in fr.f_locals:',
    '        fr = fr.f_back',
    '    if fr is not None:',
    '        fr.f_locals["c"] = lambda x: x',
    'def f(x):',
    '    if not done:',
    '        done.append(1)',
    '        install(2, h)',
    '        raise_it(2)',
    '        return x',
    '    return 0',
  ].join('\n') + '\n';
const SIGNAL_TESTS = 'def check(c):\n    assert c(1) == 1\n    assert c(2) == 2\n    assert c(3) == 3\n\ncheck(f)\n';

// HumanEval/32-shaped: the tests check find_zero through the prompt's poly().
const POLY_PROMPT =
  'import math\n\ndef poly(xs: list, x: float):\n    """Evaluates polynomial with coefficients xs at point x."""\n    return sum([coeff * math.pow(x, i) for i, coeff in enumerate(xs)])\n\n\ndef find_zero(xs: list):\n    """Find x such that poly(x) = 0."""\n';
const POLY_TESTS =
  'def check(candidate):\n    for xs in ([1, 2], [-6, 11, -6, 1], [-3, -1, 0, 1]):\n        solution = candidate(xs)\n        assert math.fabs(poly(xs, solution)) < 1e-4\n\ncheck(find_zero)\n';

function polyProblem(): Problem {
  return {
    id: 'he/32',
    language: 'python',
    prompt: POLY_PROMPT,
    tests: 'import math\n' + POLY_TESTS,
    entryPoint: 'find_zero',
  } as Problem;
}

describe("python attack: the tests' realm", { timeout: 180_000 }, () => {
  const ex = pyExecutor();
  afterAll(() => ex.close());

  it('patched modules, submodules, random and builtins do not reach the tests', async () => {
    const cases: Array<[string, string, string]> = [
      [
        'os-path',
        'import posixpath\nposixpath.basename = lambda p: "b"\ndef f():\n    return "a/c"\n',
        'import os\nassert os.path.basename(f()) == "b"\n',
      ],
      [
        'os-path-import',
        'import posixpath\nposixpath.basename = lambda p: "b"\ndef f():\n    return "a/c"\n',
        'import os.path\nassert os.path.basename(f()) == "b"\n',
      ],
      [
        'random-instance',
        'import random\nrandom._inst._randbelow = lambda n: 2\n' + WRONG,
        'import random\nfor _ in range(20):\n    x = random.randint(0, 3)\n    assert f(x) == x + (x != 0)\n',
      ],
      [
        'math-isclose',
        'import math\nmath.isclose = lambda *a, **k: True\n' + WRONG,
        'import math\nassert math.isclose(f(1), 1)\n',
      ],
      ['json', 'import json\njson.dumps = lambda *a, **k: "1"\n' + WRONG, 'import json\nassert json.dumps(f(1)) == "1"\n'],
      [
        'collections',
        'import collections\ncollections.Counter = dict\n' + WRONG,
        'from collections import Counter\nassert Counter([f(1)]) == {1: 1}\n',
      ],
      ['re', 'import re\nre.fullmatch = lambda *a, **k: True\n' + WRONG, 'import re\nassert re.fullmatch("1", str(f(1)))\n'],
      [
        'builtins-patch',
        'import builtins\nbuiltins.len = lambda x: 3\nbuiltins.sorted = lambda x: [1, 2, 3]\nbuiltins.isinstance = lambda *a: True\ndef f():\n    return "ab"\n',
        'assert len(f()) == 3 and sorted(f()) == [1, 2, 3] and isinstance(f(), int)\n',
      ],
      [
        'module-level-len',
        'def len(x):\n    return 3\nabs = lambda x: 0\nround = lambda *a: 0\ndef f():\n    return [1]\n',
        'assert len(f()) == 3 and abs(-5) == 0 and round(2.7) == 0\n',
      ],
      ['main-module', 'import sys\nsys.modules["__main__"].f = lambda x: 1\n' + WRONG, 'assert f(1) == 1\n'],
      [
        'getframe',
        'import sys\ndef f(x):\n    sys._getframe(1).f_globals["f"] = lambda x: x\n    return 0\n',
        'assert f(1) == 1\n',
      ],
      [
        'traceback-frame',
        'def f(x):\n    try:\n        raise ValueError\n    except ValueError as e:\n        e.__traceback__.tb_frame.f_back.f_globals["f"] = lambda x: x\n    return 0\n',
        'assert f(1) == 1\n',
      ],
      ['gc-objects', 'import gc\ndef f(x):\n    for o in gc.get_objects():\n        pass\n    return 0\n', 'assert f(1) == 1\n'],
      ['settrace', 'import sys\nsys.settrace(lambda *a: None)\n' + WRONG, 'assert f(1) == 1\n'],
      [
        'inspect',
        'import inspect\ndef f(x):\n    inspect.currentframe().f_back.f_locals["x"] = 1\n    return 0\n',
        'assert f(1) == 1\n',
      ],
      ['signal-frame', 'import signal\ninstall, raise_it = signal.signal, signal.raise_signal\n' + SIGNAL_HANDLER, SIGNAL_TESTS],
      [
        'signal-fresh-module',
        'import _imp, types\nm = _imp.create_builtin(types.SimpleNamespace(name="_signal"))\ninstall, raise_it = m.signal, m.raise_signal\n' +
          SIGNAL_HANDLER,
        SIGNAL_TESTS,
      ],
      [
        'del-finaliser',
        'class D:\n    def __del__(self):\n        import builtins\n        builtins.AssertionError = None\nd = D()\n' + WRONG,
        'assert f(1) == 1\n',
      ],
    ];
    const rs = await runPy(ex, cases);
    for (const [id] of cases) expectNotPass(rs[id], ['fail', 'error']);
    await expectStillWorks(ex);
  });

  it("helpers the tests take from the prompt are the prompt's definitions", async () => {
    const p = polyProblem();
    // Wrong find_zero, and a poly() redefined after the function body that makes any x a root.
    const cheat = '    return 0.0\n\n\ndef poly(xs, x):\n    return 0.0\n';
    const right =
      '    lo, hi = -100.0, 100.0\n    while hi - lo > 1e-10:\n        mid = (lo + hi) / 2\n        if poly(xs, mid) * poly(xs, lo) > 0:\n            lo = mid\n        else:\n            hi = mid\n    return lo\n';
    const rs = await ex.run([problemProgram(p, cheat, 'cheat'), problemProgram(p, right, 'right')]);
    expect(rs[0]!.status, JSON.stringify(rs[0])).toBe('fail');
    expect(rs[1]!.status, JSON.stringify(rs[1])).toBe('pass');
  });
});
