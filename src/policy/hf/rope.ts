/** Rotary position embedding tables shared by the tfjs Llama model and its ONNX export. */

/** cos and sin of the rotary angles per token, each [N, hd] (angle repeated over both halves). */
export function ropeTables(positions: Int32Array, hd: number, theta: number): { cos: Float32Array; sin: Float32Array } {
  const h = hd / 2;
  const n = positions.length;
  const cos = new Float32Array(n * hd);
  const sin = new Float32Array(n * hd);
  // Hugging Face computes inv_freq and the angles in float32; doing the same keeps long
  // positions in agreement with its exports.
  const inv = Float32Array.from({ length: h }, (_, i) => 1 / theta ** ((2 * i) / hd));
  for (let t = 0; t < n; t++) {
    for (let i = 0; i < h; i++) {
      const a = Math.fround(positions[t]! * inv[i]!);
      const c = Math.cos(a);
      const s = Math.sin(a);
      cos[t * hd + i] = c;
      cos[t * hd + i + h] = c;
      sin[t * hd + i] = s;
      sin[t * hd + i + h] = s;
    }
  }
  return { cos, sin };
}
