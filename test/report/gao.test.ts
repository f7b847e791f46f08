import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareRuns, formatCompareMarkdown } from '../../src/report/compare.ts';
import { renderSvg } from '../../src/report/charts.ts';
import { GAO_REFERENCE_COLOR, gaoChart } from '../../src/report/gao-chart.ts';
import { armGaoFit, gaoPoints } from '../../src/report/gao.ts';
import { METRIC_KEYS as K } from '../../src/train/run-format.ts';
import { gaoPredict } from '../../src/util/gao-fit.ts';
import { FAKE_ARMS, fakeCurves, writeFakeRun } from '../helpers/fake-run.ts';

const root = mkdtempSync(join(tmpdir(), 'anchor-gao-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('Gao fits of an arm (report)', () => {
  const truth = { form: 'rl' as const, g0: 0.15, alpha: 0.3, beta: 0.4 }; // d* = e^(0.75 − 1) ≈ 0.779
  const metrics = Array.from({ length: 120 }, (_, step) => {
    const d = 0.01 + (step / 119) * 1.5;
    return { step, [K.klSqrt]: d, [K.gold]: gaoPredict(truth, d) };
  });
  it('recovers α, β and d* from logged kl/sqrt and gold, and the step where the slope turns', () => {
    const f = armGaoFit({ metrics }, 1)!;
    expect(f.fit.alpha).toBeCloseTo(0.3, 6);
    expect(f.fit.beta).toBeCloseTo(0.4, 6);
    expect(f.fit.dStar).toBeCloseTo(Math.exp(-0.25), 6);
    // d = 0.01 + 1.5·s/119 first reaches d* = 0.77880 at step 61 (0.77891; step 60: 0.76630).
    expect(f.turnStep).toBe(61);
    expect(f.approximate).toBe(false);
  });
  it('falls back to √(kl/ref × length) for runs logged before kl/sqrt, flagged approximate', () => {
    const g = gaoPoints([{ step: 0, [K.kl]: 0.04, [K.length]: 25, [K.gold]: 0.2 }]);
    expect(g.points[0]!.d).toBeCloseTo(1, 12);
    expect(g.approximate).toBe(true);
  });
  it('the chart has a point per step and a fitted curve per arm, one panel per arm with the reference fit in each', async () => {
    const other = metrics.map((m) => ({ ...m, [K.gold]: (m[K.gold] as number) * 0.5 }));
    const c = gaoChart(
      [
        { name: 'a', data: [{ metrics }] },
        { name: 'b', data: [{ metrics: other }] },
      ],
      new Map([
        ['a', '#123456'],
        ['b', '#654321'],
      ]),
      { reference: 'a' },
    );
    const spec = c.spec as unknown as { facet: { field: string }; data: { values: { arm: string; kind: string }[] } };
    expect(spec.facet.field).toBe('arm');
    const rows = (arm: string, kind: string) => spec.data.values.filter((v) => v.arm === arm && v.kind === kind);
    expect(rows('a', 'step')).toHaveLength(120);
    expect(rows('a', 'fit').length).toBeGreaterThan(10);
    // The reference arm's curve is repeated in the other panels, not in its own.
    expect(rows('b', 'reference')).toHaveLength(rows('a', 'fit').length);
    expect(rows('a', 'reference')).toHaveLength(0);
    expect(c.caption).toMatch(/the a arm's fit, for reference/);
    const svg = await renderSvg(c.spec);
    expect(svg).toContain('stroke="#123456"');
    expect(svg).toContain(`stroke="${GAO_REFERENCE_COLOR}"`);
  });
});

describe('compare: held-out, × execution gold, √KL and the Gao columns', () => {
  const fake = writeFakeRun(join(root, 'run'), { steps: 100 });
  const t = compareRuns([fake.dir], { window: 25 });
  const val = (arm: string, key: keyof (typeof t.rows)[number]['values']) => t.rows.find((r) => r.arm === arm)!.values[key].mean;
  it('× execution gold is final gold over the execution arm’s; √KL falls back to √(kl × length)', () => {
    for (const arm of FAKE_ARMS) {
      expect(val(arm, 'goldRatio')).toBeCloseTo(val(arm, 'finalGold')! / val('execution', 'finalGold')!, 9);
      const c = Array.from({ length: 25 }, (_, i) => fakeCurves(arm, 76 + i, 100));
      expect(val(arm, 'sqrtKl')).toBeCloseTo(c.reduce((a, x) => a + Math.sqrt(x.kl * x.length), 0) / 25, 4);
    }
    expect(val('execution', 'goldRatio')).toBe(1);
  });
  it('the frozen arm’s rise-and-fall curve turns over (β > 0, a peak); the markdown shows α and β', () => {
    expect(val('frozen', 'gaoBeta')!).toBeGreaterThan(0);
    expect(val('frozen', 'gaoDStar')).not.toBeNull();
    const md = formatCompareMarkdown(t);
    expect(md).toMatch(/\| α \| β \| d\* \| slope<0 step \|/);
    expect(md).toMatch(/Gao lead/);
  });
});
