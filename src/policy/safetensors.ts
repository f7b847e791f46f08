/**
 * A small reader/writer for the safetensors format (https://github.com/huggingface/safetensors):
 * 8-byte little-endian header length N, then N bytes of JSON header
 * `{name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__"?: {string: string}}`, then
 * the raw little-endian tensor bytes (offsets relative to the end of the header).
 *
 * Written here rather than taken from npm because the format is tiny and the only packages
 * found wrap other stacks. F32 (default), F16 and BF16 are written; F32/F16/BF16/F64/I64/I32 are read (converted to
 * Float32Array, which is all the policy needs).
 */
import { AnchorError } from '../util/errors.ts';
import type { WeightMap } from './weights.ts';

const DTYPE_BYTES: Record<string, number> = { F32: 4, F16: 2, BF16: 2, F64: 8, I64: 8, I32: 4, I16: 2, I8: 1, U8: 1, BOOL: 1 };

/** Serialise tensors (+ optional string metadata) to safetensors bytes. Tensor order is kept. */
export function encodeSafetensors(
  tensors: WeightMap,
  metadata?: Record<string, string>,
  dtype: 'F32' | 'F16' | 'BF16' = 'F32',
): Uint8Array {
  const width = dtype === 'F32' ? 4 : 2;
  const header: Record<string, unknown> = {};
  if (metadata && Object.keys(metadata).length > 0) header.__metadata__ = metadata;
  let offset = 0;
  for (const [name, t] of tensors) {
    if (name === '__metadata__') throw new AnchorError('BAD_ARGUMENT', 'safetensors: "__metadata__" is not a valid tensor name');
    const size = t.shape.reduce((a, b) => a * b, 1);
    if (size !== t.data.length)
      throw new AnchorError('BAD_ARGUMENT', `safetensors: '${name}' has ${t.data.length} values for shape [${t.shape}]`);
    const bytes = t.data.length * width;
    header[name] = { dtype, shape: t.shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let json = JSON.stringify(header);
  // Pad the header with spaces so the data starts 8-byte aligned (as the reference writer does).
  const raw = new TextEncoder().encode(json);
  const pad = (8 - ((8 + raw.length) % 8)) % 8;
  json += ' '.repeat(pad);
  const headerBytes = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + headerBytes.length + offset);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(headerBytes.length), true);
  out.set(headerBytes, 8);
  let at = 8 + headerBytes.length;
  for (const t of tensors.values()) {
    const dst = new DataView(out.buffer, at, t.data.length * width);
    if (dtype === 'F32') for (let i = 0; i < t.data.length; i++) dst.setFloat32(i * 4, t.data[i]!, true);
    else if (dtype === 'F16') for (let i = 0; i < t.data.length; i++) dst.setUint16(i * 2, floatToHalf(t.data[i]!), true);
    else for (let i = 0; i < t.data.length; i++) dst.setUint16(i * 2, floatToBf16(t.data[i]!), true);
    at += t.data.length * width;
  }
  return out;
}

/** Parsed safetensors contents. */
export interface SafetensorsFile {
  tensors: WeightMap;
  metadata: Record<string, string>;
}

/** Parse safetensors bytes; every tensor is converted to float32. `what` names the file in errors. */
export function decodeSafetensors(bytes: Uint8Array, what = 'safetensors file'): SafetensorsFile {
  const bad = (msg: string): never => {
    throw new AnchorError('BAD_MODEL', `${what}: ${msg}`);
  };
  if (bytes.length < 8) bad('too short for a header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Number(view.getBigUint64(0, true));
  if (n > 100_000_000) bad(`header length ${n} exceeds the 100,000,000-byte limit`);
  if (n > bytes.length - 8)
    bad(`truncated: the header says ${n} header bytes, the file has ${bytes.length - 8} after the length`);
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n))) as Record<string, unknown>;
  } catch {
    return bad('header is not valid JSON');
  }
  if (!header || typeof header !== 'object' || Array.isArray(header)) bad('header is not a JSON object');
  const dataStart = 8 + n;
  const dataLen = bytes.length - dataStart;
  const tensors: WeightMap = new Map();
  let metadata: Record<string, string> = {};
  const spans: { name: string; begin: number; end: number }[] = [];
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') {
      metadata = (entry ?? {}) as Record<string, string>;
      continue;
    }
    const e = entry as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    const dtype = String(e?.dtype);
    const width = DTYPE_BYTES[dtype];
    if (!width) bad(`tensor '${name}' has unsupported dtype ${dtype}`);
    if (!Array.isArray(e.shape) || e.shape.some((s) => !Number.isInteger(s) || s < 0)) bad(`tensor '${name}' has a bad shape`);
    const shape = e.shape as number[];
    if (!Array.isArray(e.data_offsets) || e.data_offsets.length !== 2) bad(`tensor '${name}' has bad data_offsets`);
    const [begin, end] = e.data_offsets as [number, number];
    const count = shape.reduce((a, b) => a * b, 1);
    if (!(Number.isInteger(begin) && Number.isInteger(end) && begin >= 0 && end >= begin) || end - begin !== count * width!)
      bad(`tensor '${name}' data_offsets [${begin}, ${end}] do not match shape [${shape}] ${dtype}`);
    if (end > dataLen)
      bad(`truncated: tensor '${name}' ends at data byte ${end} but the file holds ${dataLen} data bytes after its header`);
    spans.push({ name, begin, end });
    tensors.set(name, { shape, data: toFloat32(bytes, dataStart + begin, count, dtype) });
  }
  checkSpans(spans, dataLen, bad);
  return { tensors, metadata };
}

/**
 * The reference implementation's layout rule: sorted by offset, the tensors tile the data
 * section exactly, each starting where the previous one ended. Overlapping tensors would alias
 * each other's bytes (one weight silently the other's), and a gap or trailing bytes mean the
 * header does not describe the file.
 */
function checkSpans(spans: { name: string; begin: number; end: number }[], dataLen: number, bad: (msg: string) => never): void {
  const sorted = [...spans].sort((a, b) => a.begin - b.begin || a.end - b.end);
  let at = 0;
  let prev: string | undefined;
  for (const s of sorted) {
    if (s.begin < at)
      bad(`tensor '${s.name}' data_offsets [${s.begin}, ${s.end}] overlap tensor '${prev}' (which ends at ${at})`);
    if (s.begin > at) bad(`tensor '${s.name}' starts at data byte ${s.begin}, leaving bytes ${at}–${s.begin} unused`);
    at = s.end;
    prev = s.name;
  }
  if (at !== dataLen) bad(`the tensors end at data byte ${at} but the file holds ${dataLen} data bytes after its header`);
}

function toFloat32(bytes: Uint8Array, at: number, count: number, dtype: string): Float32Array {
  const v = new DataView(bytes.buffer, bytes.byteOffset + at, count * (DTYPE_BYTES[dtype] ?? 1));
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    switch (dtype) {
      case 'F32':
        out[i] = v.getFloat32(i * 4, true);
        break;
      case 'F64':
        out[i] = v.getFloat64(i * 8, true);
        break;
      case 'I64':
        out[i] = Number(v.getBigInt64(i * 8, true));
        break;
      case 'I32':
        out[i] = v.getInt32(i * 4, true);
        break;
      case 'I16':
        out[i] = v.getInt16(i * 2, true);
        break;
      case 'I8':
        out[i] = v.getInt8(i);
        break;
      case 'U8':
      case 'BOOL':
        out[i] = v.getUint8(i);
        break;
      case 'F16':
        out[i] = halfToFloat(v.getUint16(i * 2, true));
        break;
      case 'BF16': {
        const b = new DataView(new ArrayBuffer(4));
        b.setUint32(0, v.getUint16(i * 2, true) << 16, false);
        out[i] = b.getFloat32(0, false);
        break;
      }
      default:
        throw new AnchorError('BAD_MODEL', `unsupported dtype ${dtype}`);
    }
  }
  return out;
}

/** IEEE 754 half-precision bits → number. */
export function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

/**
 * Throw BAD_MODEL when any tensor holds NaN or ±Infinity (a corrupt or diverged file must not be
 * trained on or resumed from); the message names `path`, the tensor and the index.
 */
export function assertFiniteTensors(
  tensors: Iterable<[string, { data: ArrayLike<number> }]>,
  path: string,
  what = 'values',
): void {
  for (const [name, t] of tensors) {
    for (let i = 0; i < t.data.length; i++) {
      if (!Number.isFinite(t.data[i]!)) {
        throw new AnchorError('BAD_MODEL', `${path} holds non-finite ${what}: ${name}[${i}] = ${t.data[i]}`, {
          file: path,
          tensor: name,
          index: i,
        });
      }
    }
  }
}

/** number → IEEE 754 half-precision bits (round to nearest even). */
export function floatToHalf(v: number): number {
  const f32 = new Float32Array([v]);
  const x = new Uint32Array(f32.buffer)[0]!;
  const sign = (x >>> 16) & 0x8000;
  const e = ((x >>> 23) & 0xff) - 127 + 15;
  let m = x & 0x7fffff;
  if (((x >>> 23) & 0xff) === 0xff) return sign | 0x7c00 | (m ? 0x200 : 0);
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    m |= 0x800000;
    const shift = 14 - e;
    let h = m >>> shift;
    const rem = m & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rem > half || (rem === half && h & 1)) h++;
    return sign | h;
  }
  let h = (e << 10) | (m >>> 13);
  const rem = m & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && h & 1)) h++;
  return sign | h;
}

/** number → bfloat16 bits (round to nearest even). */
function floatToBf16(v: number): number {
  const x = new Uint32Array(new Float32Array([v]).buffer)[0]!;
  if ((x & 0x7f800000) === 0x7f800000 && x & 0x7fffff) return 0x7fc0;
  return ((x + 0x7fff + ((x >>> 16) & 1)) >>> 16) & 0xffff;
}
