/** Small durable-write helpers: temp file + fsync + rename, so readers never see half a file. */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Write `data` to `path` and fsync it (in place: for files inside a directory renamed later). */
export function writeFileDurable(path: string, data: string | Uint8Array): void {
  const fd = openSync(path, 'w');
  try {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** fsync a directory so a rename inside it is durable (some filesystems refuse: ignored). */
export function fsyncDir(path: string): void {
  try {
    const fd = openSync(path, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // The renames are still atomic.
  }
}

/** Write `data` to `path` atomically (temp file in the same directory, fsync, rename); creates the directory. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileDurable(tmp, data);
  renameSync(tmp, path);
}

/** Write pretty JSON atomically. */
export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, JSON.stringify(value, null, 2) + '\n');
}
