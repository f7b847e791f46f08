/**
 * TensorBoard event files (`logging.tensorboard: true`): every numeric value an arm logs becomes a
 * scalar, so `tensorboard --logdir runs/` shows each arm of each run next to the others.
 *
 * The format is TensorFlow's: a file named `events.out.tfevents.<seconds>.<host>` holding
 * TFRecords — uint64 length (little-endian), uint32 masked CRC-32C of the length bytes, the
 * serialized `tensorflow.Event`, uint32 masked CRC-32C of the data — the first record a
 * `file_version: "brain.Event:2"` event. Events are encoded by protobufjs from the subset of
 * tensorflow/core/util/event.proto and summary.proto below (field numbers copied from those
 * files; they are the wire format and must never be renumbered).
 *
 * Resume: the JSONL logs are cut back to the checkpoint, but an event file is append-only for
 * TensorBoard's readers, so a resumed arm starts a new event file whose first events are
 * `file_version` and a `SessionLog START` at the first step it will log: TensorBoard then hides
 * ("purges") the older file's events at and after that step — what PyTorch's
 * `SummaryWriter(purge_step=...)` writes.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import type { MetricRecord, MetricWriter } from './logger.ts';

const EVENT_PROTO_SUBSET = `
syntax = "proto3";
package tensorflow;

message Summary {
  message Value {
    string node_name = 7;
    string tag = 1;
    oneof value {
      float simple_value = 2;
    }
  }
  repeated Value value = 1;
}

message SessionLog {
  enum SessionStatus { STATUS_UNSPECIFIED = 0; START = 1; STOP = 2; CHECKPOINT = 3; }
  SessionStatus status = 1;
  string checkpoint_path = 2;
  string msg = 3;
}

message Event {
  double wall_time = 1;
  int64 step = 2;
  oneof what {
    string file_version = 3;
    Summary summary = 5;
    SessionLog session_log = 7;
  }
}
`;

let eventType: protobuf.Type | undefined;

function event(): protobuf.Type {
  eventType ??= protobuf.parse(EVENT_PROTO_SUBSET, { keepCase: true }).root.lookupType('tensorflow.Event');
  return eventType;
}

// --- TFRecord framing ---------------------------------------------------------------------------

/** CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) lookup table. */
const CRC32C_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32C of `bytes`. */
export function crc32c(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC32C_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** TFRecord's masked CRC: rotate right by 15 bits and add a constant (so CRCs of CRCs stay useful). */
function maskedCrc32c(bytes: Uint8Array): number {
  const c = crc32c(bytes);
  return ((((c >>> 15) | (c << 17)) >>> 0) + 0xa282ead8) >>> 0;
}

/** One TFRecord: length, masked CRC of the length, data, masked CRC of the data. */
function tfRecord(data: Uint8Array): Buffer {
  const out = Buffer.alloc(8 + 4 + data.length + 4);
  out.writeBigUInt64LE(BigInt(data.length), 0);
  out.writeUInt32LE(maskedCrc32c(out.subarray(0, 8)), 8);
  out.set(data, 12);
  out.writeUInt32LE(maskedCrc32c(data), 12 + data.length);
  return out;
}

// --- the writer ---------------------------------------------------------------------------------

/** The value TensorBoard plots for one logged value, or null when it is not a scalar. */
function scalarOf(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return null;
}

/**
 * Appends events to a new event file in `dir`. As a {@link MetricWriter} it writes every numeric
 * (and boolean, as 0/1) key of a metrics record as a scalar at the record's `step`; strings and
 * nulls (steps without a value) are skipped.
 */
export class TensorBoardWriter implements MetricWriter {
  readonly path: string;
  private fd: number;

  /**
   * @param dir directory of the event file (the arm directory: TensorBoard names the run after it)
   * @param resumeStep first step this process will log when it continues an earlier one: older
   *   events at or after it are purged by TensorBoard
   */
  constructor(dir: string, resumeStep?: number) {
    // TensorBoard reads a directory's event files in name order; a resume within the same second
    // gets a suffix that sorts after the earlier file instead of reopening it.
    const base = join(dir, `events.out.tfevents.${Math.floor(Date.now() / 1000)}.${hostname()}`);
    let n = 0;
    for (;;) {
      const path = n === 0 ? base : `${base}.${String(n).padStart(3, '0')}`;
      try {
        this.fd = openSync(path, 'wx');
        this.path = path;
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        n++;
      }
    }
    this.writeEvent({ wall_time: Date.now() / 1000, step: resumeStep ?? 0, file_version: 'brain.Event:2' });
    if (resumeStep !== undefined) this.writeEvent({ wall_time: Date.now() / 1000, step: resumeStep, session_log: { status: 1 } });
  }

  /** Write `values` (namespaced keys, e.g. `reward/gold`) as scalars at `step`, tagged `prefix/key` when a prefix is given. */
  writeScalars(step: number, values: Record<string, unknown>, prefix = ''): void {
    const value = Object.entries(values)
      .filter(([k]) => k !== 'step')
      .map(([k, v]) => ({ tag: prefix ? `${prefix}/${k}` : k, simple_value: scalarOf(v) }))
      .filter((x): x is { tag: string; simple_value: number } => x.simple_value !== null);
    if (value.length > 0) this.writeEvent({ wall_time: Date.now() / 1000, step, summary: { value } });
  }

  write(record: MetricRecord): void {
    const step = record.step;
    if (typeof step === 'number') this.writeScalars(step, record);
  }

  private writeEvent(e: Record<string, unknown>): void {
    const t = event();
    const bytes = t.encode(t.fromObject(e)).finish();
    const rec = tfRecord(bytes);
    let off = 0;
    while (off < rec.length) off += writeSync(this.fd, rec, off, rec.length - off);
  }

  /** Flush to disk (with the JSONL logs before a checkpoint). */
  sync(): void {
    fsyncSync(this.fd);
  }

  close(): void {
    closeSync(this.fd);
  }
}
