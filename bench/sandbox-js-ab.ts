/**
 * JavaScript sandbox, this checkout against another one, side by side: bench:sandbox's generated
 * programs in three workloads — *combined* (tests inside the program), *training-shaped* (prompt +
 * completion, tests separate, 8 completions per problem; the same programs every repeat, so each
 * worker has planned and compiled their tests after the first) and *training, new problems*
 * (training-shaped, new problems every repeat, as each training step brings) — both `LocalExecutor`s alive in one
 * process (2 workers, 2 s timeout, 64 MB) and their repeats alternated so both see the same load.
 *
 *   node --no-node-snapshot --import tsx bench/sandbox-js-ab.ts /path/to/other-checkout [repeats] [programs]
 *
 * The other checkout needs `src/sandbox/index.ts` with the same `createExecutor` API and can share
 * this checkout's node_modules (a symlink). Prints wall-clock rates and the workers' CPU time per
 * program (from /proc; what a loaded shared machine disturbs least) and their medians, and writes
 * them to BENCHMARKS.md's "Sandbox (JavaScript) against another checkout" section.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createExecutor, type Executor } from '../src/sandbox/index.ts';
import { gitHead, machineLoad, median, workersCpu, writeBenchSection } from './benchmarks-file.ts';
import { programs, trainingPrograms } from './sandbox-programs.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<void> {
  const other = path.resolve(process.argv[2] ?? '');
  const repeats = Number(process.argv[3] ?? 5);
  const n = Number(process.argv[4] ?? 2000);
  if (!process.argv[2] || !existsSync(path.join(other, 'src/sandbox/index.ts'))) {
    console.error(
      'usage: node --no-node-snapshot --import tsx bench/sandbox-js-ab.ts /path/to/other-checkout [repeats] [programs]',
    );
    process.exitCode = 2;
    return;
  }
  const otherModule = (await import(pathToFileURL(path.join(other, 'src/sandbox/index.ts')).href)) as {
    createExecutor: typeof createExecutor;
  };
  const opts = { workers: 2, timeoutMs: 2000, memoryMb: 64 };
  type Side = { name: string; root: string; ex: Executor; rates: Record<string, number[]>; cpu: Record<string, number[]> };
  const side = (name: string, root: string, ex: Executor): Side => ({
    name: `${name} (${gitHead(root)})`,
    root,
    ex,
    rates: { combined: [], training: [], fresh: [] },
    cpu: { combined: [], training: [], fresh: [] },
  });
  const sides = [side('this', repoRoot, createExecutor(opts)), side('other', other, otherModule.createExecutor(opts))];
  const workloads = {
    combined: programs(n, 20261129),
    training: trainingPrograms(n, 20261201),
    fresh: [] as ReturnType<typeof trainingPrograms>,
  };
  const load0 = machineLoad();
  for (const s of sides) await s.ex.run(workloads.combined.slice(0, 50)); // warm-up, not timed
  for (let r = 0; r < repeats; r++) {
    // New problems every repeat (and never the other workloads'): both sides run the same ones.
    workloads.fresh = trainingPrograms(n, 20270000 + r);
    for (const [kind, specs] of Object.entries(workloads)) {
      // Alternate which side goes first, so neither always runs right after the other's batch.
      for (const s of r % 2 === 0 ? sides : [...sides].reverse()) {
        const c0 = workersCpu(s.root);
        const t0 = performance.now();
        const results = await s.ex.run(specs);
        const rate = specs.length / ((performance.now() - t0) / 1000);
        // Worker CPU (user + system, from /proc) per program: much less disturbed by the machine's
        // other processes than the wall clock.
        const cpuUs = ((workersCpu(s.root) - c0) * 1e6) / specs.length;
        s.rates[kind]!.push(rate);
        s.cpu[kind]!.push(cpuUs);
        const pass = results.filter((x) => x.status === 'pass').length;
        console.log(
          `${s.name} repeat ${r} ${kind}: ${rate.toFixed(0)} programs/s, ${cpuUs.toFixed(0)} µs worker CPU/program (${pass}/${specs.length} pass)`,
        );
      }
    }
  }
  for (const s of sides) await s.ex.close();
  const load1 = machineLoad();
  console.log(`load average ${load0} before → ${load1} after; medians of ${repeats} repeats of ${n} programs:`);
  const what: Record<string, string> = {
    combined: 'combined (tests inside the program)',
    training: 'training-shaped',
    fresh: 'training-shaped, new problems every repeat',
  };
  const rows: string[] = [];
  for (const kind of Object.keys(workloads)) {
    const [a, b] = sides.map((s) => median(s.rates[kind]!)) as [number, number];
    const [ca, cb] = sides.map((s) => median(s.cpu[kind]!)) as [number, number];
    console.log(
      `  ${kind}: wall ${a.toFixed(0)} vs ${b.toFixed(0)} programs/s (this/other ${(a / b).toFixed(2)}×); worker CPU ${ca.toFixed(0)} vs ${cb.toFixed(0)} µs/program (${(1e6 / ca).toFixed(0)} vs ${(1e6 / cb).toFixed(0)} programs/s per core, this/other ${(cb / ca).toFixed(2)}×)`,
    );
    const each = (s: Side) => s.rates[kind]!.map((x) => x.toFixed(0)).join(', ');
    rows.push(
      `| ${what[kind]} | ${a.toFixed(0)} vs ${b.toFixed(0)} programs/s (**${(a / b).toFixed(2)}×**) | ${ca.toFixed(0)} vs ${cb.toFixed(0)} µs (**${(cb / ca).toFixed(2)}×**) | ${each(sides[0]!)} / ${each(sides[1]!)} |`,
    );
  }
  const section = [
    '## Sandbox (JavaScript) against another checkout',
    '',
    `Written by \`node --no-node-snapshot --import tsx bench/sandbox-js-ab.ts ${process.argv[2]} ${repeats} ${n}\` on ${new Date().toISOString()}; load average ${load0} before → ${load1} after.`,
    `This checkout (${gitHead(repoRoot)}) against ${gitHead(other)}, both \`LocalExecutor\`s alive in one process (2 workers each, 2 s timeout, 64 MB), repeats alternated so both see the same load; medians of ${repeats} repeats of ${n} programs (bench/sandbox-programs.ts): *combined* = tests inside the program (bench:sandbox's shape); *training-shaped* = prompt + completion with the tests separate, 8 completions per problem, the same programs every repeat (after the first, each worker has planned and compiled their tests); *new problems* = training-shaped with new problems every repeat, as each training step brings. Worker CPU = user + system time of the sandbox worker processes (from /proc) per program, much less disturbed by other processes than wall clock.`,
    '',
    '| workload | wall clock, this vs other (ratio) | worker CPU per program, this vs other (throughput ratio) | wall programs/s per repeat, this / other |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  writeBenchSection(path.join(repoRoot, 'BENCHMARKS.md'), 'Sandbox (JavaScript) against another checkout', section);
}

await main();
