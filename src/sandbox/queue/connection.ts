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

/**
 * Close a BullMQ Queue/QueueEvents/Worker without hanging: BullMQ's close() waits for a
 * connection that never became ready (Redis down since start-up) forever. After `graceMs` the
 * underlying ioredis client is disconnected directly so no reconnect timer keeps the process alive.
 */
export async function closeQuietly(obj: { close(): Promise<unknown> }, graceMs = 2000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const closed = obj.close().then(
    () => true,
    () => true,
  );
  const timedOut = new Promise<boolean>((res) => {
    timer = setTimeout(() => res(false), graceMs);
  });
  const ok = await Promise.race([closed, timedOut]);
  clearTimeout(timer);
  if (!ok) {
    // Private field access is deliberate: BullMQ offers no non-waiting way to drop a connection.
    const conn = (obj as unknown as { connection?: { _client?: { disconnect?: () => void } } }).connection;
    try {
      conn?._client?.disconnect?.();
    } catch {
      /* already gone */
    }
  }
}
