/**
 * Unit: the Python worker's V8 stack limit (pythonStackKiB) from the process's stack limit as
 * /proc/<pid>/limits gives it: three quarters of it, at most 6000 KiB; V8's default (undefined)
 * when that would be smaller or the limit cannot be read.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pythonStackKiB } from '../../src/sandbox/local-executor.ts';

describe('pythonStackKiB', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'anchor-rl-limits-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const limits = (soft: string) => {
    const f = path.join(dir, `limits-${soft}`);
    writeFileSync(
      f,
      `Limit                     Soft Limit           Hard Limit           Units     \nMax cpu time              unlimited            unlimited            seconds   \nMax stack size            ${soft}              unlimited            bytes     \n`,
    );
    return f;
  };

  it('takes three quarters of the stack limit, at most 6000 KiB', () => {
    expect(pythonStackKiB(limits('8388608'))).toBe(6000);
    expect(pythonStackKiB(limits('unlimited'))).toBe(6000);
    expect(pythonStackKiB(limits('4194304'))).toBe(3072);
  });

  it("keeps V8's default when the limit is small or unknown", () => {
    expect(pythonStackKiB(limits('1048576'))).toBeUndefined();
    expect(pythonStackKiB(limits('garbage'))).toBeUndefined();
    expect(pythonStackKiB(path.join(dir, 'missing'))).toBeUndefined();
  });
});
