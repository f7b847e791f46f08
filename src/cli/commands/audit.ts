/**
 * `anchor-rl audit RUN [--arm A ...] [--json]`: re-execute a run's recorded passes under the
 * current sandbox harness in strict mode and list every verdict that changed (exit 1 when any
 * did). `anchor-rl gold-watch COMPLETIONS.jsonl [--config] [--set]`: judge a file of completions
 * (a scripted policy) as one training step of the gold watch. docs/gold-watch.md.
 */
import { readFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import type { CommandBody } from '../command-body.ts';
import { AnchorError } from '../../util/errors.ts';
import { formatTable } from '../../util/table.ts';
import { type ConfigArgs, configOptions } from '../options.ts';

interface AuditArgs {
  run: string;
  arm: string[];
  json: boolean;
}

/** `anchor-rl audit`. */
export const auditCommand: CommandBody<object, AuditArgs> = {
  builder: (y) =>
    y
      .positional('run', { type: 'string', demandOption: true, describe: 'Run directory (runs/NAME)' })
      .option('arm', { type: 'string', array: true, default: [] as string[], describe: 'Only these arms (default: all)' })
      .option('json', { type: 'boolean', default: false, describe: 'Print the audit as JSON' }) as unknown as Argv<AuditArgs>,
  handler: async (args) => {
    const { auditRun } = await import('../../train/audit.ts');
    const report = await auditRun(args.run, { arms: args.arm });
    const total = Object.values(report.rejudged).reduce((a, n) => a + n, 0);
    if (args.json) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
    else {
      const recorded = report.recordedHarnesses.length ? report.recordedHarnesses.join(', ') : 'not stamped';
      process.stdout.write(`harness now ${report.harness}; recorded under ${recorded}\n`);
      if (report.changed.length)
        process.stdout.write(
          formatTable(
            ['arm', 'step', 'index', 'problem', 'tests', 'recorded', 'strict now'],
            report.changed.map((c) => [
              c.arm,
              String(c.step),
              String(c.index),
              c.problem,
              c.tests,
              `${c.recorded.verdict}:${c.recorded.status}`,
              c.now,
            ]),
          ) + '\n',
        );
      const perArm = Object.entries(report.rejudged)
        .map(([a, n]) => `${a} ${n}${report.skipped[a] ? ` (${report.skipped[a]} skipped)` : ''}`)
        .join(', ');
      process.stdout.write(`${report.changed.length} of ${total} recorded passes changed verdict (${perArm})\n`);
    }
    if (report.changed.length > 0) process.exitCode = 1;
  },
};

interface GoldWatchArgs extends ConfigArgs {
  completions: string;
  json: boolean;
}

/** One line of a completions file: a training problem's id and the completion of its prompt. */
interface CompletionLine {
  problem: string;
  completion: string;
}

/** `anchor-rl gold-watch`. */
export const goldWatchCommand: CommandBody<object, GoldWatchArgs> = {
  builder: (y) =>
    configOptions(
      y
        .positional('completions', {
          type: 'string',
          demandOption: true,
          describe: 'JSONL of {"problem": ID, "completion": TEXT} lines (training problems of the config\'s task)',
        })
        .option('json', { type: 'boolean', default: false, describe: 'Print metrics and per-line fields as JSON' }),
    ) as unknown as Argv<GoldWatchArgs>,
  handler: async (args) => {
    const { loadRunConfig } = await import('../../train/run-config.ts');
    const { loadProblems } = await import('../../train/assets.ts');
    const { watchCompletions } = await import('../../train/gold-watch.ts');
    const config = loadRunConfig(args.config, args.set);
    const byId = new Map(loadProblems(config).train.map((p) => [p.id, p]));
    let text: string;
    try {
      text = readFileSync(args.completions, 'utf8');
    } catch (err) {
      throw new AnchorError('BAD_ARGUMENT', `${args.completions}: unreadable (${(err as Error).message})`);
    }
    const lines = text
      .split('\n')
      .map((l, i) => [l, i + 1] as const)
      .filter(([l]) => l.trim());
    const parsed = lines.map(([l, n]) => {
      let v: Partial<CompletionLine>;
      try {
        v = JSON.parse(l);
      } catch {
        throw new AnchorError('BAD_ARGUMENT', `${args.completions}:${n}: not JSON`);
      }
      const problem = typeof v.problem === 'string' ? byId.get(v.problem) : undefined;
      if (!problem || typeof v.completion !== 'string')
        throw new AnchorError(
          'BAD_ARGUMENT',
          `${args.completions}:${n}: needs "problem" (a training problem id of the config's task) and "completion"`,
        );
      return { problem, completion: v.completion };
    });
    const out = await watchCompletions(
      config,
      parsed.map((p) => p.problem),
      parsed.map((p) => p.completion),
    );
    if (args.json) process.stdout.write(JSON.stringify(out, null, 2) + '\n');
    else
      process.stdout.write(
        formatTable(
          ['metric', 'value'],
          Object.entries(out.metrics).map(([k, v]) => [k, v === null ? 'n/a' : String(+v.toFixed(4))]),
        ) + '\n',
      );
  },
};
