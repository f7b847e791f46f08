/**
 * `anchor-rl datasets inspect FILE|NAME [--format F] [--json]`: what a dataset holds;
 * `anchor-rl datasets list`: the published datasets a config may name, and whether each is cached;
 * `anchor-rl datasets fetch NAME [--url U] [--force]`: download one into the cache, verified.
 */
import cliProgress from 'cli-progress';
import type { CommandModule } from 'yargs';
import type { CommandBody } from '../command-body.ts';
import { DATASETS, DATASET_NAMES, type DatasetName, datasetCacheDir } from '../../datasets/catalog.ts';
import { FORMAT_NAMES } from '../../datasets/format-names.ts';

interface InspectArgs {
  file: string;
  format?: string;
  json?: boolean;
  sample?: number;
}

const inspect: CommandModule<object, InspectArgs> = {
  command: 'inspect <file>',
  describe: 'Print count, language, fields and a sample problem of a dataset file (or a fetched dataset by name)',
  builder: (y) =>
    y
      .positional('file', {
        type: 'string',
        demandOption: true,
        describe: `HumanEval/MBPP/sanitized-MBPP/MultiPL-E file (.jsonl, .jsonl.gz, .json), or a dataset name (${DATASET_NAMES.join(', ')})`,
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

const list: CommandModule<object, { json?: boolean }> = {
  command: 'list',
  describe: 'The published datasets a config may name (task.dataset: NAME), their sources and whether each is cached',
  builder: (y) => y.option('json', { type: 'boolean', default: false, describe: 'Machine-readable output' }),
  handler: async (args) => {
    const { existsSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = datasetCacheDir();
    const rows = DATASET_NAMES.map((name) => {
      const d = DATASETS[name];
      return { name, ...d, cached: existsSync(join(dir, d.file)) };
    });
    if (args.json) return void process.stdout.write(JSON.stringify({ cache: dir, datasets: rows }, null, 2) + '\n');
    const out = [`cache: ${dir} (set ANCHOR_RL_DATASETS to use another directory)`, ''];
    for (const r of rows)
      out.push(
        `${r.name.padEnd(18)} ${r.cached ? 'cached ' : 'missing'}  ${r.about}; ${r.licence}`,
        `${''.padEnd(18)} ${r.url}`,
        `${''.padEnd(18)} sha256 ${r.sha256}, ${r.bytes.toLocaleString('en')} bytes`,
      );
    out.push('', 'fetch one with: anchor-rl datasets fetch NAME');
    process.stdout.write(out.join('\n') + '\n');
  },
};

interface FetchArgs {
  name: string;
  url?: string;
  force?: boolean;
}

const fetchCmd: CommandModule<object, FetchArgs> = {
  command: 'fetch <name>',
  describe: "Download a published dataset from its publisher's pinned location into the cache, checked against its SHA-256",
  builder: (y) =>
    y
      .positional('name', { type: 'string', demandOption: true, choices: DATASET_NAMES, describe: 'Dataset name' })
      .option('url', { type: 'string', describe: 'Download from this mirror instead (the pinned SHA-256 still applies)' })
      .option('force', { type: 'boolean', default: false, describe: 'Download again even when a verified copy is cached' }),
  handler: async (args) => {
    const { fetchDataset } = await import('../../datasets/fetch.ts');
    const name = args.name as DatasetName;
    const d = DATASETS[name];
    process.stderr.write(`fetching ${name} (${d.bytes.toLocaleString('en')} bytes, ${d.licence}) from ${args.url ?? d.url}\n`);
    const bar = process.stderr.isTTY
      ? new cliProgress.SingleBar(
          { format: `${name} |{bar}| {percentage}% {value}/{total} bytes`, stream: process.stderr, hideCursor: true },
          cliProgress.Presets.shades_classic,
        )
      : undefined;
    // Off a terminal: a line at each quarter, so logs show the download moving without a bar's redraws.
    let quarter = 0;
    const r = await fetchDataset(name, {
      ...(args.url ? { url: args.url } : {}),
      ...(args.force ? { force: true } : {}),
      onProgress: (received, total) => {
        const of = total ?? d.bytes;
        if (bar) {
          if (received === 0) bar.start(of, 0);
          else bar.update(received);
          return;
        }
        while (received >= ((quarter + 1) * of) / 4 && quarter < 4) {
          quarter++;
          process.stderr.write(`${name}: ${quarter * 25}% (${received.toLocaleString('en')}/${of.toLocaleString('en')} bytes)\n`);
        }
      },
    }).finally(() => bar?.stop());
    process.stdout.write(
      r.cached
        ? `${name}: already cached and verified: ${r.file}\n`
        : `${name}: ${r.bytes.toLocaleString('en')} bytes, sha256 verified: ${r.file}\n`,
    );
  },
};

/** `anchor-rl datasets <subcommand>`. */
export const datasetsCommand: CommandBody = {
  builder: (y) => y.command(inspect).command(list).command(fetchCmd).demandCommand(1),
  handler: () => {},
};
