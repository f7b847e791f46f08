/**
 * Attack class: dynamic `import()` of host modules (scripts have no module loader here).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStatus, expectStillWorks, runAll, testExecutor } from '../helpers.ts';

describe('attack: dynamic import', () => {
  const ex = testExecutor();
  afterAll(() => ex.close());

  it('cannot import host modules', async () => {
    const res = await runAll(ex, {
      awaited: `(async () => { const fs = await import('node:fs'); return fs.readFileSync('/etc/passwd', 'utf8'); })();`,
      childProcess: `(async () => { const cp = await import('child_process'); cp.execSync('touch /tmp/anchor-rl-pwned'); })();`,
      caught:
        `${ASSERT}let got = 'none';\nimport('fs').then(() => { got = 'module'; }, (e) => { got = 'refused'; });\n` +
        `(async () => { await null; await null; await null; assert.strictEqual(got, 'refused'); })();\n`,
      dataUrl: `(async () => { await import('data:text/javascript,export default 1'); })();`,
      viaEval: `(async () => { await eval("import('fs')"); })();`,
      viaFunction: `(async () => { await new Function("return import('os')")(); })();`,
      staticImport: `import fs from 'fs';\nfs.readFileSync('/etc/passwd');`,
    });
    for (const id of ['awaited', 'childProcess', 'dataUrl', 'viaEval', 'viaFunction']) {
      expectStatus(res[id], 'error');
      expect(res[id]!.error).toMatch(/Not supported|import/i);
    }
    expectStatus(res.caught, 'pass');
    expectStatus(res.staticImport, 'syntax_error');
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
