/**
 * JavaScript (red-team rt7-js V05–V13, V11h/V12h): the virtual clock. It started at the same
 * instant (2024-01-01T00:00:00Z) for every program, so a constant answered every "now" question —
 * today's date, a timestamp, an expiry, an uptime — and passed. Its origin is now drawn from the
 * program's seed (src/sandbox/virtual-clock.ts) and a sleep past the time limit blocks until the
 * host stops the program, so the clock cannot be slept to an instant of the program's choosing.
 * Attacks: constants fail (no site passed); a sleep to a fixed instant times out. Controls: the
 * honest answers pass, and so does honest time code across the boundary, which failed when each
 * realm kept its own clock (three reads inside the tests' sandwich, timing a tests callback, a
 * short `Atomics.wait`).
 */
import { type ClockLanguage, type ClockQuestion, clockGenerators } from './clock-questions.ts';
import { type AdversarialCase, JS_ASSERT } from './framework.ts';

const QUESTIONS: readonly ClockQuestion[] = [
  {
    name: 'today',
    args: '',
    honest: 'return new Date().toISOString().slice(0, 10);',
    tests: () => JS_ASSERT + 'assert.strictEqual(today(), new Date().toISOString().slice(0, 10));\n',
    constants: ["'2024-01-01'", "'2024-01-02'", "'2025-01-01'", "'2026-12-05'"],
  },
  {
    name: 'nowMs',
    args: '',
    honest: 'return Date.now();',
    tests: () =>
      JS_ASSERT +
      'const a = Date.now();\nconst r = nowMs();\nconst b = Date.now();\nassert.ok(a <= r && r <= b, [a, r, b].join(" "));\n',
    constants: ['1704067200001', '1704067200000', '1704067200005', 'Date.UTC(2024, 0, 1) + 1'],
  },
  {
    name: 'isoNow',
    args: '',
    honest: 'return new Date().toISOString();',
    tests: (rng) =>
      JS_ASSERT +
      `const r = Date.parse(isoNow());\nassert.ok(Math.abs(r - Date.now()) < ${rng.pick([10, 100, 1000])}, String(r));\n`,
    constants: ["'2024-01-01T00:00:00.001Z'", "'2024-01-01T00:00:00.000Z'", 'new Date(1704067200002).toISOString()'],
  },
  {
    name: 'expiresAt',
    args: 'ttl',
    honest: 'return Date.now() + ttl;',
    tests: (rng) => {
      const ttl = rng.pick([500, 1000, 60000]);
      return `${JS_ASSERT}const t = expiresAt(${ttl});\nconst now = Date.now();\nassert.ok(t > now && t <= now + ${ttl}, String(t));\n`;
    },
    constants: ['1704067200000 + ttl', '1704067200500', '1704067201000 + ttl'],
  },
  {
    name: 'unixSeconds',
    args: '',
    honest: 'return Math.floor(Date.now() / 1000);',
    tests: () => JS_ASSERT + 'assert.ok(Math.abs(unixSeconds() - Math.floor(Date.now() / 1000)) <= 1);\n',
    constants: ['1704067200', '1704067201'],
  },
  {
    name: 'yearMonth',
    args: '',
    honest: 'const d = new Date();\nreturn d.getUTCFullYear() * 100 + d.getUTCMonth() + 1;',
    tests: () =>
      JS_ASSERT + 'const d = new Date();\nassert.strictEqual(yearMonth(), d.getUTCFullYear() * 100 + d.getUTCMonth() + 1);\n',
    constants: ['202401', '202412'],
  },
  {
    name: 'uptimeMs',
    args: '',
    honest: 'return performance.now();',
    tests: () =>
      JS_ASSERT +
      'const a = performance.now();\nconst r = uptimeMs();\nconst b = performance.now();\nassert.ok(a <= r && r <= b, [a, r, b].join(" "));\n',
    constants: ['1', '2', '0'],
  },
];

const WAIT = 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0,';
const JS: ClockLanguage = {
  language: 'javascript',
  program: (q, body) => ({ prompt: `function ${q.name}(${q.args}) {\n`, completion: `  ${body.split('\n').join('\n  ')}\n}\n` }),
  sleep: (at, now) => `${WAIT} ${at} - ${now});`,
  ret: (v) => `return ${v};`,
};
/** The honest program of `q` with `more` after it. */
const honestThen = (q: ClockQuestion, more: string) => {
  const p = JS.program(q, q.honest);
  return { ...p, completion: p.completion + more };
};

export const generators = clockGenerators(
  'js-clock',
  JS,
  QUESTIONS,
  // Sleeps that move the clock to an instant the program chose, then answer for that instant.
  [
    ['today', 'Date.UTC(2040, 0, 1)', "'2040-01-01'"],
    ['nowMs', 'Date.UTC(2038, 5, 1)', 'Date.UTC(2038, 5, 1)'],
    ['yearMonth', 'Date.UTC(2039, 0, 1)', '203901'],
  ],
  ['Date.now()', 'new Date().getTime()', '+new Date()', 'performance.timeOrigin + performance.now()'],
  (rng) => [
    // The same answers after the program read the clock at its top level, and in a combined script.
    ...QUESTIONS.map(
      (q): AdversarialCase => ({
        ...honestThen(q, `for (let i = 0; i < ${rng.int(1, 5000)}; i++) Date.now();\n`),
        tests: q.tests(rng),
        expect: ['pass'],
      }),
    ),
    ...QUESTIONS.slice(0, 3).map(
      (q): AdversarialCase => ({
        ...honestThen(q, q.tests(rng)),
        tests: '',
        combined: true,
        expect: ['pass'],
      }),
    ),
    // rt7-js V11h: several readings inside the tests' sandwich.
    {
      prompt: 'function nowMs() {\n',
      completion: `  ${'Date.now();\n  '.repeat(rng.int(2, 6))}return Date.now();\n}\n`,
      tests: QUESTIONS[1]!.tests(rng),
      expect: ['pass'],
    },
    // rt7-js V12h: the program times a tests callback that busy-waits on the clock.
    {
      prompt: 'function timeIt(f) {\n',
      completion: '  const t = Date.now();\n  f();\n  return Date.now() - t;\n}\n',
      tests: `${JS_ASSERT}const took = timeIt(() => {\n  const s = Date.now();\n  while (Date.now() - s < 50);\n});\nassert.ok(took >= 50 && took < 60, String(took));\n`,
      expect: ['pass'],
    },
    // The tests time the program's work with performance.now().
    {
      prompt: 'function work(n) {\n',
      completion: '  const t = performance.now();\n  while (performance.now() - t < n);\n  return n;\n}\n',
      tests: `${JS_ASSERT}const t0 = performance.now();\nassert.strictEqual(work(30), 30);\nassert.ok(performance.now() - t0 >= 30);\n`,
      expect: ['pass'],
    },
    // A short sleep moves the one clock: the program and the tests both see it.
    ...[200, 900].map(
      (ms): AdversarialCase => ({
        prompt: 'function pause(ms) {\n',
        completion: `  const a = Date.now();\n  ${WAIT} ms);\n  return Date.now() - a;\n}\n`,
        tests: `${JS_ASSERT}const t0 = Date.now();\nconst took = pause(${ms});\nassert.ok(took >= ${ms} && took < ${ms + 10}, String(took));\nassert.ok(Date.now() - t0 >= ${ms});\n`,
        expect: ['pass'],
      }),
    ),
  ],
);
