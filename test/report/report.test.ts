import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ARM_COLORS, EXTRA_COLORS, armColor, armColors } from '../../src/report/colors.ts';
import { readRun } from '../../src/report/read-run.ts';
import { escapeHtml, pickSamples, writeReport, writeRunSummaries } from '../../src/report/report.ts';
import { FAKE_ARMS, writeAnchoredFakeRun, writeFakeRun } from '../helpers/fake-run.ts';
import { externalRefs } from './external-refs.ts';

const root = mkdtempSync(join(tmpdir(), 'anchor-report-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('colours', () => {
  it('built-in arms have fixed colours; custom arms a stable colour from their name', () => {
    expect(armColor('frozen')).toBe(ARM_COLORS.frozen);
    expect(armColor('my-arm')).toBe(armColor('my-arm'));
    expect(EXTRA_COLORS).toContain(armColor('my-arm'));
    expect(Object.values(ARM_COLORS)).not.toContain(armColor('my-arm'));
    // Independent of the other arms present.
    expect(armColors(['my-arm']).get('my-arm')).toBe(armColors(['frozen', 'my-arm', 'judge']).get('my-arm'));
  });

  it('never gives two arms of one set the same colour', () => {
    const names = Array.from({ length: 12 }, (_, i) => `custom-${i}`).concat([...FAKE_ARMS]);
    const cols = armColors(names);
    expect(new Set(cols.values()).size).toBe(names.length);
  });
});

describe('the Snd@G chart', async () => {
  it('appears when the arms log monitor/snd_g, with a line per arm', async () => {
    const { writeFileSync } = await import('node:fs');
    const fake = writeFakeRun(join(root, 'snd-run'), { steps: 30 });
    for (const arm of FAKE_ARMS) {
      const lines = fake.arms[arm]!.metrics.map((l) => JSON.stringify({ ...l, 'monitor/snd_g': 0.5 + 0.01 * l.step! }));
      writeFileSync(join(fake.dir, arm, 'metrics.jsonl'), lines.join('\n') + '\n');
    }
    const res = await writeReport(fake.dir, join(root, 'snd-out', 'report.html'), { window: 5 });
    const html = readFileSync(res.path, 'utf8');
    const figures = [...html.matchAll(/<figure id="chart-([\w-]+)"[^>]*>([\s\S]*?)<\/figure>/g)];
    expect(figures.map((f) => f[1])).toEqual([
      'proxy-gold',
      'gold',
      'gap',
      'kl',
      'gold-kl',
      'length',
      'entropy',
      'snd',
      'rm-quality',
    ]);
    for (const arm of FAKE_ARMS)
      expect(figures.at(-2)![2]).toMatch(new RegExp(`aria-label="[^"]*arm: ${arm}[;"][^>]*aria-roledescription="line mark"`));
  });
});

describe('the anchoring of the arms', async () => {
  const fake = writeAnchoredFakeRun(join(root, 'anchored-run'));
  const res = await writeReport(fake.dir, join(root, 'anchored-out', 'report.html'), { window: 10 });
  const html = readFileSync(res.path, 'utf8');
  const head = html.match(/<table class="compare"><thead>([\s\S]*?)<\/thead>/)![1]!;
  const row = html.match(/<tr data-arm="anchored">([\s\S]*?)<\/tr>/)![1]!;
  const cells = [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]!);
  const column = (label: string) => {
    const labels = [...head.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]);
    const i = labels.indexOf(label);
    expect(i, `no ${label} column in ${labels.join(', ')}`).toBeGreaterThan(0);
    return cells[i]!;
  };

  it('the arm table shows the anchoring columns: RM gate share, rollbacks, RM pair accuracy and AUC', () => {
    expect(column('RM gate closed')).toBe('0.50');
    expect(column('RM silenced')).toBe('0.50');
    expect(column('rollbacks')).toBe('2');
    expect(Number(column('RM pair acc'))).toBeGreaterThan(0);
    expect(Number(column('RM AUC'))).toBeGreaterThan(0);
  });

  it("the arm table describes each arm's RM and settlement controls", () => {
    expect(column('anchoring')).toBe('RM ridge; rm_gate pair acc &lt; 0.6; rollback z 1.5; silenced mask');
  });
});

describe('writeReport', async () => {
  const fake = writeFakeRun(join(root, 'run'), { steps: 60, noise: 0.02, samplesPerStep: 4, arms: [...FAKE_ARMS, 'custom-arm'] });
  const res = await writeReport(fake.dir, join(root, 'out', 'report.html'), { window: 10 });
  const html = readFileSync(res.path, 'utf8');

  it('writes one self-contained HTML file: no scripts, no external references', () => {
    expect(res.path).toBe(join(root, 'out', 'report.html'));
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(externalRefs(html)).toEqual([]);
    expect(html).not.toMatch(/<script|<link|<img|<iframe/i);
    expect(res.bytes).toBe(Buffer.byteLength(html));
  });

  it('holds the eight charts as inline SVG with a line in each arm’s colour', () => {
    const figures = [...html.matchAll(/<figure id="chart-([\w-]+)"[^>]*>([\s\S]*?)<\/figure>/g)];
    // rm-quality: the fake refits lines carry the RM's pair accuracy and AUC per window.
    expect(figures.map((f) => f[1])).toEqual(['proxy-gold', 'gold', 'gap', 'kl', 'gold-kl', 'length', 'entropy', 'rm-quality']);
    const colors = armColors(fake.manifest.arms);
    for (const [, id, body] of figures) {
      expect(body, id).toMatch(/<svg[^>]*class="marks"/);
      for (const arm of fake.manifest.arms) {
        const line = new RegExp(
          `<path aria-label="[^"]*arm: ${arm}[;"][^>]*aria-roledescription="line mark"[^>]*stroke="${colors.get(arm)}"`,
        );
        expect(body, `${id}/${arm}`).toMatch(line);
      }
    }
    // Drift markers: triangles at refits (anchored, judge), diamonds for monitor-only arms.
    const gap = figures.find((f) => f[1] === 'gap')![2]!;
    // 60 steps, windows at 25 and 50: two markers per arm, each in the arm's colour.
    for (const arm of fake.manifest.arms) {
      const pts = [
        ...gap.matchAll(
          new RegExp(
            `aria-label="step: (\\d+); drift: [^"]*; arm: ${arm}" [^>]*aria-roledescription="point"[^>]*fill="${colors.get(arm)}"`,
            'g',
          ),
        ),
      ];
      expect(
        pts.map((m) => m[1]),
        arm,
      ).toEqual(['25', '50']);
    }
    expect(gap.includes("Symbol legend titled 'drift' for shape with 2 values: refit, monitor")).toBe(true);
  });

  it('has the compare table, the resolved config and escaped sample completions', () => {
    for (const arm of fake.manifest.arms) expect(html).toContain(`<tr data-arm="${arm}">`);
    expect(html).toContain(`${res.table.rows[0]!.values.finalGold.mean!.toFixed(3)}</td>`);
    expect(html).toMatch(/<pre class="config">[\s\S]*settlement:\n {2}every: 25\n {2}rate: 0.1/);
    // Sample text contains <arm> & "i": it must arrive escaped, never as markup.
    expect(html).toContain('// step 1 &lt;frozen&gt; &amp; &quot;0&quot;');
    expect(html).not.toContain('<frozen>');
    expect(html).toMatch(/<h4>early — step 1<\/h4>/);
    expect(html).toMatch(/<h4>final — step 60<\/h4>/);
  });

  it('shows the problems of a partially written run', async () => {
    const part = writeFakeRun(join(root, 'partial'), {
      steps: 40,
      running: { anchored: 15 },
      noSteps: ['judge'],
      truncate: { arm: 'frozen', file: 'samples' },
    });
    const r = await writeReport(part.dir, undefined, { window: 10 });
    const h = readFileSync(r.path, 'utf8');
    expect(r.path).toBe(join(part.dir, 'report.html'));
    expect(h).toContain('frozen/samples.jsonl:160: truncated line');
    expect(h).toContain('judge/metrics.jsonl: arm &#39;judge&#39; has no steps (state pending)');
    expect(h).toContain('<b>not finished</b>');
    expect(h).toContain('incomplete (running, failed or not started): anchored, judge.');
    expect(externalRefs(h)).toEqual([]);
  });
});

describe('writeRunSummaries (what train calls at the end of a run)', () => {
  it('writes compare.json, compare.md and report.html with the run’s settlement window', async () => {
    const fake = writeFakeRun(join(root, 'summaries'), { steps: 30, refitEvery: 10 });
    const res = await writeRunSummaries(fake.dir);
    expect(res.table.window).toBe(10);
    expect(JSON.parse(readFileSync(res.compareJson, 'utf8'))).toEqual(JSON.parse(JSON.stringify(res.table)));
    expect(readFileSync(res.compareMd, 'utf8')).toMatch(/^\| arm \| steps \|/);
    expect(readFileSync(res.report, 'utf8')).toContain('rolling mean over 10 steps');
    expect(readdirSync(fake.dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
    expect(existsSync(join(fake.dir, 'compare.json'))).toBe(true);
  });
});

describe('pickSamples', () => {
  it('takes up to k samples from the first, peak and last steps, merging coinciding phases', () => {
    const fake = writeFakeRun(join(root, 'pick'), { steps: 30, samplesPerStep: 5 });
    const arm = readRun(fake.dir, { samples: true }).arms[0]!;
    const p = pickSamples(arm, 17, 2);
    expect(p.map((x) => [x.phase, x.step, x.samples.map((s) => s.index)])).toEqual([
      ['early', 1, [0, 1]],
      ['peak gold', 17, [0, 1]],
      ['final', 30, [0, 1]],
    ]);
    expect(pickSamples(arm, 30, 1).map((x) => x.phase)).toEqual(['early', 'peak gold / final']);
  });
});

describe('escapeHtml', () => {
  it('escapes the five HTML-special characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
