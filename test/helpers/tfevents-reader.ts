/**
 * An independent reader of TensorBoard event files, written from the TFRecord and protobuf wire
 * format specifications (not from src/train/tensorboard.ts): its own bitwise CRC-32C, its own
 * varint/fixed/length-delimited field walker, field numbers from tensorflow's event.proto and
 * summary.proto. Any framing, checksum or encoding error throws, naming the record.
 */
import { readFileSync } from 'node:fs';

/** CRC-32C computed bit by bit (Castagnoli polynomial, reflected: 0x82F63B78). */
function crc32cBitwise(bytes: Uint8Array): number {
  let crc = ~0 >>> 0;
  for (const b of bytes) {
    crc ^= b;
    for (let i = 0; i < 8; i++) crc = (crc >>> 1) ^ (0x82f63b78 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** The masking of the TFRecord format: ((crc >> 15) | (crc << 17)) + 0xa282ead8, mod 2^32. */
function masked(crc: number): number {
  const rot = ((crc >>> 15) | (crc << 17)) >>> 0;
  return (rot + 0xa282ead8) % 2 ** 32;
}

/** Split a TFRecord file into its records, checking both CRCs of each. */
export function readTfRecords(buf: Uint8Array): Uint8Array[] {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const out: Uint8Array[] = [];
  let off = 0;
  while (off < buf.length) {
    if (off + 12 > buf.length) throw new Error(`record ${out.length}: truncated header`);
    const len = Number(view.getBigUint64(off, true));
    if (masked(crc32cBitwise(buf.subarray(off, off + 8))) !== view.getUint32(off + 8, true))
      throw new Error(`record ${out.length}: bad length CRC`);
    const start = off + 12;
    if (start + len + 4 > buf.length) throw new Error(`record ${out.length}: truncated data`);
    const data = buf.subarray(start, start + len);
    if (masked(crc32cBitwise(data)) !== view.getUint32(start + len, true)) throw new Error(`record ${out.length}: bad data CRC`);
    out.push(data);
    off = start + len + 4;
  }
  return out;
}

/** One protobuf field: number and raw value (varint as bigint, fixed as bytes, length-delimited as bytes). */
interface Field {
  no: number;
  wire: number;
  varint?: bigint;
  bytes?: Uint8Array;
}

function fields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = (): bigint => {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      if (i >= buf.length) throw new Error('truncated varint');
      const b = buf[i++]!;
      v |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const key = Number(varint());
    const no = key >>> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ no, wire, varint: varint() });
    else if (wire === 1) out.push({ no, wire, bytes: buf.subarray(i, i + 8) }), (i += 8);
    else if (wire === 5) out.push({ no, wire, bytes: buf.subarray(i, i + 4) }), (i += 4);
    else if (wire === 2) {
      const len = Number(varint());
      out.push({ no, wire, bytes: buf.subarray(i, i + len) });
      i += len;
    } else throw new Error(`unsupported wire type ${wire}`);
    if (i > buf.length) throw new Error('field runs past the end of its message');
  }
  return out;
}

const f64 = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, 8).getFloat64(0, true);
const f32 = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, 4).getFloat32(0, true);
const str = (b: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(b);

/** A decoded `tensorflow.Event` (the fields TensorBoard's scalar dashboard reads). */
export interface TfEvent {
  wallTime: number;
  step: number;
  fileVersion?: string;
  /** SessionLog.status (1 = START). */
  sessionStatus?: number;
  /** Summary values with a simple_value: tag → value. */
  scalars?: Record<string, number>;
}

/** Decode one serialized Event: wall_time = 1 (double), step = 2 (int64), file_version = 3, summary = 5, session_log = 7. */
function decodeEvent(buf: Uint8Array): TfEvent {
  const e: TfEvent = { wallTime: 0, step: 0 };
  for (const f of fields(buf)) {
    if (f.no === 1 && f.wire === 1) e.wallTime = f64(f.bytes!);
    else if (f.no === 2 && f.wire === 0) e.step = Number(BigInt.asIntN(64, f.varint!));
    else if (f.no === 3 && f.wire === 2) e.fileVersion = str(f.bytes!);
    else if (f.no === 7 && f.wire === 2) e.sessionStatus = Number(fields(f.bytes!).find((x) => x.no === 1)?.varint ?? 0n);
    else if (f.no === 5 && f.wire === 2) {
      // Summary.value = 1 (repeated Value); Value.tag = 1, Value.simple_value = 2 (float).
      e.scalars ??= {};
      for (const v of fields(f.bytes!).filter((x) => x.no === 1)) {
        const vf = fields(v.bytes!);
        const tag = vf.find((x) => x.no === 1);
        const val = vf.find((x) => x.no === 2 && x.wire === 5);
        if (tag && val) e.scalars[str(tag.bytes!)] = f32(val.bytes!);
      }
    }
  }
  return e;
}

/** Read every event of an event file. */
export function readEventFile(path: string): TfEvent[] {
  return readTfRecords(readFileSync(path)).map(decodeEvent);
}

/**
 * What TensorBoard shows from a directory's event files, read in name order: a `SessionLog START`
 * at step s hides every earlier event at step ≥ s (its "purge" of orphaned data after a restart).
 * Returns step → scalars, the later value winning on a repeated tag.
 */
export function tensorboardView(paths: readonly string[]): Map<number, Record<string, number>> {
  let events: TfEvent[] = [];
  for (const p of [...paths].sort()) {
    for (const e of readEventFile(p)) {
      if (e.sessionStatus === 1) events = events.filter((x) => x.step < e.step);
      events.push(e);
    }
  }
  const out = new Map<number, Record<string, number>>();
  for (const e of events) if (e.scalars) out.set(e.step, { ...out.get(e.step), ...e.scalars });
  return out;
}
