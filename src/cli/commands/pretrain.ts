/**
 * `anchor-rl pretrain --config configs/pretrain.yaml [--set k=v ...] [--json]`: supervised
 * pretraining of the base policy on a task family's (prompt, reference) pairs; prints held-out
 * loss and executed pass rate and writes a checkpoint (config `output`).
 */
import type { Argv } from 'yargs';
import type { CommandBody } from '../command-body.ts';
import cliProgress from 'cli-progress';

interface PretrainArgs {
  config?: string;
  set?: string[];
  json: boolean;
  progress: boolean;
}

/** The `pretrain` subcommand. */
export const pretrainCommand: CommandBody<object, PretrainArgs> = {
  builder: (y) =>
    y
      .option('config', { type: 'string', describe: 'Pretraining YAML config (default: built-in defaults)' })
      .option('set', { type: 'string', array: true, describe: 'Override a config value: --set train.steps=200 (repeatable)' })
      .option('json', { type: 'boolean', default: false, describe: 'Print the result as JSON on stdout' })
      .option('progress', { type: 'boolean', default: true, describe: 'Show a progress bar on stderr' }) as Argv<PretrainArgs>,
  handler: async (args) => {
    // The config schema and the task families load here, not at import: `pretrain --help` stays light.
    const { loadConfig } = await import('../../config/load.ts');
    const { pretrainConfigSchema } = await import('../../train/pretrain/config.ts');
    const { generateProblems } = await import('../../tasks/index.ts');
    const cfg = loadConfig(pretrainConfigSchema, args.config, args.set ?? []);
    const gen = { seed: cfg.task.split_seed, ...cfg.task.options };
    const train = generateProblems(cfg.task.family, { ...gen, split: 'train', count: cfg.task.train });
    const held = generateProblems(cfg.task.family, { ...gen, split: 'eval', count: Math.max(cfg.task.eval, cfg.eval.problems) });
    const log = (m: string): void => {
      if (bar) bar.stop();
      process.stderr.write(m + '\n');
      if (bar) bar.start(barTotal, barValue, barPayload);
    };
    const showBar = args.progress && process.stderr.isTTY !== false;
    let bar: cliProgress.SingleBar | undefined;
    let barTotal = cfg.train.steps;
    let barValue = 0;
    let barPayload: Record<string, string> = { what: 'train', info: '' };
    if (showBar) {
      bar = new cliProgress.SingleBar(
        {
          stream: process.stderr,
          format: 'pretrain {what} [{bar}] {value}/{total} {info} eta {eta_formatted}',
          hideCursor: false,
        },
        cliProgress.Presets.shades_classic,
      );
    }
    // The trainer (tfjs) and the sandbox load here, not with the command list (`--help` stays fast).
    const { runPretrain } = await import('../../train/pretrain/pretrain.ts');
    const { createExecutorFromConfig } = await import('../../sandbox/index.ts');
    const executor = createExecutorFromConfig(cfg.sandbox);
    try {
      bar?.start(barTotal, 0, barPayload);
      const result = await runPretrain(cfg, {
        train,
        eval: held,
        executor,
        hooks: {
          log,
          onStep: (step, _total, info) => {
            barValue = step;
            barPayload = { what: 'train', info: `loss ${info.loss.toFixed(3)}` };
            bar?.update(step, barPayload);
          },
          onEvalStart: (what, total) => {
            barTotal = total;
            barValue = 0;
            barPayload = { what, info: '' };
            bar?.setTotal(total);
            bar?.update(0, barPayload);
          },
          onEvalProgress: (done) => {
            barValue = done;
            bar?.update(done);
          },
        },
      });
      bar?.stop();
      bar = undefined;
      const summary = {
        output: result.output,
        steps: result.steps,
        train_tokens_per_second: Math.round(result.trainTokensPerSecond),
        final_train_loss: result.finalTrainLoss,
        held_out_loss_before: result.heldOutLossBefore,
        held_out_loss: result.heldOutLoss,
        pass_rate: result.passRate,
        passed: result.passed,
        evaluated: result.evaluated,
        status_counts: result.statusCounts,
        seconds: Math.round(result.seconds * 10) / 10,
        samples: result.samples,
      };
      if (args.json) {
        process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
      } else {
        const lines = [
          `pretrain: ${cfg.task.family}, ${result.steps} steps x ${cfg.train.batch_size} in ${summary.seconds}s (${summary.train_tokens_per_second} train tok/s)`,
          `  held-out loss: ${result.heldOutLossBefore.toFixed(4)} -> ${result.heldOutLoss.toFixed(4)} nats/token`,
          `  executed pass rate on ${result.evaluated} held-out problems: ${result.passRate.toFixed(3)} (${result.passed}/${result.evaluated}; ${Object.entries(
            result.statusCounts,
          )
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')})`,
          `  checkpoint: ${result.output}`,
        ];
        process.stdout.write(lines.join('\n') + '\n');
      }
      result.model.dispose();
    } finally {
      bar?.stop();
      await executor.close();
    }
  },
};
