/**
 * Reading dataset files: JSONL (optionally gzip-compressed) and JSON arrays, with errors that
 * name the file and line.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { AnchorError } from '../util/errors.ts';
import { stripBom } from '../util/text.ts';

/** One parsed record and the 1-based line it came from. */
export interface LineRecord {
  line: number;
  value: unknown;
}

/** Read a file as text, transparently gunzipping `.gz` files (detected by magic bytes). */
function readText(path: string): string {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (err) {
    throw new AnchorError('NOT_FOUND', `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (buf.length >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) {
    try {
      buf = gunzipSync(buf);
    } catch (err) {
      throw new AnchorError('BAD_DATASET', `${path}: corrupt gzip data (${(err as Error).message})`);
    }
  }
  return stripBom(buf.toString('utf8'));
}

/**
 * Parse JSON Lines. Blank lines are skipped; a line that is not JSON throws BAD_DATASET
 * naming `path:line` unless `onError` is given, in which case it is reported and skipped.
 */
function parseJsonl(text: string, path: string, onError?: (line: number, message: string) => void): LineRecord[] {
  const out: LineRecord[] = [];
  const lines = stripBom(text).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === '') continue;
    try {
      out.push({ line: i + 1, value: JSON.parse(raw) });
    } catch (err) {
      const message = `not valid JSON (${(err as Error).message})`;
      if (onError) onError(i + 1, message);
      else throw new AnchorError('BAD_DATASET', `${path}:${i + 1}: ${message}`, { file: path, line: i + 1 });
    }
  }
  return out;
}

/**
 * Read records from a `.json` array or a JSONL file. For a JSON array, `line` is the line on
 * which each element starts, so errors still point into the file.
 */
export function readRecords(path: string): LineRecord[] {
  const text = readText(path);
  const head = text.trimStart();
  if (head.startsWith('[')) {
    let arr: unknown;
    try {
      arr = JSON.parse(text);
    } catch (err) {
      throw new AnchorError('BAD_DATASET', `${path}: not valid JSON (${(err as Error).message})`, { file: path });
    }
    if (!Array.isArray(arr)) throw new AnchorError('BAD_DATASET', `${path}: expected a JSON array of records`);
    const starts = elementLines(text);
    return arr.map((value, i) => ({ line: starts[i] ?? 1, value }));
  }
  return parseJsonl(text, path);
}

/** Line numbers at which top-level array elements start (a light scanner, strings aware). */
function elementLines(text: string): number[] {
  const starts: number[] = [];
  let depth = 0;
  let line = 1;
  let inString = false;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') line++;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (depth === 1 && expectElement && !/\s/.test(c) && c !== ']') {
      starts.push(line);
      expectElement = false;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) expectElement = true;
    } else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) expectElement = true;
  }
  return starts;
}
