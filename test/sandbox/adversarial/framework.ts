/**
 * Generated adversarial suite: a small framework that turns attack *classes* into many concrete
 * programs, each with the verdict a sound strict harness gives, and runs them through the sandbox
 * as training does (trusted prompt, untrusted completion, tests in their own field, `strict`).
 *
 * README — how to add generators (JavaScript files are `js-*.ts`, Python files `py-*.ts`, all in
 * this folder; `adversarial.test.ts` imports every such file and runs what it exports):
 *
 * ```ts
 * import { defineGenerator, variants } from './framework.ts';
 * export const generators = [
 *   defineGenerator({
 *     name: 'js-prompt-helper-rebound',          // unique; the prefix of every case id
 *     language: 'javascript',
 *     about: 'the completion rebinds a helper the prompt defines and the tests use',
 *     cases: (rng) => variants(20, (i) => ({      // ≥ 20 variants per generator (checked)
 *       prompt: '...', completion: '...', tests: '...',
 *       expect: ['fail'],                          // statuses a sound strict harness may give
 *       maxPassed: 0,                              // optional: passed must not exceed this
 *     })),
 *   }),
 * ];
 * ```
 *
 * - `prompt` is trusted (ProgramSpec.prompt); the program is `prompt + completion`.
 * - `expect` lists acceptable statuses; `maxPassed` caps `passed` (gold inflation); `maxGold` caps
 *   gold as training computes it (`goldOf`, src/train/gold.ts: passed over the larger of `total`
 *   and the assertion calls in the tests' text) — for a wrong answer, what an honest failing
 *   answer to the same tests would score.
 * - `twin: true` runs the case twice (in separate batches, so on a different isolate state):
 *   both runs must give the same status and passed count (determinism).
 * - `loaded: true` runs it again while the sandbox workers get only a third of the CPU (the test
 *   stops and continues their processes in turn): the status and passed count must not change
 *   (time limits are CPU time, not wall time).
 * - `rng` is a seeded generator (same cases on every run); use it to vary names and values.
 * - Keep each generator's cases cheap: the whole suite runs in CI in a few tens of seconds.
 */
import type { Problem } from '../../../src/datasets/problem.ts';
import type { ExecResult, ExecStatus } from '../../../src/sandbox/types.ts';
import { goldOf } from '../../../src/train/gold.ts';

/** One generated program and the verdict a sound strict harness gives it. */
export interface AdversarialCase {
  /** Trusted prefix of the program (the problem's prompt); default ''. */
  prompt?: string;
  /** The untrusted part of the program. */
  completion: string;
  /** The tests, run apart from the program. */
  tests: string;
  /** Statuses a sound strict harness may give. */
  expect: readonly ExecStatus[];
  /** `passed` must be at most this (default: unbounded). */
  maxPassed?: number;
  /** Gold (`goldOf`, src/train/gold.ts) must be at most this (default: unbounded). */
  maxGold?: number;
  /**
   * Give program and tests as one script (`prompt + completion + tests`, no separate `tests`
   * field), as `anchor-rl sandbox run` does with a whole program.
   */
  combined?: boolean;
  /** Run twice; both results must agree (status and passed). */
  twin?: boolean;
  /**
   * Run again on a loaded machine (the sandbox workers get a third of the CPU: stopped and
   * continued in turn); both results must agree (status and passed).
   */
  loaded?: boolean;
  /** Per-program time limit, ms (default: the runner's). */
  timeoutMs?: number;
  /** What the case does, shown when it fails. */
  note?: string;
}

/** A seeded random source for generators. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  /** One element of `xs`. */
  pick<T>(xs: readonly T[]): T;
}

/** A class of attacks (or honest controls) and its variants. */
export interface Generator {
  name: string;
  language: 'javascript' | 'python';
  about: string;
  cases(rng: Rng): AdversarialCase[];
}

/** The MultiPL-E tests' first line (JavaScript). */
export const JS_ASSERT = "const assert = require('node:assert');\n";

/** Identity helper that types a generator. */
export function defineGenerator(g: Generator): Generator {
  return g;
}

/** A task with honest and wrong completions, all judged by one set of tests. */
export interface PairedTask {
  prompt: string;
  tests: string;
  honest: readonly string[];
  wrong: readonly string[];
}

/** The cases of the tasks' `which` completions, each under its task's tests after `header`. */
export function pairedCases(
  tasks: readonly PairedTask[],
  which: 'honest' | 'wrong',
  header: string,
  expect: readonly ExecStatus[],
): AdversarialCase[] {
  return tasks.flatMap((t) => t[which].map((completion) => ({ prompt: t.prompt, completion, tests: header + t.tests, expect })));
}

/** `n` cases built by `build(i)`. */
export function variants(n: number, build: (i: number) => AdversarialCase): AdversarialCase[] {
  return Array.from({ length: n }, (_, i) => build(i));
}

/**
 * `n` cases over the grid of `rows` × `cols` (an attack and a test shape, say): case `i` takes
 * `rows[i % rows.length]` and `cols[floor(i / rows.length) % cols.length]`, so every row meets
 * several columns before any pair repeats.
 */
/**
 * `n` cases over `rows` × `cols` (see {@link grid}) where each row makes, for a column, a
 * completion and the tests' statements, or a prompt, a completion and the statements: the
 * statements run inside `function test() {…}` with node:assert, and `test()` is called.
 */
export function checkCases<C>(
  n: number,
  rows: readonly ((col: C) => readonly [string, string] | readonly [string, string, string])[],
  cols: readonly C[],
  expect: readonly ExecStatus[],
  call = 'test();',
): AdversarialCase[] {
  return grid(n, rows, cols, (make, col) => {
    const made = make(col);
    const [prompt, completion, check] = made.length === 3 ? made : ['', made[0], made[1]];
    return { prompt, completion, tests: `${JS_ASSERT}function test() {\n  ${check}\n}\n${call}\n`, expect };
  });
}

export function grid<R, C>(
  n: number,
  rows: readonly R[],
  cols: readonly C[],
  build: (row: R, col: C, i: number) => AdversarialCase,
): AdversarialCase[] {
  return variants(n, (i) => build(rows[i % rows.length]!, cols[Math.floor(i / rows.length) % cols.length]!, i));
}

/** A seeded generator (mulberry32) from a generator's name, so every run builds the same cases. */
export function rngFor(name: string): Rng {
  let s = 0x9e3779b9;
  for (let i = 0; i < name.length; i++) s = Math.imul(s ^ name.charCodeAt(i), 0x01000193) >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)]!,
  };
}

/** Why a result does not match its case, or null. */
export function mismatch(c: AdversarialCase, r: ExecResult): string | null {
  if (!c.expect.includes(r.status)) return `status ${r.status}, expected ${c.expect.join('|')}`;
  if (c.maxPassed !== undefined && r.passed > c.maxPassed) return `passed ${r.passed} > ${c.maxPassed}`;
  if (c.maxGold !== undefined) {
    // goldOf reads only the tests' text of the problem.
    const gold = goldOf(r, { tests: c.tests } as Problem);
    if (gold > c.maxGold) return `gold ${gold} (${r.passed}/${r.total}) > ${c.maxGold}`;
  }
  return null;
}

/**
 * The cases of a load-independence class (`js-load-independent.ts`, `py-load-independent.ts`):
 * every program runs as is and under load (`loaded`) with a CPU budget of `budgetMs`. Each
 * bounded one answers a number: every third is checked only for being a number (`pass`: its
 * `tests(true)`), the rest also against an answer none meets (`fail` with one passed site:
 * `tests(false)`); each endless one is a `timeout`.
 */
export function loadIndependentCases(spec: {
  budgetMs: number;
  bounded: ReadonlyArray<{ completion: string; tests: (honest: boolean) => string; note: string }>;
  endless: ReadonlyArray<{ completion: string; tests: string; note: string }>;
}): AdversarialCase[] {
  const common = { timeoutMs: spec.budgetMs, loaded: true } as const;
  return [
    ...spec.bounded.map(
      (b, i): AdversarialCase => ({
        completion: b.completion,
        tests: b.tests(i % 3 === 0),
        expect: i % 3 === 0 ? ['pass'] : ['fail'],
        ...(i % 3 === 0 ? {} : { maxPassed: 1 }),
        ...common,
        note: `bounded: ${b.note}`,
      }),
    ),
    ...spec.endless.map(
      (e): AdversarialCase => ({
        completion: e.completion,
        tests: e.tests,
        expect: ['timeout'],
        ...common,
        note: `endless: ${e.note}`,
      }),
    ),
  ];
}

/** One shape of tests in a {@link scoredPair}: the most a wrong answer may score on it. */
export interface ScoredShape {
  /** `maxPassed` of the wrong answer's case. */
  passed: number;
  /** `maxGold` of the wrong answer's case. */
  gold: number;
  note: string;
}

/**
 * How a program answers case `k` of a non-finite class (`js-guard-sites.ts`, `py-guard-sites.ts`):
 * the right answer (expected `k * 1.25`), the wrong one, and how the tests read an answer `r`.
 */
export interface NonFiniteSource {
  good: (k: string) => string;
  bad: string;
  read: (r: string) => string;
  /** Which tolerance the bad value defeats: a negated one (NaN) or a relative one (infinity). */
  kind: 'nan' | 'inf';
}

/** A shape of tests over a {@link NonFiniteSource}, and the most a wrong answer may score on it. */
export interface SourcedShape extends ScoredShape {
  tests: (s: NonFiniteSource) => string;
}

/**
 * A class of wrong answers and its honest twin over the same tests: `n` cases over the grid of
 * `sources` × `shapes` (see {@link grid}), each built twice by `build` — wrong (`fail`, scoring no
 * more than the shape allows) and right (`pass`) — plus `controls` in the honest class. Named
 * `name` and `name-honest`.
 */
export function scoredPair<S, C extends ScoredShape>(spec: {
  name: string;
  language: Generator['language'];
  about: string;
  aboutHonest: string;
  n: number;
  sources: readonly S[];
  shapes: readonly C[];
  /** A case's program (`prompt`, trusted, before `completion`), its tests and a note. */
  build: (source: S, shape: C, right: boolean) => { prompt?: string; completion: string; tests: string; note: string };
  /** Fields every case gets (a time limit, say). */
  common?: Pick<AdversarialCase, 'timeoutMs'>;
  controls?: readonly AdversarialCase[];
}): Generator[] {
  const cases = (right: boolean) =>
    grid(spec.n, spec.sources, spec.shapes, (s, shape): AdversarialCase => {
      const { prompt, completion, tests, note } = spec.build(s, shape, right);
      const bound = right ? {} : { maxPassed: shape.passed, maxGold: shape.gold };
      return {
        ...(prompt === undefined ? {} : { prompt }),
        completion,
        tests,
        expect: [right ? 'pass' : 'fail'],
        ...bound,
        ...spec.common,
        note: `${note}, ${shape.note}`,
      };
    });
  return [
    defineGenerator({ name: spec.name, language: spec.language, about: spec.about, cases: () => cases(false) }),
    defineGenerator({
      name: `${spec.name}-honest`,
      language: spec.language,
      about: spec.aboutHonest,
      cases: () => [...cases(true), ...(spec.controls ?? [])],
    }),
  ];
}

/** A prompt and tests with a right and a wrong completion of it. */
export interface TwinShape {
  prompt: string;
  honest: string;
  wrong: string;
  tests: string;
}

/**
 * `n` cases each way over `shapes` (case `i` takes shape `i % shapes.length`, its completion
 * varied by `vary` so the cases differ in text): wrong completions `fail`, honest ones `pass`.
 * Named `name` and `name-honest`.
 */
export function twinPair(spec: {
  name: string;
  language: Generator['language'];
  about: string;
  aboutHonest: string;
  n: number;
  shapes: readonly TwinShape[];
  vary: (completion: string, i: number) => string;
  timeoutMs?: number;
}): Generator[] {
  const cases = (right: boolean) =>
    variants(spec.n, (i): AdversarialCase => {
      const s = spec.shapes[i % spec.shapes.length]!;
      return {
        prompt: s.prompt,
        completion: spec.vary(right ? s.honest : s.wrong, i),
        tests: s.tests,
        expect: [right ? 'pass' : 'fail'],
        ...(spec.timeoutMs === undefined ? {} : { timeoutMs: spec.timeoutMs }),
      };
    });
  return [
    defineGenerator({ name: spec.name, language: spec.language, about: spec.about, cases: () => cases(false) }),
    defineGenerator({ name: `${spec.name}-honest`, language: spec.language, about: spec.aboutHonest, cases: () => cases(true) }),
  ];
}
