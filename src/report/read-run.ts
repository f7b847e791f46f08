/**
 * Reading a run directory (src/train/run-format.ts) for `compare` and `report`.
 *
 * A run may be unfinished or damaged (a writer killed mid-line, an arm that never started), and
 * the reader's job is to show what is there: bad lines become warnings with file and line and the
 * rest is still read; unfinished arms are flagged, not rejected. Only a directory that is not a
 * run at all is an error.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { AnchorError } from '../util/errors.ts';
import { stripBom } from '../util/text.ts';
import type { ArmStatus, RefitLine, RunManifest, SampleLine } from '../train/run-format.ts';
import { METRIC_KEYS } from '../train/run-format.ts';

/** A problem found while reading; the rest of the run is still read. */
export interface RunWarning {
  /** File the problem is in (absolute path). */
  file: string;
  /** 1-based line number for log files. */
  line?: number;
  message: string;
}

/** One parsed metrics.jsonl line (namespaced keys, see METRIC_KEYS). */
export type MetricsLine = Record<string, unknown> & { step: number };

/** One arm as read from disk. */
export interface ArmData {
  name: string;
  dir: string;
  /** arm.json, or null when missing/unreadable. */
  status: ArmStatus | null;
  /** True unless arm.json says state 'done'. */
  incomplete: boolean;
  /** metrics.jsonl lines sorted by step (one per step; the last wins on duplicates). */
  metrics: MetricsLine[];
  refits: RefitLine[];
  /** samples.jsonl lines, only when read with `samples: true` (they can be large). */
  samples: SampleLine[] | null;
  /**
   * Set by `pairRunsBySeed` (./pair-by-seed.ts) on an arm merged into another run: the
   * manifest of the run it was trained in and its name there (before a clash renamed it
   * `name@source`), so what it ran with is read from its own run's config, not the merged run's.
   */
  origin?: { manifest: RunManifest | null; name: string };
}

/** A run directory as read from disk. */
export interface RunData {
  dir: string;
  /** manifest.json, or null when missing/unreadable. */
  manifest: RunManifest | null;
  /** Run name (manifest name, else the directory name). */
  name: string;
  arms: ArmData[];
  warnings: RunWarning[];
}

/** Options of {@link readRun}. */
export interface ReadRunOptions {
  /** Also read samples.jsonl (default false). */
  samples?: boolean;
}

/** Parse a JSONL file leniently: bad lines are reported and skipped. Missing file → []. */
export function readJsonl(file: string, warnings: RunWarning[]): { line: number; value: unknown }[] {
  if (!existsSync(file)) return [];
  const text = stripBom(readFileSync(file, 'utf8'));
  const lines = text.split('\n');
  const out: { line: number; value: unknown }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (!raw.trim()) continue;
    try {
      out.push({ line: i + 1, value: JSON.parse(raw) });
    } catch {
      // A last line without its newline is what a killed writer leaves behind.
      const last = i === lines.length - 1 && !text.endsWith('\n');
      warnings.push({
        file,
        line: i + 1,
        message: last
          ? 'truncated line (no trailing newline, not valid JSON); skipped'
          : 'corrupt line (not valid JSON); skipped',
      });
    }
  }
  return out;
}

function readJsonFile<T>(file: string, warnings: RunWarning[], what: string): T | null {
  if (!existsSync(file)) return null;
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not a JSON object');
    return v as T;
  } catch (err) {
    warnings.push({ file, message: `unreadable ${what}: ${(err as Error).message}` });
    return null;
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStep = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** Arm directories: a subdirectory holding arm.json or metrics.jsonl. */
function armDirsOnDisk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter(
      (d) => d.isDirectory() && (existsSync(join(dir, d.name, 'arm.json')) || existsSync(join(dir, d.name, 'metrics.jsonl'))),
    )
    .map((d) => d.name)
    .sort();
}

function readArm(dir: string, name: string, warnings: RunWarning[], withSamples: boolean): ArmData {
  const armDir = join(dir, name);
  const status = readJsonFile<ArmStatus>(join(armDir, 'arm.json'), warnings, 'arm.json');
  if (!existsSync(armDir))
    warnings.push({ file: armDir, message: `arm '${name}' is listed in manifest.json but has no directory` });
  else if (!status && !existsSync(join(armDir, 'arm.json')))
    warnings.push({ file: join(armDir, 'arm.json'), message: `arm '${name}' has no arm.json; treated as incomplete` });

  const metricsFile = join(armDir, 'metrics.jsonl');
  const byStep = new Map<number, MetricsLine>();
  for (const { line, value } of readJsonl(metricsFile, warnings)) {
    if (!isObj(value) || !isStep(value[METRIC_KEYS.step])) {
      warnings.push({ file: metricsFile, line, message: 'metrics line without a valid "step"; skipped' });
      continue;
    }
    const step = value[METRIC_KEYS.step] as number;
    if (byStep.has(step)) warnings.push({ file: metricsFile, line, message: `duplicate step ${step}; the later line wins` });
    byStep.set(step, value as MetricsLine);
  }
  const metrics = [...byStep.values()].sort((a, b) => a.step - b.step);

  const refitsFile = join(armDir, 'refits.jsonl');
  const refits: RefitLine[] = [];
  for (const { line, value } of readJsonl(refitsFile, warnings)) {
    if (!isObj(value) || !isStep(value.step)) {
      warnings.push({ file: refitsFile, line, message: 'refit line without a valid "step"; skipped' });
      continue;
    }
    refits.push(value as unknown as RefitLine);
  }
  refits.sort((a, b) => a.step - b.step);

  let samples: SampleLine[] | null = null;
  if (withSamples) {
    const samplesFile = join(armDir, 'samples.jsonl');
    samples = [];
    for (const { line, value } of readJsonl(samplesFile, warnings)) {
      if (!isObj(value) || !isStep(value.step) || typeof value.text !== 'string') {
        warnings.push({ file: samplesFile, line, message: 'sample line without a valid "step" and "text"; skipped' });
        continue;
      }
      samples.push(value as unknown as SampleLine);
    }
  }

  if (metrics.length === 0) {
    warnings.push({ file: metricsFile, message: `arm '${name}' has no steps${status ? ` (state ${status.state})` : ''}` });
  }
  return { name, dir: armDir, status, incomplete: status?.state !== 'done', metrics, refits, samples };
}

/**
 * Read a run directory. Throws AnchorError NOT_FOUND for a missing path and BAD_ARGUMENT for a
 * path that is not a run (no manifest.json and no arm directories); everything else that is
 * wrong becomes a {@link RunWarning}.
 */
export function readRun(runDir: string, opts: ReadRunOptions = {}): RunData {
  const dir = resolve(runDir);
  if (!existsSync(dir)) throw new AnchorError('NOT_FOUND', `run directory not found: ${runDir}`);
  if (!statSync(dir).isDirectory()) throw new AnchorError('BAD_ARGUMENT', `not a run directory (a file): ${runDir}`);
  const warnings: RunWarning[] = [];
  const manifestFile = join(dir, 'manifest.json');
  const manifest = readJsonFile<RunManifest>(manifestFile, warnings, 'manifest.json');
  const onDisk = armDirsOnDisk(dir);
  if (!existsSync(manifestFile) && onDisk.length === 0) {
    throw new AnchorError(
      'BAD_ARGUMENT',
      `not a run directory: ${runDir} (no manifest.json and no arm directories with arm.json or metrics.jsonl)`,
      { dir },
    );
  }
  if (!existsSync(manifestFile))
    warnings.push({ file: manifestFile, message: 'no manifest.json; arms found from their directories' });
  // Manifest order first (it is the config's order); arms found only on disk follow.
  const listed = Array.isArray(manifest?.arms) ? manifest.arms.filter((a): a is string => typeof a === 'string') : [];
  const names = [...listed, ...onDisk.filter((a) => !listed.includes(a))];
  for (const extra of onDisk.filter((a) => listed.length > 0 && !listed.includes(a))) {
    warnings.push({ file: join(dir, extra), message: `arm directory '${extra}' is not listed in manifest.json; read anyway` });
  }
  const arms = names.map((n) => readArm(dir, n, warnings, opts.samples ?? false));
  return { dir, manifest, name: typeof manifest?.name === 'string' ? manifest.name : basename(dir), arms, warnings };
}

/** `file:line: message` (file relative to `base` when given). */
export function formatWarning(w: RunWarning, base?: string): string {
  const f = base && w.file.startsWith(base + '/') ? w.file.slice(base.length + 1) : w.file;
  return `${f}${w.line !== undefined ? `:${w.line}` : ''}: ${w.message}`;
}
