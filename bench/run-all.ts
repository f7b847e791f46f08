/**
 * `npm run bench`: every bench, one after the other, each through its own `npm run bench:*`
 * script (so the node flags live in package.json only). Each rewrites its own section of
 * BENCHMARKS.md; this writes the "## Run" section on top: when, the machine's load before and
 * after, and which benches ran. A failing bench is reported and the others still run.
 *
 * Env: BENCH_ONLY=policy,step runs a subset; the sub-benches' own variables (BENCH_QUICK,
 * BENCH_STEPS, ...) pass through.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchHeader, machineLoad, writeBenchSection } from './benchmarks-file.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The benches in run order: script, BENCHMARKS.md section(s) it writes. */
const BENCHES: [script: string, sections: string][] = [
  ['bench:sandbox', 'Sandbox, Sandbox (Python)'],
  ['bench:policy', 'Policy'],
  ['bench:queue', 'Queue'],
  ['bench:step', 'Step profile'],
  ['bench:rm', 'Transformer reward model'],
  ['bench:hf', 'Hugging Face policies'],
  ['bench:cli', 'CLI start-up'],
];

function main(): void {
  const only = process.env.BENCH_ONLY?.split(',').map((s) => `bench:${s.trim()}`);
  const loadBefore = machineLoad();
  const started = Date.now();
  const results: string[] = [];
  for (const [script, sections] of BENCHES) {
    if (only && !only.includes(script)) continue;
    process.stderr.write(`\n=== npm run ${script} (load ${machineLoad()}) ===\n`);
    const t0 = Date.now();
    const r = spawnSync('npm', ['run', '--silent', script], { cwd: repoRoot, stdio: 'inherit', env: process.env });
    const s = ((Date.now() - t0) / 1000).toFixed(0);
    results.push(
      r.status === 0
        ? `- \`${script}\`: ${s} s → ${sections}`
        : `- \`${script}\`: FAILED (exit ${r.status ?? r.signal}) after ${s} s; its section below is from an earlier run`,
    );
  }
  const section = [
    '## Run',
    '',
    benchHeader('npm run bench', 'bench/run-all.ts', loadBefore, machineLoad()),
    `Total ${((Date.now() - started) / 60000).toFixed(1)} min. Each section below states its own load and repeats; ratios measured side by side within one bench are what compare across machines and runs.`,
    '',
    ...results,
  ].join('\n');
  writeBenchSection(path.join(repoRoot, 'BENCHMARKS.md'), 'Run', section, { first: true });
  process.stderr.write(`\n${section}\n`);
  if (results.some((l) => l.includes('FAILED'))) process.exitCode = 1;
}

main();
