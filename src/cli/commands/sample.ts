/**
 * `anchor-rl sample (--checkpoint DIR | --onnx DIR) --prompt TEXT [--n N] [--max-new-tokens N]
 * [--temperature T] [--top-p P] [--top-k K] [--seed S] [--stop STR ...] [--json]`: sample
 * completions from a native policy checkpoint (exported to ONNX in memory) or a bring-your-own
 * ONNX export, through the ONNX Runtime rollout engine.
 */
import type { Argv } from 'yargs';
import type { CommandBody } from '../command-body.ts';
import { AnchorError } from '../../util/errors.ts';
import type { Completion, RolloutEngine } from '../../policy/engine/types.ts';

interface SampleArgs {
  checkpoint?: string;
  onnx?: string;
  prompt: string;
  n: number;
  'max-new-tokens': number;
  temperature: number;
  'top-p': number;
  'top-k': number;
  seed: number;
  stop?: string[];
  json: boolean;
}

/** The JSON document `sample --json` prints. */
export interface SampleReport {
  model: { kind: 'checkpoint' | 'onnx'; path: string };
  prompt: string;
  options: { n: number; maxNewTokens: number; temperature: number; topP: number; topK: number; seed: number; stop: string[] };
  samples: Array<Pick<Completion, 'text' | 'tokenIds' | 'logprobs' | 'finishReason'> & { index: number }>;
}

/** Run the command; returns the report (also printed). */
export async function runSample(
  args: SampleArgs,
  out: (s: string) => void = (s) => process.stdout.write(s),
): Promise<SampleReport> {
  if (!args.checkpoint === !args.onnx)
    throw new AnchorError('BAD_ARGUMENT', 'give exactly one of --checkpoint DIR or --onnx DIR');
  if (!Number.isInteger(args.n) || args.n < 1)
    throw new AnchorError('BAD_ARGUMENT', `--n must be an integer >= 1, got ${args.n}`);
  let engine: RolloutEngine;
  let kind: 'checkpoint' | 'onnx';
  let path: string;
  if (args.checkpoint) {
    kind = 'checkpoint';
    path = args.checkpoint;
    // tfjs and ONNX Runtime load here, not with the command list (`--help` stays fast).
    const ckpt = (await import('../../policy/checkpoint.ts')).loadCheckpoint(path);
    const { OnnxRolloutEngine } = await import('../../policy/engine/rollout-engine.ts');
    engine = await OnnxRolloutEngine.fromWeights(ckpt.config, ckpt.weights, {
      tokenizer: ckpt.tokenizer,
      eosTokenId: ckpt.tokenizer.eosId,
      padTokenId: ckpt.tokenizer.padId,
    });
  } else {
    kind = 'onnx';
    path = args.onnx!;
    engine = (await (await import('../../policy/engine/load-onnx-model.ts')).loadOnnxModel(path)).engine;
  }
  try {
    const options = {
      n: args.n,
      maxNewTokens: args['max-new-tokens'],
      temperature: args.temperature,
      topP: args['top-p'],
      topK: args['top-k'],
      seed: args.seed,
      stop: args.stop ?? [],
    };
    const completions = await engine.generate(
      Array.from({ length: args.n }, () => args.prompt),
      {
        maxNewTokens: options.maxNewTokens,
        temperature: options.temperature,
        topP: options.topP,
        topK: options.topK,
        seed: options.seed,
        stop: options.stop,
      },
    );
    const report: SampleReport = {
      model: { kind, path },
      prompt: args.prompt,
      options,
      samples: completions.map((c, index) => ({
        index,
        text: c.text,
        tokenIds: c.tokenIds,
        logprobs: c.logprobs,
        finishReason: c.finishReason,
      })),
    };
    if (args.json) {
      out(JSON.stringify(report) + '\n');
    } else {
      for (const s of report.samples) {
        const lp = s.logprobs.reduce((a, x) => a + x, 0);
        out(`--- sample ${s.index + 1}/${args.n} (${s.finishReason}, ${s.tokenIds.length} tokens, log-prob ${lp.toFixed(2)})\n`);
        out(`${args.prompt}${s.text}\n`);
      }
    }
    return report;
  } finally {
    await engine.release();
  }
}

export const sampleCommand: CommandBody<object, SampleArgs> = {
  builder: (y: Argv<object>) =>
    y
      .option('checkpoint', { type: 'string', describe: 'native policy checkpoint directory' })
      .option('onnx', {
        type: 'string',
        describe: 'ONNX export directory (model + tokenizer.json; optimum or genai_config.json naming)',
      })
      .option('prompt', { type: 'string', demandOption: true, describe: 'prompt text' })
      .option('n', { type: 'number', default: 1, describe: 'number of samples' })
      .option('max-new-tokens', { type: 'number', default: 64, describe: 'maximum generated tokens per sample' })
      .option('temperature', { type: 'number', default: 1, describe: 'sampling temperature (0 = greedy)' })
      .option('top-p', { type: 'number', default: 1, describe: 'nucleus sampling mass (1 = off)' })
      .option('top-k', { type: 'number', default: 0, describe: 'keep the k most likely tokens (0 = off)' })
      .option('seed', { type: 'number', default: 0, describe: 'random seed' })
      .option('stop', { type: 'string', array: true, describe: 'stop string(s): end a sample when its text contains one' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON document' }) as unknown as Argv<SampleArgs>,
  handler: async (args) => {
    await runSample(args);
  },
};
