/**
 * Matrix products with hand-written gradients, for speed on the wasm backend.
 *
 * Why: tfjs's stock matMul gradient calls matMul with transposeA/transposeB flags, and on wasm
 * those transposed products run ~10x slower than plain ones. Materialising the transpose with
 * tf.transpose first and then doing a plain matMul made whole training steps ~3.4x faster on
 * this machine. `gather`'s stock gradient needs a kernel wasm lacks, so embeddings scatter-add theirs.
 *
 * All functions must be called inside a tidy / gradient scope; they allocate tensors.
 */
import { tf } from '../tf/backend.ts';
import { AnchorError } from '../util/errors.ts';

type T2 = tf.Tensor2D;
type T3 = tf.Tensor3D;

const T2D: [number, number] = [1, 0];

type GradResult = { value: tf.Tensor; gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => tf.Tensor[] };

/** tf.customGrad with positional tensor arguments (its typings only accept a rest parameter). */
function custom(f: (...args: any[]) => GradResult): (...args: tf.Tensor[]) => tf.Tensor {
  return tf.customGrad(f as unknown as Parameters<typeof tf.customGrad>[0]);
}

/** a · b for a [n,k], b [k,m]; gradients use explicit transposes. */
export const mm = custom((a: tf.Tensor, b: tf.Tensor, save: tf.GradSaveFunc) => {
  save([a, b]);
  return {
    value: tf.matMul(a as T2, b as T2),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sa, sb] = saved as [T2, T2];
      return [tf.matMul(dy as T2, tf.transpose(sb, T2D)), tf.matMul(transposeSaved(sa), dy as T2)];
    },
  };
}) as (a: T2, b: T2) => T2;

/** a · bᵀ for a [n,k], b [m,k] (the tied output head); gradients avoid transposed products. */
export const mmT = custom((a: tf.Tensor, b: tf.Tensor, save: tf.GradSaveFunc) => {
  save([a, b]);
  return {
    value: tf.matMul(a as T2, tf.transpose(b as T2, T2D)),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sa, sb] = saved as [T2, T2];
      return [tf.matMul(dy as T2, sb), tf.matMul(tf.transpose(dy as T2, T2D), sa)];
    },
  };
}) as (a: T2, b: T2) => T2;

/**
 * Batched product on the depthwise-convolution kernel: with x[0,m,k,g] = A[g,m,k] and
 * f[0,k,g,n] = B[g,k,n], depthwiseConv2d(x, f) (1×K window, 'valid') yields
 * out[0,m,0,g·N+n] = Σ_k A[g,m,k]·B[g,k,n]. On wasm that runs on XNNPACK, about 3× faster than
 * BatchMatMul with batch > 1 (which takes a slow non-XNNPACK loop).
 * Inputs are given already laid out: x [M,K,G], f [K,G,N]; returns [G,M,N].
 */
function dwBatchMatMul(x: T3, f: T3): T3 {
  const [M, K, G] = x.shape;
  const N = f.shape[2];
  const out = tf.depthwiseConv2d(
    tf.reshape(x, [1, M, K, G]) as tf.Tensor4D,
    tf.reshape(f, [1, K, G, N]) as tf.Tensor4D,
    1,
    'valid',
  );
  return tf.transpose(tf.reshape(out, [M, G, N]), [1, 0, 2]);
}

/**
 * Batched a · b for a [G,m,k], b [G,k,n] (the attention products). Forward and both gradients
 * are depthwise-convolution products (see {@link dwBatchMatMul}); each operand is laid out with a
 * single transpose.
 */
export const bmm = custom((a: tf.Tensor, b: tf.Tensor, save: tf.GradSaveFunc) => {
  save([a, b]);
  return {
    value: dwBatchMatMul(tf.transpose(a as T3, [1, 2, 0]), tf.transpose(b as T3, [1, 0, 2])),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sa, sb] = saved as [T3, T3];
      const d = dy as T3;
      // dA = dY · Bᵀ : x from dY [G,M,N] → [M,N,G]; f from B [G,K,N] → [N,G,K].
      const da = dwBatchMatMul(tf.transpose(d, [1, 2, 0]), tf.transpose(sb, [2, 0, 1]));
      // dB = Aᵀ · dY : x from A [G,M,K] → [K,M,G]; f from dY [G,M,N] → [M,G,N].
      const db = dwBatchMatMul(tf.transpose(sa, [2, 1, 0]), tf.transpose(d, [1, 0, 2]));
      return [da, db];
    },
  };
}) as (a: T3, b: T3) => T3;

/**
 * Embedding rows table[ids] for a trainable table: a gather forward, and the table gradient as a
 * scatter-add of dy into the rows (tfjs's own gather gradient needs UnsortedSegmentSum, which
 * wasm lacks). The former oneHot(ids)ᵀ · dy built two [n, V] tensors and an [V, n] transpose:
 * for a 32k vocabulary and 512 tokens that was ~190 MB of the wasm heap and ~60× slower
 * (measured 8.3 s vs 0.14 s for d 512 on this machine).
 */
export function embed(ids: tf.Tensor1D, table: tf.Tensor2D): tf.Tensor2D {
  const [rows, d] = table.shape;
  const f = custom((w: tf.Tensor, save: tf.GradSaveFunc) => {
    // Saved so the ids outlive the forward pass's scope until the backward pass runs.
    save([ids]);
    return {
      value: tf.gather(w as T2, ids),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const at = saved[0] as tf.Tensor1D;
        return [tf.scatterND(tf.reshape(at, [at.shape[0], 1]), dy as T2, [rows, d])];
      },
    };
  }) as (w: T2) => T2;
  return f(table);
}

/**
 * Rows of `x` [U, ...] copied to [B, ...] by `source` (row b is x[source[b]]), as a product with
 * the constant B × U selection matrix: on wasm about 10× faster than GatherV2 for the attention
 * caches this copies, and the backward pass is one product that sums each row's copies (gather's
 * stock gradient needs a kernel wasm lacks). The values are exact copies (1·x plus zeros).
 */
export function expandRows<R extends tf.Rank>(x: tf.Tensor<R>, source: Int32Array, units: number): tf.Tensor<R> {
  const [U, ...rest] = x.shape as number[];
  if (U === undefined) throw new AnchorError('INTERNAL', 'expandRows: a scalar has no rows');
  if (U !== units) throw new AnchorError('INTERNAL', `expandRows: ${U} rows, expected ${units}`);
  const B = source.length;
  const n = rest.reduce((a, v) => a * v, 1);
  const sel = new Float32Array(B * U);
  const selT = new Float32Array(U * B);
  source.forEach((u, b) => {
    sel[b * U + u] = 1;
    selT[u * B + b] = 1;
  });
  const f = custom((xi: tf.Tensor, save: tf.GradSaveFunc) => {
    const t = tf.tensor2d(selT, [U, B]);
    // Saved so the transpose outlives the forward pass's scope until the backward pass runs.
    save([t]);
    return {
      value: tf.matMul(tf.tensor2d(sel, [B, U]), tf.reshape(xi, [U, n]) as T2),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [tf.reshape(tf.matMul(saved[0] as T2, dy as T2), [U, ...rest])],
    };
  });
  return tf.reshape(f(x), [B, ...rest]) as unknown as tf.Tensor<R>;
}

/**
 * Transposes of saved activations made in the current backward pass, by the buffer they
 * transpose: q, k and v are three linears of one input, so its [n, d] transpose is made once per
 * layer rather than three times. Entries die with the backward pass's scope (a disposed entry is
 * made again).
 */
const transposes = new WeakMap<object, T2>();
function transposeSaved(x: T2): T2 {
  const hit = transposes.get(x.dataId);
  if (hit && !hit.isDisposed) return hit;
  const t = tf.transpose(x, T2D);
  transposes.set(x.dataId, t);
  return t;
}

/**
 * x · W + b for x [n,in], W [in,out], b [out]. Hand-written gradient: explicit transposes
 * (see module docs), and the bias gradient as ones[1,n] · dy, a plain matMul that runs much
 * faster on wasm than a column sum.
 */
export const linear = custom((x: tf.Tensor, w: tf.Tensor, b: tf.Tensor, save: tf.GradSaveFunc) => {
  save([x, w]);
  return {
    value: tf.add(tf.matMul(x as T2, w as T2), b),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sx, sw] = saved as [T2, T2];
      const d2 = dy as T2;
      const n = d2.shape[0];
      // dW = xᵀ·dy. Materialise the transpose of whichever of x, dy is narrower (transposes of
      // [n, 4d] activations cost as much as a matMul on wasm); (dyᵀ·x)ᵀ is the same product.
      const dw =
        sx.shape[1] <= d2.shape[1] ? tf.matMul(transposeSaved(sx), d2) : tf.transpose(tf.matMul(tf.transpose(d2, T2D), sx), T2D);
      return [tf.matMul(d2, tf.transpose(sw, T2D)), dw, tf.reshape(tf.matMul(tf.ones([1, n]) as T2, d2), [d2.shape[1]])];
    },
  };
}) as (x: T2, w: T2, b: tf.Tensor1D) => T2;

/**
 * LayerNorm over the last axis of x [n,d], with a hand-written gradient: the textbook
 * dx = rstd·(ĝ − mean(ĝ) − x̂·mean(ĝ·x̂)) with ĝ = dy·γ, and the γ/β gradients as ones·(…)
 * matMuls instead of tfjs's broadcast-reduction chain (fewer, cheaper ops on wasm).
 */
export function layerNorm(x: T2, gamma: tf.Tensor1D, beta: tf.Tensor1D, eps: number): T2 {
  const f = custom((xi: tf.Tensor, g: tf.Tensor, b: tf.Tensor, save: tf.GradSaveFunc) => {
    const mean = tf.mean(xi, -1, true);
    const xc = tf.sub(xi, mean);
    const rstd = tf.rsqrt(tf.add(tf.mean(tf.square(xc), -1, true), eps));
    const xhat = tf.mul(xc, rstd);
    save([xhat, rstd, g]);
    return {
      value: tf.add(tf.mul(xhat, g), b),
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const [sxhat, srstd, sg] = saved as [T2, tf.Tensor, tf.Tensor1D];
        const n = sxhat.shape[0];
        const d = sxhat.shape[1];
        const ones = tf.ones([1, n]) as T2;
        const gh = tf.mul(dy, sg);
        const dx = tf.mul(srstd, tf.sub(tf.sub(gh, tf.mean(gh, -1, true)), tf.mul(sxhat, tf.mean(tf.mul(gh, sxhat), -1, true))));
        const dg = tf.reshape(tf.matMul(ones, tf.mul(dy, sxhat) as T2), [d]);
        const db = tf.reshape(tf.matMul(ones, dy as T2), [d]);
        return [dx, dg, db];
      },
    };
  });
  return f(x, gamma, beta) as T2;
}

const GELU_C = Math.sqrt(2 / Math.PI);
const GELU_A = 0.044715;

/**
 * GELU, tanh approximation (GPT-2 "gelu_new"): 0.5·x·(1 + tanh(z)), z = c·(x + a·x³).
 * Computed as x·sigmoid(2z) — the same function, since 0.5·(1 + tanh(z)) = sigmoid(2z) — because
 * tanh is several times slower than sigmoid on wasm. Hand-written gradient to keep the backward
 * pass to a few elementwise ops.
 */
export const gelu = custom((x: tf.Tensor, save: tf.GradSaveFunc) => {
  const x2 = tf.square(x);
  const s = tf.sigmoid(tf.mul(tf.mul(x, tf.add(tf.mul(x2, GELU_A), 1)), 2 * GELU_C));
  save([x, x2, s]);
  return {
    value: tf.mul(x, s),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sx, sx2, ss] = saved as [tf.Tensor, tf.Tensor, tf.Tensor];
      // d/dx [x·s(2z)] = s + x·s·(1-s)·2c·(1 + 3a·x²)
      const ds = tf.mul(ss, tf.sub(1, ss));
      const dz = tf.add(tf.mul(sx2, 3 * GELU_A * 2 * GELU_C), 2 * GELU_C);
      return [tf.mul(dy, tf.add(ss, tf.mul(tf.mul(sx, ds), dz)))];
    },
  };
}) as <R extends tf.Rank>(x: tf.Tensor<R>) => tf.Tensor<R>;

/** x · W with W a constant (a frozen base weight): the backward pass computes dx only. */
export function frozenMm(x: T2, w: T2): T2 {
  const f = custom((xi: tf.Tensor) => ({
    value: tf.matMul(xi as T2, w),
    gradFunc: (dy: tf.Tensor) => [tf.matMul(dy as T2, tf.transpose(w, T2D))],
  }));
  return f(x) as T2;
}

/** x · Wᵀ with W a constant (a frozen tied head). */
export function frozenMmT(x: T2, w: T2): T2 {
  const f = custom((xi: tf.Tensor) => ({
    value: tf.matMul(xi as T2, tf.transpose(w, T2D)),
    gradFunc: (dy: tf.Tensor) => [tf.matMul(dy as T2, w)],
  }));
  return f(x) as T2;
}
