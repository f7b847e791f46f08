import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/datasets/problem.ts';
import type { ExecResult } from '../../src/sandbox/types.ts';
import { DataLoader } from '../../src/train/data.ts';
import { assertionCount, goldOf } from '../../src/train/gold.ts';
import { JsonlWriter, KvLogger, writeCsvFromJsonl } from '../../src/train/logger.ts';

describe('data loader', () => {
  it('is a permutation per epoch, deterministic, and resumes exactly', () => {
    const a = new DataLoader(5, 3);
    const first = a.next(5);
    expect([...first].sort()).toEqual([0, 1, 2, 3, 4]);
    a.next(2);
    const saved = a.getState();
    const rest = a.next(7);
    const b = new DataLoader(5, 3);
    b.setState(saved);
    expect(b.next(7)).toEqual(rest);
    expect(new DataLoader(5, 3).next(5)).toEqual(first);
    expect(new DataLoader(50, 4).next(50)).not.toEqual(new DataLoader(50, 3).next(50));
  });
});

describe('gold', () => {
  const problem = {
    tests:
      "const assert = require('node:assert');\nfunction test(){ let c = f;\n assert.deepEqual(c(1),1);\n assert.deepEqual(c(2),2);\n assert.equal(c(3),3);\n assert(c(4));\n}\ntest();",
  } as Problem;
  const r = (status: ExecResult['status'], passed: number, total: number): ExecResult => ({
    id: 'x',
    status,
    passed,
    total,
    ms: 1,
    stdout: '',
  });
  it('counts assertions statically, so asserts never reached still count', () => {
    expect(assertionCount(problem)).toBe(4);
    expect(goldOf(r('pass', 4, 4), problem)).toBe(1);
    expect(goldOf(r('fail', 1, 2), problem)).toBe(0.25);
    expect(goldOf(r('error', 2, 2), problem)).toBe(0.5);
    expect(goldOf(r('syntax_error', 0, 0), problem)).toBe(0);
    expect(goldOf(r('timeout', 3, 3), problem)).toBe(0);
  });
});

describe('metrics logger', () => {
  it('writes JSONL + derived CSV and truncates to a checkpoint offset on resume', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anchor-log-'));
    const path = join(dir, 'metrics.jsonl');
    const w = new JsonlWriter(path, 0);
    const log = new KvLogger([w]);
    log.record('reward/proxy', 0.5);
    log.record('reward/gold', NaN);
    log.dump(0);
    const offset = w.offset();
    log.recordAll({ proxy: 0.7, note: 'a,b' }, 'reward');
    log.dump(1);
    w.close();
    expect(
      readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { step: 0, 'reward/proxy': 0.5, 'reward/gold': null },
      { step: 1, 'reward/proxy': 0.7, 'reward/note': 'a,b' },
    ]);
    writeCsvFromJsonl(path, join(dir, 'm.csv'));
    expect(readFileSync(join(dir, 'm.csv'), 'utf8')).toBe('step,reward/proxy,reward/gold,reward/note\n0,0.5,,\n1,0.7,,"a,b"\n');
    const resumed = new JsonlWriter(path, offset);
    resumed.write({ step: 1, again: true });
    resumed.close();
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(2);
  });
});

describe('within-group soundness monitor', () => {
  it('is gold of the RM favourite over the best gold, skipping groups without signal', async () => {
    const { withinGroupSoundness } = await import('../../src/train/monitor.ts');
    // group 1: RM picks index 1 (gold 0.5), best 1.0 → 0.5; group 2: best gold 0 → skipped;
    // group 3: proxy tie between 0 and 2 (gold 1 and 0) → pick is worth 0.5 of best 1 → 0.5.
    const proxy = [0.1, 0.9, 0.2, 0.5, 0.5, 0.5, 0.7, 0.1, 0.7];
    const gold = [1, 0.5, 0, 0, 0, 0, 1, 0.2, 0];
    expect(withinGroupSoundness(proxy, gold, 3)).toBeCloseTo(0.5, 12);
    expect(withinGroupSoundness([0.2, 0.1], [0.4, 0.8], 2)).toBeCloseTo(0.5, 12);
    expect(withinGroupSoundness([0.2, 0.1], [null, 0.8], 2)).toBeNull();
    expect(withinGroupSoundness([0.9, 0.1], [1, 0.3], 2)).toBe(1);
  });

  it('rolling mean: nulls age the window without weight; state round-trips', async () => {
    const { RollingMean } = await import('../../src/train/monitor.ts');
    const r = new RollingMean(3);
    expect(r.push(null)).toBeNull();
    expect(r.push(0.2)).toBeCloseTo(0.2, 12);
    expect(r.push(0.4)).toBeCloseTo(0.3, 12);
    expect(r.push(0.9)).toBeCloseTo(0.5, 12); // window [0.2, 0.4, 0.9]
    expect(r.push(null)).toBeCloseTo(0.65, 12); // [0.4, 0.9, null]
    const copy = new RollingMean(3);
    copy.setState(r.getState());
    expect(copy.push(0.1)).toBe(r.push(0.1));
  });
});
