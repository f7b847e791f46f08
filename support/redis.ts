/**
 * Redis for the queue tests and benchmark: a private `redis-server` on 127.0.0.1 and a free port (no
 * persistence, so a restart loses everything — the harshest case), and `anchor-rl worker`
 * processes started the way a user starts them.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));
import { available } from './requirements.ts';

/** Whether `redis-server` is on PATH. */
export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Whether `what`'s tests can use redis-server; when it is missing they skip with a printed reason
 * (or fail under CI=true: the queue backend must not go untested there).
 */
export function haveRedisServer(what: string): boolean {
  return available(
    what,
    redisServerInstalled() ? null : 'redis-server is not installed (apt-get install redis-server; .ci/run does)',
  );
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? res(addr.port) : rej(new Error('no port'))));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A private redis-server that can be stopped and started again on the same port. */
export class TestRedis {
  private proc: ChildProcess | undefined;
  /**
   * `aofDir`: persist every write to an append-only file there (fsync always), so a restart
   * keeps the data; without it the server has no persistence and a restart loses everything.
   */
  constructor(
    readonly port: number,
    readonly aofDir?: string,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(opts: { aofDir?: string } = {}): Promise<TestRedis> {
    const r = new TestRedis(await freePort(), opts.aofDir);
    await r.start();
    return r;
  }

  async start(): Promise<void> {
    const persistence = this.aofDir
      ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', this.aofDir]
      : ['--appendonly', 'no'];
    const proc = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', ...persistence], {
      stdio: 'ignore',
    });
    this.proc = proc;
    for (let i = 0; i < 100; i++) {
      if (spawnSync('redis-cli', ['-p', String(this.port), 'ping'], { encoding: 'utf8' }).stdout?.trim() === 'PONG') return;
      if (proc.exitCode !== null) throw new Error(`redis-server exited with code ${proc.exitCode}`);
      await sleep(100);
    }
    throw new Error('redis-server did not answer PING within 10 s');
  }

  /** SIGKILL the server (without `aofDir` all data is gone). */
  async stop(): Promise<void> {
    const p = this.proc;
    this.proc = undefined;
    if (!p || p.exitCode !== null) return;
    await new Promise<void>((res) => {
      p.once('exit', () => res());
      p.kill('SIGKILL');
    });
  }
}

/** An `anchor-rl worker` child process. */
export interface WorkerProc {
  proc: ChildProcess;
  stderr: () => string;
  /** Stop with SIGTERM (graceful) and wait for exit. */
  stop(): Promise<void>;
}

/** Start `anchor-rl worker ARGS` and wait until it logs that it is ready. */
export async function startWorker(args: string[], ready = /worker ready/): Promise<WorkerProc> {
  const proc = spawn(process.execPath, [resolve(repoRoot, 'bin/anchor-rl.js'), 'worker', ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  proc.stderr!.setEncoding('utf8');
  proc.stderr!.on('data', (d: string) => (err += d));
  const deadline = Date.now() + 60_000;
  while (!ready.test(err)) {
    if (proc.exitCode !== null) throw new Error(`worker exited (${proc.exitCode}): ${err}`);
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`worker not ready within 60 s: ${err}`);
    }
    await sleep(50);
  }
  return {
    proc,
    stderr: () => err,
    stop: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      await new Promise<void>((res) => {
        const t = setTimeout(() => proc.kill('SIGKILL'), 15_000);
        proc.once('exit', () => {
          clearTimeout(t);
          res();
        });
        proc.kill('SIGTERM');
      });
    },
  };
}
