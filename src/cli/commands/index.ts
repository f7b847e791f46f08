/**
 * The command registry: one module per subcommand, each a yargs CommandModule.
 * Add a command by adding its module here.
 */
import type { CommandModule } from 'yargs';
import { resumeCommand, trainCommand } from './train.ts';
import { evalCommand } from './eval.ts';
import { configCommand } from './config.ts';
import { datasetsCommand } from './datasets.ts';
import { validateLoopCommand } from './validate-loop.ts';
import { sandboxCommand } from './sandbox.ts';
import { workerCommand } from './worker.ts';
import { pretrainCommand } from './pretrain.ts';
import { sampleCommand } from './sample.ts';
import { sndCommand } from './snd.ts';
import { experimentCommand } from './experiment.ts';
import { reproduceCommand } from './reproduce.ts';
import { compareCommand } from './compare.ts';
import { reportCommand } from './report.ts';
import { sweepCommand } from './sweep.ts';
import { serveCommand } from './serve.ts';
import { exportHfCommand } from './export-hf.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const commands: CommandModule<any, any>[] = [
  trainCommand,
  resumeCommand,
  sweepCommand,
  evalCommand,
  configCommand,
  datasetsCommand,
  validateLoopCommand,
  sandboxCommand,
  workerCommand,
  pretrainCommand,
  sampleCommand,
  sndCommand,
  experimentCommand,
  reproduceCommand,
  compareCommand,
  reportCommand,
  serveCommand,
  exportHfCommand,
];
