/**
 * `anchor-rl serve` without a browser: access control (token, Host), safe ids, the index and
 * pages over runs that are being written, truncated by a resume and deleted while served,
 * server-sent change events, and that serving never writes into the run directories.
 */
import { request } from 'node:http';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type LiveServer } from '../../src/serve/server.ts';
import { printServeHint } from '../../src/cli/commands/serve.ts';
import { runCli } from '../helpers/cli.ts';
import { liveFakeRun, writeAnchoredFakeRun, writeFakeRun, writeFakeSweep, type LiveFakeRun } from '../helpers/fake-run.ts';

const root = mkdtempSync(join(tmpdir(), 'anchor-serve-'));
let server: LiveServer;
let live: LiveFakeRun;
let base = '';
const auth = () => ({ authorization: `Bearer ${server.token}` });
const api = async (path: string) => {
  const res = await fetch(base + path, { headers: auth() });
  return {
    status: res.status,
    body: (await res.json()) as { fingerprint: string; title: string; slots: Record<string, string>; error?: string },
  };
};

/** Every file under `dir` with its size and modification time. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const s = statSync(p);
        out[p] = `${s.size}:${s.mtimeMs}`;
      }
    }
  };
  walk(dir);
  return out;
}

beforeAll(async () => {
  writeFakeRun(join(root, 'finished'), { steps: 60, noise: 0.02, name: 'finished' });
  writeFakeSweep(join(root, 'knob-sweep'), { steps: 30 });
  live = liveFakeRun(join(root, 'live'), { steps: 60, name: 'live', start: 10 });
  server = await startServer({ dir: root, port: 0, pollMs: 100 });
  base = server.url.slice(0, server.url.indexOf('/?token='));
});

afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('access', () => {
  it('prints a loopback URL carrying a random token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32}$/);
  });

  it('refuses requests without the token or with a wrong one', async () => {
    for (const path of ['/', '/api/index', '/run/live', '/static/live.js', '/api/events?index=1']) {
      const res = await fetch(base + path);
      expect(res.status, path).toBe(403);
      expect(await res.text()).toMatch(/access token required/);
    }
    expect((await fetch(base + '/api/index', { headers: { authorization: 'Bearer nope' } })).status).toBe(403);
    expect((await fetch(`${base}/?token=${server.token!.slice(0, -1)}x`)).status).toBe(403);
    expect((await fetch(`${base}/?token=${server.token!.slice(0, -1)}é`)).status).toBe(403); // same length in characters, not bytes
    expect((await fetch(`${base}/api/index`, { headers: { cookie: `anchor_rl_token_${server.port}=%E0%A4%A` } })).status).toBe(
      403,
    );
  });

  it('takes the token from the URL once, into an HttpOnly cookie, and drops it from the address', async () => {
    const res = await fetch(`${base}/run/live?window=5&token=${server.token}`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/run/live?window=5');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const page = await fetch(`${base}/run/live?window=5`, { headers: { cookie: cookie.split(';')[0]! } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const status = await new Promise<number>((res, rej) => {
      const r = request(
        { host: '127.0.0.1', port: server.port, path: '/api/index', headers: { host: `evil.example:${server.port}`, ...auth() } },
        (m) => {
          m.resume();
          res(m.statusCode!);
        },
      );
      r.on('error', rej);
      r.end();
    });
    expect(status).toBe(403);
  });

  it('is read-only and refuses ids that leave the runs directory', async () => {
    expect((await fetch(base + '/api/index', { method: 'POST', headers: auth() })).status).toBe(405);
    for (const id of ['..%2F..%2Fetc', '%2E%2E%2Fx', 'live%2F%2E%2E%2F%2E%2E%2Fx', '%2Fetc', 'a%5Cb', '%E0%A4%A']) {
      const r = await api(`/api/run/${id}`);
      expect(r.status, id).toBe(400);
      expect(r.body.error).toMatch(/not a run id/);
    }
    expect((await api('/api/run/nope')).status).toBe(404);
    // A directory that exists but is not a run (an arm of one) is not served either.
    expect((await api('/api/run/live/frozen')).status).toBe(404);
  });
});

describe('pages over runs being written', () => {
  it('the index lists every run and sweep with its state and headline figures', async () => {
    const { status, body } = await api('/api/index');
    expect(status).toBe(200);
    const html = body.slots.runs!;
    const ids = [...html.matchAll(/<tr[^>]*data-id="([^"]+)"[^>]*data-state="([^"]+)"/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(ids).toEqual(['finished:done', 'knob-sweep:done', 'knob-sweep/seed-0:done', 'knob-sweep/seed-1:done', 'live:running']);
    expect(html).toMatch(/frozen \d\.\d{3}/);
    expect(html).toContain('2 cells × 2 seeds');
  });

  it('a run page follows the run as it grows, is truncated by a resume, fails and is deleted', async () => {
    const first = await api('/api/run/live');
    expect(first.status).toBe(200);
    expect(first.body.slots.progress).toMatch(/data-arm="frozen" data-state="running"[\s\S]*?10\/60/);
    // ETA: the fake arms log perf/step_s = 0.5, with 50 steps to go.
    expect(first.body.slots.progress).toMatch(/10\/60<\/td><td>25s<\/td>/);
    expect(first.body.slots.charts).toContain('id="chart-gold"');

    live.advance(15);
    const grown = await api('/api/run/live');
    expect(grown.body.fingerprint).not.toBe(first.body.fingerprint);
    expect(grown.body.slots.progress).toMatch(/25\/60/);
    expect(grown.body.slots.charts).not.toBe(first.body.slots.charts);

    live.truncate(12); // a resume from an earlier checkpoint cuts the logs back
    expect((await api('/api/run/live')).body.slots.progress).toMatch(/12\/60/);

    appendFileSync(join(live.dir, 'anchored', 'metrics.jsonl'), '{"step": 13, "reward/pro'); // a writer mid-line
    const half = await api('/api/run/live');
    expect(half.status).toBe(200);
    expect(half.body.slots.warnings).toMatch(/truncated line/);

    live.fail('judge', 'Error: <worker> exited');
    const failed = await api('/api/run/live');
    expect(failed.body.slots.progress).toMatch(/data-arm="judge" data-state="failed"/);
    expect(failed.body.slots.progress).toContain('Error: &lt;worker&gt; exited');
    expect((await api('/api/index')).body.slots.runs).toMatch(/data-id="live"[^>]*data-state="failed"/);

    rmSync(live.dir, { recursive: true, force: true });
    const gone = await api('/api/run/live');
    expect(gone.status).toBe(404);
    expect(gone.body.error).toMatch(/not found: live/);
    const index = await api('/api/index');
    expect(index.status).toBe(200);
    expect(index.body.slots.runs).not.toContain('data-id="live"');
  });

  it("a run page's arm summary shows the anchoring columns and each arm's anchoring", async () => {
    const dir = join(root, 'anchoring');
    writeAnchoredFakeRun(dir, { name: 'anchoring' });
    try {
      const { status, body } = await api('/api/run/anchoring?window=10');
      expect(status).toBe(200);
      const html = body.slots.compare!;
      for (const label of ['anchoring', 'RM gate closed', 'RM silenced', 'rollbacks', 'RM pair acc', 'RM AUC'])
        expect(html).toMatch(new RegExp(`<th[^>]*>${label}</th>`));
      expect(html).toMatch(
        /<tr data-arm="anchored">[^\n]*?<td class="anchoring">RM ridge; rm_gate pair acc &lt; 0\.6; rollback z 1\.5; silenced mask<\/td>/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a sweep page shows every seed run’s arms, the knob charts and the comparison', async () => {
    const { status, body } = await api('/api/sweep/knob-sweep');
    expect(status).toBe(200);
    expect(body.slots.progress!.match(/<tr data-arm=/g)).toHaveLength(8);
    expect(body.slots.knob).toContain('id="chart-settlement-knob"');
    expect(body.slots.compare).toContain('rate-0.1');
    expect(body.slots.seeds).toContain('href="/run/knob-sweep/seed-1"');
  });

  it('an overlay draws a line per run × arm of the chosen metric', async () => {
    const { status, body } = await api('/api/overlay?run=finished&run=knob-sweep/seed-0&metric=kl/ref');
    expect(status).toBe(200);
    expect(body.slots.picker).toMatch(/<option value="kl\/ref" selected>/);
    expect(body.slots.charts!.match(/aria-roledescription="line mark"/g)).toHaveLength(4 + 4);
  });

  it('server-sent events announce a change when a watched run is written', async () => {
    const run = liveFakeRun(join(root, 'watched'), { steps: 40, start: 5 });
    const ctl = new AbortController();
    const res = await fetch(`${base}/api/events?run=watched`, { headers: auth(), signal: ctl.signal });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    const next = async (): Promise<string> => {
      let text = '';
      for (;;) {
        const { value } = await reader.read();
        text += new TextDecoder().decode(value);
        const m = /event: change\ndata: (\S+)\n\n/.exec(text);
        if (m) return m[1]!;
      }
    };
    const a = await next();
    run.advance(3);
    const b = await next();
    expect(b).not.toBe(a);
    ctl.abort();
  });

  it('serves a run’s own logs and files as they are on disk, and nothing else', async () => {
    const get = (q: string) => fetch(`${base}/files/${q}`, { headers: auth() });
    const metrics = await get('finished?arm=frozen&f=metrics.jsonl');
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toBe(readFileSync(join(root, 'finished', 'frozen', 'metrics.jsonl'), 'utf8'));
    expect((await get('knob-sweep/seed-1?f=manifest.json')).headers.get('content-type')).toBe('application/json');
    expect((await get('finished?f=report.html')).status).toBe(404); // not written: the fake run never ended through train
    for (const q of [
      'finished?arm=..&f=arm.json',
      'finished?f=..%2F..%2Fetc%2Fpasswd',
      'finished?arm=frozen&f=checkpoints',
      'finished?f=metrics.jsonl',
      '..%2Fx?f=manifest.json',
    ]) {
      expect((await get(q)).status, q).toBe(400);
    }
    expect((await get('nope?f=manifest.json')).status).toBe(404);
    const page = await api('/api/run/finished');
    expect(page.body.slots.progress).toContain('href="/files/finished?arm=frozen&amp;f=metrics.jsonl"');
  });

  it('never writes into the run directories', async () => {
    const before = snapshot(root);
    for (const p of [
      '/api/index',
      '/api/run/finished',
      '/files/finished?arm=frozen&f=samples.jsonl',
      '/api/sweep/knob-sweep',
      '/api/overlay?run=finished&run=knob-sweep/seed-1',
      '/run/finished',
      '/sweep/knob-sweep',
      '/',
    ]) {
      expect((await fetch(base + p, { headers: auth() })).status, p).toBe(200);
    }
    expect(snapshot(root)).toEqual(before);
  });
});

describe('serve CLI input errors', () => {
  it('a bad port or a missing directory is bad input (exit 2)', () => {
    const bad = runCli(['serve', root, '--port', '-1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--port must be an integer/);
    const missing = runCli(['serve', join(root, 'no-such-dir'), '--port', '0']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/runs directory not found/);
  });

  it('a port in use is bad input naming it', async () => {
    const r = runCli(['serve', root, '--port', String(server.port)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`port ${server.port} is in use`));
  });
});

describe('the serve hint of train and sweep', () => {
  const capture = (isTTY: boolean) => {
    const out: string[] = [];
    return { stream: { isTTY, write: (s: string) => out.push(s) }, out };
  };

  it('names the parent directory to serve and the page, on a terminal only', () => {
    const tty = capture(true);
    printServeHint(() => 'runs/default', 'run', tty.stream);
    expect(tty.out.join('')).toMatch(
      /^watch it live: anchor-rl serve runs {2}\(then open the printed URL; this run is \/run\/default\)\n$/,
    );
    const sweep = capture(true);
    printServeHint(() => '/elsewhere/x-sweep', 'sweep', sweep.stream);
    expect(sweep.out.join('')).toContain('anchor-rl serve /elsewhere ');
    expect(sweep.out.join('')).toContain('/sweep/x-sweep');
    const pipe = capture(false);
    printServeHint(() => 'runs/default', 'run', pipe.stream);
    expect(pipe.out).toEqual([]);
    const bad = capture(true);
    printServeHint(
      () => {
        throw new Error('bad config');
      },
      'run',
      bad.stream,
    );
    expect(bad.out).toEqual([]);
  });
});
