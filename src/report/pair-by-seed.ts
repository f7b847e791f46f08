/**
 * Several run directories of the same seed as one seed of a comparison. An experiment split over
 * sweep directories (the execution arm in one, an RM variant in another, because a sweep's grid
 * cannot vary the reward model) has, per seed, one run directory in each; the interval estimates
 * pair arms by run, so the runs of one seed must become one run before they are compared, or no
 * arm would ever meet its reference. Where two runs of one seed both hold an arm of the same name
 * (the same registry arm under two configs), every occurrence of that name is qualified with the
 * source it came from, `arm@source`, so the two are not averaged together as if they were seeds.
 */
import { basename, dirname, resolve } from 'node:path';
import { expandSweepDirs } from '../train/sweep-format.ts';
import { filterRun, parseWhere } from './provenance.ts';
import { type ArmData, readRun, type RunData } from './read-run.ts';

/** A run and the source it came from (e.g. the sweep directory's name), used to qualify a clashing arm name. */
export interface SourcedRun {
  run: RunData;
  source: string;
}

/** The seed of a run from its manifest, or null. */
function seedOf(run: RunData): number | null {
  const s = run.manifest?.seed;
  return typeof s === 'number' && Number.isInteger(s) ? s : null;
}

/**
 * Merge runs by seed: runs with the same seed become one run (their arms side by side, in the
 * order given; the first run's directory, name and manifest stand for it, and each arm keeps its own
 * run's manifest and name in `origin`), kept at the position of the seed's first run. A run without a seed is never merged. An arm name held by two runs of the
 * same seed is renamed `name@source` in every run (also of other seeds, so one arm keeps one
 * name); sources must then tell the runs apart. Pure: the inputs are not modified.
 */
export function pairRunsBySeed(runs: readonly SourcedRun[]): RunData[] {
  const bySeed = new Map<number, SourcedRun[]>();
  for (const r of runs) {
    const s = seedOf(r.run);
    if (s !== null) bySeed.set(s, [...(bySeed.get(s) ?? []), r]);
  }
  const clashing = new Set<string>();
  for (const group of bySeed.values()) {
    const seen = new Set<string>();
    for (const { run } of group) {
      for (const a of run.arms) {
        if (seen.has(a.name)) clashing.add(a.name);
      }
      for (const a of run.arms) seen.add(a.name);
    }
  }
  // An arm that is renamed, or merged into the seed's first run, keeps where it came from.
  const withOrigin = (a: ArmData, r: SourcedRun, name: string): ArmData => ({
    ...a,
    name,
    origin: a.origin ?? { manifest: r.run.manifest, name: a.name },
  });
  const renamed = (r: SourcedRun, merged: boolean): RunData => ({
    ...r.run,
    arms: r.run.arms.map((a) =>
      clashing.has(a.name) ? withOrigin(a, r, `${a.name}@${r.source}`) : merged ? withOrigin(a, r, a.name) : a,
    ),
  });
  const out: RunData[] = [];
  const placed = new Set<number>();
  for (const r of runs) {
    const s = seedOf(r.run);
    if (s === null) {
      out.push(renamed(r, false));
      continue;
    }
    if (placed.has(s)) continue;
    placed.add(s);
    const sources = bySeed.get(s)!;
    const group = sources.map((g) => renamed(g, sources.length > 1));
    const first = group[0]!;
    out.push(
      group.length === 1 ? first : { ...first, arms: group.flatMap((g) => g.arms), warnings: group.flatMap((g) => g.warnings) },
    );
  }
  return out;
}

/**
 * The source name of a directory given to {@link readRunsPairedBySeed}: its name, except that a
 * seed run named like a sweep's (`seed-N`) is named after the directory holding it — so the seed
 * runs `runs/tf/seed-100`, `runs/tf/seed-101` given one by one are one source, `tf`, as the seeds
 * of a sweep directory are.
 */
export function sourceName(path: string): string {
  const full = resolve(path);
  return /^seed-\d+$/.test(basename(full)) ? basename(dirname(full)) : basename(full);
}

/**
 * Read run or sweep directories (a sweep directory = its seed runs) and merge their runs by seed
 * ({@link pairRunsBySeed}); each run's source is the name of the directory it was given under
 * ({@link sourceName}).
 * `where`: only the steps whose samples carry these provenance stamps (as `compare --where`).
 */
export function readRunsPairedBySeed(paths: readonly string[], opts: { where?: readonly string[] } = {}): RunData[] {
  const where = parseWhere(opts.where ?? []);
  const sourced = paths.flatMap((p) =>
    expandSweepDirs([p]).map((d) => ({
      run: filterRun(readRun(d, { samples: where.length > 0 }), where),
      source: sourceName(p),
    })),
  );
  return pairRunsBySeed(sourced);
}
