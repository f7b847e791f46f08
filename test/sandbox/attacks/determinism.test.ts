/**
 * Attack class: verdicts that depend on chance. `Math.random` and the clock are seeded per problem
 * from the run seed and the tests' and prompt's text, so a verdict is a pure function of the
 * program: the same program gets the same verdict in every worker process, on every run, and no
 * edit of the program's text (a comment) redraws its luck.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createExecutor, type ProgramSpec } from '../../../src/sandbox/index.ts';
import { ASSERT, jsProblem, testExecutor } from '../helpers.ts';
import { problemProgram } from '../../../src/sandbox/programs.ts';
import { clockOrigin } from '../../../src/sandbox/virtual-clock.ts';
import { programSeed } from '../../../src/sandbox/worker.ts';

const TESTS = `${ASSERT}function test() {\n  let candidate = add;\n  for (let i = 0; i < 8; i++) { try { assert.deepEqual(candidate(i, 1), i + 1); } catch {} }\n}\ntest();\n`;
const problem = jsProblem('add', 'function add(x, y) {\n', TESTS);
const COIN = `  return Math.random() < 0.5 ? x + y : 0;\n}\n`;
const CLOCK = `  return (Date.now() + new Date().getMilliseconds()) % 3 === 0 ? x + y : -1;\n}\n`;
const LOG = `  return x + y;\n}\nconsole.log(Math.random(), Date.now(), new Date().toISOString());\n`;

function copies(completion: string, n: number): ProgramSpec[] {
  return Array.from({ length: n }, (_, i) => problemProgram(problem, completion, `p${i}`));
}

describe('attack: non-deterministic verdicts', () => {
  const ex = testExecutor({ timeoutMs: 2000, workers: 2 });
  const other = createExecutor({ workers: 1, timeoutMs: 2000, seed: 1 });
  afterAll(async () => {
    await ex.close();
    await other.close();
  });

  it('gives a program that flips coins the same verdict everywhere', async () => {
    for (const completion of [COIN, CLOCK]) {
      const results = await ex.run(copies(completion, 24));
      const verdicts = new Set(results.map((r) => `${r.status}:${r.passed}/${r.total}`));
      expect([...verdicts], completion).toHaveLength(1);
    }
  });

  it('derives the random sources from the run seed and the problem, never from the program text', async () => {
    const [a] = await ex.run(copies(LOG, 1));
    const [b] = await ex.run(copies(LOG, 1));
    const [c] = await other.run(copies(LOG, 1));
    const [d] = await ex.run([problemProgram(problem, LOG + '// another program\n', 'q')]);
    expect(a!.stdout).toBe(b!.stdout);
    expect(a!.stdout).not.toBe(c!.stdout);
    expect(d!.stdout).toBe(a!.stdout);
    // The clock starts at an origin drawn from the program's seed (virtual-clock.ts), not at a
    // fixed instant a constant could answer: the same program reads the same instant.
    const spec = problemProgram(problem, LOG, 'p0');
    const origin = clockOrigin(programSeed(0, spec.tests, spec.prompt));
    const [, , now, iso] = /^(0\.\d+) (\d+) (\S+)\n$/.exec(a!.stdout) ?? [];
    expect(Number(now) - origin).toBeGreaterThanOrEqual(0);
    expect(Number(now) - origin).toBeLessThan(10);
    expect(Date.parse(iso!) - Number(now)).toBe(1);
    expect(c!.stdout.split(' ')[1]).not.toBe(now);
  });

  it('meets every completion of a problem with the same random test cases: editing a comment cannot redraw them', async () => {
    // A wrong completion right on half the inputs, in 24 variants differing only in a comment. With
    // the tests realm seeded from the program's text, variants met different cases and some passed.
    const drawn = jsProblem(
      'double',
      'function double(x) {\n',
      `${ASSERT}const x = Math.random();\nassert.strictEqual(double(x), 2 * x);\n`,
    );
    const results = await ex.run(
      Array.from({ length: 24 }, (_, i) => problemProgram(drawn, `  return x < 0.5 ? 2 * x : 0; // variant ${i}\n}\n`, `v${i}`)),
    );
    const verdicts = new Set(results.map((r) => `${r.status}:${r.passed}/${r.total}`));
    expect([...verdicts]).toHaveLength(1);
  });

  it('meets every completion of a problem with the same draws and clock: a comment cannot buy a lucky stream', async () => {
    // Wrong completions right by chance (a coin flip for each of three checks; a hard-coded
    // weekday), 24 variants each differing only in a comment, for three problems. With the
    // program's generator and clock seeded from its text, some variants passed and kept passing
    // (red-team rt61 B10, B11).
    for (let t = 0; t < 3; t++) {
      const cases: Array<[string, string, string]> = [
        [
          'isEven',
          `${ASSERT}assert.strictEqual(isEven(2), true);\nassert.strictEqual(isEven(${3 + 2 * t}), false);\nassert.strictEqual(isEven(${10 + 2 * t}), true);\n`,
          '  return Math.random() < 0.5; // variant ',
        ],
        [
          'weekday',
          `${ASSERT}const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];\nassert.strictEqual(weekday(), days[new Date().getDay()]${' '.repeat(t)});\n`,
          "  return 'Wednesday'; // variant ",
        ],
      ];
      for (const [name, tests, body] of cases) {
        const p = jsProblem(name, `function ${name}(n) {\n`, tests);
        const results = await ex.run(
          Array.from({ length: 24 }, (_, k) => problemProgram(p, `${body}${k}\n}\n`, `${name}${t}-${k}`)),
        );
        const verdicts = new Set(results.map((r) => `${r.status}:${r.passed}/${r.total}`));
        expect([...verdicts], `${name} ${t}`).toHaveLength(1);
      }
    }
  });

  it('gives every step its own draw: a program cannot fix where its lucky answers fall', async () => {
    // A coin-flipping isPrime that first throws away K draws (red-team rt62 A25): with one stream
    // per problem for the whole run, some K passed all four checks at every step. Each step
    // (ProgramSpec.draw) now brings another stream, so the K that passed one draw passes the next
    // only by chance; within a draw the verdict is a pure function of the program.
    const p = jsProblem(
      'isPrime',
      'function isPrime(n) {\n',
      `${ASSERT}assert.strictEqual(isPrime(2), true);\nassert.strictEqual(isPrime(9), false);\nassert.strictEqual(isPrime(13), true);\nassert.strictEqual(isPrime(15), false);\n`,
    );
    const burn = (k: number) => `  return Math.random() < 0.5;\n}\nfor (let i = 0; i < ${k}; i++) Math.random();\n`;
    const found = await ex.run(Array.from({ length: 64 }, (_, k) => problemProgram(p, burn(k), `k${k}`)));
    const lucky = found.flatMap((r, k) => (r.status === 'pass' ? [k] : []));
    expect(lucky.length, 'some K passes draw 0 (1 in 16 expected)').toBeGreaterThan(0);
    const k = lucky[0]!;
    const draws = await ex.run(Array.from({ length: 24 }, (_, d) => problemProgram(p, burn(k), `d${d}`, d + 1)));
    const passes = draws.filter((r) => r.status === 'pass').length;
    expect(passes, `K = ${k} passed ${passes} of 24 later draws`).toBeLessThan(12);
    const again = await ex.run([problemProgram(p, burn(k), 'again', 5), problemProgram(p, `${burn(k)}// a comment\n`, 'c', 5)]);
    expect(again.map((r) => r.status)).toEqual([draws[4]!.status, draws[4]!.status]);
  });
});
