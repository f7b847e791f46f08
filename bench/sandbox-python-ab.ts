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
 * can share this checkout's node_modules (a symlink). Two workloads: tests seen before (a GRPO
 * group's completions share their tests) and tests never seen. Writes the "## Sandbox (Python)
 * against another checkout" section of BENCHMARKS.md. Needs ../shared/datasets/HumanEval.jsonl
 * and Linux's /proc.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadDataset } from '../src/datasets/formats.ts';
import { createExecutor, type Executor, type ProgramSpec } from '../src/sandbox/index.ts';
import { gitHead, machineLoad, median, workersCpu, writeBenchSection } from './benchmarks-file.ts';
import { baselineRun, realPython } from './python-baseline.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

type Kind = 'repeated' | 'fresh';

/** Resident memory (MiB) of each live sandbox worker process under this one whose command line names `root`. */
function workersRss(root: string): number[] {
  const out: number[] = [];
  const kids = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
    } catch {
      /* exited meanwhile */
    }
  }
  const walk = (parent: number): void => {
    for (const pid of kids.get(parent) ?? []) {
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        if (cmd.includes(`${root}/src/`) && cmd.includes('python')) {
          const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
          if (m) out.push(Number(m[1]) / 1024);
        }
      } catch {
        /* exited meanwhile */
      }
      walk(pid);
    }
  };
  walk(process.pid);
  return out;
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
  type Side = { name: string; root: string; ex: Executor; rates: Record<Kind, number[]>; cpu: Record<Kind, number[]> };
  const side = (name: string, root: string, ex: Executor): Side => ({
    name,
    root,
    ex,
    rates: { repeated: [], fresh: [] },
    cpu: { repeated: [], fresh: [] },
  });
  const sides: Side[] = [side('this', repoRoot, createExecutor(opts)), side('other', other, otherModule.createExecutor(opts))];
  const load0 = machineLoad();
  // Spawn the workers and boot Pyodide in each (not timed).
  for (const s of sides) await s.ex.run(specs.slice(0, 4).map((p) => ({ ...p, tests: 'assert True\n' })));
  const python = realPython();
  const dir = mkdtempSync(path.join(tmpdir(), 'anchor-py-ab-'));
  const baseRates: number[] = [];
  let unique = 0;
  // All repeats of one workload, then the other's: fresh tests must not push the repeated ones
  // out of a runtime's cache between repeats.
  for (const kind of ['repeated', 'fresh'] as const) {
    for (let r = 0; r < repeats; r++) {
      for (const s of sides) {
        // repeated: the 164 programs twice, tests as in the dataset (seen before after the first
        // pass); fresh: each program once with tests no run has seen (a comment appended).
        const batch =
          kind === 'repeated' ? [...specs, ...specs] : specs.map((p) => ({ ...p, tests: `${p.tests}\n# ${unique++}\n` }));
        const c0 = workersCpu(s.root);
        const t0 = performance.now();
        const results = await s.ex.run(batch);
        const rate = batch.length / ((performance.now() - t0) / 1000);
        const cpuMs = ((workersCpu(s.root) - c0) * 1000) / batch.length;
        const passed = results.filter((x) => x.status === 'pass').length;
        s.rates[kind].push(rate);
        s.cpu[kind].push(cpuMs);
        console.log(
          `${s.name} repeat ${r} ${kind}: ${rate.toFixed(1)} programs/s, ${cpuMs.toFixed(2)} ms worker CPU/program, ${passed}/${batch.length} pass`,
        );
      }
      if (python && kind === 'fresh') {
        // One real python3 process per program, same concurrency, in the same alternation.
        const b = await baselineRun(python, specs, dir, opts.workers);
        baseRates.push(b.rate);
        console.log(`python3 per process repeat ${r}: ${b.rate.toFixed(1)} programs/s`);
      }
    }
  }
  rmSync(dir, { recursive: true, force: true });
  const rss = sides.map((s) => workersRss(s.root));
  const [a, b] = sides as [Side, Side];
  const row = (kind: Kind, what: string) => {
    const ra = median(a.rates[kind]);
    const rb = median(b.rates[kind]);
    const ca = median(a.cpu[kind]);
    const cb = median(b.cpu[kind]);
    return `| ${what} | ${ra.toFixed(1)} vs ${rb.toFixed(1)} programs/s (**${(ra / rb).toFixed(2)}×**) | ${ca.toFixed(2)} vs ${cb.toFixed(2)} ms (**${(cb / ca).toFixed(2)}×**) |`;
  };
  const section = [
    '## Sandbox (Python) against another checkout',
    '',
    `Written by \`npx tsx bench/sandbox-python-ab.ts ${process.argv[2]} ${repeats}\` on ${new Date().toISOString()}; load average ${load0} before → ${machineLoad()} after.`,
    `This checkout (${gitHead(repoRoot)}) against ${gitHead(other)}, both executors alive in one process (2 workers each, 10 s timeout, 64 MB), repeats alternated so both see the same load; medians of ${repeats} repeats.`,
    'Workload: the 164 HumanEval canonical solutions (prompt + canonical_solution; test + check(entry_point)) — *repeated*: all 164 twice per repeat, tests as in the dataset (a runtime that keeps compiled tests has seen them after the first pass, as the completions of one GRPO group share their tests); *fresh*: each once with tests no earlier run has seen (a comment appended). Worker CPU = user + system time of the sandbox worker processes (from /proc), much less disturbed by other processes than wall clock.',
    '',
    '| workload | wall clock, this vs other (ratio) | worker CPU per program, this vs other (throughput ratio) |',
    '|---|---|---|',
    row('repeated', 'repeated tests'),
    row('fresh', 'fresh tests'),
    '',
    python
      ? `One real \`${python}\` process per program (same 164, same concurrency, alternated with the fresh repeats): ${median(baseRates).toFixed(1)} programs/s; fresh tests against it: this ${(median(a.rates.fresh) / median(baseRates)).toFixed(2)}×, other ${(median(b.rates.fresh) / median(baseRates)).toFixed(2)}×; repeated tests: this ${(median(a.rates.repeated) / median(baseRates)).toFixed(2)}×, other ${(median(b.rates.repeated) / median(baseRates)).toFixed(2)}×.`
      : 'python3 not found: no per-process baseline.',
    '',
    `Resident memory per sandbox worker process after the run (VmRSS): this ${rss[0]!.map((m) => `${m.toFixed(0)} MiB`).join(', ')}; other ${rss[1]!.map((m) => `${m.toFixed(0)} MiB`).join(', ')}.`,
    '',
  ].join('\n');
  console.log(section);
  writeBenchSection(path.join(repoRoot, 'BENCHMARKS.md'), 'Sandbox (Python) against another checkout', section);
  for (const s of sides) await s.ex.close();
}

await main();
