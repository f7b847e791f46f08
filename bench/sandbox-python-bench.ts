/**
 * `npm run bench:sandbox` (second part): Python sandbox throughput on the 164 HumanEval canonical
 * solutions (prompt + canonical_solution, tests + check(entry_point)) against the conventional
 * harness — one real `python3` process per program — at the same concurrency, interleaved in one
 * run so both see the same machine load. Every Python program runs on a pristine interpreter
 * (the wasm heap is restored after each one). Writes the "## Sandbox (Python)" section of
 * BENCHMARKS.md.
 *
 * Needs ../shared/datasets/HumanEval.jsonl (skips with a message when absent).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDataset } from '../src/datasets/formats.ts';
import { createExecutor, type ProgramSpec } from '../src/sandbox/index.ts';
import { median, writeBenchSection } from './benchmarks-file.ts';
import { baselineRun, realPython } from './python-baseline.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const datasets = path.resolve(repoRoot, '../shared/datasets');
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const ROUNDS = 2; // passes over the 164 programs per executor repeat

function fmt(x: number, d = 0): string {
  return x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
}

async function main(): Promise<void> {
  const file = path.join(datasets, 'HumanEval.jsonl');
  if (!existsSync(file)) {
    console.warn(`[skip] python sandbox bench: ${file} is absent (the benchmark needs ../shared/datasets)`);
    return;
  }
  const python = realPython();
  const problems = loadDataset(file).problems;
  const specs: ProgramSpec[] = problems.map((p) => ({
    id: p.id,
    language: 'python',
    code: p.prompt + (p.reference ?? ''),
    tests: p.tests,
  }));
  const load0 = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

  const ex = createExecutor({ workers: WORKERS, timeoutMs: 10_000, memoryMb: 64 });
  const dir = mkdtempSync(path.join(tmpdir(), 'anchor-pybench-'));
  try {
    const tBoot = performance.now();
    await ex.run(specs.slice(0, WORKERS * 2)); // spawn the workers and boot Pyodide in each
    const bootS = (performance.now() - tBoot) / 1000;
    process.stderr.write(`python workers booted in ${fmt(bootS, 1)} s\n`);

    const rates: number[] = [];
    const baseRates: number[] = [];
    const ratios: number[] = [];
    const ms: number[] = [];
    let statuses: string[] = [];
    let basePassed: boolean[] = [];
    for (let rep = 0; rep < REPEATS; rep++) {
      const batch = Array.from({ length: ROUNDS }, () => specs).flat();
      const t0 = performance.now();
      const rs = await ex.run(batch);
      const rate = batch.length / ((performance.now() - t0) / 1000);
      rates.push(rate);
      statuses = rs.slice(0, specs.length).map((r) => r.status);
      for (const r of rs) ms.push(r.ms);
      process.stderr.write(
        `python sandbox repeat ${rep + 1}: ${fmt(rate, 1)} programs/s (${rs.filter((r) => r.status === 'pass').length}/${rs.length} pass)\n`,
      );
      if (python) {
        const b = await baselineRun(python, specs, dir, WORKERS);
        baseRates.push(b.rate);
        basePassed = b.passed;
        ratios.push(rate / b.rate);
        process.stderr.write(
          `python3 per process repeat ${rep + 1}: ${fmt(b.rate, 1)} programs/s (${b.passed.filter(Boolean).length}/${specs.length} pass)\n`,
        );
      }
    }
    const passCount = statuses.filter((s) => s === 'pass').length;
    const agree = python ? specs.filter((_, i) => (statuses[i] === 'pass') === basePassed[i]).length : 0;
    const load1 = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    const rate = median(rates);
    const base = python ? median(baseRates) : NaN;
    const ratio = python ? median(ratios) : NaN;
    const lines = [
      '## Sandbox (Python)',
      '',
      `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:sandbox\` (bench/sandbox-python-bench.ts), ${WORKERS} workers, ` +
        `${REPEATS} interleaved repeats (median), load average ${load0} → ${load1} (machine shared with other jobs: figures are noisy; the ratio is measured side by side).`,
      '',
      '| metric | value |',
      '|---|---|',
      `| programs | 164 HumanEval canonical solutions (prompt + canonical_solution; test + check(entry_point)), ${ROUNDS} passes per repeat |`,
      `| Python sandbox (Pyodide in isolated-vm, pristine heap per program) | **${fmt(rate, 1)} programs/s** (repeats: ${rates.map((r) => fmt(r, 1)).join(', ')}) |`,
      `| baseline: one \`${python ?? 'python3'}\` process per program | ${python ? `${fmt(base, 1)} programs/s (repeats: ${baseRates.map((r) => fmt(r, 1)).join(', ')})` : 'python3 not found'} |`,
      `| ratio (median of per-repeat ratios) | **${python ? fmt(ratio, 2) : 'n/a'}×** (target ≥ 3×: ${python ? (ratio >= 3 ? 'met' : 'NOT met') : 'n/a'}) |`,
      `| canonical solutions passing | ${passCount}/164 in the sandbox${python ? `, ${basePassed.filter(Boolean).length}/164 with python3; verdicts agree on ${agree}/164` : ''} |`,
      `| per-program time in the worker (median / p90) | ${fmt(median(ms), 2)} ms / ${fmt([...ms].sort((a, b) => a - b)[Math.floor(ms.length * 0.9)] ?? NaN, 2)} ms |`,
      `| worker start (spawn + Pyodide boot + pristine image), both workers in parallel | ${fmt(bootS, 1)} s |`,
      '',
      'Pristine-per-program is kept: after every program the whole wasm linear memory is restored from the image taken after boot (~27 MB copy), ' +
        'so the throughput above includes that restore. A runtime is rebooted only after a timeout inside a JS import, a JS-bridge attempt, a filesystem write, ' +
        'os._exit or large heap growth (seconds per reboot at this load; a busy loop stopped inside wasm is recovered in place).',
      '',
    ];
    writeBenchSection(path.join(repoRoot, 'BENCHMARKS.md'), 'Sandbox (Python)', lines.join('\n'));
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    await ex.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
