import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runResolutionProbe, scoreWindow } from '../../../src/research/experiments/resolution-probe.ts';
import { createFeatureExtractor } from '../../../src/reward/features/registry.ts';
import { fitWeightedRidgeF64, predictLinear } from '../../../src/reward/models/ridge-math.ts';
import { generateProblems } from '../../../src/tasks/index.ts';
import { AnchorError } from '../../../src/util/errors.ts';
import { Rng } from '../../../src/util/rng.ts';
import { runMain } from './run-main.ts';

const G = 4;
const EVERY = 2;
const STEPS = 6;
const tmp = mkdtempSync(join(tmpdir(), 'resolution-probe-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const problems = generateProblems('synthetic-js', { split: 'train', count: 12, seed: 1 });
// The last body parses on its own but not after its prompt, the others only after it: features see the prompt.
const BODIES = ['  return x + x;\n}', '  return x.slice(1);\n}', '  return x;\n}', 'x + 1'];

/** A run directory with base labels and one arm's samples: 2 groups of G per step, gold by body. */
function writeRun(name: string, opts: { goldless?: boolean } = {}): string {
  const dir = join(tmp, name);
  mkdirSync(join(dir, 'shared'), { recursive: true });
  mkdirSync(join(dir, 'arm'), { recursive: true });
  const config = {
    task: { family: 'synthetic-js', split_seed: 1, train: 12, eval: 2, options: {} },
    grpo: { group_size: G },
    settlement: { every: EVERY },
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ name, seed: 0, config, arms: ['arm'] }));
  const rng = new Rng(3);
  const goldOf = (body: number): number => (body === 0 ? 1 : body === 1 ? 0.5 : 0);
  const labels = Array.from({ length: 40 }, (_, i) => {
    const body = rng.int(BODIES.length);
    return { problem: problems[i % problems.length]!.id, text: BODIES[body]!, gold: goldOf(body) };
  });
  writeFileSync(join(dir, 'shared', 'initial-labels.jsonl'), labels.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const samples = [];
  for (let step = STEPS - 1; step >= 0; step--) {
    // Written out of order: the probe sorts by (step, index).
    for (let index = 2 * G - 1; index >= 0; index--) {
      const body = rng.int(BODIES.length);
      const gold = opts.goldless && step === 3 && index === 2 ? null : goldOf(body);
      samples.push({
        step,
        index,
        problem: problems[(step * 2 + Math.floor(index / G)) % problems.length]!.id,
        text: BODIES[body]!,
        tokens: 5,
        proxy: rng.next(),
        gold,
        judge: null,
        settled: false,
      });
    }
  }
  writeFileSync(join(dir, 'arm', 'samples.jsonl'), samples.map((s) => JSON.stringify(s)).join('\n') + '\n');
  return dir;
}

describe('scoreWindow', () => {
  const gold = [0, 1, 0.5, 0, 1, 1, 1, 1];
  const idx = [0, 1, 2, 3, 4, 5, 6, 7];

  it('scores a predictor that orders every group as gold does as rho 1, snd 1', () => {
    const s = scoreWindow(
      gold.map((g) => g * 0.5),
      gold,
      idx,
      G,
    );
    // The second group's gold does not vary: it enters snd but not rho.
    expect(s).toEqual({ rho: 1, groups: 1, snd: 1, mae: (0.5 * 5.5) / 8 });
  });

  it('scores a reversed predictor as rho −1 and picks gold 0 in the first group', () => {
    const s = scoreWindow(
      gold.map((g) => -g),
      gold,
      idx,
      G,
    );
    expect(s.rho).toBe(-1);
    // Group 1 picks gold 0 (of best 1); group 2 ties everywhere at gold 1.
    expect(s.snd).toBeCloseTo(0.5, 12);
  });

  it('groups consecutive runs of the group size within the scored indices', () => {
    const pred = [1, 2, 3, 4, 5, 6, 7];
    const g = [0, 1, 0.5, 1, 0, 0, 1];
    // Groups of 3 over indices 1..6: {1,2,3} and {4,5,6}, both varying; groups of 6: one.
    expect(scoreWindow(pred, g, [1, 2, 3, 4, 5, 6], 3).groups).toBe(2);
    expect(scoreWindow(pred, g, [1, 2, 3, 4, 5, 6], 6).groups).toBe(1);
    expect(scoreWindow(pred, g, [2, 3, 4], 3).rho).toBe(-0.5); // pred ranks 1,2,3 against gold ranks 2,3,1
  });
});

describe('runResolutionProbe', () => {
  const dir = writeRun('ok');

  it('scores the windows asked for, with the run’s group size and window length', () => {
    const r = runResolutionProbe({ runDir: dir, arm: 'arm', windows: [0, 2] });
    expect(r).toMatchObject({ groupSize: G, every: EVERY, baseLabels: 40, features: ['js-surface'] });
    expect(r.windows.map((w) => [w.window, w.completions])).toEqual([
      [0, EVERY * 2 * G],
      [2, EVERY * 2 * G],
    ]);
    for (const w of r.windows) expect(w.rows).toHaveLength(7);
    // Window 0 has no earlier completions: the refits that add them have nothing to fit.
    expect(r.windows[0]!.rows.filter((row) => row.score === null).map((row) => row.name)).toEqual([
      '10% (anchored budget)',
      '10%, weight 4',
      '100% (every earlier completion)',
      '100% on-policy only, no base',
    ]);
    expect(r.windows[1]!.rows.every((row) => row.score !== null)).toBe(true);
  });

  it('fits the base row on the base labels re-extracted, features concatenated, with each label’s prompt', () => {
    // js-ast parses the completion after its prompt (js-surface ignores the prompt).
    const r = runResolutionProbe({ runDir: dir, arm: 'arm', windows: [2], features: ['js-surface', 'js-ast'] });
    expect(r.dims).toBe(createFeatureExtractor('js-surface').dim + createFeatureExtractor('js-ast').dim);
    const surface = createFeatureExtractor('js-surface');
    const ast = createFeatureExtractor('js-ast');
    const fx = {
      extract: (text: string, p: string) => Float32Array.from([...surface.extract(text, p), ...ast.extract(text, p)]),
    };
    const prompt = new Map(problems.map((p) => [p.id, p.prompt]));
    const read = (f: string) =>
      readFileSync(f, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    const labels = read(join(dir, 'shared', 'initial-labels.jsonl'));
    const samples = read(join(dir, 'arm', 'samples.jsonl')).sort((a, b) => a.step - b.step || a.index - b.index);
    const fit = fitWeightedRidgeF64(
      labels.map((l) => fx.extract(l.text, prompt.get(l.problem)!)),
      labels.map((l) => l.gold),
      { alpha: 1 },
    );
    const pred = predictLinear(
      fit,
      samples.map((s) => fx.extract(s.text, prompt.get(s.problem)!)),
    );
    const test = samples.flatMap((s, i) => (Math.floor(s.step / EVERY) === 2 ? [i] : []));
    const gold = samples.map((s) => s.gold as number);
    const rows = new Map(r.windows[0]!.rows.map((row) => [row.name, row.score]));
    expect(rows.get('base RM')).toEqual(scoreWindow(pred, gold, test, G));
    expect(rows.get("logged proxy (the arm's own RM)")).toEqual(
      scoreWindow(
        samples.map((s) => s.proxy),
        gold,
        test,
        G,
      ),
    );
  });

  it('with --sample 1 the budget-sized refit is the refit on every earlier completion', () => {
    const r = runResolutionProbe({ runDir: dir, arm: 'arm', windows: [2], sample: 1 });
    const rows = new Map(r.windows[0]!.rows.map((row) => [row.name, row.score]));
    expect(rows.get('100% (anchored budget)')).toEqual(rows.get('100% (every earlier completion)'));
  });

  it('refuses completions without gold and names a missing arm', () => {
    const goldless = writeRun('goldless', { goldless: true });
    expect(() => runResolutionProbe({ runDir: goldless, arm: 'arm' })).toThrow(/step 3 index 2 has no gold/);
    try {
      runResolutionProbe({ runDir: dir, arm: 'nope' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AnchorError);
      expect((err as AnchorError).code).toBe('NOT_FOUND');
      expect((err as AnchorError).message).toContain(join(dir, 'nope', 'samples.jsonl'));
    }
  });

  it('is reached through `anchor-rl experiment resolution-probe` (text and --json)', async () => {
    const json = await runMain(['experiment', 'resolution-probe', dir, 'arm', '--windows', '1,2', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).windows.map((w: { window: number }) => w.window)).toEqual([1, 2]);
    const text = await runMain(['experiment', 'resolution-probe', dir, 'arm', '--windows', '2']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('window 2 (16 completions)');
    expect(text.stdout).toContain('in-sample (test labels included)');
    const bad = await runMain(['experiment', 'resolution-probe', dir, 'arm', '--sample', '0']);
    expect(bad.code).toBe(2);
  });
});
