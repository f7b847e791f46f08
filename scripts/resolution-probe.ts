/**
 * Resolution probe: can the ridge RM on js-surface features rank the completions of one GRPO group
 * at all, given on-policy labels? Reads an arm's samples.jsonl (every completion with its executed
 * gold) and, at windows 3, 6, 9 and 11, refits on the run's base labels plus (a) a 10% uniform
 * sample of the earlier windows' samples (the anchored budget), (b) the same weighted 4×, (c) all
 * of them (10× the budget), (d) all of them without base labels, (e) all including the scored
 * window itself (in-sample, an upper bound); scores the window: mean within-group Spearman(RM,
 * gold) over groups whose gold varies, Snd@G, mean |RM − gold|.
 *
 * FEATURES (default js-surface, the RM's) names the extractors the probe's ridge fits use,
 * comma-separated to concatenate them (e.g. js-surface,js-ast); the base labels are then
 * re-extracted from the run's shared/initial-labels.jsonl (the initial RM's label set).
 *
 *   npx tsx scripts/resolution-probe.ts RUN_DIR ARM [FEATURES]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProblems } from '../src/train/assets.ts';
import { createFeatureExtractor } from '../src/reward/features/registry.ts';
import { fitWeightedRidgeF64, predictLinear } from '../src/reward/models/ridge-math.ts';
import { loadRewardModel } from '../src/reward/models/kinds.ts';
import { initTf } from '../src/tf/backend.ts';
import { spearmanOrNull } from '../src/util/correlation.ts';
import { withinGroupSoundness } from '../src/train/monitor.ts';
import { Rng } from '../src/util/rng.ts';

await initTf(() => {});
const [runDir, arm] = [process.argv[2]!, process.argv[3]!];
if (!runDir || !arm) throw new Error('usage: npx tsx scripts/resolution-probe.ts RUN_DIR ARM');
const manifest = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8'));
const { train } = loadProblems(manifest.config);
const byId = new Map(train.map((p) => [p.id, p]));
const featureNames = (process.argv[4] ?? 'js-surface').split(',');
const extractors = featureNames.map((n) => createFeatureExtractor(n));
const fx = {
  extract: (text: string, prompt: string): Float32Array => {
    const parts = extractors.map((e) => e.extract(text, prompt));
    const out = new Float32Array(parts.reduce((a, p) => a + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  },
};
const base =
  featureNames.join(',') === 'js-surface'
    ? (await loadRewardModel(join(runDir, 'shared', 'initial-rm'))).labelSet()
    : (() => {
        const labels = readFileSync(join(runDir, 'shared', 'initial-labels.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { problem: string; text: string; gold: number });
        return {
          X: labels.map((l) => fx.extract(l.text, byId.get(l.problem)!.prompt)),
          y: labels.map((l) => l.gold),
        };
      })();
console.log(`features: ${featureNames.join(' + ')} (${base.X[0]!.length} dims), ${base.y.length} base labels`);
const samples = readFileSync(join(runDir, arm, 'samples.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
samples.sort((a, b) => a.step - b.step || a.index - b.index);
const X = samples.map((s) => fx.extract(s.text, byId.get(s.problem)!.prompt));
const y = samples.map((s) => s.gold as number);
const G = 8;
const every = 10;
const rng = new Rng(5);
const tenPct = samples.map(() => rng.next() < 0.1);
const mean = (a: number[]) => a.reduce((s, v) => s + v, 0) / Math.max(1, a.length);
function score(pred: ArrayLike<number>, idx: number[]) {
  const rhos: number[] = [];
  for (let g = 0; g < idx.length; g += G) {
    const ids = idx.slice(g, g + G);
    const r = spearmanOrNull(
      ids.map((i) => pred[i]!),
      ids.map((i) => y[i]!),
    );
    if (r !== null) rhos.push(r);
  }
  const snd = withinGroupSoundness(
    Float64Array.from(idx, (i) => pred[i]!),
    idx.map((i) => y[i]!),
    G,
  );
  const mae = mean(idx.map((i) => Math.abs(pred[i]! - y[i]!)));
  return `rho ${mean(rhos).toFixed(3)} (${rhos.length} groups)  snd ${snd?.toFixed(3)}  mae ${mae.toFixed(3)}`;
}
const proxy = samples.map((s) => s.proxy as number);
for (const w of [3, 6, 9, 11]) {
  const test = samples.map((s, i) => (Math.floor(s.step / every) === w ? i : -1)).filter((i) => i >= 0);
  const before = samples.map((s, i) => (Math.floor(s.step / every) < w ? i : -1)).filter((i) => i >= 0);
  const variants: [string, number[], number][] = [
    ['10% (anchored budget)', before.filter((i) => tenPct[i]), 1],
    ['10%, weight 4', before.filter((i) => tenPct[i]), 4],
    ['100% (10x budget)', before, 1],
  ];
  console.log(`window ${w} (${test.length} test completions)`);
  console.log(`  logged proxy (the arm's own RM)   ${score(proxy, test)}`);
  const X0 = [...base.X];
  const y0 = [...base.y];
  console.log(`  base RM                           ${score(predictLinear(fitWeightedRidgeF64(X0, y0, { alpha: 1 }), X), test)}`);
  for (const [name, idx, wt] of variants) {
    const fit = fitWeightedRidgeF64([...X0, ...idx.map((i) => X[i]!)], [...y0, ...idx.map((i) => y[i]!)], {
      alpha: 1,
      weights: [...y0.map(() => 1), ...idx.map(() => wt)],
    });
    console.log(`  ${name.padEnd(33)} ${score(predictLinear(fit, X), test)}`);
  }
  const only = fitWeightedRidgeF64(
    before.map((i) => X[i]!),
    before.map((i) => y[i]!),
    { alpha: 1 },
  );
  console.log(`  100% on-policy only, no base      ${score(predictLinear(only, X), test)}`);
  // In-sample: the same window's labels (an upper bound on what refitting can do).
  const inS = fitWeightedRidgeF64(
    [...X0, ...before.map((i) => X[i]!), ...test.map((i) => X[i]!)],
    [...y0, ...before.map((i) => y[i]!), ...test.map((i) => y[i]!)],
    { alpha: 1 },
  );
  console.log(`  in-sample (test labels included)  ${score(predictLinear(inS, X), test)}`);
}
