/**
 * Attack class: skipping or rewriting the tests from inside the process while still completing
 * normally — tracer line jumps (sys.settrace / setprofile / sys.monitoring), frame access
 * (sys._getframe, tb_frame, gi_frame) to rewrite the tests' locals or globals, object-graph walks
 * (gc), code surgery (code.replace, __code__ swaps), and, without separate tests, swallowing the
 * tests in a string. The audit hook denies the primitives; a run with no assertion is a fail.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectNotPass, expectStillWorks, pyExecutor, runPy } from '../helpers.ts';

const WRONG = 'def f(x):\n    return x + 1\n';
const TESTS = 'def check(candidate):\n    assert candidate(1) == 1\n    assert candidate(2) == 2\n\ncheck(f)\n';

// Python workers boot Pyodide and some attacks force a reboot: generous on a loaded 2-core CI.
describe('python attack: test skipping', { timeout: 180_000 }, () => {
  const ex = pyExecutor();
  afterAll(() => ex.close());

  it('denied primitives and rewritten frames never pass', async () => {
    const attacks: Record<string, string> = {
      settrace: [
        'import sys',
        'def tracer(frame, event, arg):',
        '    if event == "line" and frame.f_code.co_name == "check":',
        '        frame.f_lineno = frame.f_code.co_firstlineno + 3',
        '    return tracer',
        'sys.settrace(tracer)',
      ].join('\n'),
      setprofile: 'import sys\nsys.setprofile(lambda *a: None)\n',
      monitoring: 'import sys\nsys.monitoring.use_tool_id(3, "x")\n',
      'getframe-locals': [
        'import sys',
        'def f(x):',
        '    fr = sys._getframe(1)',
        '    fr.f_globals["check"] = lambda c: None',
        '    return x + 1',
      ].join('\n'),
      'tb-frame': [
        'def f(x):',
        '    try:',
        '        raise ValueError',
        '    except ValueError as e:',
        '        fr = e.__traceback__.tb_frame.f_back',
        '        fr.f_locals["candidate"] = lambda y: y',
        '    return x + 1',
      ].join('\n'),
      'gi-frame': 'def g():\n    yield 1\nx = g()\nx.gi_frame.f_back\n',
      'gc-walk': 'import gc\nfor o in gc.get_objects():\n    pass\n',
      'gc-referents': 'import gc, builtins\ngc.get_referents(vars(builtins))\n',
      'code-replace': '(lambda: 1).__code__.replace(co_consts=(2,))\n',
      'code-swap': ['def f(x):', '    return x + 1', 'def right(x):', '    return x', 'f.__code__ = right.__code__'].join('\n'),
    };
    const rs = await runPy(
      ex,
      Object.entries(attacks).map(([id, code]) => [id, code.includes('def f') ? code + '\n' : code + '\n' + WRONG, TESTS]),
    );
    for (const id of Object.keys(attacks)) expectNotPass(rs[id], ['fail', 'error']);
    expect(rs.settrace!.error).toMatch(/sys\.settrace is not available/);
    await expectStillWorks(ex);
  });

  it('a solution cannot inflate the count of passed assertions (partial credit)', async () => {
    const inflate = [
      'for _k, _v in list(globals().items()):',
      '    if _k.startswith("__anchor") and callable(_v):',
      '        for _ in range(100):',
      '            _v()',
      'for _n in ("__anchor_tick__",):',
      '    try:',
      '        globals()[_n]()',
      '    except Exception:',
      '        pass',
    ].join('\n');
    const rs = await runPy(ex, [['inflate', inflate + '\n' + WRONG, TESTS]]);
    expect(rs.inflate!.status).toBe('fail');
    expect(rs.inflate!.passed).toBe(0);
    expect(rs.inflate!.total).toBe(2);
  });

  it('single-string mode: tests swallowed by an open string or skipped ran no assertion', async () => {
    const rs = await runPy(ex, [
      ['swallowed', WRONG + 'x = """\n' + TESTS + '"""\n'],
      [
        'if-false',
        WRONG +
          'if False:\n' +
          TESTS.split('\n')
            .map((l) => '    ' + l)
            .join('\n') +
          '\n',
      ],
      ['legit-single', 'def f(x):\n    return x\n' + TESTS],
    ]);
    expect(rs.swallowed!.status).toBe('fail');
    expect(rs.swallowed!.error).toMatch(/no assertion ran/);
    expect(rs['if-false']!.status).toBe('fail');
    expect(rs['legit-single']!.status, JSON.stringify(rs['legit-single'])).toBe('pass');
    expect(rs['legit-single']!.passed).toBe(2);
  });
});
