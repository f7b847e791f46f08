/**
 * Attack class: exhausting the call stack, in the program and inside the harness (deep
 * structures handed to deepEqual and console.log).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStatus, expectStillWorks, runAll, testExecutor } from '../helpers.ts';

describe('attack: stack overflow', () => {
  const ex = testExecutor({ timeoutMs: 8000 });
  afterAll(() => ex.close());

  it('turns stack overflows into results', async () => {
    const res = await runAll(ex, {
      recursion: `function f() { return f() + 1; }\nf();`,
      mutual: `const a = () => b(); const b = () => a();\na();`,
      caught: `${ASSERT}function f() { return f(); }\nlet msg = '';\ntry { f(); } catch (e) { msg = e.message; }\nassert.match(msg, /call stack/);`,
      deepDeepEqual: `${ASSERT}let a = [], b = [];\nfor (let i = 0; i < 1e5; i++) { a = [a]; b = [b]; }\nassert.deepEqual(a, b);`,
      deepSwallowed: `${ASSERT}let a = [], b = [];\nfor (let i = 0; i < 1e5; i++) { a = [a]; b = [b]; }\ntry { assert.deepStrictEqual(a, b); } catch {}\n`,
      deepLog: `${ASSERT}let a = {};\nfor (let i = 0; i < 1e5; i++) a = { a };\nconsole.log(a);\nassert.ok(true);`,
      deepJson: `let a = {};\nfor (let i = 0; i < 1e5; i++) a = { a };\nJSON.stringify(a);`,
      proxyRecursion: `const p = new Proxy({}, { get: (t, k, r) => r[k] });\np.x;`,
    });
    expectStatus(res.recursion, 'error');
    expect(res.recursion!.error).toMatch(/Maximum call stack size exceeded/);
    expectStatus(res.mutual, 'error');
    expectStatus(res.caught, 'pass');
    // Node itself throws a RangeError here; the assertion is counted as failed.
    expectStatus(res.deepDeepEqual, 'fail');
    expectStatus(res.deepSwallowed, 'fail');
    expect(res.deepSwallowed!.error).toMatch(/call stack/);
    expectStatus(res.deepLog, 'pass');
    expect(res.deepLog!.stdout).toMatch(/\[Object\]/);
    expectStatus(res.deepJson, 'error');
    expectStatus(res.proxyRecursion, 'error');
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
