/**
 * Export an arm's trained policy as a Hugging Face model directory (merged weights, float32
 * safetensors, the base's config.json keys and tokenizer files), so other tools
 * (transformers, optimum, ONNX Runtime GenAI's builder, ...) can load it.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runConfigSchema } from './run-config.ts';
import { writeHfDir } from '../policy/hf/hf-dir.ts';
import { hfSource } from '../policy/policy-source.ts';
import { initTf } from '../tf/backend.ts';
import { AnchorError } from '../util/errors.ts';
import { listCheckpoints } from './arm-runner.ts';
import { sharedPaths } from './assets.ts';

/** What {@link exportArmToHf} wrote. */
export interface HfExportResult {
  out: string;
  arm: string;
  step: number;
  base: string;
  lora: boolean;
}

/** Write the merged policy of `arm` (its latest checkpoint, or `step`) in `runDir` to `out`. */
export async function exportArmToHf(
  runDir: string,
  arm: string,
  out: string,
  opts: { step?: number; shardBytes?: number } = {},
): Promise<HfExportResult> {
  const mp = join(runDir, 'manifest.json');
  if (!existsSync(mp)) throw new AnchorError('BAD_ARGUMENT', `${runDir} is not a run directory (no manifest.json)`);
  const config = runConfigSchema.parse((JSON.parse(readFileSync(mp, 'utf8')) as { config: unknown }).config);
  const pinnedPath = sharedPaths(runDir).baseHf;
  if (!existsSync(pinnedPath))
    throw new AnchorError('UNSUPPORTED', `${runDir}: export-hf needs a run over a Hugging Face model (policy.model.source hf)`);
  if (existsSync(out) && readdirSync(out).length > 0) throw new AnchorError('BAD_ARGUMENT', `${out} exists and is not empty`);
  const checkpoints = listCheckpoints(join(runDir, arm));
  const ck = opts.step === undefined ? checkpoints.at(-1) : checkpoints.find((c) => c.step === opts.step);
  if (!ck) {
    const have = checkpoints.map((c) => c.step).join(', ') || 'none';
    throw new AnchorError(
      'NOT_FOUND',
      `${runDir}/${arm}: no checkpoint${opts.step === undefined ? '' : ` at step ${opts.step}`} (have: ${have})`,
    );
  }
  const pinned = JSON.parse(readFileSync(pinnedPath, 'utf8')) as { path: string; sha256: string };
  await initTf();
  const source = hfSource(pinned.path, {
    expectHash: pinned.sha256,
    ...(config.policy.lora ? { lora: config.policy.lora } : {}),
  });
  const { trainable } = source.load(join(ck.dir, 'policy'));
  const built = source.build({ trainable, seed: config.seed });
  try {
    writeHfDir(out, source.checkpoint.config, built.mergedWeights(), {
      tokenizerDir: pinned.path,
      rawConfig: source.checkpoint.rawConfig,
      ...(opts.shardBytes ? { shardBytes: opts.shardBytes } : {}),
    });
  } finally {
    built.dispose();
  }
  return { out, arm, step: ck.step, base: pinned.path, lora: Boolean(config.policy.lora) };
}
