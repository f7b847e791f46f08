/**
 * `anchor-rl datasets inspect FILE [--format F] [--json]`: what a dataset file holds.
 */
import type { CommandModule } from 'yargs';
import type { CommandBody } from '../command-body.ts';
import { FORMAT_NAMES } from '../../datasets/format-names.ts';

interface InspectArgs {
  file: string;
  format?: string;
  json?: boolean;
  sample?: number;
}

const inspect: CommandModule<object, InspectArgs> = {
  command: 'inspect <file>',
  describe: 'Print count, language, fields and a sample problem of a dataset file',
  builder: (y) =>
    y
      .positional('file', {
        type: 'string',
        demandOption: true,
        describe: 'HumanEval/MBPP/sanitized-MBPP/MultiPL-E file (.jsonl, .jsonl.gz, .json)',
      })
      .option('format', { type: 'string', choices: FORMAT_NAMES, describe: 'Format (default: detected from the first record)' })
      .option('sample', { type: 'number', default: 0, describe: 'Index of the problem to show' })
      .option('json', { type: 'boolean', default: false, describe: 'Machine-readable output' }),
  handler: async (args) => {
    const { loadDataset } = await import('../../datasets/formats.ts');
    const ds = loadDataset(args.file, args.format);
    const languages = [...new Set(ds.problems.map((p) => p.language))];
    const withRef = ds.problems.filter((p) => p.reference !== undefined).length;
    const sample = ds.problems[Math.min(Math.max(0, args.sample ?? 0), ds.problems.length - 1)]!;
    const evaluationOnly = ds.problems.some((p) => p.meta?.evaluationOnly === true);
    if (args.json) {
      process.stdout.write(
        JSON.stringify(
          {
            file: ds.path,
            format: ds.format,
            count: ds.problems.length,
            languages,
            fields: ds.fields,
            withReference: withRef,
            evaluationOnly,
            sample,
          },
          null,
          2,
        ) + '\n',
      );
      return;
    }
    const out = [
      `file:       ${ds.path}`,
      `format:     ${ds.format}`,
      `problems:   ${ds.problems.length}`,
      `language:   ${languages.join(', ')}`,
      `fields:     ${ds.fields.join(', ')}`,
      `references: ${withRef} of ${ds.problems.length}`,
    ];
    if (evaluationOnly) out.push('licence:    MultiPL-E ports may be used to EVALUATE only, never as training data');
    out.push(
      '',
      `sample (${sample.id}, entry point ${sample.entryPoint ?? '?'}):`,
      indent('prompt', sample.prompt),
      indent('tests', sample.tests),
    );
    if (sample.reference !== undefined) out.push(indent('reference', sample.reference));
    process.stdout.write(out.join('\n') + '\n');
  },
};

function indent(label: string, text: string, maxLines = 15): string {
  const lines = text.replace(/\n$/, '').split('\n');
  const shown = lines.slice(0, maxLines).map((l) => `    | ${l}`);
  if (lines.length > maxLines) shown.push(`    | ... (${lines.length - maxLines} more lines)`);
  return `  ${label}:\n${shown.join('\n')}`;
}

/** `anchor-rl datasets <subcommand>`. */
export const datasetsCommand: CommandBody = {
  builder: (y) => y.command(inspect).demandCommand(1),
  handler: () => {},
};
