/**
 * `npm run bench:cli`: start-up time of `anchor-rl --help` and of every subcommand's `--help`,
 * through bin/anchor-rl.js as a user starts it, next to a bare `node -e 0` measured interleaved
 * (same machine load). In a checkout the shim runs dist/ while the build is fresh and the
 * sources through tsx otherwise; both are measured (the tsx flavour by running the sources'
 * main through tsx's loader, as the shim does). Target: every `--help` < 0.3 s wall.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { commandName, commands } from '../src/cli/commands/index.ts';
import { benchHeader, machineLoad, median, writeBenchSection } from './benchmarks-file.ts';

const root = new URL('..', import.meta.url).pathname;
const REPEATS = 7;
const TARGET_S = 0.3;

/** Wall seconds of one child process run. */
function time(args: string[]): number {
  const t0 = performance.now();
  const res = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  const s = (performance.now() - t0) / 1000;
  if (res.status !== 0) throw new Error(`${args.join(' ')} exited ${res.status}: ${res.stderr}`);
  return s;
}

// ---- which flavour the shim runs here ------------------------------------------------------
const build = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
if (build.status !== 0) throw new Error(`npm run build failed: ${build.stderr}`);
if (!existsSync(join(root, 'dist', 'build-stamp.json'))) throw new Error('no dist/build-stamp.json after the build');
const tsxMain = `const { register } = await import('tsx/esm/api'); register(); const { main } = await import('./src/cli/main.ts'); process.exitCode = await main(process.argv.slice(1));`;

// ---- measure, interleaved ------------------------------------------------------------------
const load0 = machineLoad();
const names = ['', ...commands.map(commandName)];
const rows = names.map((name) => ({ name, dist: [] as number[], tsx: [] as number[] }));
const bare: number[] = [];
for (let r = 0; r < REPEATS; r++) {
  bare.push(time(['-e', '0']));
  for (const row of rows) {
    const argv = [...(row.name ? [row.name] : []), '--help'];
    row.dist.push(time([join(root, 'bin', 'anchor-rl.js'), ...argv]));
    row.tsx.push(time(['--input-type=module', '-e', tsxMain, '--', ...argv]));
  }
}
const load1 = machineLoad();

// ---- write ---------------------------------------------------------------------------------
const fmt = (s: number): string => `${s.toFixed(3)} s`;
const slowest = rows.reduce((a, b) => (median(b.dist) > median(a.dist) ? b : a));
const table = [
  '| command | `anchor-rl … --help` (fresh build: dist/) | through tsx (checkout with edits) |',
  '|---|---:|---:|',
  ...rows.map((r) => `| ${r.name || '(top level)'} | ${fmt(median(r.dist))} | ${fmt(median(r.tsx))} |`),
  `| baseline: \`node -e 0\` | ${fmt(median(bare))} | |`,
];
const verdict =
  median(slowest.dist) < TARGET_S
    ? `Every \`--help\` starts in < ${TARGET_S} s from a fresh build (slowest: ${slowest.name || 'top level'}, ${fmt(median(slowest.dist))}).`
    : `Target missed: the slowest \`--help\` (${slowest.name || 'top level'}) takes ${fmt(median(slowest.dist))} ≥ ${TARGET_S} s.`;
writeBenchSection(
  join(root, 'BENCHMARKS.md'),
  'CLI start-up',
  [
    '## CLI start-up',
    '',
    benchHeader('npm run bench:cli', 'bench/cli-bench.ts', load0, load1),
    `Wall time of \`node bin/anchor-rl.js [COMMAND] --help\`, median of ${REPEATS} runs, interleaved with a bare \`node -e 0\` so all see the same load. The first column is what users run (the installed package, or a checkout whose build is fresh); the second is a checkout with edits since its build, where the shim runs the sources through tsx.`,
    '',
    ...table,
    '',
    verdict,
  ].join('\n'),
);
process.stdout.write(`${table.join('\n')}\n${verdict}\n`);
