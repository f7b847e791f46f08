/**
 * The DSL worlds of the reference study (docs/design.md, "The synthetic worlds"), with a fast
 * in-process evaluator for large best-of-N sweeps and a compiler to JavaScript for settlement
 * through the sandbox.
 *
 * Readings of the spec that the text leaves open (documented in datasets/synthetic.md):
 * - Validity is checked after every operation: once |v| > limit the run is invalid, even if
 *   a later operation (H, M, G) would bring it back. This keeps every intermediate exact in
 *   doubles (|v| ≤ 1e9 before an operation, so v² ≤ 1e18 only ever gets compared).
 * - `H` is truncating division by 2 (toward zero): H(−3) = −1.
 * - `M` is Python's floor modulo (the reference study was Python): the result is in 0..6,
 *   M(−1) = 6, unlike JavaScript's `%` which would give −1.
 * - `P` adds the original input x.
 * - Random candidate programs have length uniform in 1..maxLength (1–6, 1–10), tokens i.i.d.
 *   uniform; targets have exactly the target length, tokens i.i.d. uniform, re-drawn until
 *   the constraints hold.
 * - A string that is not 1..maxLength tokens of the world is invalid on every input (gold 0).
 */
import type { Problem } from '../../datasets/problem.ts';
import { AnchorError } from '../../util/errors.ts';
import type { Rng } from '../../util/rng.ts';
import { ngramFeatureSet, strongFeatureSet, type FeatureSet } from './features.ts';
import { testBlock } from '../test-code.ts';
import type { DslProgram, DslTask, DslWorld, DslWorldName } from './types.ts';

/** One operation: its token, its in-process semantics and its compiled JavaScript statement. */
interface OpSpec {
  token: string;
  describe: string;
  /** In-process semantics. */
  apply: (v: number, x: number) => number;
  /**
   * The JavaScript statement the compiler emits. Written independently of `apply` (different
   * formulas for H, M, G) so the agreement test checks two implementations, not one twice.
   */
  js: string;
}

interface WorldSpec {
  name: DslWorldName;
  title: string;
  ops: OpSpec[];
  inputs: number[];
  limit: number;
  targetLength: number;
  maxLength: number;
  minDistinctExclusive: number;
  featureSets: FeatureSet[];
}

/** Python-style floor modulo. */
function floorMod(v: number, m: number): number {
  const r = v - m * Math.floor(v / m);
  return r === 0 ? 0 : r;
}

const A: OpSpec = { token: 'A', describe: 'v+1', apply: (v) => v + 1, js: 'v = v + 1;' };
const S: OpSpec = { token: 'S', describe: 'v-1', apply: (v) => v - 1, js: 'v = v - 1;' };
const D: OpSpec = { token: 'D', describe: 'v*2', apply: (v) => v * 2, js: 'v = v * 2;' };
const T: OpSpec = { token: 'T', describe: 'v*3', apply: (v) => v * 3, js: 'v = v * 3;' };
const H: OpSpec = {
  token: 'H',
  describe: 'v div 2, truncating toward zero',
  apply: (v) => Math.trunc(v / 2) || 0,
  js: 'v = (v - (v % 2)) / 2;',
};
const N: OpSpec = { token: 'N', describe: '-v', apply: (v) => (v === 0 ? 0 : -v), js: 'v = 0 - v;' };
const Q: OpSpec = { token: 'Q', describe: 'v^2', apply: (v) => v * v, js: 'v = v * v;' };
const P: OpSpec = { token: 'P', describe: 'v+x (x = the original input)', apply: (v, x) => v + x, js: 'v = v + x;' };
const M: OpSpec = {
  token: 'M',
  describe: 'v mod 7 (Python floor modulo, result in 0..6)',
  apply: (v) => floorMod(v, 7),
  js: 'v = ((v % 7) + 7) % 7;',
};
// biome-ignore lint/complexity/useMathMinMax: the ternary mirrors the `js` text the generated program runs
const G: OpSpec = { token: 'G', describe: 'max(v, 0)', apply: (v) => (v > 0 ? v : 0), js: 'v = v > 0 ? v : 0;' };

const range = (lo: number, hi: number): number[] => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);

const DSL6_TOKENS = ['A', 'S', 'D', 'T', 'N', 'Q'];
const RICH_TOKENS = ['A', 'S', 'D', 'T', 'H', 'N', 'Q', 'P', 'M', 'G'];

const DSL6_SPEC: WorldSpec = {
  name: 'dsl6',
  title: 'DSL-6',
  ops: [A, S, D, T, N, Q],
  inputs: range(-3, 4),
  limit: 1e6,
  targetLength: 4,
  maxLength: 6,
  minDistinctExclusive: 2,
  featureSets: [ngramFeatureSet('default', DSL6_TOKENS)],
};

const RICH_SPEC: WorldSpec = {
  name: 'richdsl',
  title: 'RichDSL',
  ops: [A, S, D, T, H, N, Q, P, M, G],
  inputs: range(-8, 7),
  limit: 1e9,
  targetLength: 6,
  maxLength: 10,
  minDistinctExclusive: 3,
  featureSets: [ngramFeatureSet('weak', RICH_TOKENS), strongFeatureSet('strong', RICH_TOKENS)],
};

/** Attempts before sampleTask gives up (the acceptance rates are far above 1/1000). */
const MAX_TASK_ATTEMPTS = 100_000;

function makeWorld(spec: WorldSpec): DslWorld {
  const tokens = spec.ops.map((o) => o.token);
  const applyByCode: ((v: number, x: number) => number)[] = [];
  for (const op of spec.ops) applyByCode[op.token.charCodeAt(0)] = op.apply;
  const limit = spec.limit;
  const featureSets = new Map(spec.featureSets.map((f) => [f.name, f]));
  const defaultSet = spec.featureSets[0]!.name;

  function featureSet(set: string | undefined): FeatureSet {
    const fs = featureSets.get(set ?? defaultSet);
    if (!fs) {
      throw new AnchorError(
        'BAD_ARGUMENT',
        `${spec.name} has no feature set "${set}" (have: ${[...featureSets.keys()].join(', ')})`,
      );
    }
    return fs;
  }

  function isProgram(program: string): boolean {
    if (program.length < 1 || program.length > spec.maxLength) return false;
    for (let i = 0; i < program.length; i++) if (!applyByCode[program.charCodeAt(i)]) return false;
    return true;
  }

  function run(program: DslProgram, x: number): number | null {
    if (!isProgram(program)) return null;
    let v = x;
    for (let i = 0; i < program.length; i++) {
      v = applyByCode[program.charCodeAt(i)]!(v, x);
      if (!(Math.abs(v) <= limit)) return null;
    }
    return v;
  }

  function outputs(program: DslProgram, inputs: readonly number[] = spec.inputs): (number | null)[] {
    return inputs.map((x) => run(program, x));
  }

  function evaluate(program: DslProgram, task: DslTask): number {
    if (task.inputs.length === 0) return 0;
    if (!isProgram(program)) return 0;
    let hits = 0;
    for (let i = 0; i < task.inputs.length; i++) {
      if (run(program, task.inputs[i]!) === task.outputs[i]) hits++;
    }
    return hits / task.inputs.length;
  }

  function randomOfLength(rng: Rng, length: number): DslProgram {
    let p = '';
    for (let i = 0; i < length; i++) p += tokens[rng.int(tokens.length)]!;
    return p;
  }

  function sampleTask(rng: Rng, id?: string): DslTask {
    for (let attempt = 0; attempt < MAX_TASK_ATTEMPTS; attempt++) {
      const target = randomOfLength(rng, spec.targetLength);
      const outs = outputs(target);
      if (outs.some((o) => o === null)) continue;
      if (new Set(outs).size <= spec.minDistinctExclusive) continue;
      return {
        id: id ?? `${spec.name}:${target}`,
        world: spec.name,
        target,
        inputs: [...spec.inputs],
        outputs: outs as number[],
      };
    }
    throw new AnchorError('INTERNAL', `${spec.name}: no valid task after ${MAX_TASK_ATTEMPTS} draws`);
  }

  function compileToJs(program: DslProgram, task: DslTask): string {
    const lines = [`// ${spec.title} program ${JSON.stringify(program)} compiled to JavaScript.`, 'function f(x) {'];
    if (!isProgram(program)) {
      lines.push('  return null;');
    } else {
      lines.push('  let v = x;');
      for (const ch of program) {
        const op = spec.ops.find((o) => o.token === ch)!;
        lines.push(`  ${op.js}`);
        lines.push(`  if (!(Math.abs(v) <= ${limit})) return null;`);
      }
      lines.push('  return v;');
    }
    lines.push('}', '', assertBlock('f', task));
    return lines.join('\n');
  }

  function interpreterJs(): string {
    const cases = spec.ops.map((o) => `      case '${o.token}': ${o.js} break;`).join('\n');
    return [
      'function run(program, x) {',
      `  if (typeof program !== 'string' || program.length < 1 || program.length > ${spec.maxLength}) return null;`,
      '  let v = x;',
      '  for (const t of program) {',
      '    switch (t) {',
      cases,
      '      default: return null;',
      '    }',
      `    if (!(Math.abs(v) <= ${limit})) return null;`,
      '  }',
      '  return v;',
      '}',
    ].join('\n');
  }

  function toProblem(task: DslTask, source = spec.name): Problem {
    const examples = task.inputs.map((x, i) => `// f(${x}) = ${task.outputs[i]}`).join('\n');
    // The completion lands inside a template literal. assembleProgram joins prompt+completion and
    // tests with one newline, which the literal absorbs and the tests strip again.
    const prompt =
      `// ${spec.title}: a program is 1-${spec.maxLength} tokens from ${tokens.join(' ')}, ` +
      `applied left to right to v = x.\n${examples}\nconst PROGRAM = \``;
    const tests = '`.slice(0, -1);\n' + `${interpreterJs()}\n\n${assertBlock('(x) => run(PROGRAM, x)', task)}`;
    return {
      id: task.id,
      language: 'javascript',
      prompt,
      tests,
      entryPoint: 'run',
      // The completion is a token string inside a template literal: cutting at backticks, `$`,
      // backslashes and newlines keeps any completion inside the literal and free of escapes.
      stopTokens: ['`', '$', '\\', '\n'],
      reference: task.target,
      source,
      meta: { world: spec.name, target: task.target, inputs: [...task.inputs], outputs: [...task.outputs] },
    };
  }

  return {
    name: spec.name,
    tokens,
    inputs: spec.inputs,
    limit,
    targetLength: spec.targetLength,
    maxLength: spec.maxLength,
    minDistinctExclusive: spec.minDistinctExclusive,
    featureSets: spec.featureSets.map((f) => f.name),
    isProgram,
    run,
    outputs,
    sampleTask,
    randomProgram: (rng) => randomOfLength(rng, 1 + rng.int(spec.maxLength)),
    evaluate,
    features: (program, set) => featureSet(set).extract(program),
    featureDim: (set) => featureSet(set).dim,
    featureNames: (set) => [...featureSet(set).names],
    compileToJs,
    toProblem,
  };
}

/** One independent assertion per I/O pair, so the sandbox's passed/total is the gold. */
function assertBlock(candidate: string, task: DslTask): string {
  return testBlock(
    candidate,
    task.inputs.map((x, i) => ({ input: String(x), output: String(task.outputs[i]) })),
    'independent',
  );
}

/** DSL-6: six operations, inputs −3..4, targets of length 4, |v| > 1e6 aborts. */
export const dsl6: DslWorld = makeWorld(DSL6_SPEC);
/** RichDSL: ten operations, inputs −8..7, targets of length 6, |v| > 1e9 is invalid. */
export const richdsl: DslWorld = makeWorld(RICH_SPEC);

/** The world of a name. */
export function getWorld(name: string): DslWorld {
  if (name === 'dsl6') return dsl6;
  if (name === 'richdsl') return richdsl;
  throw new AnchorError('NOT_FOUND', `unknown DSL world "${name}" (have: dsl6, richdsl)`);
}
