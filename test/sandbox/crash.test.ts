/**
 * Worker crashes: a worker process killed mid-batch (from outside, as the OOM killer or a native
 * crash would) must not lose programs; its in-flight programs come back as results, the worker
 * is replaced, and the executor keeps going.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { LocalExecutor } from '../../src/sandbox/local-executor.ts';
import { ASSERT, LEGIT, expectStillWorks, js } from './helpers.ts';

describe('worker crashes', () => {
  const ex = new LocalExecutor({ workers: 2, timeoutMs: 4000, maxBatch: 8 });
  afterAll(() => ex.close());

  it('reruns the programs of a worker killed mid-batch', async () => {
    await ex.run([js('warm', LEGIT), js('warm2', LEGIT)]);
    const pids = ex.workerPids();
    expect(pids.every((p) => typeof p === 'number')).toBe(true);
    // Slow-but-finite programs so the kill lands while a batch is in flight.
    const slow = `${ASSERT}let s = 0;\nfor (let i = 0; i < 3e5; i++) s += i % 7;\nassert.ok(s > 0);\n`;
    const specs = Array.from({ length: 40 }, (_, i) => js(`p${i}`, i % 5 === 0 ? LEGIT : slow));
    let killed = false;
    const done = ex.run(specs, () => {
      if (!killed) {
        killed = true;
        process.kill(pids[0]!, 'SIGKILL');
      }
    });
    const results = await done;
    expect(killed).toBe(true);
    expect(results).toHaveLength(40);
    // Every program has a result; re-run programs pass like the others.
    for (const r of results) expect(r.status, JSON.stringify(r)).toBe('pass');
    expect(ex.workerPids()[0]).not.toBe(pids[0]);
  });

  it('reports a program that keeps crashing its worker, and loses nothing else', async () => {
    // A program cannot crash its worker from inside the isolate; the worker's test hook emulates a
    // native crash (SIGKILL of itself) when it is about to run a program holding the marker.
    const marker = 'ANCHOR_TEST_CRASH_7f3a';
    process.env.ANCHOR_SANDBOX_TEST_CRASH_MARKER = marker;
    const crashy = new LocalExecutor({ workers: 2, timeoutMs: 4000, maxBatch: 8 });
    try {
      const specs = Array.from({ length: 24 }, (_, i) => js(`p${i}`, LEGIT));
      specs.splice(5, 0, js('victim', `// ${marker}\n${LEGIT}`));
      const results = await crashy.run(specs);
      expect(results).toHaveLength(25);
      for (const r of results) {
        if (r.id === 'victim') {
          expect(r.status).toBe('error');
          expect(r.error).toMatch(/sandbox worker crashed \(signal SIGKILL\)/);
        } else expect(r.status, JSON.stringify(r)).toBe('pass');
      }
      await expectStillWorks(crashy);
    } finally {
      delete process.env.ANCHOR_SANDBOX_TEST_CRASH_MARKER;
      await crashy.close();
    }
  });

  it('kills and replaces a worker that stops answering, blaming the running program', async () => {
    const hang = new LocalExecutor({ workers: 1, timeoutMs: 300, killGraceMs: 500 });
    try {
      // isolated-vm runs the Proxy trap while copying the thrown value, outside its timeout.
      const [before, hung, after] = await hang.run([
        js('before', LEGIT),
        js('hung', 'throw new Proxy({}, { get() { for (;;) {} } });'),
        js('after', LEGIT),
      ]);
      expect(before!.status).toBe('pass');
      expect(hung!.status).toBe('timeout');
      expect(after!.status).toBe('pass');
      await expectStillWorks(hang);
    } finally {
      await hang.close();
    }
  });
});
