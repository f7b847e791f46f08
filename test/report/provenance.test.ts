/**
 * Provenance filters (`compare`/`report --where`, src/report/provenance.ts) and the gold-watch
 * columns of the comparison, on a synthetic run whose samples carry stamps: a run resumed
 * under a new sandbox harness at step 16 is split by `--where harness=...`.
 */
import { readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/report/compare.ts';
import { filterRun, parseWhere } from '../../src/report/provenance.ts';
import { readRun } from '../../src/report/read-run.ts';
import { GOLD_WATCH_METRIC_KEYS as W } from '../../src/train/gold-watch.ts';
import { AnchorError } from '../../src/util/errors.ts';
import { writeFakeRun } from '../helpers/fake-run.ts';

const root = mkdtempSync(join(tmpdir(), 'anchor-provenance-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A fake run with stamped samples (harness a… up to step 15, b… after) and gold-watch metrics. */
function stampedRun(): string {
  const fake = writeFakeRun(join(root, 'run'), { steps: 30, samplesPerStep: 2, arms: ['frozen', 'execution'] });
  for (const arm of ['frozen', 'execution']) {
    const rewrite = (file: string, f: (l: Record<string, unknown>) => Record<string, unknown>) => {
      const p = join(fake.dir, arm, file);
      const lines = readFileSync(p, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      writeFileSync(p, lines.map((l) => JSON.stringify(f(l))).join('\n') + '\n');
    };
    rewrite('samples.jsonl', (l) => ({
      ...l,
      policy: { step: l.step, weights: `w${l.step}` },
      rm: { refit: Math.floor((l.step as number) / 10), hash: 'r0' },
      harness: (l.step as number) <= 15 ? 'aaaa1111' : 'bbbb2222',
      verdict: 'strict',
      seed: 0,
    }));
    rewrite('metrics.jsonl', (l) => ({
      ...l,
      [W.parityOnly]: arm === 'frozen' ? 1 : 0,
      [W.parityOnlyRate]: arm === 'frozen' ? 0.125 : 0,
      [W.canaryCount]: 2,
      [W.canaryPassRate]: arm === 'frozen' && (l.step as number) % 2 === 0 ? 0.5 : 0,
      [W.canaryStrictPassRate]: 0,
    }));
  }
  return fake.dir;
}

describe('provenance filters', () => {
  const dir = stampedRun();

  it('keeps the steps whose samples carry the stamp (hash by prefix)', () => {
    const run = readRun(dir, { samples: true });
    const b = filterRun(run, parseWhere(['harness=bbbb']));
    for (const a of b.arms) {
      expect(a.metrics.map((m) => m.step)).toEqual(Array.from({ length: 15 }, (_, i) => i + 16));
      expect(a.samples!.every((s) => s.harness === 'bbbb2222')).toBe(true);
    }
    const one = filterRun(run, parseWhere(['policy.step=3', 'verdict=strict']));
    expect(one.arms[0]!.metrics.map((m) => m.step)).toEqual([3]);
    expect(filterRun(run, parseWhere(['rm.refit=2'])).arms[0]!.metrics.map((m) => m.step)).toEqual(
      Array.from({ length: 10 }, (_, i) => i + 20),
    );
    expect(filterRun(run, parseWhere(['harness=cccc'])).arms[0]!.metrics).toEqual([]);
    expect(filterRun(run, [])).toBe(run);
  });

  it('compare --where counts only those steps', () => {
    expect(compareRuns([dir], { where: ['harness=aaaa'] }).rows[0]!.values.steps.mean).toBe(15);
    expect(compareRuns([dir]).rows[0]!.values.steps.mean).toBe(30);
  });

  it('refuses an unknown key or a condition without a value', () => {
    expect(() => parseWhere(['weights=1'])).toThrow(AnchorError);
    expect(() => parseWhere(['harness='])).toThrow(/KEY=VALUE/);
  });

  it('the comparison shows the gold-watch columns: parity-only summed, canary pass weighted by count', () => {
    const t = compareRuns([dir], { window: 10 });
    expect(t.columns.map((c) => c.key)).toEqual(
      expect.arrayContaining(['parityOnly', 'parityOnlyRate', 'canaryPass', 'canaryStrictPass']),
    );
    const frozen = t.rows.find((r) => r.arm === 'frozen')!.values;
    expect(frozen.parityOnly.mean).toBe(30);
    expect(frozen.parityOnlyRate.mean).toBeCloseTo(0.125);
    expect(frozen.canaryPass.mean).toBeCloseTo(0.25);
    expect(frozen.canaryStrictPass.mean).toBe(0);
    expect(t.rows.find((r) => r.arm === 'execution')!.values.canaryPass.mean).toBe(0);
    // Runs without gold-watch keys keep the columns they had.
    const plain = writeFakeRun(join(root, 'plain'), { steps: 5 });
    expect(compareRuns([plain.dir]).columns.map((c) => c.key)).not.toContain('parityOnly');
  });
});
