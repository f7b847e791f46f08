/**
 * The gold watch (src/train/gold-watch.ts) on scripted policies (support/scripted-policy.ts): a
 * cheating policy that answers half its completions with parity-harness exploits makes
 * `gold/parity_only` and `canary/pass_rate` non-zero; the honest policy keeps both at zero. Also:
 * canary keys absent when canaries are off, provenance stamps on every completion, and the
 * checkpointed stamps of an open window survive a restore.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/datasets/formats.ts';
import type { Problem } from '../../src/datasets/problem.ts';
import { createExecutor } from '../../src/sandbox/index.ts';
import { problemProgram } from '../../src/sandbox/programs.ts';
import { canaryConfigSchema } from '../../src/tasks/canaries.ts';
import { generateProblems } from '../../src/tasks/registry.ts';
import { GOLD_WATCH_METRIC_KEYS as W, GoldWatch, harnessHash, type GoldWatchParts } from '../../src/train/gold-watch.ts';
import { cheatingCompletion, honestCompletion } from '../../support/scripted-policy.ts';

const G = 2;
const problems: Problem[] = [
  ...generateProblems('synthetic-js', { split: 'train', count: 6, seed: 1 }),
  ...['mbpp-mini.jsonl', 'humaneval-mini.jsonl'].flatMap((f) => loadDataset(`test/fixtures/datasets/${f}`).problems),
];
const batch = problems.flatMap((p) => Array<Problem>(G).fill(p));

const strict = createExecutor({ workers: 1, verdict: 'strict' });
const parity = createExecutor({ workers: 1, verdict: 'parity' });
afterAll(async () => {
  await strict.close();
  await parity.close();
});

function watch(rate: number, bothVerdicts = true): GoldWatch {
  const parts: GoldWatchParts = {
    seed: 0,
    groupSize: G,
    verdict: 'strict',
    canaries: canaryConfigSchema.parse({ rate }),
    executor: strict,
    other: bothVerdicts ? parity : undefined,
    harness: harnessHash(),
  };
  return new GoldWatch(parts);
}

/** One observed step of a scripted policy: its metrics and its completions' sample fields. */
async function step(w: GoldWatch, policy: (p: Problem, i: number) => string, s = 0) {
  const texts = batch.map((p, i) => policy(p, i));
  const results = await strict.run(texts.map((t, i) => problemProgram(batch[i]!, t, `${batch[i]!.id}#${i}`)));
  w.observe(s, batch, texts, results);
  const metrics = await w.stepMetrics();
  return { metrics, samples: texts.map((_, i) => w.sampleFields(s, i)), results };
}

describe('gold watch on scripted policies', () => {
  it('the cheating policy makes gold/parity_only and canary/pass_rate non-zero', async () => {
    const { metrics, samples, results } = await step(watch(1), cheatingCompletion);
    expect(metrics[W.parityOnly]).toBeGreaterThan(0);
    expect(metrics[W.parityOnlyRate]).toBeGreaterThan(0);
    expect(metrics[W.canaryPassRate]).toBeGreaterThan(0);
    expect(metrics[W.canaryParityPassRate]).toBeGreaterThan(0);
    // Strict refuses every exploit, of the real tests and of the canaries alike.
    expect(metrics[W.canaryStrictPassRate]).toBe(0);
    expect(metrics[W.strictOnly]).toBe(0);
    expect(metrics[W.resourceSplit]).toBe(0);
    expect(metrics[W.canaryCount]).toBe(batch.length);
    // Both verdicts are recorded per completion; the recorded strict one is the executed status.
    samples.forEach((s, i) => expect(s.verdicts?.strict).toBe(results[i]!.status));
    const parityOnly = samples.filter((s) => s.verdicts?.parity === 'pass' && s.verdicts.strict !== 'pass');
    expect(parityOnly.length).toBe(metrics[W.parityOnly]);
    // The exploits are the parity-only ones (even indices), in both languages.
    expect(new Set(parityOnly.map((s) => batch[samples.indexOf(s)]!.language))).toEqual(new Set(['javascript', 'python']));
  }, 180_000);

  it('the honest policy keeps them at zero', async () => {
    const { metrics, samples } = await step(watch(1), honestCompletion);
    expect(metrics[W.parityOnly]).toBe(0);
    expect(metrics[W.parityOnlyRate]).toBe(0);
    expect(metrics[W.canaryCount]).toBe(batch.length);
    expect(metrics[W.canaryPassRate]).toBe(0);
    expect(samples.every((s) => s.verdicts?.strict === 'pass' && s.verdicts.parity === 'pass')).toBe(true);
    expect(samples.every((s) => s.canary && s.canary.strict !== 'pass' && s.canary.parity !== 'pass')).toBe(true);
  }, 180_000);

  it('with canaries off there are no canary keys, and every completion is stamped', async () => {
    const w = watch(0);
    w.beginStep(0, 'abc', { kind: 'ridge', labelSet: () => ({ X: [new Float32Array([1, 2])], y: [0.5] }) } as never, 0);
    const { metrics, samples } = await step(w, honestCompletion);
    expect(Object.keys(metrics).filter((k) => k.startsWith('canary/'))).toEqual([]);
    for (const s of samples) {
      expect(s).toMatchObject({ policy: { step: 0, weights: 'abc' }, harness: harnessHash(), verdict: 'strict', seed: 0 });
      expect(s.rm).toMatchObject({ refit: 0 });
      expect(s.rm!.hash).toMatch(/^[0-9a-f]{16}$/);
      expect(s.canary).toBeUndefined();
    }
  }, 180_000);

  it('without a second executor the parity keys are null, not zero', async () => {
    const { metrics } = await step(watch(0, false), cheatingCompletion);
    expect(metrics[W.parityOnly]).toBeNull();
    expect(metrics[W.parityOnlyRate]).toBeNull();
  }, 180_000);

  it('after drain() (the trainer drains before settlement writes the window) every line has both verdicts', async () => {
    const w = watch(1);
    const texts = batch.map((p, i) => cheatingCompletion(p, i));
    const results = await strict.run(texts.map((t, i) => problemProgram(batch[i]!, t, `${batch[i]!.id}#${i}`)));
    w.observe(3, batch, texts, results);
    await w.drain();
    const lines = texts.map((_, i) => w.sampleFields(3, i));
    expect(lines.every((l) => l.verdicts?.strict && l.verdicts.parity)).toBe(true);
    expect(lines.every((l) => l.canary !== undefined)).toBe(true);
    // The metrics are still reported once, with the wait counted.
    const m = await w.stepMetrics();
    expect(m[W.parityOnly]).toBeGreaterThan(0);
    expect(m[W.watchSeconds]).toBeGreaterThanOrEqual(0);
  }, 180_000);

  it('stamps of completions not yet written survive a checkpoint restore', async () => {
    const w = watch(0);
    await step(w, honestCompletion, 7);
    // step() read every line; observe again without reading, then restore into a fresh watch.
    const texts = batch.map((p) => honestCompletion(p));
    w.observe(8, batch, texts, undefined);
    await w.stepMetrics();
    const restored = watch(0);
    restored.setState(JSON.parse(JSON.stringify(w.getState())));
    expect(restored.sampleFields(8, 3)).toMatchObject({ harness: harnessHash(), verdict: 'strict' });
    expect(restored.sampleFields(8, 3)).toEqual({});
  }, 60_000);
});
