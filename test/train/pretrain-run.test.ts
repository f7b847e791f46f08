/**
 * Pretraining on a small fixture Problem list with a tiny model: the loss falls, completions are
 * decoded and executed, the reported pass rate matches the executor's verdicts, and the
 * checkpoint reloads to the same model. Plus data-preparation errors.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initTf, tf } from '../../src/tf/backend.ts';
import { AnchorError } from '../../src/util/errors.ts';
import { pretrainConfigSchema } from '../../src/train/pretrain/config.ts';
import { runPretrain, toExamples, lengthBucketedBatches } from '../../src/train/pretrain/pretrain.ts';
import { loadCheckpoint } from '../../src/policy/checkpoint.ts';
import { GptModel, denseBatch } from '../../src/policy/model.ts';
import { CharTokenizer } from '../../src/policy/tokenizer/index.ts';
import { Rng } from '../../src/util/rng.ts';
import { fixtureProblems, vmExecutor } from '../policy/pretrain-fixtures.ts';

let dir: string;
beforeAll(async () => {
  await initTf(() => {});
  dir = mkdtempSync(join(tmpdir(), 'anchor-pretrain-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tinyCfg = (over: Record<string, unknown> = {}) =>
  pretrainConfigSchema.parse({
    seed: 3,
    model: { layers: 1, d_model: 32, heads: 2, context: 64 },
    train: { steps: 60, batch_size: 16, eval_every: 0, prompt_loss_weight: 0, optimizer: { lr: 1e-2, warmup_steps: 5 } },
    eval: { problems: 12, max_new_tokens: 24 },
    output: join(dir, 'base'),
    ...over,
  });

describe('runPretrain', () => {
  it('reduces held-out loss, executes held-out completions and writes a reloadable checkpoint', async () => {
    const executor = vmExecutor();
    const steps: number[] = [];
    const logs: string[] = [];
    const cfg = tinyCfg();
    cfg.train.eval_every = 30;
    cfg.eval.pass_rate_every_eval = true;
    const r = await runPretrain(cfg, {
      train: fixtureProblems(64),
      eval: fixtureProblems(12, 1000),
      executor,
      hooks: { onStep: (s) => steps.push(s), log: (m) => logs.push(m) },
    });
    expect(steps.length).toBe(60);
    expect(logs.some((l) => /^step 30: train loss [\d.]+, held-out loss [\d.]+, pass rate [\d.]+ \(\d+\/12\)$/.test(l))).toBe(
      true,
    );
    expect(r.heldOutLoss).toBeLessThan(r.heldOutLossBefore * 0.5);
    expect(r.evaluated).toBe(12);
    expect(executor.calls).toBe(2); // once at step 30, once at the end
    const counted = Object.values(r.statusCounts).reduce((a, b) => a + b, 0);
    expect(counted).toBe(12);
    expect(r.passRate).toBeCloseTo((r.statusCounts.pass ?? 0) / 12);
    // The fixture family has four one-line bodies; a trained model writes runnable code.
    expect(r.statusCounts.syntax_error ?? 0).toBeLessThan(12);
    expect(r.passed).toBeGreaterThan(0);

    const ck = loadCheckpoint(join(dir, 'base'));
    expect(ck.meta).toMatchObject({ kind: 'pretrained-base', steps: 60, passRate: r.passRate });
    expect(ck.optimizer?.state.step).toBe(60);
    const reloaded = GptModel.fromWeights(ck.config, ck.weights);
    const x = denseBatch([ck.tokenizer.encode('// f(2) = 4\nfunction f(x) {\n')]);
    const a = tf.tidy(() => r.model.logits(x).dataSync());
    const b = tf.tidy(() => reloaded.logits(x).dataSync());
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
    reloaded.dispose();
    r.model.dispose();
  });

  it('rejects held-out text with characters the training vocabulary lacks, before training', async () => {
    const evalProblems = fixtureProblems(2, 500);
    evalProblems[1]!.prompt = '// f(1) = €\nfunction f(x) {\n';
    let err: unknown;
    const steps: number[] = [];
    try {
      await runPretrain(tinyCfg(), {
        train: fixtureProblems(8),
        eval: evalProblems,
        executor: vmExecutor(),
        noSave: true,
        hooks: { onStep: (s) => steps.push(s) },
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AnchorError);
    expect((err as AnchorError).code).toBe('BAD_DATASET');
    expect((err as AnchorError).message).toMatch(/"€".*fixture\/501 prompt/);
    expect(steps).toEqual([]);
  });

  it('trains on prompt tokens too when prompt_loss_weight > 0', async () => {
    const cfg = tinyCfg({ eval: { problems: 0 } });
    cfg.train.steps = 15;
    cfg.train.prompt_loss_weight = 0.5;
    const losses: number[] = [];
    const r = await runPretrain(cfg, {
      train: fixtureProblems(32),
      eval: fixtureProblems(4, 900),
      executor: vmExecutor(),
      noSave: true,
      hooks: { onStep: (_s, _t, i) => losses.push(i.loss) },
    });
    expect(losses.length).toBe(15);
    expect(losses.at(-1)!).toBeLessThan(losses[0]! * 0.7);
    expect(r.heldOutLoss).toBeLessThan(r.heldOutLossBefore);
    r.model.dispose();
  });

  it('needs references, and problems that fit the context', async () => {
    const noRef = fixtureProblems(2);
    delete noRef[0]!.reference;
    const tok = CharTokenizer.fromCorpus([]);
    expect(() => toExamples(noRef, tok)).toThrow(/no reference/);
    await expect(
      runPretrain(tinyCfg({ model: { layers: 1, d_model: 16, heads: 2, context: 16 } }), {
        train: fixtureProblems(4),
        eval: fixtureProblems(2),
        executor: vmExecutor(),
        noSave: true,
      }),
    ).rejects.toThrow(/model.context is 16/);
  });
});

describe('lengthBucketedBatches', () => {
  it('yields full batches of similar-length examples covering every example each epoch', () => {
    const ex = Array.from({ length: 100 }, (_, i) => ({
      id: String(i),
      prompt: new Array(1 + ((i * 37) % 50)).fill(2),
      completion: [3],
    }));
    const it = lengthBucketedBatches(ex, 10, new Rng(1));
    const seen = new Set<string>();
    for (let b = 0; b < 10; b++) {
      const batch = it.next();
      expect(batch.length).toBe(10);
      for (const e of batch) seen.add(e.id);
      const lens = batch.map((e) => e.prompt.length);
      // One window holds all 100 examples here, so each batch spans a tenth of the length range.
      expect(Math.max(...lens) - Math.min(...lens)).toBeLessThan(10);
    }
    expect(seen.size).toBe(100);
  });
});
