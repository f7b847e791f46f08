/**
 * BENCHMARKS.md is shared by every `npm run bench:*`: each bench owns one `## Heading` section and
 * replaces only that one (appending it when absent), leaving the other benches' figures alone.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

/**
 * The line after which a section's earlier runs are kept: a bench rewriting its section replaces
 * only what stands above it (the latest run), so the history written by hand below survives.
 */
export const HISTORY_MARK = '<!-- earlier runs below: kept when the bench rewrites this section -->';

/**
 * Replace the section whose heading line is exactly `## ${heading}` in `file` (up to its
 * {@link HISTORY_MARK}, when it has one); when absent, append it (or, with `first`, insert it
 * before the first section).
 */
export function writeBenchSection(file: string, heading: string, section: string, opts: { first?: boolean } = {}): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${heading}`);
  let out: string[];
  const firstSection = lines.findIndex((l) => /^## /.test(l));
  if (start < 0 && opts.first && firstSection >= 0) {
    out = [...lines.slice(0, firstSection), ...section.trimEnd().split('\n'), '', ...lines.slice(firstSection)];
  } else if (start < 0) {
    out = [...text.trimEnd().split('\n'), '', ...section.trimEnd().split('\n'), ''];
  } else {
    let end = lines.findIndex((l, i) => i > start && /^## /.test(l));
    if (end < 0) end = lines.length;
    const mark = lines.findIndex((l, i) => i > start && i < end && l.trim() === HISTORY_MARK);
    if (mark >= 0) end = mark;
    out = [...lines.slice(0, start), ...section.trimEnd().split('\n'), '', ...lines.slice(end)];
  }
  writeFileSync(
    file,
    out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n',
  );
}

/** Median of a non-empty list (mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** The 1 / 5 / 15-minute load averages, e.g. "1.84 / 2.58 / 4.48". */
export function machineLoad(): string {
  return loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
}

/**
 * The first line of a bench's section: which command wrote it, when, on how many cores, and the
 * machine's load before and after (figures from a shared machine are noisy; ratios measured side
 * by side in one run are what compare across runs).
 */
export function benchHeader(command: string, file: string, loadBefore: string, loadAfter: string): string {
  return `Written by \`${command}\` (${file}) on ${new Date().toISOString()}; ${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}; load average ${loadBefore} before → ${loadAfter} after.`;
}

const TICKS_PER_S = 100; // Linux USER_HZ

/** A checkout's commit, short, "-dirty" with uncommitted changes (its path when not a git checkout). */
export function gitHead(dir: string): string {
  try {
    return execFileSync('git', ['-C', dir, 'describe', '--always', '--dirty'], { encoding: 'utf8' }).trim();
  } catch {
    return dir;
  }
}

/** CPU seconds (user + system) of the live descendants of this process whose command line names `root`. */
export function workersCpu(root: string): number {
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
