import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleProgram } from '../../src/datasets/problem.ts';
import type { ProgramSpec } from '../../src/sandbox/types.ts';
import type { Executor } from '../../src/sandbox/types.ts';
import { dsl6, richdsl, type DslProgram, type DslTask, type DslWorld } from '../../src/tasks/index.ts';
import { Rng } from '../../src/util/rng.ts';
import { runInProcess } from './in-process.ts';
import { makeExecutor, sandboxAvailable, sandboxSkipReason } from './sandbox-helper.ts';

/** `n` random programs spread over 50 tasks, plus overflow-heavy and illegal strings. */
function workload(world: DslWorld, seed: number, n = 10_000): { task: DslTask; program: DslProgram }[] {
  const rng = new Rng(seed);
  const tasks = Array.from({ length: 50 }, () => world.sampleTask(rng.fork('tasks')));
  const out: { task: DslTask; program: DslProgram }[] = [];
  for (let i = 0; i < n; i++) out.push({ task: tasks[i % tasks.length]!, program: world.randomProgram(rng) });
  // Edge cases: targets themselves, long square chains (overflow), illegal strings.
  const q = 'Q'.repeat(world.maxLength);
  for (const task of tasks.slice(0, 5)) {
    for (const program of [task.target, q, 'AQ' + q.slice(2), '', 'x', 'A'.repeat(world.maxLength + 1)]) out.push({ task, program });
  }
  return out;
}

// When the sandbox is present it checks all 10,000 programs; the in-process check is then a
// fast smoke test of both compiled forms on a smaller sample.
const inProcessCount = sandboxAvailable ? 2_000 : 10_000;

describe('DSL compiler agrees with the in-process evaluator (in-process JS engine)', () => {
  for (const [world, seed] of [
    [dsl6, 101],
    [richdsl, 102],
  ] as const) {
    it(`${world.name}: compileToJs and toProblem give passed/total = evaluate on ${inProcessCount} random programs`, () => {
      const items = workload(world, seed, inProcessCount);
      let mismatches = 0;
      let partial = 0;
      for (const { task, program } of items) {
        const gold = world.evaluate(program, task);
        const compiled = runInProcess(world.compileToJs(program, task));
        const viaProblem = runInProcess(assembleProgram(world.toProblem(task), program));
        expect(compiled.total).toBe(task.inputs.length);
        expect(viaProblem.total).toBe(task.inputs.length);
        if (compiled.passed / compiled.total !== gold || viaProblem.passed / viaProblem.total !== gold) mismatches++;
        if (gold > 0 && gold < 1) partial++;
      }
      expect(mismatches).toBe(0);
      // The workload must exercise partial credit, not just 0/1 outcomes.
      expect(partial).toBeGreaterThan(inProcessCount / 20);
    });
  }

  it('the Problem form keeps completions inside the string literal (stop tokens)', () => {
    const task = dsl6.sampleTask(new Rng(1));
    const p = dsl6.toProblem(task);
    expect(p.prompt.endsWith('const PROGRAM = `')).toBe(true);
    expect(p.reference).toBe(task.target);
    expect(p.stopTokens).toEqual(['`', '$', '\\', '\n']);
    const r = runInProcess(assembleProgram(p, task.target));
    expect(r).toEqual({ passed: 8, total: 8, status: 'pass' });
  });
});

describe.skipIf(!sandboxAvailable)('DSL compiler agrees with the in-process evaluator (real sandbox)', () => {
  let executor: Executor;
  beforeAll(async () => {
    executor = await makeExecutor();
  });
  afterAll(async () => {
    await executor?.close();
  });

  for (const [world, seed] of [
    [dsl6, 201],
    [richdsl, 202],
  ] as const) {
    it(`${world.name}: sandbox passed/total = evaluate on 10,000 random programs`, { timeout: 300_000 }, async () => {
      const items = workload(world, seed);
      const specs: ProgramSpec[] = items.map(({ task, program }, i) => ({
        id: String(i),
        language: 'javascript',
        code: world.compileToJs(program, task),
      }));
      const results = [];
      for (let at = 0; at < specs.length; at += 1000) results.push(...(await executor.run(specs.slice(at, at + 1000))));
      let mismatches = 0;
      const examples: string[] = [];
      results.forEach((r, i) => {
        const { task, program } = items[i]!;
        const gold = world.evaluate(program, task);
        const got = r.total > 0 ? r.passed / r.total : Number.NaN;
        if (got !== gold || r.total !== task.inputs.length) {
          mismatches++;
          if (examples.length < 5) examples.push(`${program} on ${task.target}: sandbox ${r.status} ${r.passed}/${r.total}, evaluate ${gold}`);
        }
      });
      expect(examples).toEqual([]);
      expect(mismatches).toBe(0);

      // The Problem path (prompt + completion + interpreting tests) on the first 1,000.
      const viaProblem = await executor.run(
        items.slice(0, 1000).map(({ task, program }, i) => ({
          id: `p${i}`,
          language: 'javascript' as const,
          code: assembleProgram(world.toProblem(task), program),
        })),
      );
      const bad = viaProblem.filter((r, i) => {
        const { task, program } = items[i]!;
        return r.total !== task.inputs.length || r.passed / r.total !== world.evaluate(program, task);
      });
      expect(bad.slice(0, 5)).toEqual([]);
    });
  }
});

if (!sandboxAvailable) console.warn(`[test/tasks/dsl-compile] ${sandboxSkipReason}`);
