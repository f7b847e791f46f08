/**
 * Published datasets by name: `task.dataset: mbpp` resolves to the verified file in the dataset
 * cache, an empty cache says how to fetch, and `anchor-rl datasets fetch` downloads with a pinned
 * SHA-256 and progress — against a server on 127.0.0.1 serving a fixture (this machine cannot
 * reach the publishers), including a corrupt and a truncated download.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASETS, datasetCacheDir, resolveDataset, sha256Hex } from '../../src/datasets/catalog.ts';
import { fetchDataset } from '../../src/datasets/fetch.ts';
import { loadDataset } from '../../src/datasets/formats.ts';
import { AnchorError } from '../../src/util/errors.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { fixture, haveSharedDatasets, repoRoot, sharedDatasets } from '../helpers/paths.ts';

const work = mkdtempSync(join(tmpdir(), 'anchor-datasets-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A small MBPP-format fixture, written here; its own catalogue entry pins its bytes. */
const fixtureBytes = Buffer.from(
  `${Array.from({ length: 40 }, (_, i) =>
    JSON.stringify({
      task_id: i + 1,
      text: `Write a function that returns ${i}.`,
      code: `def f():\r\n    return ${i}`,
      test_list: [`assert f() == ${i}`],
      test_setup_code: '',
      challenge_test_list: [],
    }),
  ).join('\n')}\n`,
);
const fixtureEntry = { ...DATASETS.mbpp, url: 'unused', sha256: sha256Hex(fixtureBytes), bytes: fixtureBytes.length };

let server: Server;
let base = '';
/** Requests the server saw, by path. */
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url === '/mbpp.jsonl') {
      res.writeHead(200, { 'content-length': String(fixtureBytes.length) });
      // In pieces, so progress is reported more than once.
      const half = fixtureBytes.length >> 1;
      res.write(fixtureBytes.subarray(0, half));
      setTimeout(() => res.end(fixtureBytes.subarray(half)), 20);
    } else if (req.url === '/corrupt.jsonl') {
      const bad = Buffer.from(fixtureBytes);
      bad[10] = bad[10]! ^ 1;
      res.end(bad);
    } else if (req.url === '/truncated.jsonl') {
      res.end(fixtureBytes.subarray(0, 100));
    } else if (req.url === '/shared/mbpp.jsonl' && existsSync(join(sharedDatasets, 'mbpp.jsonl'))) {
      res.end(readFileSync(join(sharedDatasets, 'mbpp.jsonl')));
    } else {
      res.writeHead(404).end('no');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A port on 127.0.0.1 nothing listens on (one just released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const a = s.address();
  await new Promise<void>((r) => s.close(() => r()));
  return typeof a === 'object' && a ? a.port : 0;
}

/** The CLI in a child process without blocking this one (whose server the child talks to). */
function runCliAsync(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin/anchor-rl.js'), ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

/** The error `p` rejects with (an AnchorError). */
async function rejection(p: Promise<unknown>): Promise<AnchorError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(AnchorError);
    return err as AnchorError;
  }
  throw new Error('expected a rejection');
}

describe('the dataset cache', () => {
  it('lives in ANCHOR_RL_DATASETS, else XDG_CACHE_HOME, else ~/.cache', () => {
    expect(datasetCacheDir({ ANCHOR_RL_DATASETS: '/x/y' })).toBe('/x/y');
    expect(datasetCacheDir({ XDG_CACHE_HOME: '/c' })).toBe('/c/anchor-rl/datasets');
    expect(datasetCacheDir({})).toMatch(/\.cache\/anchor-rl\/datasets$/);
  });

  it('an empty cache is NOT_FOUND saying how to fetch; a path is a path', () => {
    const env = { ANCHOR_RL_DATASETS: join(work, 'empty') };
    let err: AnchorError | undefined;
    try {
      resolveDataset('mbpp', env);
    } catch (e) {
      err = e as AnchorError;
    }
    expect(err?.code).toBe('NOT_FOUND');
    expect(err?.message).toMatch(/dataset mbpp is not in the dataset cache .*: fetch it with `anchor-rl datasets fetch mbpp`/);
    expect(resolveDataset('some/file.jsonl', env)).toBe('some/file.jsonl');
    expect(loadDataset(fixture('datasets', 'mbpp-mini.jsonl')).problems.length).toBeGreaterThan(0);
  });

  it('a cached file that is not the published one is BAD_DATASET', () => {
    const dir = join(work, 'tampered');
    mkdirSync(dir);
    writeFileSync(join(dir, 'mbpp.jsonl'), fixtureBytes);
    expect(() => resolveDataset('mbpp', { ANCHOR_RL_DATASETS: dir })).toThrow(
      /is not the published mbpp file .*delete it and run/,
    );
  });

  it('names resolve to ../shared/datasets in the tests and CI, verified against the pinned SHA-256', (ctx) => {
    if (!haveSharedDatasets('the published dataset files')) return ctx.skip();
    for (const [name, d] of Object.entries(DATASETS)) {
      expect(resolveDataset(name)).toBe(join(process.env.ANCHOR_RL_DATASETS!, d.file));
      expect(d.bytes).toBe(readFileSync(resolveDataset(name)).length);
    }
    expect(loadDataset('humaneval').problems).toHaveLength(164);
    expect(loadDataset('mbpp').format).toBe('mbpp');
  });
});

describe('datasets fetch', () => {
  it('downloads, verifies, reports progress and writes atomically; a second fetch is a cache hit', async () => {
    const dir = join(work, 'cache-ok');
    const progress: [number, number | undefined][] = [];
    const r = await fetchDataset('mbpp', {
      dir,
      url: `${base}/mbpp.jsonl`,
      entry: fixtureEntry,
      onProgress: (got, total) => progress.push([got, total]),
    });
    expect(r).toMatchObject({ cached: false, bytes: fixtureBytes.length, sha256: fixtureEntry.sha256 });
    expect(readFileSync(join(dir, 'mbpp.jsonl')).equals(fixtureBytes)).toBe(true);
    expect(readdirSync(dir)).toEqual(['mbpp.jsonl']); // no temporary file left
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress[0]).toEqual([0, fixtureBytes.length]);
    expect(progress.at(-1)).toEqual([fixtureBytes.length, fixtureBytes.length]);
    const before = seen.length;
    expect((await fetchDataset('mbpp', { dir, url: `${base}/mbpp.jsonl`, entry: fixtureEntry })).cached).toBe(true);
    expect(seen.length).toBe(before);
  });

  it('a corrupt or truncated download, or an HTTP error, writes nothing', async () => {
    const dir = join(work, 'cache-bad');
    const corrupt = await rejection(fetchDataset('mbpp', { dir, url: `${base}/corrupt.jsonl`, entry: fixtureEntry }));
    expect(corrupt.code).toBe('BAD_DATASET');
    expect(corrupt.message).toMatch(
      /did not send the published mbpp file: .* sha256 [0-9a-f]{64}, expected .*nothing was written/,
    );
    const truncated = await rejection(fetchDataset('mbpp', { dir, url: `${base}/truncated.jsonl`, entry: fixtureEntry }));
    expect(truncated.message).toMatch(/100 bytes .*\(truncated download\)/);
    const missing = await rejection(fetchDataset('mbpp', { dir, url: `${base}/nope`, entry: fixtureEntry }));
    expect(missing.message).toMatch(/cannot download mbpp from .*\/nope: HTTP 404/);
    const closed = await closedPort();
    const refused = await rejection(fetchDataset('mbpp', { dir, url: `http://127.0.0.1:${closed}/x`, entry: fixtureEntry }));
    expect(refused.message).toMatch(new RegExp(`cannot download mbpp from http://127\\.0\\.0\\.1:${closed}/x: ECONNREFUSED`));
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  });

  it('the CLI fetches a real pinned file from a mirror, with progress, then a config names it', async (ctx) => {
    if (!haveSharedDatasets('the published MBPP file to serve')) return ctx.skip();
    const dir = join(work, 'cli-cache');
    const env = { ANCHOR_RL_DATASETS: dir };
    // Asynchronously: the server answering it runs in this process.
    const r = await runCliAsync(['datasets', 'fetch', 'mbpp', '--url', `${base}/shared/mbpp.jsonl`], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`fetching mbpp (563,743 bytes, CC-BY-4.0) from ${base}/shared/mbpp.jsonl`);
    expect(r.stderr).toMatch(/mbpp: 100% \(563,743\/563,743 bytes\)/);
    expect(r.stdout).toBe(`mbpp: 563,743 bytes, sha256 verified: ${join(dir, 'mbpp.jsonl')}\n`);
    const list = runCli(['datasets', 'list', '--json'], { env });
    const rows = JSON.parse(list.stdout).datasets as { name: string; cached: boolean }[];
    expect(rows.filter((x) => x.cached).map((x) => x.name)).toEqual(['mbpp']);
    const show = runCli(['datasets', 'inspect', 'mbpp'], { env });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('problems:   974');
    const empty = runCli(['datasets', 'inspect', 'humaneval'], { env });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('anchor-rl datasets fetch humaneval');
  });
});
