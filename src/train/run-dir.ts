/**
 * Guarding run directories, which hold users' work: checking an `--out` before anything is
 * written, replacing (`--force`) only what this project wrote, one writer at a time (an
 * exclusive lock file), and the hash of the resolved config that `resume` checks.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { homedir, hostname } from 'node:os';
import { dirname, isAbsolute, join, parse, relative, resolve } from 'node:path';
import { AnchorError } from '../util/errors.ts';

// --- checking an output directory before anything is written ------------------------------------

/**
 * Check that `dir` (an `--out`) can become a directory we write: it is not a file, and it (or
 * its nearest existing ancestor) is writable. Errors are BAD_ARGUMENT naming `flag`.
 */
export function checkOutDir(dir: string, flag = '--out'): void {
  let at = resolve(dir);
  while (!existsSync(at)) {
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  const st = statSync(at);
  if (!st.isDirectory()) {
    throw new AnchorError(
      'BAD_ARGUMENT',
      at === resolve(dir) ? `${flag} ${dir}: is a file, not a directory` : `${flag} ${dir}: ${at} is a file, not a directory`,
    );
  }
  // A probe file rather than access(W_OK): it also catches read-only mounts, and root.
  const probe = join(at, `.anchor-rl-probe-${process.pid}`);
  try {
    closeSync(openSync(probe, 'wx'));
    unlinkSync(probe);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new AnchorError('BAD_ARGUMENT', `${flag} ${dir}: cannot write in ${at} (${code})`);
  }
}

// --- --force: replace only what this project wrote -----------------------------------------------

/** True when `dir` holds a run manifest of this project (manifest.json with the RunManifest shape). */
export function isRunDir(dir: string): boolean {
  const p = join(dir, 'manifest.json');
  if (!existsSync(p)) return false;
  try {
    const m = JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;
    return (
      typeof m.name === 'string' &&
      typeof m.seed === 'number' &&
      typeof m.config === 'object' &&
      m.config !== null &&
      Array.isArray(m.arms) &&
      typeof m.startedAt === 'string' &&
      typeof m.versions === 'object' &&
      m.versions !== null
    );
  } catch {
    return false;
  }
}

/**
 * Refuse to delete `dir` under `--force` unless it is a directory this project wrote (`ours`
 * says how to recognise one, `what` names it) and none of: `/`, the home directory, the working
 * directory or one of its ancestors (which covers `.` and `..`).
 */
export function checkForceTarget(dir: string, ours: (dir: string) => boolean, what: string): void {
  const real = realpathSync(resolve(dir));
  const cwd = realpathSync(process.cwd());
  const home = existsSync(homedir()) ? realpathSync(homedir()) : homedir();
  const rel = relative(real, cwd);
  const isAncestorOfCwd = rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  if (real === parse(real).root || real === home || isAncestorOfCwd) {
    throw new AnchorError(
      'BAD_ARGUMENT',
      `--force refuses to delete ${real}: it is ${real === parse(real).root ? 'the root directory' : real === home ? 'your home directory' : 'the working directory or one of its parents'}`,
    );
  }
  if (!ours(real)) {
    throw new AnchorError(
      'BAD_ARGUMENT',
      `--force refuses to delete ${real}: it is not ${what}; choose another --out, or remove it yourself`,
    );
  }
}

/** Delete the contents of `dir` except `keep` (our lock file): `--force` after the checks above. */
export function emptyDir(dir: string, keep: readonly string[] = []): void {
  for (const n of readdirSync(dir)) if (!keep.includes(n)) rmSync(join(dir, n), { recursive: true, force: true });
}

// --- one writer at a time --------------------------------------------------------------------------

/** The lock file of a run (or sweep) directory. */
export const LOCK_FILE = '.lock';

/** What the lock file holds. */
interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
  command: string;
}

function readHolder(path: string): LockHolder | null {
  try {
    const h = JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
    return typeof h.pid === 'number' && typeof h.host === 'string' ? h : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process its parent has not reaped yet (a zombie) still answers signal 0.
  if (!existsSync('/proc/self/stat')) return true; // no procfs (macOS): trust signal 0
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false; // exited since the signal
  }
}

/** True when `h` is a process on this host that is still running (another host: unknown, false). */
function liveOnThisHost(h: { pid: number; host: string }): boolean {
  return h.host === hostname() && alive(h.pid);
}

/**
 * RUN_LOCKED when the arm process recorded in `<arm>/arm.json` is still running on this host
 * and is not us: after its parent was killed, an arm process finishes its step and checkpoints
 * on its own, and a second one must not start on the same arm meanwhile.
 */
export function checkArmWriter(armDir: string, writer: { pid: number; host: string } | undefined): void {
  if (writer && writer.pid !== process.pid && liveOnThisHost(writer)) {
    throw new AnchorError(
      'RUN_LOCKED',
      `${armDir} is still being written by its arm process (pid ${writer.pid} on ${writer.host}), which checkpoints and exits on its own; retry when it has exited`,
    );
  }
}

const describeHolder = (h: LockHolder | null) =>
  h ? `\`${h.command}\` (pid ${h.pid} on ${h.host}, since ${h.startedAt})` : 'an unreadable lock';

/** A held lock; `release` is idempotent and removes the file only while it is still ours. */
export interface RunLock {
  path: string;
  release(): void;
}

/** Releases of the locks this process holds, run by one shared `exit` listener. */
const heldLocks = new Set<() => void>();

/** Release every lock still held (the process is exiting). */
function releaseAllAtExit(): void {
  for (const release of [...heldLocks]) release();
}

// One listener for all held locks, not one per lock: a sweep holds its directory and every seed
// run directory at once, and eleven listeners trip Node's MaxListenersExceededWarning.
function releaseAtExit(release: () => void): void {
  if (heldLocks.size === 0) process.on('exit', releaseAllAtExit);
  heldLocks.add(release);
}

function forgetAtExit(release: () => void): void {
  heldLocks.delete(release);
  if (heldLocks.size === 0) process.off('exit', releaseAllAtExit);
}

/**
 * Take the exclusive lock of `dir` (created if missing): `.lock` created with O_EXCL, holding
 * our PID, host, start time and `command`. Held by a live process (or one on another host):
 * RUN_LOCKED naming the holder. Left by a dead process on this host: reported, and taken over
 * only when `takeOverStale` (resume; a rerun sweep), else RUN_LOCKED saying to resume.
 */
export function lockDir(
  dir: string,
  command: string,
  opts: { takeOverStale?: boolean; log?: (l: string) => void } = {},
): RunLock {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  const me: LockHolder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), command };
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new AnchorError('BAD_ARGUMENT', `cannot lock ${dir}: ${code ?? (err as Error).message}`);
      const holder = readHolder(path);
      const stale = holder !== null && holder.host === me.host && !liveOnThisHost(holder);
      if (!stale)
        throw new AnchorError(
          'RUN_LOCKED',
          `${dir} is in use by ${describeHolder(holder)}; wait for it to finish or stop it (if no such process exists, remove ${path})`,
        );
      if (!opts.takeOverStale) {
        throw new AnchorError(
          'RUN_LOCKED',
          `${dir} has a stale lock from ${describeHolder(holder)}, which is no longer running: continue the run with \`anchor-rl resume ${dir}\``,
        );
      }
      opts.log?.(`taking over the stale lock of ${dir} from ${describeHolder(holder)}, which is no longer running`);
      unlinkSync(path);
      continue;
    }
    try {
      writeSync(fd, JSON.stringify(me) + '\n');
    } finally {
      closeSync(fd);
    }
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      forgetAtExit(release);
      if (readHolder(path)?.pid === process.pid) rmSync(path, { force: true });
    };
    // Last resort (process.exit, an uncaught error); normal paths release in a finally.
    releaseAtExit(release);
    return { path, release };
  }
  throw new AnchorError('RUN_LOCKED', `${dir}: lost the race for its lock to another process`);
}

// --- the resolved config's hash ------------------------------------------------------------------

/** JSON with object keys sorted, so the hash does not depend on key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value as object)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 (hex) of a resolved config. */
export function configHash(config: unknown): string {
  return createHash('sha256').update(canonical(config)).digest('hex');
}
