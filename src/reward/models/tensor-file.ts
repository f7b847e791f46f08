/**
 * Reward-model weight files: safetensors via the project's one reader/writer
 * (src/policy/safetensors.ts); this module only adds file I/O and error mapping.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { AnchorError } from '../../util/errors.ts';
import { decodeSafetensors, encodeSafetensors } from '../../policy/safetensors.ts';

/** One float32 tensor (the policy's WeightTensor shape). */
export interface F32Tensor {
  shape: number[];
  data: Float32Array;
}

/** Write tensors (in map order) and string metadata to a safetensors file. */
export async function writeSafetensors(
  path: string,
  tensors: Map<string, F32Tensor>,
  metadata: Record<string, string> = {},
): Promise<void> {
  await writeFile(path, encodeSafetensors(tensors, metadata));
}

/** Read a safetensors file (every tensor as float32). */
export async function readSafetensors(
  path: string,
): Promise<{ tensors: Map<string, F32Tensor>; metadata: Record<string, string> }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    throw new AnchorError('NOT_FOUND', `cannot read ${path}: ${(err as Error).message}`);
  }
  return decodeSafetensors(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), path);
}
