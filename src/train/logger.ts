/**
 * Key-value metrics logging (the pattern of SB3/cleanrl loggers): the trainer records
 * namespaced keys (`reward/proxy`, `reward/gold`, `kl/ref`, `perf/rollout_s`, ...) during a
 * step and `dump(step)` hands one record to every writer. Writers: JSONL (the source of truth,
 * with byte offsets for exact resume), CSV (derived from the JSONL), and optionally TensorBoard
 * event files (./tensorboard.ts).
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';

/** One logged value. */
export type MetricValue = number | string | boolean | null;

/** A flat record of namespaced keys. */
export type MetricRecord = Record<string, MetricValue>;

/** Something that consumes dumped records. */
export interface MetricWriter {
  write(record: MetricRecord): void;
  close(): void;
}

/** Appends one JSON line per record; knows its byte offset so resume can truncate to it. */
export class JsonlWriter implements MetricWriter {
  private fd: number;

  /** Open `path` for appending; with `truncateTo`, cut the file there first (resume). */
  constructor(
    readonly path: string,
    truncateTo?: number,
  ) {
    this.fd = openSync(path, existsSync(path) ? 'r+' : 'w+');
    const size = statSync(path).size;
    if (truncateTo !== undefined && truncateTo < size) ftruncateSync(this.fd, truncateTo);
  }

  /** Current end of file in bytes (store it in checkpoints). */
  offset(): number {
    return statSync(this.path).size;
  }

  write(record: object): void {
    this.writeLine(JSON.stringify(record));
  }

  /** Append one already-serialised line (no newline in `line`). */
  writeLine(line: string): void {
    writeSync(this.fd, line + '\n', this.offset());
  }

  /** Flush to disk (called before a checkpoint records the offset). */
  sync(): void {
    fsyncSync(this.fd);
  }

  close(): void {
    closeSync(this.fd);
  }
}

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * Write a CSV copy of a metrics JSONL file (columns = union of keys in first-seen order).
 * Derived rather than appended so it can never disagree with the JSONL after a resume.
 */
export function writeCsvFromJsonl(jsonlPath: string, csvPath: string): void {
  const rows = readFileSync(jsonlPath, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const cols: string[] = [];
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) if (!seen.has(k)) seen.add(k), cols.push(k);
  const lines = [cols.map(csvCell).join(',')];
  for (const r of rows) lines.push(cols.map((c) => csvCell(r[c])).join(','));
  writeFileSync(csvPath, lines.join('\n') + '\n');
}

/** Collects key-value pairs for the current step and dumps them to every writer. */
export class KvLogger {
  private current: MetricRecord = {};

  constructor(private readonly writers: MetricWriter[]) {}

  /** Record a value for the current step (last write wins). */
  record(key: string, value: MetricValue): void {
    this.current[key] = typeof value === 'number' && !Number.isFinite(value) ? null : value;
  }

  /** Record several values, optionally under a namespace prefix. */
  recordAll(values: Record<string, MetricValue>, prefix = ''): void {
    for (const [k, v] of Object.entries(values)) this.record(prefix ? `${prefix}/${k}` : k, v);
  }

  /** The values recorded so far this step. */
  peek(): Readonly<MetricRecord> {
    return this.current;
  }

  /** Emit the step's record to every writer and start a new one. */
  dump(step: number): MetricRecord {
    const record: MetricRecord = { step, ...this.current };
    for (const w of this.writers) w.write(record);
    this.current = {};
    return record;
  }

  close(): void {
    for (const w of this.writers) w.close();
  }
}
