/**
 * Attack class: verdicts that depend on luck. Every random source a program can read — the
 * `random` module and new Random() instances, SystemRandom, os.urandom, secrets, uuid4 — and the
 * clocks (time.time, perf_counter, datetime.now) are seeded per program from the run seed and a
 * hash of the program's code and tests, so a verdict is a pure function of the program: the same
 * on repeated runs and in different worker processes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ExecResult } from '../../../../src/sandbox/index.ts';
import { pyExecutor, runPy } from '../helpers.ts';

const PROBE =
  [
    'import random, os, secrets, uuid, time, datetime',
    'vals = [random.random(), random.Random().random(), random.SystemRandom().random(), os.urandom(8).hex(),',
    '        secrets.token_hex(8), str(uuid.uuid4()), time.time(), time.perf_counter(), str(datetime.datetime.now())]',
    'print(vals)',
    'def lucky():',
    '    return random.SystemRandom().random() < 0.5',
  ].join('\n') + '\n';
const TESTS = 'assert lucky()\n';

describe('python attack: luck-dependent verdicts', { timeout: 240_000 }, () => {
  const a = pyExecutor({ seed: 7 });
  const b = pyExecutor({ seed: 7 });
  const c = pyExecutor({ seed: 8 });
  afterAll(() => Promise.all([a.close(), b.close(), c.close()]));

  it('the same program gets the same values and verdict on every run and in every worker', async () => {
    const progs: Array<[string, string, string]> = [
      ['p1', PROBE, TESTS],
      ['p2', PROBE, TESTS],
      ['other', PROBE + '# another program\n', TESTS],
    ];
    const ra = await runPy(a, progs);
    const ra2 = await runPy(a, progs);
    const rb = await runPy(b, progs);
    const rc = await runPy(c, progs);
    const key = (r: ExecResult | undefined) => JSON.stringify([r!.status, r!.stdout]);
    expect(ra.p1!.stdout).toMatch(/^\[/);
    expect(key(ra.p2)).toBe(key(ra.p1));
    expect(key(ra2.p1)).toBe(key(ra.p1));
    expect(key(rb.p1)).toBe(key(ra.p1));
    expect(key(rb.other)).toBe(key(ra.other));
    // Different programs, or another run seed, draw other values.
    expect(ra.other!.stdout).not.toBe(ra.p1!.stdout);
    expect(rc.p1!.stdout).not.toBe(ra.p1!.stdout);
  });
});
