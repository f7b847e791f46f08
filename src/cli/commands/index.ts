/**
 * The command registry: each subcommand's name, positionals and one-line description, and how
 * to load the module holding its options and handler. Only the invoked command's module is
 * imported (see ../main.ts), so `anchor-rl --help` loads none of them and `anchor-rl X --help`
 * loads X's alone. Add a command by adding an entry here.
 */
import { DEFAULT_ARMS } from '../../train/default-arms.ts';
import type { CommandBody } from '../command-body.ts';

/** One subcommand: what `--help` lists, and its module. */
export interface CommandEntry {
  /** yargs command string: the name, then positionals (`report <run>`). */
  command: string;
  describe: string;
  // Each command has its own argument type.
  load: () => Promise<CommandBody<any, any>>;
}

/** Every subcommand, in the order `--help` lists them. */
export const commands: readonly CommandEntry[] = [
  {
    command: 'train',
    describe: `Train every arm of a run config (${DEFAULT_ARMS.join(', ')} by default)`,
    load: async () => (await import('./train.ts')).trainCommand,
  },
  {
    command: 'resume <run>',
    describe: 'Continue the unfinished arms of a run from their last checkpoints',
    load: async () => (await import('./train.ts')).resumeCommand,
  },
  {
    command: 'sweep',
    describe:
      'Sweep over seeds: a grid of arm overlays (e.g. settlement rate × strategy), or a list of registry arms side by side',
    load: async () => (await import('./sweep.ts')).sweepCommand,
  },
  {
    command: 'eval',
    describe: 'pass@k of a policy on a dataset file or a task family (samples are executed in the sandbox)',
    load: async () => (await import('./eval.ts')).evalCommand,
  },
  {
    command: 'config <command>',
    describe: 'Work with run configs',
    load: async () => (await import('./config.ts')).configCommand,
  },
  {
    command: 'datasets <command>',
    describe: 'Published benchmarks by name (list, fetch into the cache) and what a dataset file holds (inspect)',
    load: async () => (await import('./datasets.ts')).datasetsCommand,
  },
  {
    command: 'validate-loop',
    describe: "Reproduce the gate's numerical validation (failure library, missing mass, grounded claims, memory)",
    load: async () => (await import('./validate-loop.ts')).validateLoopCommand,
  },
  {
    command: 'sandbox <command>',
    describe: 'Run untrusted JavaScript or Python programs against their tests in the isolated-vm sandbox',
    load: async () => (await import('./sandbox.ts')).sandboxCommand,
  },
  {
    command: 'worker',
    describe: 'Scale-out worker: run settlement batches (or whole arms with --role trainer) from a Redis queue',
    load: async () => (await import('./worker.ts')).workerCommand,
  },
  {
    command: 'pretrain',
    describe:
      'Supervised pretraining of the base policy on a task family (prints held-out loss and executed pass rate, writes a checkpoint)',
    load: async () => (await import('./pretrain.ts')).pretrainCommand,
  },
  {
    command: 'sample',
    describe: 'Sample completions from a policy checkpoint or an ONNX model directory',
    load: async () => (await import('./sample.ts')).sampleCommand,
  },
  {
    command: 'snd',
    describe: 'Soundness-under-Pressure (Snd@N curve and AUC) of the verifiers in a scored candidate pool',
    load: async () => (await import('./snd.ts')).sndCommand,
  },
  {
    command: 'experiment <command>',
    describe:
      'Reproduction experiments (goodhart, settlement-loop, exchange-rate, copula, adversary, settlement-scaling, resolution, strong-verifier) and the resolution probe of a run',
    load: async () => (await import('./experiment.ts')).experimentCommand,
  },
  {
    command: 'reproduce',
    describe: 'Run every reproduction experiment (resumable) and write the headline table and charts',
    load: async () => (await import('./reproduce.ts')).reproduceCommand,
  },
  {
    command: 'compare <runs..>',
    describe: 'Compare the arms of one run (or mean ± SE over several seeds of one config)',
    load: async () => (await import('./compare.ts')).compareCommand,
  },
  {
    command: 'report <run..>',
    describe: 'Write a self-contained HTML report of a run (charts, comparison, config, samples)',
    load: async () => (await import('./report.ts')).reportCommand,
  },
  {
    command: 'serve [dir]',
    describe: 'Watch runs live in a local web page: charts, progress and comparison update as the arms log',
    load: async () => (await import('./serve.ts')).serveCommand,
  },
  {
    command: 'audit <run>',
    describe: "Re-judge a run's recorded passes under the current sandbox harness (strict); exit 1 if any verdict changed",
    load: async () => (await import('./audit.ts')).auditCommand,
  },
  {
    command: 'gold-watch <completions>',
    describe: 'Judge a file of completions (a scripted policy) as one step of the gold watch: both verdicts, canaries',
    load: async () => (await import('./audit.ts')).goldWatchCommand,
  },
  {
    command: 'export-hf <run>',
    describe: "Export an arm's trained policy as a Hugging Face model directory (merged weights, safetensors)",
    load: async () => (await import('./export-hf.ts')).exportHfCommand,
  },
];

/** A command entry's name: the first word of its command string. */
export function commandName(entry: CommandEntry): string {
  return entry.command.split(' ')[0]!;
}
