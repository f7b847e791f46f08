/**
 * Replies of `anchor-rl serve`: every response with headers that keep the page local (no
 * caching, no framing, a strict content security policy), and a run's own files streamed as they
 * are on disk.
 */
import { createReadStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { AnchorError } from '../util/errors.ts';
import { findEntry } from './discover.ts';
import { idFrom, messageOf, statusOf, type Scope } from './router.ts';

/** Files of a run directory `/files/RUN?f=NAME` serves, with their content types. */
const RUN_FILES: Record<string, string> = {
  'report.html': 'text/html; charset=utf-8',
  'compare.md': 'text/plain; charset=utf-8',
  'compare.json': 'application/json',
  'manifest.json': 'application/json',
};
/** Files of an arm directory `/files/RUN?arm=ARM&f=NAME` serves. */
const ARM_FILES: Record<string, string> = {
  'metrics.jsonl': 'text/plain; charset=utf-8',
  'metrics.csv': 'text/csv; charset=utf-8',
  'samples.jsonl': 'text/plain; charset=utf-8',
  'refits.jsonl': 'text/plain; charset=utf-8',
  'gate.jsonl': 'text/plain; charset=utf-8',
  'arm.json': 'application/json',
};

const TEXT = 'text/plain; charset=utf-8';

/** Send a whole reply. */
export function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'content-security-policy':
      "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'",
    ...headers,
  });
  res.end(body);
}

/**
 * Stream `/files/RUN?f=NAME` (or `&arm=ARM`): only the names above, only inside a run the index
 * lists — the logs behind the charts and the end-of-run report.
 */
export function sendFile(scope: Scope, res: ServerResponse, path: string, u: URL): void {
  const name = u.searchParams.get('f') ?? '';
  const arm = u.searchParams.get('arm');
  const shown = `${arm !== null ? `${arm}/` : ''}${name}`;
  const type = arm === null ? RUN_FILES[name] : ARM_FILES[name];
  try {
    const entry = findEntry(scope.root, scope.only, 'run', idFrom(path, '/files/'));
    if (!type || (arm !== null && (!/^[\w.-]+$/.test(arm) || arm === '.' || arm === '..')))
      throw new AnchorError('BAD_REQUEST', `not a file of a run: ${shown}`);
    const stream = createReadStream(arm === null ? join(entry.dir, name) : join(entry.dir, arm, name));
    stream.once('open', () => {
      res.writeHead(200, {
        'content-type': type,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
      });
      stream.pipe(res);
    });
    stream.once('error', (err: NodeJS.ErrnoException) => {
      if (res.headersSent) return void res.end();
      const missing = err.code === 'ENOENT';
      send(res, missing ? 404 : 503, TEXT, `${missing ? 'no such file (yet)' : 'unreadable'}: ${shown}\n`);
    });
  } catch (err) {
    send(res, statusOf(err), TEXT, `${messageOf(err)}\n`);
  }
}
