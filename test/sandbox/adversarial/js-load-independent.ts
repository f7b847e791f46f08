/**
 * JavaScript generator: a verdict does not depend on the machine's load. Each program either does
 * a bounded amount of work (about half its CPU budget; more than a third of it, so at a third of a
 * CPU a wall-clock limit would stop it) and answers, or never stops; each runs once as is and once while the sandbox workers get
 * a third of the CPU (see `loaded` in framework.ts). The time limit is CPU time, so the bounded
 * programs keep their verdict (`fail` with one passed site, or `pass`) and the endless ones stay
 * `timeout`. Under a wall-clock limit the bounded ones became `timeout` when loaded.
 */
import { defineGenerator, JS_ASSERT as ASSERT, loadIndependentCases } from './framework.ts';

/**
 * CPU budget of these cases, ms. The bounded work took ~150 ms (half of a 300 ms budget) on the
 * machines this was written on and 260–370 ms in plain Node on the slower machine of 2026-12-07,
 * where the 300 ms budget made a bounded case `timeout` even on an idle machine (CI run ci82): 450
 * ms is about 1.5 times the slow machine's work and 3 times the fast machines' (a third: there a
 * wall-clock limit at a third of a CPU would still just stop it).
 */
const BUDGET_MS = 450;

/** Bounded work of various shapes: the body of `work(n)` and the `n` to call it with. */
const BOUNDED: Array<{ body: string; n: number; async?: boolean }> = [
  { body: 'let s = 0;\n  for (let i = 0; i < n; i++) s += i & 7;\n  return s;', n: 2.4e8 },
  { body: 'let s = 0, i = 0;\n  while (i < n) { s ^= i * 31; i++; }\n  return s;', n: 2e8 },
  { body: 'const fib = (k) => (k < 2 ? k : fib(k - 1) + fib(k - 2));\n  return fib(n);', n: 35 },
  { body: 'return /^(a+)+b$/.test("a".repeat(n)) ? 1 : 0;', n: 22 },
  // Allocation-heavy work stays below V8's large-object size (~128 KB): large objects are fresh
  // pages from the kernel each time, and page-fault cost varied 3x between machines and under load
  // (these two took 200-600 ms of this budget on one CI machine, idle), so their verdict measured the kernel.
  // Even below it they are the cases whose CPU time grows most with the load (garbage collection
  // sharing caches and memory bandwidth): at 150-160 ms idle they used the whole 300 ms in a CI run
  // at load 10-14, so they do about a quarter of the budget.
  { body: 'let t = 0;\n  for (let k = 0; k < n; k++) t += new Array(1000).fill(k).length;\n  return t;', n: 5.5e4 },
  { body: 'let t = 0;\n  for (let k = 0; k < 1200; k++) t += "xy".repeat(n).lastIndexOf("yy");\n  return t;', n: 5e4 },
  {
    body: 'const a = Array.from({ length: n }, (_, i) => ({ i }));\n  let t = 0;\n  for (let k = 0; k < 15; k++) t += JSON.stringify(a).length;\n  return t;',
    n: 6e4,
  },
  {
    body: 'const a = Array.from({ length: n }, (_, i) => (i * 7919) % 100003);\n  a.sort((x, y) => x - y);\n  return a[5];',
    n: 2e5,
  },
  { body: 'let s = 0;\n  for (let i = 0; i < n; i++) { await null; s++; }\n  return s;', n: 2.5e6, async: true },
  {
    body: 'let t = 0;\n  for (let r = 0; r < 10; r++) {\n    const o = {};\n    for (let i = 0; i < n; i++) o["k" + i] = i;\n    t += Object.keys(o).length;\n  }\n  return t;',
    n: 1.5e4,
  },
  {
    body: 'function* g() { for (let i = 0; i < n; i++) yield i; }\n  let s = 0;\n  for (const x of g()) s += x;\n  return s;',
    n: 3.5e6,
  },
  {
    body: 'let p = Promise.resolve(0);\n  for (let i = 0; i < n; i++) p = p.then((v) => v + 1);\n  return p;',
    n: 2e5,
    async: true,
  },
];

/** Programs that never finish (or would take far beyond any budget): the body of `work(n)`. */
const ENDLESS: Array<{ body: string; async?: boolean }> = [
  { body: 'for (;;) {}' },
  { body: 'while (true) {\n    try { n++; } catch {}\n  }' },
  { body: 'do { n = (n * 7) % 13; } while (n >= 0);\n  return n;' },
  { body: 'outer: for (;;) {\n    for (let i = 0; i < 10; i++) continue outer;\n  }' },
  { body: 'function f() {\n    try { return f() + 1; } catch { return f() + 1; }\n  }\n  return f();' },
  { body: 'return /^(a+)+$/.test("a".repeat(40) + "!") ? 1 : 0;' },
  { body: 'let s = 0;\n  for (;;) s += "ab".repeat(1e5).length;' },
  { body: 'let s = 0;\n  for (const x of (function* () { for (;;) yield 1; })()) s += x;\n  return s;' },
  { body: 'for (;;) await null;', async: true },
  { body: 'const a = [1, 2, 3];\n  for (;;) a.push(JSON.stringify(a).length) && a.pop();' },
  {
    body: 'const a = Array.from({ length: 1e6 }, (_, i) => (i * 7919) % 1000003);\n  a.sort((x, y) => {\n    let k = 0;\n    for (let j = 0; j < 1000; j++) k = (k + j * x) % 7;\n    return x - y + k - k;\n  });\n  return a[0];',
  },
  { body: 'const spin = () => {\n    Promise.resolve().then(spin);\n  };\n  spin();\n  return 1;' },
];

function program(body: string, isAsync: boolean | undefined): string {
  return `${isAsync ? 'async ' : ''}function work(n) {\n  ${body}\n}\n`;
}

/** Tests: one site that passes for any number, and (unless `honest`) one no answer meets. */
function tests(n: number, isAsync: boolean | undefined, honest: boolean): string {
  const get = isAsync ? `await work(${n})` : `work(${n})`;
  const checks = `  const r = ${get};\n  assert.strictEqual(typeof r, 'number');\n${honest ? '' : '  assert.strictEqual(r, -1);\n'}`;
  return `${ASSERT}${isAsync ? 'async ' : ''}function test() {\n${checks}}\ntest();\n`;
}

const loadIndependent = defineGenerator({
  name: 'js-load-independent',
  language: 'javascript',
  about: 'bounded work keeps its verdict and endless work stays `timeout` when the machine is loaded (CPU-time limits)',
  cases: () =>
    loadIndependentCases({
      budgetMs: BUDGET_MS,
      bounded: BOUNDED.map((b) => ({
        completion: program(b.body, b.async),
        tests: (honest: boolean) => tests(b.n, b.async, honest),
        note: b.body.split('\n')[0]!,
      })),
      endless: ENDLESS.map((e) => ({
        completion: program(e.body, e.async),
        tests: tests(1, e.async, false),
        note: e.body.split('\n')[0]!,
      })),
    }),
});

export const generators = [loadIndependent];
