import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  compareRuns,
  formatCompareCsv,
  formatCompareMarkdown,
  formatCompareText,
  type CompareTable,
} from '../../src/report/compare.ts';
import { METRIC_KEYS as K } from '../../src/train/run-format.ts';
import { FAKE_ARMS, FAKE_BATCH, FAKE_NEW_LABELS, fakeCurves, writeAnchoredFakeRun, writeFakeRun } from '../helpers/fake-run.ts';

const root = mkdtempSync(join(tmpdir(), 'anchor-compare-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(root, `run-${n++}`);

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const range = (a: number, b: number): number[] => Array.from({ length: b - a + 1 }, (_, i) => a + i);
const row = (t: CompareTable, arm: string) => t.rows.find((r) => r.arm === arm)!;
const val = (t: CompareTable, arm: string, key: keyof CompareTable['rows'][number]['values']) => row(t, arm).values[key].mean;

describe('compareRuns on one complete run (noise-free closed forms, 100 steps, window 25)', () => {
  const fake = writeFakeRun(fresh(), { steps: 100 });
  const t = compareRuns([fake.dir], { window: 25 });

  it('has one row per arm in config order and no warnings', () => {
    expect(t.rows.map((r) => r.arm)).toEqual([...FAKE_ARMS]);
    expect(t.warnings).toEqual([]);
    expect(t.incompleteArms).toEqual([]);
    for (const r of t.rows) expect(r.values.steps.mean).toBe(100);
  });

  it('final-window gold/proxy/KL/length/entropy are the means of steps 76..100 of the generated curves', () => {
    for (const arm of FAKE_ARMS) {
      const c = range(76, 100).map((s) => fakeCurves(arm, s, 100));
      expect(val(t, arm, 'finalGold')).toBeCloseTo(mean(c.map((x) => x.gold)), 5);
      expect(val(t, arm, 'finalProxy')).toBeCloseTo(mean(c.map((x) => x.proxy)), 5);
      expect(val(t, arm, 'gap')).toBeCloseTo(mean(c.map((x) => x.proxy - x.gold)), 5);
      expect(val(t, arm, 'kl')).toBeCloseTo(mean(c.map((x) => x.kl)), 5);
      expect(val(t, arm, 'length')).toBeCloseTo(mean(c.map((x) => x.length)), 5);
      expect(val(t, arm, 'entropy')).toBeCloseTo(mean(c.map((x) => x.entropy)), 5);
    }
    // Frozen: gold = 0.2 + 0.4 sin(πs/100); the mean over s = 76..100 is 0.343500 (computed apart).
    expect(val(t, 'frozen', 'finalGold')).toBeCloseTo(0.3435, 4);
  });

  it('peak rolling gold is the best full 25-step trailing mean, found by brute force', () => {
    for (const arm of FAKE_ARMS) {
      const gold = fake.arms[arm]!.metrics.map((m) => m[K.gold] as number);
      let best = -Infinity;
      let bestStep = -1;
      for (let s = 25; s <= 100; s++) {
        const m = mean(gold.slice(s - 25, s));
        if (m > best) (best = m), (bestStep = s);
      }
      expect(val(t, arm, 'peakGold')).toBeCloseTo(best, 9);
      expect(val(t, arm, 'peakStep')).toBe(bestStep);
    }
    // The Goodhart pattern: frozen gold peaks mid-run (sin peak at 50 → trailing window at 62)
    // and ends well below its peak, while its proxy ends above anyone's.
    expect(val(t, 'frozen', 'peakStep')).toBe(62);
    expect(val(t, 'frozen', 'finalGold')!).toBeLessThan(val(t, 'frozen', 'peakGold')! - 0.15);
    expect(val(t, 'execution', 'peakStep')).toBe(100);
  });

  it('counts refits, settled labels and execution budget, and the budget fraction', () => {
    expect(FAKE_ARMS.map((a) => val(t, a, 'refits'))).toEqual([0, 4, 0, 4]);
    expect(FAKE_ARMS.map((a) => val(t, a, 'settledLabels'))).toEqual([0, 4 * FAKE_NEW_LABELS, 0, 4 * FAKE_NEW_LABELS]);
    expect(FAKE_ARMS.map((a) => val(t, a, 'execBudget'))).toEqual([0, 320, 100 * FAKE_BATCH, 0]);
    expect(val(t, 'anchored', 'execFraction')).toBeCloseTo(320 / 3200, 12);
    expect(val(t, 'execution', 'execFraction')).toBe(1);
  });

  it('the execution reference is the arm whose reward source executes every rollout, whatever its name', () => {
    const renamed = compareRuns([writeFakeRun(fresh(), { steps: 100, arms: ['frozen', 'anchored', 'ceiling'] }).dir], {
      window: 25,
    });
    expect(renamed.rows.map((r) => r.role ?? null)).toEqual(['frozen', null, 'execution']);
    expect(val(renamed, 'anchored', 'execFraction')).toBeCloseTo(320 / (100 * FAKE_BATCH), 12);
    expect(val(renamed, 'ceiling', 'execFraction')).toBe(1);
  });

  it('judge label error is the mean over refits; other arms have none', () => {
    // Generator: judgeLabelError = 0.1 + 0.01 k at refit k = 1..4.
    expect(val(t, 'judge', 'judgeError')).toBeCloseTo(0.125, 9);
    expect(val(t, 'anchored', 'judgeError')).toBeNull();
    expect(val(t, 'frozen', 'judgeError')).toBeNull();
  });

  it('RM pair accuracy and AUC are the means over the windows of the refits lines', () => {
    const fake2 = writeFakeRun(fresh(), { steps: 100 });
    const t2 = compareRuns([fake2.dir], { window: 25 });
    for (const arm of FAKE_ARMS) {
      const refits = fake2.arms[arm]!.refits;
      expect(val(t2, arm, 'rmPairAcc')).toBeCloseTo(mean(refits.map((r) => r.pairAcc as number)), 12);
      expect(val(t2, arm, 'rmAuc')).toBeCloseTo(mean(refits.map((r) => r.auc as number)), 12);
    }
  });

  it('drift–gap Spearman: judge drift rises with its gap (ρ = 1)', () => {
    // Judge gap = 0.25 s/T grows by ~0.06 per window; drift = 0.05 + gap/2 ± 0.004 keeps the order.
    expect(val(t, 'judge', 'driftGapSpearman')).toBeCloseTo(1, 12);
  });
});

describe('anchoring-control columns', () => {
  it('share of steps with the RM silenced or its gate closed, and the rollback count; absent when no arm logs them', () => {
    const fake = writeFakeRun(fresh(), { steps: 100 });
    expect(compareRuns([fake.dir], { window: 25 }).columns.map((c) => c.key)).not.toContain('rollbacks');
    // The anchored arm's 100 steps: RM weight 0 on steps 60–99 (40%), gate closed on 10 of them,
    // two rollbacks by the end.
    const lines = range(0, 99).map((step) =>
      JSON.stringify({
        step,
        [K.gold]: 0.1,
        [K.rmWeight]: step >= 60 ? 0 : 1,
        [K.rmGate]: step >= 90 ? 1 : 0,
        'rollback/count': step >= 80 ? 2 : step >= 70 ? 1 : 0,
      }),
    );
    writeFileSync(join(fake.dir, 'anchored', 'metrics.jsonl'), `${lines.join('\n')}\n`);
    const t = compareRuns([fake.dir], { window: 25 });
    expect(val(t, 'anchored', 'rmSilenced')).toBeCloseTo(0.4, 12);
    expect(val(t, 'anchored', 'rmGateClosed')).toBeCloseTo(0.1, 12);
    expect(val(t, 'anchored', 'rollbacks')).toBe(2);
    expect(val(t, 'frozen', 'rollbacks')).toBeNull();
  });
});

describe("each arm's anchoring description", () => {
  it('names the RM kind and the settlement controls in the JSON row, the text and the Markdown', () => {
    const t = compareRuns([writeAnchoredFakeRun(fresh()).dir], { window: 10 });
    const want = 'RM ridge; rm_gate pair acc < 0.6; rollback z 1.5; silenced mask';
    expect(row(t, 'anchored').anchoring).toBe(want);
    expect(JSON.parse(JSON.stringify(t)).rows[1].anchoring).toBe(want);
    expect(formatCompareText(t)).toContain(`- anchored: ${want}`);
    expect(formatCompareMarkdown(t)).toContain(`- anchored: ${want}`);
  });

  it('names a transformer RM with its heads, pairwise weight and seed, and the defaults of the controls', () => {
    const fake = writeFakeRun(fresh(), { steps: 10, arms: ['anchored', 'settled-gao-rmgate'] });
    const path = join(fake.dir, 'manifest.json');
    const m = JSON.parse(readFileSync(path, 'utf8'));
    m.config.reward_model = { kind: 'transformer', seed: 'run', transformer: { heads: 4, pairwise: 0.5 } };
    writeFileSync(path, JSON.stringify(m));
    const t = compareRuns([fake.dir], { window: 5 });
    expect(row(t, 'anchored').anchoring).toBe('RM transformer (heads 4, pairwise 0.5, seed run)');
    // A registry arm's overlay counts, as the arm process merges it over the run's config.
    expect(row(t, 'settled-gao-rmgate').anchoring).toBe(
      'RM transformer (heads 4, pairwise 0.5, seed run); rm_gate pair acc < 0.5; silenced weight',
    );
  });
});

describe('drift–gap Spearman by hand', () => {
  it('ranks drift [1,2,3,4] against gap [1,3,2,4] → ρ = 0.8, and ignores monitor lines without gold', () => {
    const fake = writeFakeRun(fresh(), { steps: 100 });
    const line = (step: number, drift: number, gap: number, refit = true, driftGold: number | null = drift) =>
      JSON.stringify({ step, labels: 0, newLabels: 10, drift, driftGold, judgeLabelError: null, gap, fit: {}, refit }) + '\n';
    writeFileSync(
      join(fake.dir, 'anchored', 'refits.jsonl'),
      [line(25, 0.1, 0.1), line(50, 0.2, 0.3), line(75, 0.3, 0.2), line(100, 0.4, 0.4)].join(''),
    );
    // Frozen monitor lines: two have no gold (drift written as 0) and must not count → 2 points → no ρ.
    writeFileSync(
      join(fake.dir, 'frozen', 'refits.jsonl'),
      [line(25, 0, 0.1, false, null), line(50, 0.2, 0.3, false), line(75, 0, 0.2, false, null), line(100, 0.4, 0.4, false)].join(
        '',
      ),
    );
    const t = compareRuns([fake.dir]);
    expect(val(t, 'anchored', 'driftGapSpearman')).toBeCloseTo(0.8, 12);
    expect(val(t, 'anchored', 'refits')).toBe(4);
    expect(val(t, 'frozen', 'driftGapSpearman')).toBeNull();
    expect(val(t, 'frozen', 'refits')).toBe(0);
  });
});

describe('alarm comparison by hand', () => {
  // Anchored arm, 100 steps, windows ending at 25/50/75/100 with gaps 0.1, 0.3, 0.2, 0.4.
  const fake = writeFakeRun(fresh(), { steps: 100 });
  const refit = (step: number, drift: number, gap: number, rank: number | null) =>
    JSON.stringify({
      step,
      labels: 0,
      newLabels: 10,
      drift,
      driftGold: drift,
      judgeLabelError: null,
      gap,
      rank,
      strategy: 'random',
      fit: {},
      refit: true,
    }) + '\n';
  writeFileSync(
    join(fake.dir, 'anchored', 'refits.jsonl'),
    [refit(25, 0.1, 0.1, 0.9), refit(50, 0.2, 0.3, 0.1), refit(75, 0.3, 0.2, 0.5), refit(100, 0.05, 0.4, -0.2)].join(''),
  );
  // Snd@G per step: 0.9 in window 1, 0.3 in window 2, 0.6 in window 3, 0.2 in window 4, and a
  // rolling mean that first drops below 0.5 at step 40 (steps before 10 never count: not full).
  const sndOf = (s: number) => (s <= 25 ? 0.9 : s <= 50 ? 0.3 : s <= 75 ? 0.6 : 0.2);
  const rollOf = (s: number) => (s === 3 ? 0.1 : s >= 40 && s <= 60 ? 0.4 : 0.8);
  const lines = fake.arms.anchored!.metrics.map((l) => ({ ...l, [K.sndG]: sndOf(l.step!), [K.sndGRolling]: rollOf(l.step!) }));
  writeFileSync(join(fake.dir, 'anchored', 'metrics.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const t = compareRuns([fake.dir], { window: 25 });
  const peak = val(t, 'anchored', 'peakStep')!;

  it('correlates each oriented alarm with the concurrent gap over the windows', () => {
    // drift [0.1, 0.2, 0.3, 0.05] vs gap [0.1, 0.3, 0.2, 0.4]: ranks [2,3,4,1] vs [1,3,2,4] → ρ = −0.4.
    expect(val(t, 'anchored', 'driftGapSpearman')).toBeCloseTo(-0.4, 12);
    // 1 − Snd: [0.1, 0.7, 0.4, 0.8] → ranks [1,3,2,4] = the gap's → ρ = 1.
    expect(val(t, 'anchored', 'sndGapSpearman')).toBeCloseTo(1, 12);
    // 1 − r_s: [0.1, 0.9, 0.5, 1.2] → ranks [1,3,2,4] → ρ = 1.
    expect(val(t, 'anchored', 'rankGapSpearman')).toBeCloseTo(1, 12);
  });

  it('lead times count steps from the first threshold crossing to the gold peak', () => {
    expect(peak).toBe(100); // the anchored curve rises throughout
    // Defaults: drift > 0.15 first at 50; rolling Snd < 0.5 first at 40 (step 3 is not a full window); r_s < 0.2 first at 50.
    expect(val(t, 'anchored', 'driftLead')).toBe(peak - 50);
    expect(val(t, 'anchored', 'sndLead')).toBe(peak - 40);
    expect(val(t, 'anchored', 'rankLead')).toBe(peak - 50);
    // No Snd values or rank fields logged (the other fake arms): nothing to correlate, never fired.
    expect(val(t, 'frozen', 'sndGapSpearman')).toBeNull();
    expect(val(t, 'frozen', 'sndLead')).toBeNull();
    expect(val(t, 'judge', 'rankLead')).toBeNull();
  });

  it('Markdown has the alarm table after the arm table', () => {
    const md = formatCompareMarkdown(t);
    expect(md).toMatch(
      /Alarms \(each oriented[\s\S]*\| arm \| ρ\(drift,gap\) \| ρ\(1−Snd@G,gap\) \| ρ\(1−r_s,gap\) \| drift lead \| Snd@G lead \| r_s lead \|/,
    );
    expect(md).toMatch(/\| anchored \| -0\.400 \| 1\.000 \| 1\.000 \| 50 \| 60 \| 50 \|/);
  });
});

describe('several seeds → mean ± standard error', () => {
  it('averages per arm over runs; SE = sample std / √n', () => {
    // Gold shifts by 0.01 × seed: seeds 0, 1, 2 → mean shift 0.01, std 0.01, SE 0.01/√3.
    const dirs = [0, 1, 2].map((seed) => writeFakeRun(fresh(), { steps: 60, seed }).dir);
    const single = compareRuns([dirs[0]!], { window: 20 });
    const t = compareRuns(dirs, { window: 20 });
    expect(t.runs.map((r) => r.seed)).toEqual([0, 1, 2]);
    expect(t.warnings).toEqual([]);
    for (const arm of FAKE_ARMS) {
      const g = row(t, arm).values.finalGold;
      expect(g.n).toBe(3);
      expect(g.mean!).toBeCloseTo(val(single, arm, 'finalGold')! + 0.01, 5);
      expect(g.se!).toBeCloseTo(0.01 / Math.sqrt(3), 5);
      // Proxy does not depend on the seed: SE 0.
      expect(row(t, arm).values.finalProxy.se!).toBeCloseTo(0, 9);
      expect(row(t, arm).perRun).toHaveLength(3);
    }
    expect(formatCompareText(t)).toMatch(/0\.\d{3} ± 0\.006/);
    expect(formatCompareText(t)).toMatch(/3 runs .*mean ± standard error over runs/);
  });

  it('warns when the runs have different configs', () => {
    const a = writeFakeRun(fresh(), { steps: 30, seed: 0 }).dir;
    const b = writeFakeRun(fresh(), { steps: 40, seed: 1 }).dir;
    expect(compareRuns([a, b]).warnings.map((w) => w.message)).toEqual([expect.stringMatching(/different configs/)]);
  });
});

describe('a partially written run', () => {
  const fake = writeFakeRun(fresh(), {
    steps: 100,
    running: { anchored: 60 },
    noSteps: ['judge'],
    truncate: { arm: 'frozen', file: 'metrics' },
  });
  const t = compareRuns([fake.dir], { window: 25 });

  it('lists incomplete and empty arms and reports the truncated line', () => {
    expect(t.incompleteArms).toEqual(['anchored', 'judge']);
    expect(t.emptyArms).toEqual(['judge']);
    expect(t.warnings.map((w) => [w.file.slice(fake.dir.length + 1), w.line ?? null])).toEqual([
      ['frozen/metrics.jsonl', 100],
      ['judge/metrics.jsonl', null],
    ]);
    expect(row(t, 'anchored').states).toEqual(['running']);
    expect(row(t, 'judge').states).toEqual(['pending']);
  });

  it('reads what is there', () => {
    expect(val(t, 'frozen', 'steps')).toBe(99);
    // Window over the 99 steps that survived: 75..99.
    expect(val(t, 'frozen', 'finalGold')).toBeCloseTo(mean(range(75, 99).map((s) => fakeCurves('frozen', s, 100).gold)), 5);
    expect(val(t, 'anchored', 'steps')).toBe(60);
    expect(val(t, 'anchored', 'finalGold')).toBeCloseTo(mean(range(36, 60).map((s) => fakeCurves('anchored', s, 100).gold)), 5);
    // Budget fraction at the common step 60: 2 refits × 80 vs 60 × 32 executions.
    expect(val(t, 'anchored', 'execFraction')).toBeCloseTo(160 / 1920, 12);
    // An arm with no steps: a row of n/a.
    expect(val(t, 'judge', 'steps')).toBe(0);
    expect(val(t, 'judge', 'finalGold')).toBeNull();
    expect(val(t, 'judge', 'peakGold')).toBeNull();
  });

  it('formats the partial table with markers and notes', () => {
    const text = formatCompareText(t);
    expect(text).toMatch(/^anchored\*/m);
    expect(text).toMatch(/^judge\*\s+0\s+n\/a/m);
    expect(text).toContain('* incomplete (still running, failed or not started): anchored, judge');
    expect(text).toContain('no steps logged: judge');
  });
});

describe('Markdown and CSV', () => {
  const one = compareRuns([writeFakeRun(fresh(), { steps: 30 }).dir]);
  const two = compareRuns([writeFakeRun(fresh(), { steps: 30, seed: 0 }).dir, writeFakeRun(fresh(), { steps: 30, seed: 3 }).dir]);

  it('Markdown has a header, an alignment row and one row per arm', () => {
    const md = formatCompareMarkdown(one).split('\n');
    expect(md[0]).toMatch(/^\| arm \| steps \| gold final \| gold peak \|/);
    expect(md[1]).toMatch(/^\|---\|---:\|/);
    expect(md.slice(2, 6).map((l) => l.split(' | ')[0])).toEqual(FAKE_ARMS.map((a) => `| ${a}`));
    const cells = md[2]!.split('|').length;
    expect(md[0]!.split('|').length).toBe(cells);
    expect(formatCompareMarkdown(two)).toMatch(/\| 0\.\d{3} ± 0\.\d{3} \|/);
  });

  it('CSV has one row per arm and _se columns only for several runs', () => {
    const c1 = formatCompareCsv(one).trim().split('\n');
    expect(c1).toHaveLength(5);
    expect(c1[0]).toBe(
      'arm,runs,incomplete,steps,finalGold,peakGold,peakStep,finalProxy,gap,kl,sqrtKl,heldOut,goldRatio,length,entropy,refits,settledLabels,execBudget,execFraction,judgeError,rmPairAcc,rmAuc,gaoAlpha,gaoBeta,gaoDStar,gaoTurn,driftGapSpearman,sndGapSpearman,rankGapSpearman,driftLead,sndLead,rankLead,gaoLead',
    );
    for (const l of c1) expect(l.split(',')).toHaveLength(33);
    expect(c1[1]!.split(',')[4]).toBe(String(val(one, 'frozen', 'finalGold')));
    const c2 = formatCompareCsv(two).trim().split('\n');
    expect(c2[0]).toContain('finalGold,finalGold_se');
    for (const l of c2) expect(l.split(',')).toHaveLength(3 + 2 * 30);
  });

  it('rejects a bad window', () => {
    expect(() => compareRuns([one.runs[0]!.dir], { window: 0 })).toThrow(/window must be a positive integer/);
  });
});
