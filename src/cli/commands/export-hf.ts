/**
 * `anchor-rl export-hf RUN_DIR --arm ARM --out DIR [--step N] [--shard-mb MB]`: write an arm's
 * trained policy (a run over a Hugging Face model) as a Hugging Face directory with merged weights.
 */
import type { Argv } from 'yargs';
import type { CommandBody } from '../command-body.ts';
import { AnchorError } from '../../util/errors.ts';

interface ExportHfArgs {
  run: string;
  arm: string;
  out: string;
  step?: number;
  'shard-mb'?: number;
}

/** `anchor-rl export-hf`. */
export const exportHfCommand: CommandBody<object, ExportHfArgs> = {
  builder: (y) =>
    y
      .positional('run', { type: 'string', demandOption: true, describe: 'Run directory' })
      .option('arm', { type: 'string', demandOption: true, describe: 'Arm whose policy to export' })
      .option('out', { type: 'string', demandOption: true, describe: 'Output directory (must not exist or be empty)' })
      .option('step', { type: 'number', describe: 'Checkpoint step (default: the latest)' })
      .option('shard-mb', {
        type: 'number',
        describe: 'Split the safetensors into shards of at most this many MB (with an index)',
      }) as unknown as Argv<ExportHfArgs>,
  handler: async (args) => {
    const mb = args['shard-mb'];
    if (mb !== undefined && !(mb > 0)) throw new AnchorError('BAD_ARGUMENT', `--shard-mb must be positive, got ${mb}`);
    const { exportArmToHf } = await import('../../train/export-hf.ts'); // tfjs
    const r = await exportArmToHf(args.run, args.arm, args.out, {
      ...(args.step !== undefined ? { step: args.step } : {}),
      ...(mb ? { shardBytes: Math.floor(mb * 1e6) } : {}),
    });
    process.stdout.write(
      `exported ${r.arm} step ${r.step} (${r.lora ? 'LoRA adapters merged into' : 'fully fine-tuned'} ${r.base}) to ${r.out}\n`,
    );
  },
};
