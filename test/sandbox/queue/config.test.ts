/**
 * Queue backend configuration and CLI input checks (no Redis needed), plus password handling
 * against a private redis-server started with `--requirepass` (skipped without redis-server).
 */
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createExecutorFromConfig,
  defaultSandboxConfig,
  LocalExecutor,
  QueueExecutor,
  sandboxConfigSchema,
} from '../../../src/sandbox/index.ts';
import { checkRedisUrl, connectionOptions, redactUrl } from '../../../src/sandbox/queue/connection.ts';
import { stallLimitMs } from '../../../src/sandbox/queue/queue-executor.ts';
import { wallBackstopMs } from '../../../src/sandbox/protocol.ts';
import { parseLanguages } from '../../../src/cli/commands/worker.ts';
import { AnchorError } from '../../../src/util/errors.ts';
import { runCli } from '../../helpers/cli.ts';
import { freePort, haveRedisServer } from '../../../support/redis.ts';

describe('queue backend config', () => {
  it('backend: queue needs no other key (the defaults serve a local Redis) and rejects bad values', () => {
    const c = sandboxConfigSchema.parse({ backend: 'queue' });
    // The queue keys take the section's defaults (test/sandbox/config.test.ts; their values live in the schema).
    expect(c).toEqual({ ...defaultSandboxConfig(), backend: 'queue' });
    expect(checkRedisUrl(c.redis).hostname).toBe('127.0.0.1');
    expect(sandboxConfigSchema.safeParse({ backend: 'queue', redis: 'http://x:1' }).success).toBe(false);
    expect(sandboxConfigSchema.safeParse({ max_in_flight: 0 }).success).toBe(false);
    expect(sandboxConfigSchema.safeParse({ queue_prefix: 'a:b' }).success).toBe(false);
    expect(sandboxConfigSchema.safeParse({ backend: 'cluster' }).success).toBe(false);
  });

  it('the auto stall limit outlasts the backstop a worker may legitimately reach; a set limit is kept', () => {
    // A worker on an overloaded host reports host_overloaded only at the backstop: calling the
    // queue stalled before that would fail a healthy run.
    for (const budget of [100, 2000, 10_000, 60_000]) expect(stallLimitMs(0, budget)).toBeGreaterThan(wallBackstopMs(budget));
    expect(stallLimitMs(3000, 60_000)).toBe(3000);
  });

  it('createExecutorFromConfig picks the backend', async () => {
    const q = createExecutorFromConfig(
      sandboxConfigSchema.parse({ backend: 'queue', batch_size: 500, max_in_flight: 64, timeout_ms: 700 }),
    );
    expect(q).toBeInstanceOf(QueueExecutor);
    // A batch can never exceed the in-flight bound, or back-pressure could not admit it.
    expect((q as QueueExecutor).opts).toMatchObject({ batchSize: 64, maxInFlight: 64, timeoutMs: 700 });
    await q.close();
    const l = createExecutorFromConfig(sandboxConfigSchema.parse({}));
    expect(l).toBeInstanceOf(LocalExecutor);
    await l.close();
  });

  it('validates and redacts Redis URLs', () => {
    expect(() => checkRedisUrl('localhost:6379')).toThrow(AnchorError);
    expect(() => checkRedisUrl('https://host')).toThrow(/redis:\/\/ or rediss:\/\//);
    expect(checkRedisUrl('rediss://:pw@host:6380/2').protocol).toBe('rediss:');
    expect(redactUrl('redis://user:secret@host:6379')).toBe('redis://user:***@host:6379');
    expect(redactUrl('redis://host:6379')).not.toContain('***');
  });

  it('worker: languages and bad input are rejected with exit code 2', () => {
    expect(parseLanguages('js, python,js')).toEqual(['javascript', 'python']);
    expect(() => parseLanguages('ruby')).toThrow(/unknown language/);
    const noUrl = runCli(['worker'], { env: { ANCHOR_REDIS_URL: '' } });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/--redis URL/);
    const badUrl = runCli(['worker', '--redis', 'http://nope']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toMatch(/redis:\/\/ or rediss:\/\//);
    // train --queue checks the URL before doing any work.
    const badQueue = runCli([
      'train',
      '--config',
      'configs/smoke.yaml',
      '--queue',
      'http://nope',
      '--out',
      '/nonexistent/never-created',
    ]);
    expect(badQueue.code).toBe(2);
    expect(badQueue.stderr).toMatch(/redis:\/\/ or rediss:\/\//);
  }, 60_000);
});

const haveRedis = haveRedisServer('Redis password test');

describe.skipIf(!haveRedis)('queue backend against a password-protected Redis', () => {
  let stop: (() => void) | undefined;
  afterAll(() => stop?.());

  it('authenticates with ANCHOR_REDIS_PASSWORD and fails clearly without it', async () => {
    const port = await freePort();
    const proc = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--requirepass', 's3cret'],
      { stdio: 'ignore' },
    );
    stop = () => proc.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 500));
    const url = `redis://127.0.0.1:${port}`;
    const saved = process.env.ANCHOR_REDIS_PASSWORD;
    try {
      // Without the password: the credentials error at once (not after redis_timeout_ms), never a hang.
      delete process.env.ANCHOR_REDIS_PASSWORD;
      const anon = new QueueExecutor({ redis: url, redisTimeoutMs: 60_000, noWorkerTimeoutMs: 60_000, pollMs: 100 });
      const e1 = await anon.run([{ id: 'x', language: 'javascript', code: '1' }]).catch((e: unknown) => e);
      await anon.close();
      expect((e1 as Error).message).toMatch(/refused the credentials \(NOAUTH/);
      // With it: Redis answers, so the only complaint left is that no worker serves the queue.
      process.env.ANCHOR_REDIS_PASSWORD = 's3cret';
      expect(connectionOptions(url, 'client')).toMatchObject({ password: 's3cret' });
      const auth = new QueueExecutor({ redis: url, redisTimeoutMs: 10_000, noWorkerTimeoutMs: 1000, pollMs: 100 });
      const e2 = await auth.run([{ id: 'x', language: 'javascript', code: '1' }]).catch((e: unknown) => e);
      await auth.close();
      expect((e2 as Error).message).toMatch(/no sandbox workers/);
      expect((e2 as Error).message).not.toContain('s3cret');
    } finally {
      if (saved === undefined) delete process.env.ANCHOR_REDIS_PASSWORD;
      else process.env.ANCHOR_REDIS_PASSWORD = saved;
    }
  }, 30_000);
});
