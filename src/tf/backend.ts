/**
 * TensorFlow.js backend selection. Only model modules import this (and through it, tfjs).
 *
 * `@tensorflow/tfjs-node` is an optional dependency: it downloads libtensorflow at install
 * time and fails offline. When it cannot load we fall back to the wasm backend (~35x faster
 * than tfjs's pure-JS cpu backend), and log which backend is in use.
 */
import * as tf from '@tensorflow/tfjs';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export type TfBackendName = 'tensorflow' | 'wasm' | 'cpu';

let ready: Promise<TfBackendName> | undefined;

/**
 * Initialise tfjs once per process and return the backend name.
 * `ANCHOR_TF_BACKEND=wasm|cpu|tensorflow` forces a choice (tests use it to compare).
 */
export function initTf(log: (msg: string) => void = (m) => process.stderr.write(m + '\n')): Promise<TfBackendName> {
  ready ??= (async () => {
    const forced = process.env.ANCHOR_TF_BACKEND as TfBackendName | undefined;
    const require = createRequire(import.meta.url);
    if (!forced || forced === 'tensorflow') {
      try {
        require('@tensorflow/tfjs-node');
        await tf.setBackend('tensorflow');
        await tf.ready();
        log('tfjs backend: tensorflow (tfjs-node)');
        return 'tensorflow';
      } catch (err) {
        if (forced) throw err;
      }
    }
    if (!forced || forced === 'wasm') {
      const wasm = await import('@tensorflow/tfjs-backend-wasm');
      // Point the backend at the .wasm files inside the installed package (no network).
      const pkgDir = dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json'));
      const distDir = join(pkgDir, 'dist') + '/';
      if (existsSync(distDir)) wasm.setWasmPaths(distDir);
      await tf.setBackend('wasm');
      await tf.ready();
      shareIdentityBuffers();
      log('tfjs backend: wasm (tfjs-node not available)');
      return 'wasm';
    }
    await tf.setBackend('cpu');
    await tf.ready();
    log('tfjs backend: cpu (slow; for comparison only)');
    return 'cpu';
  })();
  return ready;
}

/**
 * Make the wasm backend's `Identity` kernel share its input's buffer instead of copying it.
 *
 * Why: tfjs keeps every tensor saved for the backward pass through `Identity` (the engine's
 * clone), and the wasm kernel copies the whole buffer each time — several megabytes of copies per
 * training step of the default policy. Tensor buffers are never written after creation (a
 * variable's `assign` swaps in a new buffer), so a reference-counted share is the same tensor:
 * results are bit-identical. The cpu and webgl backends' Identity, and wasm's own Reshape, share
 * the same way. On the default policy's training step (batch 64 × 64) it saves the copies but
 * little time: 562 vs 551 ms per step in an interleaved A/B, within noise on a shared machine.
 */
function shareIdentityBuffers(): void {
  const copying = tf.getKernel('Identity', 'wasm');
  if (!copying) return;
  tf.unregisterKernel('Identity', 'wasm');
  tf.registerKernel({
    ...copying,
    kernelFunc: ({ inputs, backend }) => {
      const x = inputs.x as tf.TensorInfo;
      (backend as unknown as { incRef(id: tf.DataId): void }).incRef(x.dataId);
      return { dataId: x.dataId, shape: x.shape, dtype: x.dtype };
    },
  });
}

export { tf };
