/**
 * Attack class: verdicts that depend on luck or on the machine. Every random source a program can
 * read — the `random` module and new Random() instances, SystemRandom, os.urandom, secrets, uuid4
 * — is seeded per problem from the run seed and the tests' and prompt's text (never the program's
 * own text, which a policy could vary until it met a lucky draw), and every
 * clock (time.time/monotonic/perf_counter/process_time/thread_time and their _ns forms,
 * clock_gettime, os.times, datetime.now, date.today) is virtual, so a verdict is a pure function
 * of the program: the same on repeated runs and in different worker processes. `time.sleep`
 * moves the virtual clock instead of busy-waiting on it (which cost CPU time, the time limit).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ExecResult } from '../../../../src/sandbox/index.ts';
import { py, pyExecutor, runPy } from '../helpers.ts';

const PROBE =
  [
    'import random, os, secrets, uuid, time, datetime',
    'vals = [random.random(), random.Random().random(), random.SystemRandom().random(), os.urandom(8).hex(),',
    '        secrets.token_hex(8), str(uuid.uuid4()), time.time(), time.perf_counter(), str(datetime.datetime.now()),',
    '        time.monotonic(), time.process_time(), time.thread_time(), time.thread_time_ns(), tuple(os.times())]',
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
    // Another program of the same problem draws the same values; another run seed, others.
    expect(ra.other!.stdout).toBe(ra.p1!.stdout);
    expect(rc.p1!.stdout).not.toBe(ra.p1!.stdout);
  });

  it('every clock reads virtual time: a seeded instant of 2001–2037 and a few microseconds of CPU, on any machine', async () => {
    const rs = await runPy(a, [
      [
        'clocks',
        'import time, os, datetime\ndef clocks():\n    return [time.time(), time.monotonic(), time.perf_counter(), time.process_time(),\n            time.thread_time(), time.thread_time_ns(), time.monotonic_ns(), list(os.times()),\n            datetime.datetime.now().year, str(datetime.date.today()), time.gmtime().tm_year]\n',
        // The origin is drawn from the program's seed (src/sandbox/virtual-clock.ts); the monotonic
        // clocks count from a "process start" 27 ms to 10 s before it.
        'import time\nc = clocks()\nassert 978307200 <= c[0] < 2145830400, c\nassert time.time() - c[0] < 0.01\nassert all(0.027 <= x < 10.01 for x in c[1:5]), c\nassert 27 * 10**6 <= c[5] < 10**10 and 27 * 10**6 <= c[6] < 10**10\nassert c[7] == [0.0] * 5\ng = time.gmtime(c[0])\nassert c[8:] == [g.tm_year, time.strftime("%Y-%m-%d", g), g.tm_year], c\n',
      ],
    ]);
    expect(rs.clocks!.status, JSON.stringify(rs.clocks)).toBe('pass');
  });

  it("time.sleep moves every clock on without taking time, with CPython's argument checks", async () => {
    const rs = await runPy(a, [
      [
        'sleep',
        'import time, datetime\ndef slept(s):\n    t0, m0, p0, d0 = time.time(), time.monotonic(), time.perf_counter(), datetime.datetime.now()\n    time.sleep(s)\n    return [time.time() - t0, time.monotonic() - m0, time.perf_counter() - p0, (datetime.datetime.now() - d0).total_seconds()]\n',
        // A second of sleep (the limit is 1.5 s): busy-waiting on the virtual clock took a second of CPU.
        'assert all(1 <= d < 1.01 for d in slept(1))\nassert all(0.25 <= d < 0.26 for d in slept(0.25))\nassert all(0 <= d < 0.01 for d in slept(0))\n',
      ],
      // A sleep past the time limit outlives it, as under CPython (and a free sleep would move the
      // clock the tests read to an instant of the program's choosing).
      ['sleep-past', 'import time\ndef slept(s):\n    time.sleep(s)\n    return s\n', 'assert slept(3600) == 3600\n'],
      [
        'sleep-args',
        'import time\ndef errors():\n    out = []\n    for a in (-1, "1", float("nan"), None, 10**30, 1e300):\n        try:\n            time.sleep(a)\n            out.append("ok")\n        except Exception as e:\n            out.append(type(e).__name__)\n    return out\n',
        'assert errors() == ["ValueError", "TypeError", "ValueError", "TypeError", "OverflowError", "OverflowError"]\n',
      ],
    ]);
    expect(rs.sleep!.status, JSON.stringify(rs.sleep)).toBe('pass');
    expect(rs['sleep-past']!.status, JSON.stringify(rs['sleep-past'])).toBe('timeout');
    expect(rs['sleep-args']!.status, JSON.stringify(rs['sleep-args'])).toBe('pass');
  });

  it("the tests' random cases are the same for every completion: editing a comment cannot redraw them", async () => {
    // A wrong completion right on half the inputs, in 24 variants differing only in a comment. With
    // the tests seeded from the program's text, variants met different random cases and some passed.
    const tests = 'import random\nx = random.random()\nassert double(x) == 2 * x\n';
    const progs: Array<[string, string, string]> = Array.from({ length: 24 }, (_, i) => [
      `v${i}`,
      `def double(x):\n    return 2 * x if x < 0.5 else 0  # variant ${i}\n`,
      tests,
    ]);
    const rs = await runPy(a, progs);
    const verdicts = new Set(Object.values(rs).map((r) => `${r.status}:${r.passed}/${r.total}`));
    expect([...verdicts]).toHaveLength(1);
  });

  it("the program's own draws and clock are the same for every completion: a comment cannot buy a lucky draw", async () => {
    // Wrong completions right by chance (a coin flip for each of three checks; a hard-coded
    // weekday), 24 variants each differing only in a comment, for three problems. With the
    // program's generators and clock seeded from its text, some variants passed and kept passing
    // (red-team rt61 B10, B11).
    const coin = (k: number) => `def is_even(n):\n    return random.random() < 0.5  # variant ${k}\n`;
    const day = (k: number) => `def weekday():\n    return 'Wednesday'  # variant ${k}\n`;
    const problems: Array<[string, (k: number) => string, string]> = [0, 1, 2].flatMap((t) => [
      [`coin${t}`, coin, `assert is_even(2)\nassert not is_even(${3 + 2 * t})\nassert is_even(${10 + t * 2})\n`],
      [`day${t}`, day, `import datetime\nassert weekday() == datetime.date.today().strftime('%A')${' '.repeat(t)}\n`],
    ]);
    for (const [name, completion, tests] of problems) {
      const progs: Array<[string, string, string]> = Array.from({ length: 24 }, (_, k) => [
        `${name}-${k}`,
        `import random\n${completion(k)}`,
        tests,
      ]);
      const rs = await runPy(a, progs);
      const verdicts = new Set(Object.values(rs).map((r) => `${r.status}:${r.passed}/${r.total}`));
      expect([...verdicts], name).toHaveLength(1);
    }
  });

  it('every step is its own draw: a program cannot fix where its lucky answers fall', async () => {
    // A coin-flipping is_prime that first throws away K draws (red-team rt62 A25): with one stream
    // per problem for the whole run, some K passed at every step; each step (ProgramSpec.draw)
    // now brings another stream.
    const tests = 'assert is_prime(2)\nassert not is_prime(9)\nassert is_prime(13)\nassert not is_prime(15)\n';
    const burn = (k: number) =>
      `import random\nfor _ in range(${k}):\n    random.random()\ndef is_prime(n):\n    return random.random() < 0.5\n`;
    const found = await a.run(Array.from({ length: 64 }, (_, k) => py(`k${k}`, burn(k), tests)));
    const k = found.findIndex((r) => r.status === 'pass');
    expect(k, 'some K passes draw 0 (1 in 16 expected)').toBeGreaterThanOrEqual(0);
    const draws = await a.run(Array.from({ length: 24 }, (_, d) => ({ ...py(`d${d}`, burn(k), tests), draw: d + 1 })));
    const passes = draws.filter((r) => r.status === 'pass').length;
    expect(passes, `K = ${k} passed ${passes} of 24 later draws`).toBeLessThan(12);
    const [again] = await a.run([{ ...py('again', burn(k), tests), draw: 5 }]);
    expect(again!.status).toBe(draws[4]!.status);
  });
});
