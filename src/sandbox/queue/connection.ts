/**
 * Redis connection settings and queue names shared by the trainer side (QueueExecutor, arm
 * dispatch) and the workers. BullMQ opens its own ioredis connections from these options.
 */
import type { ConnectionOptions } from 'bullmq';
import type { Language } from '../../datasets/problem.ts';
import { AnchorError } from '../../util/errors.ts';

/** Default queue-name prefix; several runs can share one Redis by using different prefixes. */
export const DEFAULT_QUEUE_PREFIX = 'anchor-rl';

/** Languages a settlement worker can serve, each on its own queue. */
export const QUEUE_LANGUAGES: readonly Language[] = ['javascript', 'python'];

/** The settlement queue of one language (workers only take the languages they were started with). */
export function settleQueueName(prefix: string, language: Language): string {
  return `${prefix}-settle-${language}`;
}

/** The queue of whole arms (`train --queue` + `worker --role trainer`). */
export function armQueueName(prefix: string): string {
  return `${prefix}-arms`;
}

/**
 * XREAD block of our QueueEvents listeners, ms (BullMQ's default is 10 s). When Redis is down a
 * pending read outlives close() until BullMQ's watchdog (this + 1 s) fires, keeping the process
 * alive that long; a short block bounds it at the cost of one idle read every 2 s.
 */
export const EVENTS_BLOCK_MS = 2000;

/** Validate a `redis://` / `rediss://` URL; throws BAD_CONFIG with the reason. */
export function checkRedisUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AnchorError(
      'BAD_CONFIG',
      `not a Redis URL: ${JSON.stringify(redactUrl(url))} (expected redis://[:password@]host:port[/db] or rediss://... for TLS)`,
    );
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new AnchorError('BAD_CONFIG', `Redis URL must start with redis:// or rediss:// (got ${parsed.protocol}//)`);
  }
  return parsed;
}

/** The URL with any password replaced by `***`, for logs and error messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

/**
 * BullMQ connection options for a URL. `blocking` connections (workers, event listeners) must
 * retry forever (`maxRetriesPerRequest: null`, BullMQ's requirement); the trainer's own commands
 * fail fast instead so that its bounded wait for Redis (not ioredis's queue) decides when to give up.
 */
export function connectionOptions(url: string, role: 'blocking' | 'client'): ConnectionOptions {
  const parsed = checkRedisUrl(url);
  // A password in the config would be copied into every run's manifest.json; the environment
  // variable keeps it out of files (a password in the URL wins).
  const envPassword = process.env.ANCHOR_REDIS_PASSWORD;
  return {
    url,
    ...(envPassword && !parsed.password ? { password: envPassword } : {}),
    maxRetriesPerRequest: role === 'blocking' ? null : 1,
    enableOfflineQueue: role === 'blocking',
    // Reconnect quickly after a Redis restart; cap the back-off so recovery is noticed within ~1 s.
    retryStrategy: (times: number) => Math.min(100 * times, 1000),
  };
}

/** Whether a Redis error means the credentials are wrong (retrying cannot help). */
export function isAuthError(e: unknown): boolean {
  const m = (e as Error | undefined)?.message ?? String(e);
  return /\b(NOAUTH|WRONGPASS)\b|invalid password|invalid username-password/i.test(m);
}

/** The message for wrong or missing Redis credentials, with what to do about them. */
export function authMessage(url: string, e: unknown): string {
  const m = ((e as Error | undefined)?.message ?? String(e)).split(',')[0]!.slice(0, 120);
  return `Redis at ${redactUrl(url)} refused the credentials (${m}); give the password in the URL (redis://:PASSWORD@host:port) or in ANCHOR_REDIS_PASSWORD`;
}

/**
 * A log for connection errors that ioredis repeats on every reconnect attempt (several per
 * second, once per connection): the first of each message is logged, repeats only every
 * `everyMs` with a count, so a worker waiting for Redis says so without flooding its log.
 */
export function errorLogOnce(log: (line: string) => void, what: string, everyMs = 60_000): (e: Error) => void {
  const seen = new Map<string, { at: number; repeats: number }>();
  return (e) => {
    const msg = e.message;
    const now = Date.now();
    const s = seen.get(msg);
    if (!s) {
      seen.set(msg, { at: now, repeats: 0 });
      log(`${what}: ${msg}`);
    } else if (now - s.at >= everyMs) {
      log(`${what}: ${msg} (repeated ${s.repeats + 1} times in ${Math.round((now - s.at) / 1000)} s)`);
      s.at = now;
      s.repeats = 0;
    } else s.repeats++;
  };
}

/** An ioredis client as far as closing it is concerned. */
interface RedisClientLike {
  disconnect(): void;
  on(event: 'error', listener: (e: Error) => void): unknown;
}

/**
 * The ioredis clients inside a BullMQ Queue/QueueEvents/Worker: BullMQ 6 keeps them on its
 * backend (`connection` and, for blocking consumers, `blockingConnection`). Private fields on
 * purpose: BullMQ offers no non-waiting way to drop a connection.
 */
function redisClients(obj: object): RedisClientLike[] {
  type Conn = { _client?: RedisClientLike } | undefined;
  type Holder = { connection?: Conn; blockingConnection?: Conn } | undefined;
  const holders: Holder[] = [(obj as { backend?: Holder }).backend, obj as Holder];
  const out = new Set<RedisClientLike>();
  for (const h of holders) {
    for (const c of [h?.connection?._client, h?.blockingConnection?._client]) if (c) out.add(c);
  }
  return [...out];
}

/**
 * Close a BullMQ Queue/QueueEvents/Worker and every Redis connection inside it, without hanging.
 * BullMQ's close() waits forever for a connection that never became ready, and when Redis is
 * down it gives up on QUIT but leaves the ioredis client reconnecting — a timer that keeps the
 * process alive, and, with BullMQ's listeners removed, `[ioredis] Unhandled error event` traces.
 * So after close() (or `graceMs`) each client gets an error listener and is disconnected, which
 * stops its reconnect timer whatever state it is in. `force`: do not wait for jobs in hand.
 */
export async function closeQuietly(
  obj: { close(force?: boolean): Promise<unknown> },
  graceMs = 2000,
  force = false,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const closed = obj.close(force).then(
    () => true,
    () => true,
  );
  const timedOut = new Promise<boolean>((res) => {
    timer = setTimeout(() => res(false), graceMs);
  });
  const ok = await Promise.race([closed, timedOut]);
  clearTimeout(timer);
  if (!ok) {
    // A Worker whose close() is stuck (waiting on a fetch that never returns) still runs its
    // lock-renewal and stalled-check timers; stop them too (private fields, as above).
    const w = obj as { lockManager?: { close(): unknown }; stalledCheckStopper?: () => void };
    try {
      void w.lockManager?.close();
      w.stalledCheckStopper?.();
    } catch {
      /* not a Worker */
    }
  }
  for (const client of redisClients(obj)) {
    try {
      client.on('error', () => {});
      client.disconnect();
    } catch {
      /* already gone */
    }
  }
}
