import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleProgram } from '../../src/datasets/problem.ts';
import type { Executor, ProgramSpec } from '../../src/sandbox/types.ts';
import { dsl6 } from '../../src/tasks/index.ts';
import { workload } from './dsl-workload.ts';
import { makeExecutor, sandboxAvailable, sandboxSkipReason } from './sandbox-helper.ts';

if (!sandboxAvailable) console.warn(`[test/tasks/dsl-sandbox-dsl6] ${sandboxSkipReason}`);

describe.skipIf(!sandboxAvailable)('dsl6: compiled programs in the real sandbox agree with the in-process evaluator', () => {
  let executor: Executor;
  beforeAll(async () => {
    executor = await makeExecutor();
  });
  afterAll(async () => {
    await executor?.close();
  });

  it('sandbox passed/total = evaluate on 10,000 random programs (+ 1,000 through the Problem form)', { timeout: 300_000 }, async () => {
    const world = dsl6;
    const items = workload(world, 201);
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
});
