/**
 * The sweep directory format, written by `anchor-rl sweep` and read by `compare` and `report`.
 * A sweep is a set of ordinary run directories, one per seed, plus the record of what was swept:
 *
 * ```
 * runs/NAME-sweep/
 *   sweep.json             SweepRecord: grid, seeds, base config, cells, references, times
 *   seed-<s>/              a normal run directory (run-format.ts): arms = references + cells
 *   compare.json / compare.md   the arms (= cells) compared across seeds: mean ± SE
 *   sweep.md / report.html      the settlement-knob table and chart
 * ```
 *
 * This module only touches the file system (no tfjs, no vega), so `compare` can expand a sweep
 * directory without loading the trainer.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AnchorError } from '../util/errors.ts';

/** The record's file name inside a sweep directory. */
export const SWEEP_FILE = 'sweep.json';

/** One `--grid KEY=V1,V2,...` axis as recorded. */
interface SweepAxisRecord {
  /** Run-config key path, e.g. `settlement.rate`. */
  key: string;
  /** Typed values in the order given. */
  values: unknown[];
}

/** sweep.json */
export interface SweepRecord {
  /** Base config name (seed runs are named `<name>-seed<s>`). */
  name: string;
  grid: SweepAxisRecord[];
  seeds: number[];
  /** The arm every cell extends (`--arm`). */
  armBase: string;
  /** Registry arms trained once per seed next to the cells (`--reference`). */
  references: string[];
  /** Cell (arm) name → the grid values it sets, by key path. Cartesian order, first axis outermost. */
  cells: Record<string, Record<string, unknown>>;
  /** The resolved base config (file + `--set` + defaults) before seeds and arms are filled in. */
  config: Record<string, unknown>;
  /** Informational: where the config came from (not part of what makes two sweeps the same). */
  source: { config: string | null; sets: string[] };
  startedAt: string;
  endedAt: string | null;
}

/** The run directory name of one seed. */
export function seedDirName(seed: number): string {
  return `seed-${seed}`;
}

/** True when `dir` holds a sweep.json. */
export function isSweepDir(dir: string): boolean {
  return existsSync(join(dir, SWEEP_FILE));
}

/** Read `dir/sweep.json`; a missing or malformed record is BAD_ARGUMENT naming the file. */
export function readSweepRecord(dir: string): SweepRecord {
  const file = join(resolve(dir), SWEEP_FILE);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new AnchorError(
      'BAD_ARGUMENT',
      `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  const r = value as Partial<SweepRecord> | null;
  const ok =
    r !== null &&
    typeof r === 'object' &&
    typeof r.name === 'string' &&
    Array.isArray(r.grid) &&
    Array.isArray(r.seeds) &&
    r.seeds.every((s) => Number.isInteger(s)) &&
    typeof r.armBase === 'string' &&
    Array.isArray(r.references) &&
    r.cells !== null &&
    typeof r.cells === 'object' &&
    r.config !== null &&
    typeof r.config === 'object';
  if (!ok)
    throw new AnchorError(
      'BAD_ARGUMENT',
      `${file} is not a sweep record (expected name, grid, seeds, armBase, references, cells, config)`,
    );
  return r as SweepRecord;
}

/** The seed run directories of a sweep, in seed order (those that exist on disk). */
export function sweepRunDirs(dir: string, record: SweepRecord = readSweepRecord(dir)): string[] {
  return record.seeds.map((s) => join(resolve(dir), seedDirName(s))).filter((d) => existsSync(join(d, 'manifest.json')));
}

/**
 * Replace every sweep directory in `dirs` by its seed runs (other run directories pass through),
 * so `compare` over a sweep is `compare` over its seeds. A sweep with no seed run yet is an error.
 */
export function expandSweepDirs(dirs: readonly string[]): string[] {
  return dirs.flatMap((d) => {
    if (!isSweepDir(d)) return [d];
    const runs = sweepRunDirs(d);
    if (runs.length === 0) throw new AnchorError('BAD_ARGUMENT', `sweep ${d} has no seed run yet (no seed-*/manifest.json)`);
    return runs;
  });
}

/** Seeds when `--seeds` is not given: enough for a standard error. */
export const DEFAULT_SEEDS = 3;

/**
 * The seeds of a sweep from `--seeds`: a count N (the config's seed and the N − 1 after it), an
 * explicit list `0,3,7`, or an inclusive range `10..19`. Seeds are distinct integers ≥ 0, in the
 * order given.
 */
export function parseSeeds(spec: number | string | readonly number[], configSeed: number): number[] {
  const bad = (why: string) =>
    new AnchorError('BAD_ARGUMENT', `--seeds ${JSON.stringify(spec)}: ${why} (a count N, a list 0,3,7 or a range 10..19)`);
  let seeds: number[];
  if (typeof spec === 'number' || (typeof spec === 'string' && /^\s*\d+\s*$/.test(spec))) {
    const n = Number(spec);
    if (!(Number.isInteger(n) && n >= 1))
      throw new AnchorError('BAD_ARGUMENT', `--seeds must be a positive integer, got ${spec}`);
    return Array.from({ length: n }, (_, i) => configSeed + i);
  }
  if (typeof spec === 'string') {
    const range = /^\s*(\d+)\s*\.\.\s*(\d+)\s*$/.exec(spec);
    if (range) {
      const [a, b] = [Number(range[1]), Number(range[2])];
      if (b < a) throw bad('the range is empty');
      seeds = Array.from({ length: b - a + 1 }, (_, i) => a + i);
    } else {
      const parts = spec.split(',').map((p) => p.trim());
      if (parts.some((p) => !/^\d+$/.test(p))) throw bad('not a list of non-negative integers');
      seeds = parts.map(Number);
    }
  } else seeds = [...spec];
  if (seeds.length === 0 || seeds.some((s) => !(Number.isSafeInteger(s) && s >= 0))) throw bad('seeds are integers ≥ 0');
  if (new Set(seeds).size !== seeds.length) throw bad('a seed is repeated');
  return seeds;
}

/** The run-config sections an arm overlay (so a sweep's grid axis) may set. */
export const SWEEP_SECTIONS = ['grpo', 'settlement', 'proxy', 'gate', 'eval'] as const;
