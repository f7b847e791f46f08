/**
 * What `anchor-rl serve` shows, found on disk on every look: the runs and sweeps under the
 * served directory, safe resolution of the ids in URLs, and cheap fingerprints (file sizes and
 * modification times) that change whenever an arm appends, a resume truncates a log, or a run is
 * deleted. Nothing here writes, and no state is kept beyond the directories themselves.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isSweepDir, readSweepRecord, sweepRunDirs } from '../train/sweep-format.ts';
import { AnchorError } from '../util/errors.ts';

/** A run or sweep the server shows, by its id: its path relative to the served root, with `/`. */
export interface Entry {
  kind: 'run' | 'sweep';
  id: string;
  dir: string;
  /** The sweep a seed run belongs to. */
  sweep?: string;
}

/** How deep below the root runs are looked for (runs/NAME, runs/GROUP/NAME, ...). */
const MAX_DEPTH = 3;
/** Directories of a run that are never runs themselves. */
const SKIP = new Set(['checkpoints', 'shared', 'node_modules']);

const isRunDir = (dir: string): boolean => existsSync(join(dir, 'manifest.json'));

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith('.') && !SKIP.has(d.name))
      .map((d) => d.name)
      .sort();
  } catch {
    return []; // deleted or unreadable while we looked: it simply is not there
  }
}

/** The id of `dir` under `root`. */
function idOf(root: string, dir: string): string {
  return relative(root, dir).split(sep).join('/');
}

/**
 * Every run and sweep under `root` (sweeps followed by their seed runs), in name order. A root
 * that is itself a run or a sweep is not listed here: {@link serveRoot} serves its parent.
 */
function discover(root: string): Entry[] {
  const out: Entry[] = [];
  const walk = (dir: string, depth: number) => {
    for (const name of subdirs(dir)) {
      const d = join(dir, name);
      try {
        if (isSweepDir(d)) {
          const id = idOf(root, d);
          out.push({ kind: 'sweep', id, dir: d });
          let seeds: string[] = [];
          try {
            seeds = sweepRunDirs(d);
          } catch {
            // A sweep.json being rewritten: its seeds show up on the next look.
          }
          for (const s of seeds) out.push({ kind: 'run', id: idOf(root, s), dir: s, sweep: id });
        } else if (isRunDir(d)) out.push({ kind: 'run', id: idOf(root, d), dir: d });
        else if (depth < MAX_DEPTH) walk(d, depth + 1);
      } catch {
        // Vanished between listing and looking.
      }
    }
  };
  walk(root, 1);
  return out;
}

/**
 * The directory to serve for `dir` and the entries to show: a runs directory is served whole; a
 * single run or sweep is served from its parent, showing only it (and a sweep's seed runs).
 */
export function serveRoot(dir: string): { root: string; only: string | null } {
  const abs = resolve(dir);
  if (!existsSync(abs)) throw new AnchorError('NOT_FOUND', `runs directory not found: ${dir}`);
  if (!statSync(abs).isDirectory()) throw new AnchorError('BAD_ARGUMENT', `not a directory: ${dir}`);
  if (isSweepDir(abs) || isRunDir(abs)) return { root: resolve(abs, '..'), only: idOf(resolve(abs, '..'), abs) };
  return { root: abs, only: null };
}

/** The entries visible when serving `only` (null: everything). */
export function visibleEntries(root: string, only: string | null): Entry[] {
  if (only === null) return discover(root);
  const dir = join(root, only);
  if (isSweepDir(dir)) {
    let seeds: string[] = [];
    try {
      seeds = sweepRunDirs(dir);
    } catch {
      // see discover()
    }
    return [
      { kind: 'sweep', id: only, dir },
      ...seeds.map((s) => ({ kind: 'run' as const, id: idOf(root, s), dir: s, sweep: only })),
    ];
  }
  return isRunDir(dir) ? [{ kind: 'run', id: only, dir }] : [];
}

/**
 * Resolve an id from a URL to a visible entry. Ids are relative paths with `/`; anything that
 * could leave the root (`..`, absolute paths, backslashes, NUL) is refused before touching the
 * disk, and only entries the index would list are served.
 */
export function findEntry(root: string, only: string | null, kind: Entry['kind'], id: string): Entry {
  const bad =
    id === '' ||
    id.includes('\0') ||
    id.includes('\\') ||
    isAbsolute(id) ||
    id.split('/').some((p) => p === '..' || p === '.' || p === '');
  if (bad) throw new AnchorError('BAD_REQUEST', `not a run id: ${JSON.stringify(id)}`);
  const dir = resolve(root, id);
  if (!dir.startsWith(root + sep)) throw new AnchorError('BAD_REQUEST', `not a run id: ${JSON.stringify(id)}`);
  if (only !== null && id !== only && !id.startsWith(only + '/')) throw new AnchorError('NOT_FOUND', `${kind} not found: ${id}`);
  const ok = kind === 'sweep' ? isSweepDir(dir) : isRunDir(dir);
  if (!ok) throw new AnchorError('NOT_FOUND', `${kind} not found: ${id} (deleted, or not a ${kind} directory)`);
  let sweep: string | undefined;
  const parent = id.includes('/') ? id.slice(0, id.lastIndexOf('/')) : null;
  if (kind === 'run' && parent !== null && isSweepDir(join(root, parent))) sweep = parent;
  return { kind, id, dir, ...(sweep ? { sweep } : {}) };
}

function statKey(file: string): string {
  try {
    const s = statSync(file);
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return '-';
  }
}

/** Changes whenever a file the run page shows changes (manifest, arm.json, metrics, refits). */
function runFingerprint(dir: string): string {
  if (!existsSync(dir)) return 'gone';
  const parts = [statKey(join(dir, 'manifest.json'))];
  for (const arm of subdirs(dir)) {
    for (const f of ['arm.json', 'metrics.jsonl', 'refits.jsonl']) parts.push(statKey(join(dir, arm, f)));
  }
  return parts.join('|');
}

/** Changes whenever the sweep record or any of its seed runs changes. */
function sweepFingerprint(dir: string): string {
  if (!existsSync(dir)) return 'gone';
  let seeds: string[] = [];
  try {
    seeds = sweepRunDirs(dir, readSweepRecord(dir));
  } catch {
    return `unreadable:${statKey(join(dir, 'sweep.json'))}`;
  }
  return [statKey(join(dir, 'sweep.json')), ...seeds.map((s) => `${s}=${runFingerprint(s)}`)].join('||');
}

/** The fingerprint of an entry. */
export function entryFingerprint(e: Entry): string {
  return e.kind === 'sweep' ? sweepFingerprint(e.dir) : runFingerprint(e.dir);
}
