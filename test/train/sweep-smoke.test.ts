/**
 * CLI smoke run of `anchor-rl sweep` on configs/smoke.yaml: a 1 × 2 grid (settlement rate 0.25 ×
 * strategy random/top-proxy) over 2 seeds with the frozen reference, 2 steps per arm — the
 * directory layout, the comparison across seeds, the knob chart, `compare`/`report` on the sweep
 * directory, and that rerunning the command continues it instead of redoing it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { externalRefs } from '../report/external-refs.ts';

const work = mkdtempSync(join(tmpdir(), 'anchor-sweep-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const out = join(work, 'sweep');
// The base policy is pretrained into the temp dir on the first run (30 tiny steps), as in smoke.test.ts.
const common = [
  '--config',
  'configs/smoke.yaml',
  '--set',
  `policy.base=${join(work, 'base')}`,
  '--set',
  'grpo.steps=2',
  '--seeds',
  '2',
  '--reference',
  'frozen',
  '--out',
  out,
];
const args = ['sweep', ...common, '--grid', 'settlement.rate=0.25', '--grid', 'settlement.strategy=random,top-proxy'];
const CELLS = ['rate-0.25_strategy-random', 'rate-0.25_strategy-top-proxy'];
const ARMS = ['frozen', ...CELLS];
const SEEDS = [0, 1];

const json = (...p: string[]) => JSON.parse(readFileSync(join(...p), 'utf8'));
const steps = (seed: number, arm: string) =>
  readFileSync(join(out, `seed-${seed}`, arm, 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, number>);
const endedAt = () =>
  Object.fromEntries(
    SEEDS.flatMap((s) => ARMS.map((a) => [`${s}/${a}`, json(out, `seed-${s}`, a, 'arm.json').endedAt as string])),
  );

describe('sweep (smoke)', () => {
  beforeAll(() => {
    const t0 = Date.now();
    const r = runCli(args, { timeoutMs: 600_000 });
    if (r.code !== 0) throw new Error(`smoke sweep failed (${r.code}):\n${r.stderr.slice(-4000)}`);
    console.log(`[sweep smoke] first run ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }, 900_000);

  it('writes sweep.json and one ordinary run directory per seed in which every cell ran', () => {
    const sweep = json(out, 'sweep.json');
    expect(sweep).toMatchObject({ name: 'smoke', seeds: SEEDS, armBase: 'anchored', references: ['frozen'] });
    expect(sweep.grid).toEqual([
      { key: 'settlement.rate', values: [0.25] },
      { key: 'settlement.strategy', values: ['random', 'top-proxy'] },
    ]);
    expect(sweep.cells).toEqual({
      [CELLS[0]!]: { 'settlement.rate': 0.25, 'settlement.strategy': 'random' },
      [CELLS[1]!]: { 'settlement.rate': 0.25, 'settlement.strategy': 'top-proxy' },
    });
    expect(sweep.config.grpo.steps).toBe(2);
    expect(sweep.endedAt).toBeTruthy();
    for (const seed of SEEDS) {
      const m = json(out, `seed-${seed}`, 'manifest.json');
      expect([m.name, m.seed, m.arms, m.config.seed]).toEqual([`smoke-seed${seed}`, seed, ARMS, seed]);
      expect(m.endedAt).toBeTruthy();
      expect(m.config.arms[2]).toEqual({
        name: CELLS[1],
        extends: 'anchored',
        describe: 'anchored with settlement.rate=0.25, settlement.strategy="top-proxy"',
        overlay: { settlement: { rate: 0.25, strategy: 'top-proxy' } },
      });
      for (const f of ['compare.md', 'report.html', 'shared/assets.json'])
        expect(existsSync(join(out, `seed-${seed}`, f)), f).toBe(true);
      for (const arm of ARMS) {
        expect(json(out, `seed-${seed}`, arm, 'arm.json').state).toBe('done');
        const rows = steps(seed, arm);
        expect(rows.map((r) => r.step)).toEqual([0, 1]);
        // One settlement window (2 steps × 8 completions) at rate 0.25 settles 4 programs; frozen none.
        expect(rows.at(-1)!['budget/exec'], `${seed}/${arm}`).toBe(arm === 'frozen' ? 0 : 4);
        if (arm !== 'frozen') expect(rows.at(-1)!['settle/rate']).toBe(0.25);
      }
    }
    // Seeds differ (their initial RMs are fitted on different samples); configs differ only by seed and name.
    const labels = (s: number) => readFileSync(join(out, `seed-${s}`, 'shared', 'initial-labels.jsonl'), 'utf8');
    expect(labels(0)).not.toBe(labels(1));
  });

  it('compare.md compares every cell across the two seeds with ± SE; sweep.md tabulates the knob', () => {
    const md = readFileSync(join(out, 'compare.md'), 'utf8');
    for (const arm of ARMS) expect(md, arm).toMatch(new RegExp(`^\\| ${arm} \\| 2 \\| .* ± `, 'm'));
    expect(md).toContain('2 runs (smoke-seed0 seed 0, smoke-seed1 seed 1)');
    const table = json(out, 'compare.json');
    expect(table.rows.map((r: { arm: string }) => r.arm)).toEqual(ARMS);
    expect(table.rows.every((r: { values: { steps: { n: number } } }) => r.values.steps.n === 2)).toBe(true);
    const sweep = readFileSync(join(out, 'sweep.md'), 'utf8');
    expect(sweep).toMatch(/^\| frozen \(reference\) \| — \| — \| 0 \| /m);
    expect(sweep).toMatch(/^\| rate-0\.25_strategy-random \| 0\.25 \| random \| 4 \| /m);
    expect(sweep).toMatch(/^\| rate-0\.25_strategy-top-proxy \| 0\.25 \| top-proxy \| 4 \| /m);
  });

  it('report.html is self-contained and holds the settlement-knob chart', () => {
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(externalRefs(html)).toEqual([]);
    expect(html).not.toMatch(/<script/i);
    const fig = html.match(/<figure id="chart-settlement-knob"[^>]*>([\s\S]*?)<\/figure>/);
    expect(fig?.[1]).toMatch(/<svg[^>]*class="marks"/);
    expect(fig?.[1]).toContain('frozen: gold 0.000 (budget 0)');
  });

  it('`compare` and `report` accept the sweep directory (its seed runs)', () => {
    const c = runCli(['compare', out]);
    expect(c.code, c.stderr).toBe(0);
    for (const arm of ARMS) expect(c.stdout).toMatch(new RegExp(`^${arm} +2 `, 'm'));
    expect(c.stdout).toContain('2 runs (smoke-seed0 seed 0, smoke-seed1 seed 1)');
    const r = runCli(['report', out, '--out', join(work, 'r.html')]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(work, 'r.html'), 'utf8')).toContain('id="chart-settlement-knob"');
  });

  it('rerunning the command continues the sweep: done arms are not rerun, an unfinished one resumes from its checkpoint', () => {
    const before = endedAt();
    const started = json(out, 'sweep.json').startedAt;
    // An arm interrupted after its last checkpoint (arm.json still says running).
    const interrupted = join(out, 'seed-1', CELLS[1]!, 'arm.json');
    writeFileSync(interrupted, JSON.stringify({ ...json(interrupted), state: 'running', endedAt: null }));
    const r = runCli(args, { timeoutMs: 600_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('continuing the sweep in');
    expect(r.stderr).toContain('1 to train (5 done)');
    expect(r.stderr).toContain(`[seed-1/${CELLS[1]}] ${CELLS[1]}: resumed from step 2`);
    const after = endedAt();
    for (const k of Object.keys(before)) if (k !== `1/${CELLS[1]}`) expect(after[k], k).toBe(before[k]);
    expect(json(interrupted).state).toBe('done');
    expect(steps(1, CELLS[1]!).map((x) => x.step)).toEqual([0, 1]); // resumed, not retrained or duplicated
    expect(json(out, 'sweep.json').startedAt).toBe(started);
  }, 600_000);

  it('a record from before the logging section, rerun with other logging, still continues (logging is not part of the sweep)', () => {
    const file = join(out, 'sweep.json');
    const { logging: _dropped, ...older } = json(file).config;
    writeFileSync(file, JSON.stringify({ ...json(file), config: older }));
    const r = runCli([...args, '--set', 'logging.tensorboard=true'], { timeoutMs: 600_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('continuing the sweep in');
    expect(r.stderr).toContain('0 to train (6 done)');
  }, 600_000);

  it('a record from before a config key existed still continues (the key takes its default); a recorded value that differs still refuses', () => {
    const file = join(out, 'sweep.json');
    const current = json(file);
    const { rollback: _r, rm_gate: _g, ...settlement } = current.config.settlement;
    const { silenced: _s, ...proxy } = current.config.proxy;
    writeFileSync(file, JSON.stringify({ ...current, config: { ...current.config, settlement, proxy } }));
    const r = runCli(args, { timeoutMs: 600_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('continuing the sweep in');
    expect(r.stderr).toContain('0 to train (6 done)');
    writeFileSync(file, JSON.stringify({ ...current, config: { ...current.config, proxy: { ...proxy, silenced: 'mask' } } }));
    const refused = runCli(args, { timeoutMs: 600_000 });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('config.proxy.silenced: recorded "mask", now "weight"');
    writeFileSync(file, JSON.stringify(current));
  }, 600_000);

  it('a different grid on the same directory is an error (exit 2) unless --force; nothing changes', () => {
    const record = readFileSync(join(out, 'sweep.json'), 'utf8');
    const r = runCli(['sweep', ...common, '--grid', 'settlement.rate=0.5', '--grid', 'settlement.strategy=random,top-proxy']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('holds a different sweep');
    expect(r.stderr).toContain('grid.settlement.rate: recorded [0.25], now [0.5]');
    expect(r.stderr).toContain('--force');
    expect(readFileSync(join(out, 'sweep.json'), 'utf8')).toBe(record);
  });

  it('a grid key outside the overlay sections exits 2 before creating anything', () => {
    const never = join(work, 'never');
    const r = runCli(['sweep', '--config', 'configs/smoke.yaml', '--grid', 'reward_model.initial_samples=16,32', '--out', never]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '--grid reward_model.initial_samples: a sweep can vary only keys an arm overlay may set (sections grpo, settlement, proxy, gate, eval)',
    );
    expect(existsSync(never)).toBe(false);
  });
});
