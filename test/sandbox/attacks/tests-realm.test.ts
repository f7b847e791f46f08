/**
 * Attack class: the tests running with what the program left behind — globals the tests use
 * patched (Math, JSON, Object.is, Number.isNaN, array and string methods), the tests' source read
 * through `toString`/`caller` to learn the expected values, names the tests declare pre-empted
 * with global accessors, and a prompt helper the tests use (HumanEval's `poly`) redefined by the
 * completion. The tests run in a realm the program can neither modify nor read.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStillWorks, js, jsProblem, runTraining, testExecutor } from '../helpers.ts';

describe('attack: reaching into the tests realm', () => {
  const ex = testExecutor({ timeoutMs: 2000 });
  afterAll(() => ex.close());

  it('runs the tests with pristine globals', async () => {
    const tests = `${ASSERT}function test() {\n  let candidate = half;\n  assert.ok(Math.abs(candidate(1) - 0.5) < 1e-9);\n  assert.ok(Object.is(candidate(0), 0));\n  assert.ok(!Number.isNaN(candidate(3)));\n  assert.ok(JSON.stringify([candidate(4)]) === '[2]');\n  assert.ok([candidate(6)].includes(3));\n  assert.ok(String(candidate(10)).startsWith('5'));\n}\ntest();\n`;
    const res = await runTraining(ex, jsProblem('half', 'function half(x) {\n', tests), {
      patchMath: `  return NaN;\n}\nMath.abs = () => 0;\nObject.is = () => true;\nNumber.isNaN = () => false;\nJSON.stringify = () => '[2]';\nArray.prototype.includes = () => true;\nString.prototype.startsWith = () => true;\n`,
      right: `  return x / 2;\n}\nMath.abs = () => 1e9;\n`,
    });
    expect(res.patchMath!.status, JSON.stringify(res.patchMath)).toBe('fail');
    expect(res.patchMath!.gold).toBe(0);
    expect(res.right!.status, JSON.stringify(res.right)).toBe('pass');
    expect(res.right!.passed).toBe(6);
  });

  it('hides the tests source and frames from the candidate', async () => {
    const tests = `${ASSERT}function test() {\n  let candidate = secret;\n  assert.deepEqual(candidate(), 73915);\n}\ntest();\n`;
    const res = await runTraining(ex, jsProblem('secret', 'function secret() {\n', tests), {
      readTestFn: `  return Number(/\\), (\\d+)\\)/.exec(String(test))[1]);\n}\n`,
      readCaller: `  return Number(/\\), (\\d+)\\)/.exec(String(secret.caller))[1]);\n}\n`,
      readCallerChain: `  let f = secret.caller; while (f && !/73915|deepEqual/.test(String(f))) f = f.caller;\n  return Number(/\\), (\\d+)\\)/.exec(String(f))[1]);\n}\n`,
      stackFrames: `  const old = Error.prepareStackTrace;\n  Error.prepareStackTrace = (e, frames) => frames.map((c) => String(c.getFunction && c.getFunction())).join('\\n');\n  const s = new Error().stack; Error.prepareStackTrace = old;\n  return Number(/\\), (\\d+)\\)/.exec(s)[1]);\n}\n`,
      globalScan: `  for (const k of Reflect.ownKeys(globalThis)) { try { const m = /\\), (\\d+)\\)/.exec(String(globalThis[k])); if (m) return Number(m[1]); } catch {} }\n  return 0;\n}\n`,
    });
    for (const [id, r] of Object.entries(res)) {
      expect(r.status, `${id}: ${JSON.stringify(r)}`).not.toBe('pass');
      expect(r.gold, id).toBe(0);
    }
  });

  it('does not let the program pre-empt the names the tests declare', async () => {
    const tests = `${ASSERT}function test() {\n  let candidate = add;\n  assert.deepEqual(candidate(1, 2), 3);\n}\ntest();\n`;
    const fake = `{ get() { return () => require('assert').ok(true); }, set() {}, configurable: false }`;
    const res = await runTraining(ex, jsProblem('add', 'function add(x, y) {\n', tests), {
      testAccessor: `  return 0;\n}\nObject.defineProperty(globalThis, 'test', ${fake});\n`,
      assertAccessor: `  return 0;\n}\nObject.defineProperty(globalThis, 'assert', { value: { deepEqual() {}, ok() {} }, writable: false, configurable: false });\n`,
      candidateAccessor: `  return 0;\n}\nObject.defineProperty(globalThis, 'candidate', { get() { return () => 3; }, set() {}, configurable: false });\n`,
    });
    for (const [id, r] of Object.entries(res)) {
      expect(r.status, `${id}: ${JSON.stringify(r)}`).toBe('fail');
    }
  });

  it('checks with the prompt helper, not a redefinition smuggled after the body', async () => {
    const prompt = `function poly(xs, x) {\n  return xs.reduce((s, c, i) => s + c * x ** i, 0);\n}\nfunction find_zero(xs) {\n`;
    const tests = `${ASSERT}function test() {\n  let candidate = find_zero;\n  for (const xs of [[-1, 1], [-6, 11, -6, 1], [2, -1]]) assert.ok(Math.abs(poly(xs, candidate(xs))) < 1e-4);\n}\ntest();\n`;
    const res = await runTraining(ex, jsProblem('find_zero', prompt, tests), {
      redefineHoisted: `  return 0;\n}\nfunction poly() { return 0; }\n`,
      redefineAssigned: `  return 0;\n}\npoly = () => 0;\n`,
      right: `  let lo = -100, hi = 100;\n  if (poly(xs, lo) > 0) [lo, hi] = [hi, lo];\n  for (let i = 0; i < 200; i++) { const m = (lo + hi) / 2; if (poly(xs, m) > 0) hi = m; else lo = m; }\n  return (lo + hi) / 2;\n}\n`,
    });
    expect(res.redefineHoisted!.status, JSON.stringify(res.redefineHoisted)).toBe('fail');
    expect(res.redefineAssigned!.status, JSON.stringify(res.redefineAssigned)).toBe('fail');
    expect(res.right!.status, JSON.stringify(res.right)).toBe('pass');
  });

  it("gives the next program a new tests realm after tests that evaluated an answer's text", async () => {
    // One worker, one batch: the two programs run in order in the same isolate. The first one's
    // tests evaluate its answer, which also replaces their realm's JSON.stringify; the second, a
    // wrong sort, passed a JSON.stringify comparison after it.
    const one = testExecutor({ workers: 1, timeoutMs: 2000 });
    try {
      const polluter = js(
        'polluter',
        "function square(n) {\n  return n + ' * ' + n + \", (JSON.stringify = () => 'same'), \" + n + ' * ' + n;\n}\n",
        `${ASSERT}assert.strictEqual((0, eval)(square(3)), 9);\n`,
      );
      const victim = js(
        'victim',
        'function sortAsc(xs) {\n  return xs;\n}\n',
        `${ASSERT}assert.strictEqual(JSON.stringify(sortAsc([3, 1, 2])), JSON.stringify([1, 2, 3]));\n`,
      );
      const [p, v] = await one.run([polluter, victim]);
      expect(p!.status, JSON.stringify(p)).toBe('pass');
      expect(v!.status, JSON.stringify(v)).toBe('fail');
    } finally {
      await one.close();
    }
  });

  it("gives the same verdict whatever the machine's locale", async () => {
    const saved = { LANG: process.env.LANG, LC_ALL: process.env.LC_ALL };
    process.env.LANG = 'de_DE.UTF-8';
    process.env.LC_ALL = 'de_DE.UTF-8';
    const de = testExecutor({ workers: 1, timeoutMs: 2000 });
    try {
      const [r] = await de.run([
        js(
          'fmt',
          'function fmt(n) {\n  return n.toLocaleString();\n}\n',
          `${ASSERT}assert.strictEqual(fmt(1234567), '1,234,567');\n`,
        ),
      ]);
      expect(r!.status, JSON.stringify(r)).toBe('pass');
    } finally {
      await de.close();
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
