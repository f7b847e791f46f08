/**
 * Hugging Face `config.json` → the shape of a supported architecture.
 *
 * Supported: GPT-2 (`model_type` gpt2) and the Llama family (`llama`, `qwen2`, `mistral` without
 * sliding windows): RMSNorm, rotary positions (`rope_theta`, no `rope_scaling`), grouped-query
 * attention, SwiGLU MLP, q/k/v bias (Qwen2, or `attention_bias`), tied or untied embeddings.
 * Anything else is a BAD_MODEL error naming the key and value.
 */
import { AnchorError } from '../../util/errors.ts';
import { type GptConfig, LAYER_NORM_EPS, validateGptConfig } from '../gpt-config.ts';

/** Shape of a Llama-family decoder. */
export interface LlamaConfig {
  vocabSize: number;
  /** max_position_embeddings. */
  context: number;
  layers: number;
  /** hidden_size. */
  dModel: number;
  heads: number;
  /** num_key_value_heads (grouped-query attention; = heads for plain multi-head). */
  kvHeads: number;
  headDim: number;
  /** intermediate_size of the SwiGLU MLP. */
  ffn: number;
  rmsEps: number;
  ropeTheta: number;
  tiedHead: boolean;
  /** Bias on the q, k, v projections (Qwen2; Llama's attention_bias). */
  qkvBias: boolean;
  /** Bias on the output projection (Llama's attention_bias). */
  oBias: boolean;
}

/** A supported architecture's parsed config. */
export type HfModelConfig = { arch: 'gpt2'; gpt: GptConfig } | { arch: 'llama'; llama: LlamaConfig };

/** The architecture names a config.json may carry, by `model_type`. */
const LLAMA_TYPES = new Set(['llama', 'qwen2', 'mistral']);

/** Parse a config.json object (`what` names the file in errors). */
export function parseHfConfig(cfg: Record<string, unknown>, what = 'config.json'): HfModelConfig {
  const bad = (key: string, why: string): never => {
    throw new AnchorError('BAD_MODEL', `${what}: ${key} ${why} (got ${JSON.stringify(cfg[key])})`, { key });
  };
  const int = (key: string, fallback?: number): number => {
    const v = cfg[key] ?? fallback;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) return bad(key, 'must be a positive integer');
    return v;
  };
  const num = (key: string, fallback?: number): number => {
    const v = cfg[key] ?? fallback;
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) return bad(key, 'must be a positive number');
    return v;
  };
  const type = String(cfg.model_type ?? '');
  if (type === 'gpt2') {
    const act = cfg.activation_function ?? 'gelu_new';
    if (act !== 'gelu_new') bad('activation_function', 'must be gelu_new (the only GPT-2 activation supported)');
    const eps = cfg.layer_norm_epsilon ?? LAYER_NORM_EPS;
    if (eps !== LAYER_NORM_EPS) bad('layer_norm_epsilon', `must be ${LAYER_NORM_EPS}`);
    if (cfg.n_inner != null && cfg.n_inner !== 4 * int('n_embd')) bad('n_inner', 'must be null or 4·n_embd');
    if (cfg.scale_attn_by_inverse_layer_idx === true) bad('scale_attn_by_inverse_layer_idx', 'is not supported');
    return {
      arch: 'gpt2',
      gpt: validateGptConfig({
        vocabSize: int('vocab_size'),
        context: int('n_positions', cfg.n_ctx as number | undefined),
        layers: int('n_layer'),
        dModel: int('n_embd'),
        heads: int('n_head'),
        tiedHead: cfg.tie_word_embeddings !== false,
      }),
    };
  }
  if (LLAMA_TYPES.has(type)) {
    const act = cfg.hidden_act ?? 'silu';
    if (act !== 'silu') bad('hidden_act', 'must be silu');
    if (cfg.rope_scaling != null) bad('rope_scaling', 'is not supported (only plain rotary embeddings with rope_theta)');
    if (type === 'mistral' && cfg.sliding_window != null) bad('sliding_window', 'is not supported');
    if (cfg.use_sliding_window === true) bad('use_sliding_window', 'is not supported');
    const dModel = int('hidden_size');
    const heads = int('num_attention_heads');
    const kvHeads = int('num_key_value_heads', heads);
    if (heads % kvHeads !== 0) bad('num_key_value_heads', `must divide num_attention_heads ${heads}`);
    const headDim = cfg.head_dim == null ? dModel / heads : int('head_dim');
    if (!Number.isInteger(headDim) || headDim % 2 !== 0)
      bad('head_dim', 'must be an even integer (hidden_size / num_attention_heads)');
    const attnBias = cfg.attention_bias === true;
    return {
      arch: 'llama',
      llama: {
        vocabSize: int('vocab_size'),
        context: int('max_position_embeddings'),
        layers: int('num_hidden_layers'),
        dModel,
        heads,
        kvHeads,
        headDim,
        ffn: int('intermediate_size'),
        rmsEps: num('rms_norm_eps', 1e-6),
        ropeTheta: num('rope_theta', 10000),
        tiedHead: cfg.tie_word_embeddings === true,
        qkvBias: type === 'qwen2' || attnBias,
        oBias: attnBias,
      },
    };
  }
  const archs = Array.isArray(cfg.architectures) ? ` (${(cfg.architectures as unknown[]).join(', ')})` : '';
  throw new AnchorError(
    'BAD_MODEL',
    `${what}: unsupported architecture model_type ${JSON.stringify(cfg.model_type)}${archs}; supported: gpt2, ${[...LLAMA_TYPES].join(', ')}`,
  );
}

/** A config.json object for a parsed config (what {@link parseHfConfig} reads back). */
export function hfConfigJson(c: HfModelConfig): Record<string, unknown> {
  if (c.arch === 'gpt2') {
    const g = c.gpt;
    return {
      architectures: ['GPT2LMHeadModel'],
      model_type: 'gpt2',
      vocab_size: g.vocabSize,
      n_positions: g.context,
      n_ctx: g.context,
      n_layer: g.layers,
      n_embd: g.dModel,
      n_head: g.heads,
      activation_function: 'gelu_new',
      layer_norm_epsilon: LAYER_NORM_EPS,
      tie_word_embeddings: g.tiedHead,
      torch_dtype: 'float32',
    };
  }
  const l = c.llama;
  return {
    architectures: ['LlamaForCausalLM'],
    model_type: 'llama',
    vocab_size: l.vocabSize,
    max_position_embeddings: l.context,
    num_hidden_layers: l.layers,
    hidden_size: l.dModel,
    num_attention_heads: l.heads,
    num_key_value_heads: l.kvHeads,
    head_dim: l.headDim,
    intermediate_size: l.ffn,
    rms_norm_eps: l.rmsEps,
    rope_theta: l.ropeTheta,
    rope_scaling: null,
    hidden_act: 'silu',
    tie_word_embeddings: l.tiedHead,
    // q/k/v-only bias has no Llama switch; it is Qwen2's layout.
    ...(l.qkvBias && !l.oBias ? { model_type: 'qwen2', architectures: ['Qwen2ForCausalLM'] } : { attention_bias: l.oBias }),
    torch_dtype: 'float32',
  };
}
