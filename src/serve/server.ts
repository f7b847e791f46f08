/**
 * `anchor-rl serve`: a local web server (node:http, 127.0.0.1 only) showing the runs under a
 * directory live — the runs index, a page per run and per sweep with the report's charts and
 * comparison plus the arms' progress, and an overlay of chosen runs.
 *
 * Reading only: every request reads the run directories afresh (cached by fingerprint, see
 * ./cache.ts), nothing is written into them and no state is kept elsewhere, so runs may be
 * written, truncated by a resume or deleted while it serves. Pages update through server-sent
 * events: each open page's watched directories are fingerprinted every `pollMs` and a `change`
 * event tells the page to fetch its fragments again.
 *
 * The parts: ./auth.ts (who may ask), ./router.ts (what a request asks for, errors → statuses),
 * ./cache.ts (builds and fingerprints), ./views.ts (the slots), ./page.ts (the HTML shell),
 * ./respond.ts (headers, a run's files). This module wires them to a listening server.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { AnchorError } from '../util/errors.ts';
import { accessCheck, HOST } from './auth.ts';
import { BuildCache, targetFingerprint, targetKey } from './cache.ts';
import { CLIENT_JS } from './client.ts';
import { serveRoot, visibleEntries } from './discover.ts';
import { errorPageHtml, pageHtml } from './page.ts';
import { send, sendFile } from './respond.ts';
import { messageOf, statusOf, targetOf, watchedOf, type Scope, type Target } from './router.ts';
import { indexSlots, overlaySlots, runSlots, sweepSlots, type Slots } from './views.ts';

/** Options of {@link startServer}. */
export interface ServeOptions {
  /** Runs directory (or one run or sweep directory). */
  dir: string;
  /** TCP port on 127.0.0.1 (0: any free port). */
  port: number;
  /** Access token; a random one when undefined; null turns access control off. */
  token?: string | null;
  /** How often open pages' directories are checked for changes, in ms (default 1000). */
  pollMs?: number;
}

/** A running server. */
export interface LiveServer {
  /** The URL to open (with the token). */
  url: string;
  port: number;
  token: string | null;
  close(): Promise<void>;
}

const TEXT = 'text/plain; charset=utf-8';

/** Build (or take from `cache`) the slots of target `t`. */
function buildSlots(scope: Scope, cache: BuildCache, t: Target, fp: string): Promise<Slots> {
  return cache.get(targetKey(t), fp, async () => {
    if (t.page === 'index') return indexSlots(visibleEntries(scope.root, scope.only));
    if (t.page === 'run') return runSlots(t.entries[0]!, t.window);
    if (t.page === 'sweep') return sweepSlots(t.entries[0]!, t.window);
    return overlaySlots(t.entries, t.metric, t.window);
  });
}

/**
 * The change stream of `/api/events`: a `change` event whenever the watched directories'
 * fingerprint moves (checked every `pollMs`), a keep-alive comment otherwise every 15 checks.
 */
function changeStream(
  scope: Scope,
  req: IncomingMessage,
  res: ServerResponse,
  u: URL,
  pollMs: number,
  streams: Set<ServerResponse>,
): void {
  const watched = watchedOf(scope, u);
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-content-type-options': 'nosniff',
  });
  res.write('retry: 2000\n\n');
  streams.add(res);
  let last = '';
  let beats = 0;
  const tick = () => {
    let fp: string;
    try {
      fp = targetFingerprint(scope.root, scope.only, watched);
    } catch {
      fp = 'unreadable';
    }
    if (fp !== last) {
      last = fp;
      res.write(`event: change\ndata: ${fp}\n\n`);
    } else if (++beats % 15 === 0) res.write(': keep-alive\n\n');
  };
  tick();
  const timer = setInterval(tick, pollMs);
  req.on('close', () => {
    clearInterval(timer);
    streams.delete(res);
  });
}

/** A page or its data (`/api/...`); an error shows the page's shell with the reason, still watching. */
async function sendPage(scope: Scope, cache: BuildCache, res: ServerResponse, path: string, u: URL): Promise<void> {
  const api = path.startsWith('/api/');
  let target: Target | null = null;
  try {
    target = targetOf(scope, api ? path.slice(4).replace(/^\/index$/, '/') : path, u);
    if (!target)
      return api
        ? send(res, 404, 'application/json', JSON.stringify({ error: 'no such page' }))
        : send(res, 404, TEXT, 'no such page\n');
    const fp = targetFingerprint(scope.root, scope.only, target);
    const built = await buildSlots(scope, cache, target, fp);
    if (api)
      return send(res, 200, 'application/json', JSON.stringify({ fingerprint: fp, title: built.title, slots: built.slots }));
    const entries = visibleEntries(scope.root, scope.only);
    return send(
      res,
      200,
      'text/html; charset=utf-8',
      pageHtml(target, built, entries, `/api${path === '/' ? '/index' : path}`, fp),
    );
  } catch (err) {
    const status = statusOf(err);
    if (api) return send(res, status, 'application/json', JSON.stringify({ error: messageOf(err) }));
    // A page whose run is half-written or gone: the shell with the reason, still watching.
    if (target && status !== 404 && status !== 400) {
      const shell = { title: `anchor-rl — ${target.entries.map((e) => e.id).join(', ')}`, slots: {} };
      const entries = visibleEntries(scope.root, scope.only);
      return send(res, status, 'text/html; charset=utf-8', pageHtml(target, shell, entries, `/api${path}`, '', messageOf(err)));
    }
    return send(res, status, 'text/html; charset=utf-8', errorPageHtml(messageOf(err)));
  }
}

/** Start the server; resolves once it listens. */
export async function startServer(opts: ServeOptions): Promise<LiveServer> {
  const scope: Scope = serveRoot(opts.dir);
  const token = opts.token === undefined ? randomBytes(24).toString('base64url') : opts.token;
  const pollMs = opts.pollMs ?? 1000;
  const cache = new BuildCache();
  const streams = new Set<ServerResponse>();
  let port = opts.port;
  const access = accessCheck(token, () => port);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const u = new URL(req.url ?? '/', `http://${HOST}:${port}`);
    const refused = access(req, u);
    if (refused) return send(res, refused.status, TEXT, refused.body, refused.headers);
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(res, 405, TEXT, 'read-only server: GET only\n', { allow: 'GET, HEAD' });
    const path = u.pathname;
    if (path === '/static/live.js') return send(res, 200, 'text/javascript; charset=utf-8', CLIENT_JS);
    if (path === '/favicon.ico') return send(res, 204, 'text/plain', '');
    if (path.startsWith('/files/')) return sendFile(scope, res, path, u);
    if (path === '/api/events') {
      try {
        return changeStream(scope, req, res, u, pollMs, streams);
      } catch (err) {
        return send(res, statusOf(err), 'application/json', JSON.stringify({ error: messageOf(err) }));
      }
    }
    return sendPage(scope, cache, res, path, u);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) send(res, 500, TEXT, `internal error: ${(err as Error).message}\n`);
      else res.end();
    });
  });
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new AnchorError(
              'BAD_ARGUMENT',
              `port ${opts.port} is in use on ${HOST}; pick another with --port (0 = any free port)`,
            )
          : err,
      ),
    );
    server.listen(opts.port, HOST, () => resolvePromise());
  });
  const addr = server.address();
  port = typeof addr === 'object' && addr ? addr.port : opts.port;
  return {
    url: `http://${HOST}:${port}/${token !== null ? `?token=${token}` : ''}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolveClose) => {
        for (const s of streams) s.end();
        server.close(() => resolveClose());
        server.closeAllConnections?.();
      }),
  };
}
