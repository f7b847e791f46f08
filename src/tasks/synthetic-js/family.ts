/**
 * `synthetic-js`: JavaScript function-synthesis problems in the MultiPL-E shape, the default
 * task of GRPO runs on a small CPU model.
 *
 * Prompt: one comment line per input/output example, then the signature:
 *
 *     // f(0) = 1
 *     // f(1) = 4
 *     // f(-3) = -8
 *     function f(x) {
 *
 * Reference completion: the body and the closing brace (`  return x * 3 + 1;\n}`). Hidden
 * tests: MultiPL-E style asserts on inputs other than the examples, one assert per input so the
 * fraction passed is meaningful partial credit.
 */
import { z } from 'zod';
import type { Problem } from '../../datasets/problem.ts';
import { AnchorError } from '../../util/errors.ts';
import { Rng } from '../../util/rng.ts';
import { splitOf } from '../hash.ts';
import type { BaseGenerateOptions, TaskFamily } from '../types.ts';
import { testBlock } from '../test-code.ts';
import { inSyntheticJsCharset } from './charset.ts';
import {
  ARRAY_OPS,
  INT_OPS,
  STRING_OPS,
  compileBody,
  drawFunction,
  drawInput,
  literal,
  type FunctionKind,
  type JsValue,
} from './grammar.ts';

/** MultiPL-E JavaScript stop tokens. */
const SYNTHETIC_JS_STOP_TOKENS: readonly string[] = ['\nfunction ', '\n/*', '\n//', '\nconsole.log'];
/** The signature every prompt ends with. */
const SYNTHETIC_JS_SIGNATURE = 'function f(x) {\n';

/** Knobs of `synthetic-js` (every field defaulted; see datasets/synthetic.md). */
export const syntheticJsSchema = z
  .object({
    /** Relative weights of the function kinds (0 disables a kind). */
    kinds: z
      .object({
        int: z.number().min(0).default(0.5),
        array: z.number().min(0).default(0.3),
        string: z.number().min(0).default(0.2),
      })
      .strict()
      .default({ int: 0.5, array: 0.3, string: 0.2 }),
    /** Fewest / most composed operations per function (uniform in between). */
    min_ops: z.number().int().min(1).max(6).default(1),
    max_ops: z.number().int().min(1).max(6).default(2),
    /** Constants are drawn from 1..const_max (2..const_max for * and %, 0..const_max for max/min). */
    const_max: z.number().int().min(2).max(99).default(5),
    /** Integer inputs are drawn from -input_max..input_max. */
    input_max: z.number().int().min(3).max(999).default(9),
    /** Longest array input. */
    array_max_len: z.number().int().min(1).max(10).default(5),
    /** Integer operations the grammar may use. */
    int_ops: z.array(z.enum(INT_OPS)).min(1).default(['add', 'sub', 'mul', 'neg', 'abs', 'max', 'min']),
    /** Array pipeline stages the grammar may use. */
    array_ops: z.array(z.enum(ARRAY_OPS)).min(1).default(['map', 'filter', 'reverse', 'slice', 'length', 'sum']),
    /** String operations the grammar may use. */
    string_ops: z
      .array(z.enum(STRING_OPS))
      .min(1)
      .default(['upper', 'reverse', 'slice', 'prefix', 'repeat', 'suffix', 'double', 'length']),
    /** Probability that an integer function with ≥ 2 operations is piecewise (`if (x < k) return …;`). */
    conditional_rate: z.number().min(0).max(1).default(0.15),
    /** Examples shown in the prompt. */
    examples: z.number().int().min(1).max(8).default(3),
    /**
     * Integer examples start with these inputs (then random ones). f(0) and f(1) expose the
     * constants of affine functions, which a small model can learn to copy.
     */
    anchor_inputs: z.array(z.number().int()).max(8).default([0, 1]),
    /**
     * `independent` (default): each hidden case is its own guarded assertion, so passed/total is
     * the fraction of cases passed even though a failing assert throws. `multipl-e`: the plain
     * MultiPL-E lines (`assert.deepEqual(candidate(IN), OUT);`), which stop at the first failure.
     */
    test_style: z.enum(['independent', 'multipl-e']).default('independent'),
    /** Hidden test asserts (each on an input not shown in the prompt). */
    tests: z.number().int().min(1).max(20).default(5),
    /** Longest reference body (characters, including the closing brace): fits the policy's completion budget. */
    max_body_chars: z.number().int().min(16).max(400).default(44),
    /** Longest prompt (characters): fits the policy's context. */
    max_prompt_chars: z.number().int().min(32).max(4000).default(160),
    /** Largest |output| of integer results (keeps numbers short for a char-level model). */
    max_abs_output: z.number().int().min(10).default(999),
    /**
     * What the eval split holds out. `prompt`: eval prompts and eval test blocks never occur in
     * train (the same function may, with other examples — instance-level generalisation).
     * `function`: eval functions (by behaviour on fixed probe inputs) never occur in train —
     * compositional generalisation, much harder for a small model.
     */
    holdout: z.enum(['prompt', 'function']).default('prompt'),
    /** Fraction of the hashed space (prompts, test blocks or functions) reserved for eval. */
    eval_fraction: z.number().gt(0).lt(1).default(0.2),
  })
  .strict()
  .refine((k) => k.min_ops <= k.max_ops, { message: 'min_ops must be <= max_ops', path: ['min_ops'] })
  .refine((k) => k.kinds.int + k.kinds.array + k.kinds.string > 0, {
    message: 'at least one kind needs a positive weight',
    path: ['kinds'],
  });
export type SyntheticJsKnobs = z.infer<typeof syntheticJsSchema>;

/** Fixed probe inputs per kind: a function's behaviour on them decides its split. */
const PROBES: Record<FunctionKind, JsValue[]> = {
  int: Array.from({ length: 41 }, (_, i) => i - 20),
  array: [[], [0], [5], [1, 2, 3], [3, 8, 1, 6], [9, 0, 4, 4, 7], [2, 5, 8, 1, 0, 6, 3], [7, 7, 2]],
  string: ['', 'a', 'ab', 'cab', 'hedge', 'bbac', 'face', 'gabcdeh'],
};

const clone = <T>(v: T): T => (Array.isArray(v) ? ([...v] as T) : v);

function call(fn: (x: JsValue) => unknown, x: JsValue): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: fn(clone(x)) };
  } catch {
    return { ok: false };
  }
}

/** Outputs that are safe to print as literals and compare with assert.deepEqual. */
function acceptableOutput(v: unknown, k: SyntheticJsKnobs): boolean {
  if (typeof v === 'number') return Number.isInteger(v) && !Object.is(v, -0) && Math.abs(v) <= k.max_abs_output;
  if (typeof v === 'string') return v.length <= 16;
  if (Array.isArray(v))
    return (
      v.length <= 12 &&
      v.every((e) => typeof e === 'number' && Number.isInteger(e) && !Object.is(e, -0) && Math.abs(e) <= k.max_abs_output)
    );
  return false;
}

function pickKind(rng: Rng, k: SyntheticJsKnobs): FunctionKind {
  const total = k.kinds.int + k.kinds.array + k.kinds.string;
  let u = rng.next() * total;
  if ((u -= k.kinds.int) < 0) return 'int';
  if ((u -= k.kinds.array) < 0) return 'array';
  return 'string';
}

/** Distinct inputs (by literal), excluding `taken`, preferring `anchors` first. */
function drawDistinctInputs(
  rng: Rng,
  kind: FunctionKind,
  count: number,
  taken: Set<string>,
  k: SyntheticJsKnobs,
  forExample: boolean,
): JsValue[] | null {
  const out: JsValue[] = [];
  if (forExample && kind === 'int') {
    for (const a of k.anchor_inputs) {
      if (out.length >= count || taken.has(literal(a))) continue;
      taken.add(literal(a));
      out.push(a);
    }
  }
  for (let tries = 0; out.length < count && tries < 200; tries++) {
    const x = drawInput(rng, kind, k.input_max, k.array_max_len, forExample);
    const key = literal(x);
    if (taken.has(key)) continue;
    taken.add(key);
    out.push(x);
  }
  return out.length === count ? out : null;
}

function makeProblem(rng: Rng, kind: FunctionKind, k: SyntheticJsKnobs, split: string, seed: number): Problem | null {
  const n = rng.range(k.min_ops, k.max_ops);
  const drawn = drawFunction(rng, kind, n, k);
  if (drawn.body.length > k.max_body_chars) return null;
  const fn = compileBody(drawn.body);

  // Behaviour on fixed probes: rejects degenerate functions and decides the split.
  const probeOut: string[] = [];
  for (const x of PROBES[kind]) {
    const r = call(fn, x);
    probeOut.push(r.ok ? (literal(r.value) ?? 'undefined') : 'throws');
  }
  const probeIn = PROBES[kind].map((x) => literal(x));
  if (new Set(probeOut).size < 3) return null; // constant or nearly constant
  if (probeOut.every((o, i) => o === probeIn[i])) return null; // identity
  const salt = `synthetic-js:${seed}`;
  if (k.holdout === 'function' && splitOf(`${kind}|${probeOut.join('|')}`, salt, k.eval_fraction) !== split) return null;

  const taken = new Set<string>();
  const exampleInputs = drawDistinctInputs(rng, kind, k.examples, taken, k, true);
  const testInputs = drawDistinctInputs(rng, kind, k.tests, taken, k, false);
  if (!exampleInputs || !testInputs) return null;
  const examples: [JsValue, unknown][] = [];
  const tests: [JsValue, unknown][] = [];
  for (const [inputs, sink] of [
    [exampleInputs, examples],
    [testInputs, tests],
  ] as const) {
    for (const x of inputs) {
      const r = call(fn, x);
      if (!r.ok || !acceptableOutput(r.value, k)) return null;
      sink.push([x, r.value]);
    }
  }
  // The examples must show the function doing something (not one repeated output), and the
  // hidden tests must not be passable by a constant or identity body.
  if (k.examples >= 2 && new Set(examples.map(([, y]) => literal(y))).size < 2) return null;
  if (k.tests >= 2 && new Set(tests.map(([, y]) => literal(y))).size < 2) return null;
  if (tests.every(([x, y]) => literal(x) === literal(y))) return null; // `return x;` would pass

  const prompt = examples.map(([x, y]) => `// f(${literal(x)}) = ${literal(y)}\n`).join('') + SYNTHETIC_JS_SIGNATURE;
  if (prompt.length > k.max_prompt_chars) return null;
  if (!inSyntheticJsCharset(prompt) || !inSyntheticJsCharset(drawn.body)) return null;
  const testCode = testBlock(
    'f',
    tests.map(([x, y]) => ({ input: literal(x), output: literal(y) })),
    k.test_style,
  );
  // Prompt holdout: both the prompt and the test block must hash to this split, so neither can
  // appear on the other side.
  if (
    k.holdout === 'prompt' &&
    (splitOf(prompt, salt, k.eval_fraction) !== split || splitOf(testCode, salt, k.eval_fraction) !== split)
  ) {
    return null;
  }
  return {
    id: '',
    language: 'javascript',
    prompt,
    tests: testCode,
    entryPoint: 'f',
    stopTokens: [...SYNTHETIC_JS_STOP_TOKENS],
    reference: drawn.body,
    source: 'synthetic-js',
    meta: {
      kind,
      ops: drawn.ops,
      nOps: drawn.ops.length,
      split,
      examples: examples.map(([x, y]) => ({ input: x, output: y })),
      testInputs: tests.map(([x]) => x),
    },
  };
}

/** Generate `count` problems of one split. */
function generateSyntheticJs(opts: BaseGenerateOptions & SyntheticJsKnobs): Problem[] {
  if (opts.kinds.int > 0 && opts.examples + opts.tests > 2 * opts.input_max + 1) {
    throw new AnchorError(
      'BAD_CONFIG',
      `synthetic-js: examples + tests (${opts.examples + opts.tests}) distinct integer inputs do not fit in -${opts.input_max}..${opts.input_max}`,
    );
  }
  const rng = new Rng(opts.seed).fork(`synthetic-js:${opts.split}`);
  const seenPrompts = new Set<string>();
  const out: Problem[] = [];
  const maxAttempts = 500 * opts.count + 5000;
  let attempts = 0;
  while (out.length < opts.count && attempts < maxAttempts) {
    // The kind is drawn once per problem and kept through rejections, so the kind mix follows
    // the weights even though some kinds are rejected more often than others.
    const kind = pickKind(rng, opts);
    for (; attempts < maxAttempts; attempts++) {
      const p = makeProblem(rng, kind, opts, opts.split, opts.seed);
      if (!p || seenPrompts.has(p.prompt)) continue;
      seenPrompts.add(p.prompt);
      p.id = `synthetic-js/${opts.split}/${opts.seed}/${out.length}`;
      out.push(p);
      break;
    }
  }
  if (out.length < opts.count) {
    throw new AnchorError(
      'BAD_CONFIG',
      `synthetic-js: could only generate ${out.length} of ${opts.count} ${opts.split} problems with these knobs (too narrow a function space or too tight length limits)`,
    );
  }
  return out;
}

/** The `synthetic-js` family entry. */
export const syntheticJsFamily: TaskFamily<SyntheticJsKnobs> = {
  name: 'synthetic-js',
  describe:
    'Short JavaScript functions f(x) of integers, arrays or strings composed from a small grammar; prompt = I/O examples + `function f(x) {`, hidden tests = asserts on other inputs (MultiPL-E shape).',
  schema: syntheticJsSchema,
  generate: generateSyntheticJs,
};
