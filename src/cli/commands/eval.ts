/**
 * `anchor-rl eval (--checkpoint DIR | --onnx DIR) --dataset FILE|FAMILY [--n 10] [--k 1,5,10]
 * [--temperature T] [--out results.jsonl]`: sample n completions per problem, execute them,
 * and report pass@k with the unbiased estimator.
 */
import { writeFileSync } from 'node:fs';
import type { CommandBody } from '../command-body.ts';
import type { Problem } from '../../datasets/problem.ts';
import type { RolloutEngine } from '../../policy/engine/types.ts';
import { FAMILY_NAMES } from '../../tasks/family-names.ts';
import { AnchorError } from '../../util/errors.ts';
import { Rng } from '../../util/rng.ts';

interface EvalArgs {
  checkpoint?: string;
  onnx?: string;
  dataset: string;
  n: number;
  k: string;
  temperature: number;
  'max-new-tokens': number;
  limit?: number;
  seed: number;
  out?: string;
  json: boolean;
  workers: number;
  verdict: 'parity' | 'strict';
}

async function openEngine(args: EvalArgs): Promise<RolloutEngine> {
  if (!args.checkpoint === !args.onnx)
    throw new AnchorError('BAD_ARGUMENT', 'give exactly one of --checkpoint DIR or --onnx DIR');
  // ONNX Runtime and tfjs load here, not with the command list (`--help` stays fast).
  if (args.onnx) return (await (await import('../../policy/engine/load-onnx-model.ts')).loadOnnxModel(args.onnx)).engine;
  const ck = (await import('../../policy/checkpoint.ts')).loadCheckpoint(args.checkpoint!);
  const { OnnxRolloutEngine } = await import('../../policy/engine/rollout-engine.ts');
  return OnnxRolloutEngine.fromWeights(ck.config, ck.weights, {
    tokenizer: ck.tokenizer,
    eosTokenId: ck.tokenizer.eosId,
    padTokenId: ck.tokenizer.padId,
  });
}

async function problemsOf(args: EvalArgs): Promise<Problem[]> {
  const { generateProblems } = await import('../../tasks/index.ts');
  const { loadDataset } = await import('../../datasets/formats.ts');
  if ((FAMILY_NAMES as readonly string[]).includes(args.dataset))
    return generateProblems(args.dataset, { split: 'eval', count: args.limit ?? 100, seed: 1 });
  const ps = loadDataset(args.dataset).problems;
  return args.limit ? ps.slice(0, args.limit) : ps;
}

/** `anchor-rl eval`. */
export const evalCommand: CommandBody<object, EvalArgs> = {
  builder: (y) =>
    y
      .option('checkpoint', { type: 'string', describe: 'Native policy checkpoint directory' })
      .option('onnx', { type: 'string', describe: 'Bring-your-own ONNX export directory' })
      .option('dataset', {
        type: 'string',
        demandOption: true,
        describe: `Dataset file (HumanEval/MBPP/MultiPL-E) or a family (${FAMILY_NAMES.join(', ')})`,
      })
      .option('n', { type: 'number', default: 10, describe: 'Samples per problem' })
      .option('k', { type: 'string', default: '1,5,10', describe: 'Comma-separated k values (each <= n)' })
      .option('temperature', { type: 'number', default: 0.8 })
      .option('max-new-tokens', { type: 'number', default: 128 })
      .option('limit', { type: 'number', describe: 'Only the first N problems (families: how many to generate, default 100)' })
      .option('seed', { type: 'number', default: 0 })
      .option('workers', { type: 'number', default: 2, describe: 'Sandbox worker processes' })
      .option('verdict', {
        choices: ['parity', 'strict'] as const,
        default: 'parity' as const,
        describe:
          "Comparison semantics: 'parity' = the published harnesses' (loose equality), 'strict' = exact types (training's)",
      })
      .option('out', { type: 'string', describe: 'Per-problem results JSONL' })
      .option('json', { type: 'boolean', default: false }),
  handler: async (args) => {
    const ks = args.k.split(',').map((s) => Number(s.trim()));
    if (ks.some((k) => !Number.isInteger(k) || k < 1 || k > args.n))
      throw new AnchorError('BAD_ARGUMENT', `--k ${args.k}: every k must be an integer in [1, n=${args.n}]`);
    const problems = await problemsOf(args);
    // The sandbox, the verdict and the estimator load here, not at import: `eval --help` stays light.
    const { problemProgram } = await import('../../sandbox/programs.ts');
    const { goldOf } = await import('../../train/gold.ts');
    const { meanPassAtK } = await import('../../eval/pass-at-k.ts');
    const { createExecutorFromConfig, sandboxConfigSchema } = await import('../../sandbox/index.ts');
    // The sandbox section's defaults (time, memory and output limits; n samples of a prompt often
    // repeat a completion, and a repeat's verdict is a copy: src/sandbox/dedupe.ts), with the
    // command's workers and verdict.
    const { parseConfig } = await import('../../config/validate.ts');
    const sandbox = parseConfig(
      sandboxConfigSchema,
      { workers: args.workers, verdict: args.verdict },
      'eval --workers/--verdict',
    );
    const engine = await openEngine(args);
    const executor = createExecutorFromConfig(sandbox, args.seed);
    const rng = new Rng(args.seed).fork('eval');
    const rows: { id: string; n: number; c: number; meanGold: number; statuses: Record<string, number> }[] = [];
    try {
      for (const p of problems) {
        const cs = await engine.generate(Array(args.n).fill(p.prompt), {
          temperature: args.temperature,
          maxNewTokens: args['max-new-tokens'],
          stop: p.stopTokens,
          rng,
        });
        const rs = await executor.run(cs.map((c, i) => problemProgram(p, c.text, `${p.id}#${i}`)));
        const statuses: Record<string, number> = {};
        for (const r of rs) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        rows.push({
          id: p.id,
          n: args.n,
          c: rs.filter((r) => r.status === 'pass').length,
          meanGold: rs.reduce((a, r) => a + goldOf(r, p), 0) / rs.length,
          statuses,
        });
      }
    } finally {
      await executor.close();
      await engine.release();
    }
    const summary = Object.fromEntries(ks.map((k) => [`pass@${k}`, meanPassAtK(rows, k)]));
    if (args.out) writeFileSync(args.out, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    if (args.json) {
      process.stdout.write(
        JSON.stringify({ dataset: args.dataset, problems: rows.length, n: args.n, ...summary }, null, 2) + '\n',
      );
    } else {
      process.stdout.write(`${rows.length} problems, n=${args.n}, temperature ${args.temperature}\n`);
      for (const [k, v] of Object.entries(summary)) process.stdout.write(`  ${k.padEnd(8)} ${(v * 100).toFixed(2)}%\n`);
    }
  },
};
