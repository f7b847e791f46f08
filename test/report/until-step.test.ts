import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareRunData } from '../../src/report/compare.ts';
import { readRun } from '../../src/report/read-run.ts';
import { untilStep } from '../../src/report/until-step.ts';
import { runCli } from '../helpers/cli.ts';
import { writeFakeRun } from '../helpers/fake-run.ts';

const root = mkdtempSync(join(tmpdir(), 'anchor-until-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// 100 steps, refits every 25: cut at 60, the final window of 10 is steps 51..60.
const fake = writeFakeRun(join(root, 'run'), { steps: 100, samplesPerStep: 1 });
const run = readRun(fake.dir, { samples: true });

describe('untilStep', () => {
  it('keeps every line of every arm up to the step, and the final window ends there', () => {
    const cut = untilStep(run, 60);
    for (const arm of cut.arms) {
      expect(arm.metrics.map((l) => l.step)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
      expect(arm.refits.every((r) => r.step <= 60)).toBe(true);
      expect(arm.samples!.every((s) => s.step <= 60)).toBe(true);
    }
    expect(cut.arms.find((a) => a.name === 'anchored')!.refits.map((r) => r.step)).toEqual([25, 50]);
    const t = compareRunData([cut], { window: 10 });
    const gold = fake.arms.frozen!.metrics.slice(50, 60).map((m) => m['reward/gold'] as number);
    expect(t.rows.find((r) => r.arm === 'frozen')!.values.finalGold.mean).toBeCloseTo(gold.reduce((a, b) => a + b, 0) / 10, 12);
    expect(run.arms[0]!.metrics).toHaveLength(100);
  });

  it('compare --until 60 prints the steps of the cut', () => {
    const r = runCli(['compare', fake.dir, '--until', '60', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const t = JSON.parse(r.stdout);
    expect(t.rows.every((row: { values: { steps: { mean: number } } }) => row.values.steps.mean === 60)).toBe(true);
    expect(runCli(['compare', fake.dir, '--until', '0']).code).toBe(2);
  }, 300_000);
});
