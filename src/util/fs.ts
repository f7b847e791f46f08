/** Small durable-write helpers: temp file + fsync + rename, so readers never see half a file. */
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';

/** Write `data` to `path` atomically (temp file in the same directory, fsync, rename). */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  try {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** Write pretty JSON atomically. */
export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, JSON.stringify(value, null, 2) + '\n');
}
