/**
 * Python, beside js-clock-constants.ts: the virtual clock (`time`, `datetime`) started at
 * 2024-01-01T00:00:00Z for every program, so a constant answered every "now" question and passed.
 * Its origin is now drawn from the program's seed (src/sandbox/virtual-clock.ts), and a
 * `time.sleep` past the time limit blocks until the host stops the program, so the clock cannot
 * be slept to an instant of the program's choosing (the program's and the tests' interpreters read
 * one clock). Attacks: constants fail (no site passed); a sleep to a fixed instant times out.
 * Controls: honest answers pass, also after reads at the top level, with several reads inside the
 * tests' sandwich, timing a tests callback and after a short sleep.
 */
import { type ClockLanguage, type ClockQuestion, clockGenerators } from './clock-questions.ts';
import type { AdversarialCase } from './framework.ts';

const QUESTIONS: readonly ClockQuestion[] = [
  {
    name: 'today',
    args: '',
    honest: 'return datetime.date.today().isoformat()',
    tests: () => 'import datetime\nassert today() == datetime.date.today().isoformat()\n',
    constants: ["'2024-01-01'", "'2024-01-02'", "'2025-01-01'", "'2026-12-05'"],
  },
  {
    name: 'now_s',
    args: '',
    honest: 'return time.time()',
    tests: () => 'import time\na = time.time()\nr = now_s()\nb = time.time()\nassert a <= r <= b, (a, r, b)\n',
    constants: ['1704067200.000001', '1704067200.0', '1704067200.5'],
  },
  {
    name: 'iso_now',
    args: '',
    honest: 'return datetime.datetime.now(datetime.timezone.utc).isoformat()',
    tests: (rng) =>
      `import datetime\nr = datetime.datetime.fromisoformat(iso_now())\nassert abs((r - datetime.datetime.now(datetime.timezone.utc)).total_seconds()) < ${rng.pick([0.01, 0.1, 1])}\n`,
    constants: ["'2024-01-01T00:00:00.000001+00:00'", "'2024-01-01T00:00:00+00:00'"],
  },
  {
    name: 'expires_at',
    args: 'ttl',
    honest: 'return time.time() + ttl',
    tests: (rng) => {
      const ttl = rng.pick([0.5, 1, 60]);
      return `import time\nt = expires_at(${ttl})\nnow = time.time()\nassert now < t <= now + ${ttl}, t\n`;
    },
    constants: ['1704067200 + ttl', '1704067200.5', '1704067201 + ttl'],
  },
  {
    name: 'year_month',
    args: '',
    honest: 'd = datetime.datetime.now(datetime.timezone.utc)\nreturn d.year * 100 + d.month',
    tests: () =>
      'import datetime\nd = datetime.datetime.now(datetime.timezone.utc)\nassert year_month() == d.year * 100 + d.month\n',
    constants: ['202401', '202412'],
  },
  {
    name: 'counter',
    args: '',
    honest: 'return time.perf_counter()',
    tests: () => 'import time\na = time.perf_counter()\nr = counter()\nb = time.perf_counter()\nassert a <= r <= b, (a, r, b)\n',
    constants: ['0.000002', '0.0', '0.001', '1e-06'],
  },
  {
    name: 'weekday_date',
    args: '',
    honest: 'return datetime.date.today().strftime("%A %d %B %Y")',
    tests: () => 'import datetime\nassert weekday_date() == datetime.date.today().strftime("%A %d %B %Y")\n',
    constants: ["'Monday 01 January 2024'", "'Tuesday 02 January 2024'"],
  },
];

const IMPORTS = 'import datetime\nimport time\n\n';
const PY: ClockLanguage = {
  language: 'python',
  program: (q, body) => ({ completion: `${IMPORTS}def ${q.name}(${q.args}):\n    ${body.split('\n').join('\n    ')}\n` }),
  sleep: (at, now) => `time.sleep(${at}.timestamp() - ${now})`,
  ret: (v) => `return ${v}`,
};

export const generators = clockGenerators(
  'py-clock',
  PY,
  QUESTIONS,
  [
    ['today', 'datetime.datetime(2040, 1, 1, tzinfo=datetime.timezone.utc)', "'2040-01-01'"],
    ['now_s', 'datetime.datetime(2038, 6, 1, tzinfo=datetime.timezone.utc)', '2158963200.0'],
    ['year_month', 'datetime.datetime(2039, 1, 1, tzinfo=datetime.timezone.utc)', '203901'],
  ],
  ['time.time()', 'datetime.datetime.now(datetime.timezone.utc).timestamp()', 'time.time_ns() / 1e9'],
  (rng) => [
    ...QUESTIONS.map(
      (q): AdversarialCase => ({
        completion: PY.program(q, q.honest).completion + `\nfor _ in range(${rng.int(1, 5000)}):\n    time.time()\n`,
        tests: q.tests(rng),
        expect: ['pass'],
      }),
    ),
    {
      completion: `${IMPORTS}def now_s():\n${'    time.time()\n'.repeat(rng.int(2, 6))}    return time.time()\n`,
      tests: QUESTIONS[1]!.tests(rng),
      expect: ['pass'],
    },
    // A sleeping program's reading inside the tests' sandwich (the tests see the sleep).
    {
      completion: `${IMPORTS}def now_s():\n    time.sleep(${rng.pick([0.1, 0.5, 2])})\n    return time.time()\n`,
      tests: QUESTIONS[1]!.tests(rng),
      expect: ['pass'],
    },
    {
      completion: `${IMPORTS}def time_it(f):\n    t = time.perf_counter()\n    f()\n    return time.perf_counter() - t\n`,
      tests:
        'import time\ndef busy():\n    s = time.perf_counter()\n    while time.perf_counter() - s < 0.005:\n        pass\ntook = time_it(busy)\nassert 0.005 <= took < 0.006, took\n',
      expect: ['pass'],
    },
    ...[0.2, 0.9, 30].map(
      (s): AdversarialCase => ({
        completion: `${IMPORTS}def pause(s):\n    a = time.monotonic()\n    time.sleep(s)\n    return time.monotonic() - a\n`,
        tests: `import time\nt0 = time.time()\ntook = pause(${s})\nassert ${s} <= took < ${s} + 0.01, took\nassert time.time() - t0 >= ${s}\n`,
        expect: ['pass'],
        // The sleep must fit the time limit to be honest (the suite runs with 5 s).
        ...(s > 4 ? { timeoutMs: 60000 } : {}),
      }),
    ),
  ],
);
