/**
 * Arms across machines: `train --queue` hands an arm to one of two `worker --role trainer`
 * processes; that worker is SIGKILLed after the arm's first checkpoint, and the other worker
 * resumes the arm from the checkpoint. The finished arm's logs hold each step exactly once.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSmokeTrain } from '../../helpers/cli.ts';
import { haveRedisServer, startWorker, TestRedis, type WorkerProc } from '../../../support/redis.ts';

const haveRedis = haveRedisServer('queued-arms test');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!haveRedis)('train --queue with trainer workers', () => {
  const work = mkdtempSync(join(tmpdir(), 'anchor-qarms-'));
  let redis: TestRedis | undefined;
  const workers: WorkerProc[] = [];

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await redis?.stop();
  }, 30_000);

  it('re-queues an arm whose trainer worker is SIGKILLed and resumes it from its checkpoint', async () => {
    redis = await TestRedis.start();
    const fast = ['--redis', redis.url, '--role', 'trainer', '--lock-duration-ms', '2000', '--stalled-interval-ms', '1000'];
    workers.push(...(await Promise.all([startWorker(fast), startWorker(fast)])));
    const runDir = join(work, 'run');
    const train = spawnSmokeTrain({
      arm: 'execution',
      steps: 8,
      base: join(work, 'base'),
      out: runDir,
      extra: ['--queue', redis.url],
    });

    // Kill whichever worker took the arm, right after the arm's first checkpoint.
    const firstCkpt = join(runDir, 'execution', 'checkpoints', 'step-000002', 'state.json');
    const deadline = Date.now() + 240_000;
    while (!existsSync(firstCkpt)) {
      if (Date.now() > deadline || train.proc.exitCode !== null)
        throw new Error(`no checkpoint appeared:\n${train.stderr().slice(-3000)}`);
      await sleep(50);
    }
    const victim = workers.find((w) => /taking arm job/.test(w.stderr()));
    expect(victim).toBeDefined();
    victim!.proc.kill('SIGKILL');
    const survivor = workers.find((w) => w !== victim)!;

    const code = await train.exited;
    expect(code, train.stderr().slice(-3000)).toBe(0);
    expect(survivor.stderr()).toMatch(/\[execution\] execution: resumed from step [2-7]/);
    const arm = JSON.parse(readFileSync(join(runDir, 'execution', 'arm.json'), 'utf8'));
    expect(arm.state).toBe('done');
    const steps = readFileSync(join(runDir, 'execution', 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).step);
    expect(steps).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')).endedAt).toBeTruthy();
  }, 300_000);
});
