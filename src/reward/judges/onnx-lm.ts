/**
 * A {@link NextTokenModel} over the policy engine's bring-your-own ONNX loading
 * (src/policy/engine/load-onnx-model.ts). No onnxruntime-node import here: the engine owns the
 * session; this adapter runs one full-prompt forward through the engine's current decoder and
 * keeps the last position's logits.
 *
 * Dependency note: the engine has no dedicated "next-token logits" call yet, so this goes through
 * `engine.currentDecoder.begin(...)` (public, documented for diagnostics). If the engine grows a
 * `nextTokenLogits` method, switch to it here — nothing else changes.
 */
import { AnchorError } from '../../util/errors.ts';
import { loadOnnxModel } from '../../policy/engine/load-onnx-model.ts';
import type { NextTokenModel } from './lm.ts';

/** Load an ONNX causal LM directory as a next-token model for the `lm` judge. */
export async function loadOnnxNextTokenModel(dir: string): Promise<NextTokenModel> {
  const m = await loadOnnxModel(dir);
  const vocab = m.info.vocabSize;
  const context = Number.isFinite(m.info.context) ? m.info.context : undefined;
  return {
    encode: (text) => m.tokenizer.encode(text),
    ...(context !== undefined ? { contextLength: context } : {}),
    async nextTokenLogits(promptIds) {
      const n = promptIds.length;
      if (n === 0) throw new AnchorError('BAD_ARGUMENT', 'lm judge: empty prompt');
      if (vocab !== undefined) {
        const bad = promptIds.find((i) => i < 0 || i >= vocab);
        if (bad !== undefined)
          throw new AnchorError('BAD_MODEL', `lm judge: token id ${bad} is outside the model's vocabulary (${vocab})`);
      }
      const decoder = m.engine.currentDecoder;
      decoder.retain();
      try {
        const { first } = await decoder.begin({
          batch: 1,
          promptLen: n,
          ids: Int32Array.from(promptIds),
          positions: Int32Array.from({ length: n }, (_, i) => i),
          padCounts: Int32Array.from([0]),
          capacity: n,
          useCache: false,
        });
        const V = first.vocab;
        const S = first.logitsSeq;
        return first.logits.slice((S - 1) * V, S * V);
      } finally {
        await decoder.dispose();
      }
    },
    release: () => m.engine.release(),
  };
}
