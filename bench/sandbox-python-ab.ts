/**
 * Python sandbox, this checkout against another one, side by side: the workload of
 * `bench:sandbox`'s Python part (the 164 HumanEval canonical solutions, 2 passes per repeat,
 * 2 workers), both executors alive in one process and their repeats alternated so both see the
 * same machine load. Reports the wall-clock rate and the sandbox workers' CPU time per program
 * (user + system from /proc, much less disturbed by other processes than wall clock).
 *
 *   npx tsx bench/sandbox-python-ab.ts /path/to/other-checkout [repeats]
 *
 * The other checkout needs its own `src/sandbox/index.ts` with the same `createExecutor` API and
 * can share this checkout's node_modules (a symlink). The first repeat of each side is reported
 * apart: runtimes that keep state between programs (compiled tests) are cold there.
 * Needs ../shared/datasets/HumanEval.jsonl and Linux's /proc.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadDataset } from '../src/datasets/formats.ts';
import { createExecutor, type Executor, type ProgramSpec } from '../src/sandbox/index.ts';
import { median } from './benchmarks-file.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TICKS_PER_S = 100; // Linux USER_HZ

/** CPU seconds (user + system) of the live descendants of this process whose command line names `root`. */
function workersCpu(root: string): number {
  const info = new Map<number, { ppid: number; cpu: number; cmd: string }>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').replaceAll('\0', ' ');
      info.set(Number(d), { ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / TICKS_PER_S, cmd });
    } catch {
      /* exited meanwhile */
    }
  }
  let total = 0;
  const walk = (parent: number): void => {
    for (const [pid, i] of info) {
      if (i.ppid !== parent) continue;
      if (i.cmd.includes(`${root}/src/`)) total += i.cpu;
      walk(pid);
    }
  };
  walk(process.pid);
  return total;
}

async function main(): Promise<void> {
  const other = path.resolve(process.argv[2] ?? '');
  const repeats = Number(process.argv[3] ?? 5);
  if (!process.argv[2] || !existsSync(path.join(other, 'src/sandbox/index.ts'))) {
    console.error('usage: npx tsx bench/sandbox-python-ab.ts /path/to/other-checkout [repeats]');
    process.exitCode = 2;
    return;
  }
  const file = path.resolve(repoRoot, '../shared/datasets/HumanEval.jsonl');
  if (!existsSync(file)) {
    console.warn(`[skip] ${file} is absent (the benchmark needs ../shared/datasets)`);
    return;
  }
  const specs: ProgramSpec[] = loadDataset(file).problems.map((p) => ({
    id: p.id,
    language: 'python',
    code: p.prompt + (p.reference ?? ''),
    tests: p.tests,
  }));
  const otherModule = (await import(pathToFileURL(path.join(other, 'src/sandbox/index.ts')).href)) as {
    createExecutor: typeof createExecutor;
  };
  const opts = { workers: 2, timeoutMs: 10_000, memoryMb: 64 };
  const sides: Array<{ name: string; root: string; ex: Executor; rates: number[]; cpu: number[] }> = [
    { name: 'this', root: repoRoot, ex: createExecutor(opts), rates: [], cpu: [] },
    { name: 'other', root: other, ex: otherModule.createExecutor(opts), rates: [], cpu: [] },
  ];
  const load0 = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  // Spawn the workers and boot Pyodide in each (not timed).
  for (const s of sides) await s.ex.run(specs.slice(0, 4).map((p) => ({ ...p, tests: 'assert True\n' })));
  for (let r = 0; r < repeats; r++) {
    for (const s of sides) {
      const batch = [...specs, ...specs];
      const c0 = workersCpu(s.root);
      const t0 = performance.now();
      const results = await s.ex.run(batch);
      const rate = batch.length / ((performance.now() - t0) / 1000);
      const cpuMs = ((workersCpu(s.root) - c0) * 1000) / batch.length;
      const passed = results.filter((x) => x.status === 'pass').length;
      s.rates.push(rate);
      s.cpu.push(cpuMs);
      console.log(
        `${s.name} repeat ${r}: ${rate.toFixed(1)} programs/s, ${cpuMs.toFixed(2)} ms worker CPU/program, ${passed}/${batch.length} pass`,
      );
    }
  }
  const load1 = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const [a, b] = sides as [(typeof sides)[0], (typeof sides)[0]];
  const warm = (x: number[]) => (x.length > 1 ? x.slice(1) : x);
  console.log(`load average ${load0} → ${load1}; this = ${repoRoot}, other = ${other}`);
  console.log(
    `first repeat (cold): this ${a.rates[0]!.toFixed(1)}/s vs other ${b.rates[0]!.toFixed(1)}/s; CPU ${a.cpu[0]!.toFixed(2)} vs ${b.cpu[0]!.toFixed(2)} ms/program`,
  );
  console.log(
    `later repeats, medians: wall this ${median(warm(a.rates)).toFixed(1)}/s vs other ${median(warm(b.rates)).toFixed(1)}/s (this/other ${(median(warm(a.rates)) / median(warm(b.rates))).toFixed(3)}); ` +
      `CPU ${median(warm(a.cpu)).toFixed(2)} vs ${median(warm(b.cpu)).toFixed(2)} ms/program (throughput this/other ${(median(warm(b.cpu)) / median(warm(a.cpu))).toFixed(3)})`,
  );
  for (const s of sides) await s.ex.close();
}

await main();
