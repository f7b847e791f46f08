/**
 * How a decoder ONNX graph's inputs and outputs map onto the engine's roles (token ids,
 * attention mask, position ids, KV cache pairs, logits). Pure logic over the graph's I/O
 * metadata, so it is unit-testable without a session.
 *
 * Supported conventions:
 * - Hugging Face optimum: `input_ids`, `attention_mask`, `position_ids`,
 *   `past_key_values.{i}.key|value` → `present.{i}.key|value`, each [batch, heads, past, head_dim];
 *   an optional `use_cache_branch` (merged decoders) is fed true when a past is given.
 * - ONNX Runtime GenAI `genai_config.json` (`model.decoder.inputs|outputs`): names of ids, mask,
 *   positions and past/present tensors, either split (`past_key_names` / `past_value_names`,
 *   `present_key_names` / `present_value_names`) or stacked (`past_names` / `present_names`,
 *   [2, batch, heads, past, head_size]).
 * - Without a genai config, stacked `past_{i}` / `present_{i}` (ONNX Runtime's GPT-2 exports) is
 *   also recognised.
 * Integer inputs may be int32 or int64 (read from the graph).
 */
import { AnchorError } from '../../util/errors.ts';

/** One graph input or output as ONNX Runtime describes it. */
export interface IoMeta {
  name: string;
  /** Element type, e.g. 'int64', 'int32', 'float32'. */
  type?: string;
  /** Dimensions: numbers for fixed sizes, strings for symbolic ones. */
  shape?: Array<number | string>;
}

/** Integer element type of an id-like input. */
export type IntType = 'int32' | 'int64';

/** One cache pair: the past input fed back from the present output. */
interface CachePair {
  past: string;
  present: string;
  /** 'split': [batch, heads, past, head_dim]; 'stacked': [2, batch, heads, past, head_dim]. */
  layout: 'split' | 'stacked';
}

/** The resolved mapping. */
export interface DecoderIoSpec {
  inputIds: { name: string; type: IntType };
  attentionMask?: { name: string; type: IntType };
  positionIds?: { name: string; type: IntType };
  useCacheBranch?: string;
  logits: string;
  cache: CachePair[];
  /** Key/value heads and head width of the cache tensors. */
  kvHeads: number;
  headDim: number;
  /** Which convention matched (for messages). */
  convention: 'optimum' | 'genai' | 'stacked-past';
}

/** The parts of genai_config.json the mapping reads. */
export interface GenaiDecoderConfig {
  head_size?: number;
  num_key_value_heads?: number;
  num_attention_heads?: number;
  num_hidden_layers?: number;
  inputs?: Record<string, string>;
  outputs?: Record<string, string>;
}

const EXPECTED_HELP =
  'expected Hugging Face optimum names (input_ids, attention_mask, position_ids, ' +
  'past_key_values.{i}.key/.value -> present.{i}.key/.value) or names given by genai_config.json ' +
  '(model.decoder.inputs / outputs, e.g. past_%d -> present_%d)';

/**
 * Map a graph's I/O onto engine roles. Throws AnchorError BAD_MODEL listing the inputs found and
 * the names expected when a required role cannot be mapped or an input is left unfed.
 */
export function mapDecoderIo(inputs: IoMeta[], outputs: IoMeta[], genai?: GenaiDecoderConfig): DecoderIoSpec {
  const inNames = new Set(inputs.map((i) => i.name));
  const outNames = new Set(outputs.map((o) => o.name));
  const gi = genai?.inputs ?? {};
  const go = genai?.outputs ?? {};
  const fail = (why: string, expected: string[]): never => {
    throw new AnchorError(
      'BAD_MODEL',
      `cannot map the ONNX model's inputs/outputs: ${why}. Found inputs [${[...inNames].join(', ')}], ` +
        `outputs [${[...outNames].join(', ')}]; expected [${expected.join(', ')}] — ${EXPECTED_HELP}.`,
      { foundInputs: [...inNames], foundOutputs: [...outNames], expected },
    );
  };
  const meta = (name: string): IoMeta => inputs.find((i) => i.name === name)!;
  const intType = (name: string): IntType => {
    const t = meta(name).type;
    if (t === 'int32' || t === 'int64') return t;
    return fail(`input '${name}' has element type ${t ?? 'unknown'}, expected int32 or int64`, [name]);
  };

  const idsName = gi.input_ids ?? 'input_ids';
  const maskName = gi.attention_mask ?? 'attention_mask';
  const posName = gi.position_ids ?? 'position_ids';
  const logitsName = go.logits ?? 'logits';
  if (!inNames.has(idsName)) fail(`no token-id input '${idsName}'`, [idsName, maskName, posName]);
  if (!outNames.has(logitsName)) fail(`no output '${logitsName}'`, [logitsName]);

  // Cache pairs: try genai names, then optimum, then stacked past_%d.
  type Pattern = { convention: DecoderIoSpec['convention']; pairs: (i: number) => CachePair[] };
  const fmt = (pattern: string, i: number): string => pattern.replace('%d', String(i));
  const patterns: Pattern[] = [];
  if (gi.past_key_names && gi.past_value_names && go.present_key_names && go.present_value_names) {
    const [pk, pv, ok, ov] = [gi.past_key_names, gi.past_value_names, go.present_key_names, go.present_value_names];
    patterns.push({
      convention: 'genai',
      pairs: (i) => [
        { past: fmt(pk, i), present: fmt(ok, i), layout: 'split' },
        { past: fmt(pv, i), present: fmt(ov, i), layout: 'split' },
      ],
    });
  }
  if (gi.past_names && go.present_names) {
    const [pn, on] = [gi.past_names, go.present_names];
    patterns.push({ convention: 'genai', pairs: (i) => [{ past: fmt(pn, i), present: fmt(on, i), layout: 'stacked' }] });
  }
  patterns.push({
    convention: 'optimum',
    pairs: (i) => [
      { past: `past_key_values.${i}.key`, present: `present.${i}.key`, layout: 'split' },
      { past: `past_key_values.${i}.value`, present: `present.${i}.value`, layout: 'split' },
    ],
  });
  patterns.push({
    convention: 'stacked-past',
    pairs: (i) => [{ past: `past_${i}`, present: `present_${i}`, layout: 'stacked' }],
  });

  let cache: CachePair[] = [];
  let convention: DecoderIoSpec['convention'] = 'optimum';
  for (const pat of patterns) {
    const found: CachePair[] = [];
    for (let i = 0; ; i++) {
      const pairs = pat.pairs(i);
      if (!pairs.every((p) => inNames.has(p.past) && outNames.has(p.present))) break;
      found.push(...pairs);
    }
    if (found.length > 0) {
      cache = found;
      convention = pat.convention;
      break;
    }
  }
  const expectedAll = [idsName, maskName, posName, ...patterns.flatMap((p) => p.pairs(0).map((c) => c.past))];
  if (cache.length === 0) {
    const pastLike = [...inNames].filter((n) => /past|cache/i.test(n));
    if (pastLike.length > 0) fail('its past/cache inputs match no known naming', expectedAll);
  }
  if (genai?.num_hidden_layers !== undefined && cache.length > 0) {
    const layers = cache[0]!.layout === 'stacked' ? cache.length : cache.length / 2;
    if (layers !== genai.num_hidden_layers) {
      fail(`found ${layers} cache layers but genai_config.json says num_hidden_layers=${genai.num_hidden_layers}`, expectedAll);
    }
  }

  // Heads and head width: genai config, else the past input's fixed dimensions.
  let kvHeads = genai?.num_key_value_heads ?? genai?.num_attention_heads ?? 0;
  let headDim = genai?.head_size ?? 0;
  if (cache.length > 0 && (!kvHeads || !headDim)) {
    const shape = meta(cache[0]!.past).shape ?? [];
    const h = shape[shape.length - 3];
    const d = shape[shape.length - 1];
    if (typeof h === 'number' && typeof d === 'number') {
      kvHeads ||= h;
      headDim ||= d;
    } else {
      fail(`cannot tell heads / head size of '${cache[0]!.past}' (shape [${shape.join(', ')}])`, [
        'a fixed heads and head_size dimension',
      ]);
    }
  }

  const spec: DecoderIoSpec = {
    inputIds: { name: idsName, type: intType(idsName) },
    logits: logitsName,
    cache,
    kvHeads,
    headDim,
    convention,
  };
  if (inNames.has(maskName)) spec.attentionMask = { name: maskName, type: intType(maskName) };
  if (inNames.has(posName)) spec.positionIds = { name: posName, type: intType(posName) };
  if (inNames.has('use_cache_branch')) spec.useCacheBranch = 'use_cache_branch';

  // Every graph input must be fed by some role.
  const fed = new Set<string>([idsName, ...cache.map((c) => c.past)]);
  if (spec.attentionMask) fed.add(maskName);
  if (spec.positionIds) fed.add(posName);
  if (spec.useCacheBranch) fed.add(spec.useCacheBranch);
  const unfed = [...inNames].filter((n) => !fed.has(n));
  if (unfed.length > 0) fail(`no role for input(s) ${unfed.join(', ')}`, expectedAll);
  return spec;
}
