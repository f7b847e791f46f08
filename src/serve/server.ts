/**
 * `anchor-rl serve`: a local web server (node:http, 127.0.0.1 only) showing the runs under a
 * directory live — the runs index, a page per run and per sweep with the report's charts and
 * comparison plus the arms' progress, and an overlay of chosen runs.
 *
 * Reading only: every request reads the run directories afresh (cached by fingerprint, see
 * discover.ts), nothing is written into them and no state is kept elsewhere, so runs may be
 * written, truncated by a resume or deleted while it serves. Pages update through server-sent
 * events: each open page's watched directories are fingerprinted every `pollMs` and a `change`
 * event tells the page to fetch its fragments again.
 *
 * Access: an access token (random per start unless given) must come with every request — in
 * the URL once (`?token=`, then remembered in an HttpOnly cookie, as Jupyter does) or as
 * `Authorization: Bearer` — so other users of the machine cannot read the runs; the Host header
 * must name the loopback address, so a web page elsewhere cannot reach the server by DNS
 * rebinding.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { REPORT_CSS, escapeHtml } from '../report/report.ts';
import { AnchorError } from '../util/errors.ts';
import { CLIENT_JS } from './client.ts';
import { entryFingerprint, findEntry, serveRoot, visibleEntries, type Entry } from './discover.ts';
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

const HOST = '127.0.0.1';

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

const SERVE_CSS = `
nav.top { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; font-size: 13px; margin: 4px 0 12px; }
nav.top select, nav.top input { font-size: 13px; } nav.top input[type=number] { width: 4.5em; }
.live { font-size: 12px; color: #555; } .live.ok::before { content: "● "; color: #2ca02c; } .live.bad::before { content: "● "; color: #d62728; }
.state { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 12px; background: #eee; }
.state-running { background: #e3f0fb; color: #1f5f99; } .state-done { background: #e5f5e5; color: #1d6b1d; }
.state-failed { background: #fde2e1; color: #a61b1b; font-weight: 600; } .state-incomplete, .state-unreadable { background: #fff4d6; color: #7a5a00; }
.stale-note { color: #7a5a00; font-size: 12px; white-space: normal; max-width: 420px; }
.error { color: #a61b1b; font-size: 12px; white-space: normal; max-width: 420px; }
.bar { display: inline-block; width: 90px; height: 8px; background: #eee; border-radius: 4px; vertical-align: middle; overflow: hidden; }
.bar > span { display: block; height: 100%; background: #1f77b4; }
table.runs td, table.progress td, table.progress th { text-align: left; } tr.seed td:nth-child(2) { padding-left: 18px; }
.kind { font-size: 11px; color: #777; } .hl { margin-right: 8px; white-space: nowrap; }
ul.inline { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 16px; }
.banner { background: #fde2e1; border: 1px solid #f3a5a3; padding: 8px 12px; font-size: 13px; }
`;

/** Cached page builds: rebuilt only when the watched directories' fingerprint changes. */
class BuildCache {
  private entries = new Map<string, { fp: string; value: Promise<Slots> }>();

  get(key: string, fp: string, build: () => Promise<Slots>): Promise<Slots> {
    const hit = this.entries.get(key);
    if (hit && hit.fp === fp) return hit.value;
    const value = build();
    // A failed build is not kept: the next request tries again.
    value.catch(() => this.entries.get(key)?.value === value && this.entries.delete(key));
    this.entries.delete(key);
    this.entries.set(key, { fp, value });
    while (this.entries.size > 64) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}

/** A parsed page/data request: what to build and what to watch. */
interface Target {
  page: 'index' | 'run' | 'sweep' | 'overlay';
  entries: Entry[];
  window?: number;
  metric?: string;
}

/** Start the server; resolves once it listens. */
export async function startServer(opts: ServeOptions): Promise<LiveServer> {
  const { root, only } = serveRoot(opts.dir);
  const token = opts.token === undefined ? randomBytes(24).toString('base64url') : opts.token;
  const pollMs = opts.pollMs ?? 1000;
  const cache = new BuildCache();
  const streams = new Set<ServerResponse>();
  let port = opts.port;
  const cookieName = () => `anchor_rl_token_${port}`;

  // --- access ---------------------------------------------------------------------------------
  const same = (a: string, b: string) => {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  };
  const decode = (s: string): string | null => {
    try {
      return decodeURIComponent(s);
    } catch {
      return null; // malformed %-escape
    }
  };
  const cookieToken = (req: IncomingMessage): string | null => {
    for (const part of (req.headers.cookie ?? '').split(';')) {
      const [k, ...v] = part.trim().split('=');
      if (k === cookieName()) return decode(v.join('='));
    }
    return null;
  };
  const bearer = (req: IncomingMessage): string | null => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
  const hostOk = (req: IncomingMessage) =>
    [`${HOST}:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(req.headers.host ?? '');

  // --- targets --------------------------------------------------------------------------------
  const intParam = (u: URL, k: string): number | undefined => {
    const v = u.searchParams.get(k);
    return v === null || v === '' ? undefined : Number(v);
  };
  const idFrom = (path: string, prefix: string): string => {
    const parts = path.slice(prefix.length).split('/').map(decode);
    if (parts.some((p) => p === null))
      throw new AnchorError('BAD_ARGUMENT', `not a run id: ${JSON.stringify(path.slice(prefix.length))}`);
    return parts.join('/');
  };
  const targetOf = (path: string, u: URL): Target | null => {
    const window = intParam(u, 'window');
    if (path === '/' || path === '/index') return { page: 'index', entries: [] };
    if (path.startsWith('/run/')) return { page: 'run', entries: [findEntry(root, only, 'run', idFrom(path, '/run/'))], window };
    if (path.startsWith('/sweep/'))
      return { page: 'sweep', entries: [findEntry(root, only, 'sweep', idFrom(path, '/sweep/'))], window };
    if (path === '/overlay') {
      const ids = [...new Set(u.searchParams.getAll('run'))];
      if (ids.length < 1)
        throw new AnchorError('BAD_ARGUMENT', 'overlay needs run=ID parameters (tick two or more runs in the index)');
      return {
        page: 'overlay',
        entries: ids.map((id) => findEntry(root, only, 'run', id)),
        window,
        metric: u.searchParams.get('metric') ?? undefined,
      };
    }
    return null;
  };
  // Hashed: the page only compares fingerprints, and they name files.
  const fingerprint = (t: Target): string =>
    createHash('sha256')
      .update(
        t.page === 'index'
          ? visibleEntries(root, only)
              .map((e) => `${e.kind}:${e.id}=${entryFingerprint(e)}`)
              .join('\n')
          : t.entries.map((e) => entryFingerprint(e)).join('\n'),
      )
      .digest('base64url')
      .slice(0, 22);
  const build = (t: Target): Promise<Slots> => {
    const fp = fingerprint(t);
    const key = `${t.page}:${t.entries.map((e) => e.id).join(',')}:${t.window ?? ''}:${t.metric ?? ''}`;
    return cache.get(key, fp, async () => {
      if (t.page === 'index') return indexSlots(visibleEntries(root, only));
      if (t.page === 'run') return runSlots(t.entries[0]!, t.window);
      if (t.page === 'sweep') return sweepSlots(t.entries[0]!, t.window);
      return overlaySlots(t.entries, t.metric, t.window);
    });
  };
  const watchQuery = (t: Target): string => {
    const q = new URLSearchParams();
    if (t.page === 'index') q.set('index', '1');
    else for (const e of t.entries) q.append(e.kind, e.id);
    return q.toString();
  };

  // --- pages ----------------------------------------------------------------------------------
  const nav = (t: Target, window: number | undefined): string => {
    const options = visibleEntries(root, only)
      .map((e) => {
        const href = `/${e.kind}/${e.id.split('/').map(encodeURIComponent).join('/')}`;
        const sel = t.page !== 'index' && t.page !== 'overlay' && t.entries[0]?.id === e.id && t.entries[0]?.kind === e.kind;
        return `<option value="${escapeHtml(href)}"${sel ? ' selected' : ''}>${e.kind === 'sweep' ? 'sweep ' : ''}${escapeHtml(e.id)}</option>`;
      })
      .join('');
    return (
      `<nav class="top"><a href="/">all runs</a>` +
      `<label>run <select id="run-switch"><option value="">—</option>${options}</select></label>` +
      (t.page === 'index'
        ? `<button id="overlay-button" type="button" disabled>Overlay selected runs</button>`
        : `<label title="rolling-mean and final window, in steps">window <input id="window" type="number" min="1" step="1" value="${window ?? ''}"></label>`) +
      (t.page === 'overlay' ? '<span data-slot="picker"></span>' : '') +
      (t.page === 'run'
        ? `<a href="/overlay?run=${encodeURIComponent(t.entries[0]!.id)}" title="plot any metric the arms log">any logged metric…</a>`
        : '') +
      `<span id="live-status" class="live">connecting…</span></nav>`
    );
  };
  const sections: Record<Target['page'], [string, string | null][]> = {
    index: [['runs', 'Runs and sweeps']],
    run: [
      ['meta', null],
      ['warnings', null],
      ['progress', 'Arms'],
      ['compare', 'Comparison'],
      ['charts', 'Charts'],
    ],
    sweep: [
      ['meta', null],
      ['warnings', null],
      ['progress', 'Arms of every seed run'],
      ['knob', 'The settlement knob'],
      ['compare', 'All arms'],
      ['seeds', 'Seed runs'],
    ],
    overlay: [
      ['runs', null],
      ['charts', null],
    ],
  };
  const page = (t: Target, s: Slots & { window?: number }, apiPath: string, fp: string, error?: string): string => {
    const slots = sections[t.page]
      .map(
        ([name, heading]) =>
          `${heading ? `<h2>${escapeHtml(heading)}</h2>` : ''}<div data-slot="${name}">${s.slots[name] ?? ''}</div>`,
      )
      .join('\n');
    const navHtml = nav(t, s.window).replace(
      '<span data-slot="picker"></span>',
      `<span data-slot="picker">${s.slots.picker ?? ''}</span>`,
    );
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(s.title)}</title>
<style>${REPORT_CSS}${SERVE_CSS}</style>
</head>
<body>
<h1>${escapeHtml(s.title)}</h1>
<div id="live" data-api="${escapeHtml(apiPath)}" data-watch="${escapeHtml(watchQuery(t))}" data-fingerprint="${escapeHtml(fp)}"></div>
${navHtml}
${error ? `<p class="banner">${escapeHtml(error)}</p>` : ''}
${slots}
<script src="/static/live.js"></script>
</body>
</html>
`;
  };

  // --- responses ------------------------------------------------------------------------------
  const send = (res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}) => {
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
  };
  const statusOf = (err: unknown): number =>
    err instanceof AnchorError
      ? err.code === 'NOT_FOUND'
        ? 404
        : err.code === 'BAD_ARGUMENT' && /not a run id|overlay needs/.test(err.message)
          ? 400
          : 409
      : 503;
  const messageOf = (err: unknown): string =>
    err instanceof AnchorError
      ? err.message
      : `not readable right now (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); retrying on the next change`;

  // A run's own files as they are on disk (the logs behind the charts, the end-of-run report):
  // only these names, only inside a run the index lists.
  const sendFile = (res: ServerResponse, path: string, u: URL) => {
    const name = u.searchParams.get('f') ?? '';
    const arm = u.searchParams.get('arm');
    const type = arm === null ? RUN_FILES[name] : ARM_FILES[name];
    try {
      const entry = findEntry(root, only, 'run', idFrom(path, '/files/'));
      if (!type || (arm !== null && (!/^[\w.-]+$/.test(arm) || arm === '.' || arm === '..')))
        throw new AnchorError('BAD_ARGUMENT', `not a file of a run: ${arm !== null ? `${arm}/` : ''}${name}`);
      const file = arm === null ? join(entry.dir, name) : join(entry.dir, arm, name);
      const stream = createReadStream(file);
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
        if (!res.headersSent)
          send(
            res,
            err.code === 'ENOENT' ? 404 : 503,
            'text/plain; charset=utf-8',
            `${err.code === 'ENOENT' ? 'no such file (yet)' : 'unreadable'}: ${arm !== null ? `${arm}/` : ''}${name}\n`,
          );
        else res.end();
      });
    } catch (err) {
      send(res, statusOf(err) === 409 ? 400 : statusOf(err), 'text/plain; charset=utf-8', `${messageOf(err)}\n`);
    }
  };

  const events = (req: IncomingMessage, res: ServerResponse, u: URL) => {
    const watched: Target = u.searchParams.has('index')
      ? { page: 'index', entries: [] }
      : {
          page: 'run',
          entries: [
            ...u.searchParams.getAll('run').map((id) => findEntry(root, only, 'run', id)),
            ...u.searchParams.getAll('sweep').map((id) => findEntry(root, only, 'sweep', id)),
          ],
        };
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
        fp = fingerprint(watched);
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
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (!hostOk(req))
      return send(
        res,
        403,
        'text/plain; charset=utf-8',
        'anchor-rl serve: wrong Host header (only the loopback address is served)\n',
      );
    const u = new URL(req.url ?? '/', `http://${HOST}:${port}`);
    if (token !== null) {
      const q = u.searchParams.get('token');
      if (q !== null && same(q, token)) {
        // Remember the token in a cookie and drop it from the address bar and history.
        u.searchParams.delete('token');
        return send(res, 303, 'text/plain; charset=utf-8', '', {
          location: u.pathname + (u.search || ''),
          'set-cookie': `${cookieName()}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`,
        });
      }
      const given = bearer(req) ?? cookieToken(req);
      if (given === null || !same(given, token)) {
        return send(
          res,
          403,
          'text/plain; charset=utf-8',
          'anchor-rl serve: access token required — open the URL that `anchor-rl serve` printed (it carries ?token=...)\n',
        );
      }
    }
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(res, 405, 'text/plain; charset=utf-8', 'read-only server: GET only\n', { allow: 'GET, HEAD' });
    const path = u.pathname;
    if (path === '/static/live.js') return send(res, 200, 'text/javascript; charset=utf-8', CLIENT_JS);
    if (path === '/favicon.ico') return send(res, 204, 'text/plain', '');
    if (path.startsWith('/files/')) return sendFile(res, path, u);
    if (path === '/api/events') {
      try {
        return events(req, res, u);
      } catch (err) {
        return send(res, statusOf(err), 'application/json', JSON.stringify({ error: messageOf(err) }));
      }
    }
    const api = path.startsWith('/api/');
    let target: Target | null = null;
    try {
      target = targetOf(api ? path.slice(4).replace(/^\/index$/, '/') : path, u);
      if (!target)
        return send(
          res,
          404,
          api ? 'application/json' : 'text/plain; charset=utf-8',
          api ? JSON.stringify({ error: 'no such page' }) : 'no such page\n',
        );
      const fp = fingerprint(target);
      const built = await build(target);
      if (api)
        return send(res, 200, 'application/json', JSON.stringify({ fingerprint: fp, title: built.title, slots: built.slots }));
      return send(res, 200, 'text/html; charset=utf-8', page(target, built, `/api${path === '/' ? '/index' : path}`, fp));
    } catch (err) {
      const status = statusOf(err);
      if (api) return send(res, status, 'application/json', JSON.stringify({ error: messageOf(err) }));
      // A page whose run is half-written or gone: the shell with the reason, still watching.
      if (target && status !== 404 && status !== 400)
        return send(
          res,
          status,
          'text/html; charset=utf-8',
          page(
            target,
            { title: `anchor-rl — ${target.entries.map((e) => e.id).join(', ')}`, slots: {} },
            `/api${path}`,
            '',
            messageOf(err),
          ),
        );
      return send(
        res,
        status,
        'text/html; charset=utf-8',
        `<!doctype html><meta charset="utf-8"><title>anchor-rl</title><p>${escapeHtml(messageOf(err))}</p><p><a href="/">all runs</a></p>`,
      );
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', `internal error: ${(err as Error).message}\n`);
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
