/** The DSL agreement workload shared by the in-process and sandbox agreement tests. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleProgram } from '../../src/datasets/problem.ts';
import type { Executor, ProgramSpec } from '../../src/sandbox/types.ts';
import { Rng } from '../../src/util/rng.ts';
import { makeExecutor, sandboxAvailable, sandboxSkipReason } from './sandbox-helper.ts';
import type { DslProgram, DslTask, DslWorld } from '../../src/tasks/index.ts';

/** `n` random programs spread over 50 tasks, plus overflow-heavy and illegal strings. */
export function workload(world: DslWorld, seed: number, n = 10_000): { task: DslTask; program: DslProgram }[] {
  const rng = new Rng(seed);
  const taskRng = rng.fork('tasks');
  const tasks = Array.from({ length: 50 }, () => world.sampleTask(taskRng));
  // Guard the workload itself: the agreement tests are only as good as the task variety.
  if (new Set(tasks.map((t) => t.target)).size < 40) throw new Error('DSL workload: tasks are not diverse');
  const out: { task: DslTask; program: DslProgram }[] = [];
  for (let i = 0; i < n; i++) out.push({ task: tasks[i % tasks.length]!, program: world.randomProgram(rng) });
  // Edge cases: targets themselves, long square chains (overflow), illegal strings.
  const q = 'Q'.repeat(world.maxLength);
  for (const task of tasks.slice(0, 5)) {
    for (const program of [task.target, q, 'AQ' + q.slice(2), '', 'x', 'A'.repeat(world.maxLength + 1)])
      out.push({ task, program });
  }
  return out;
}

/**
 * The sandbox agreement suite for one world: compiled programs run in the real sandbox give
 * passed/total equal to the in-process evaluator. One test file per world calls this, so vitest
 * runs the worlds in parallel.
 */
export function sandboxAgreementSuite(world: DslWorld, seed: number): void {
  if (!sandboxAvailable) console.warn(`[test/tasks/dsl-sandbox-${world.name}] ${sandboxSkipReason}`);
  describe.skipIf(!sandboxAvailable)(
    `${world.name}: compiled programs in the real sandbox agree with the in-process evaluator`,
    () => {
      let executor: Executor;
      beforeAll(async () => {
        executor = await makeExecutor();
      });
      afterAll(async () => {
        await executor?.close();
      });

      it('sandbox passed/total = evaluate on 10,000 random programs (+ 1,000 through the Problem form)', {
        timeout: 300_000,
      }, async () => {
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
            if (examples.length < 5)
              examples.push(`${program} on ${task.target}: sandbox ${r.status} ${r.passed}/${r.total}, evaluate ${gold}`);
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
    },
  );
}
