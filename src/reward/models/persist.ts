/**
 * A reward model's files: `model.safetensors` (weights + label set) and `model.json` (kind,
 * options, scalars) in one directory. Which class a kind loads into is ./kinds.ts's.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AnchorError } from '../../util/errors.ts';
import { assertFiniteTensors } from '../../policy/safetensors.ts';
import { readSafetensors, writeSafetensors } from './tensor-file.ts';

/** Named tensors of a saved model. */
export type TensorMap = Map<string, { shape: number[]; data: Float32Array }>;

/** A model that can write itself: its kind, its constructor options and its state. */
export interface SavableModel {
  readonly kind: string;
  readonly options: unknown;
  exportState(): { tensors: TensorMap; meta: Record<string, unknown> };
}

const FORMAT = 'anchor-rl/reward-model@1';

/** Write a fitted model's files into `dir` (created if missing). */
export async function saveModelFiles(dir: string, model: SavableModel): Promise<void> {
  await mkdir(dir, { recursive: true });
  const { tensors, meta } = model.exportState();
  await writeSafetensors(join(dir, 'model.safetensors'), tensors, { format: FORMAT, kind: model.kind });
  const json = { format: FORMAT, kind: model.kind, options: model.options, ...meta };
  await writeFile(join(dir, 'model.json'), JSON.stringify(json, null, 2) + '\n');
}

/** Read a model directory written by {@link saveModelFiles}: its `model.json` and its tensors. */
export async function readModelFiles(dir: string): Promise<{ json: Record<string, unknown>; tensors: TensorMap }> {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(await readFile(join(dir, 'model.json'), 'utf8'));
  } catch (err) {
    throw new AnchorError('NOT_FOUND', `cannot read reward model in ${dir}: ${(err as Error).message}`);
  }
  if (json.format !== FORMAT) throw new AnchorError('BAD_MODEL', `${dir}/model.json is not a ${FORMAT} file`);
  // JSON writes NaN/Infinity as null, and the writers put null nowhere else: a null in a list of
  // numbers (weights, labels) or as the intercept was a non-finite value.
  for (const [key, v] of Object.entries(json)) {
    if ((Array.isArray(v) && v.includes(null)) || (key === 'intercept' && v === null)) {
      throw new AnchorError('BAD_MODEL', `${join(dir, 'model.json')} holds non-finite reward-model values in ${key}`, {
        file: join(dir, 'model.json'),
      });
    }
  }
  const { tensors } = await readSafetensors(join(dir, 'model.safetensors'));
  // A NaN would otherwise surface much later as "ridge system is not positive definite".
  assertFiniteTensors(tensors, join(dir, 'model.safetensors'), 'reward-model values');
  return { json, tensors };
}
