import { describe, expect, it } from 'vitest';
import { assembleProgram } from '../../src/datasets/problem.ts';
import { dsl6, richdsl } from '../../src/tasks/index.ts';
import { Rng } from '../../src/util/rng.ts';
import { workload } from './dsl-workload.ts';
import { runInProcess } from './in-process.ts';
import { sandboxAvailable } from './sandbox-helper.ts';

// When the sandbox is present, dsl-sandbox-*.test.ts check 10,000 programs per world through it;
// the in-process check is then a fast smoke test of both compiled forms on a smaller sample.
const inProcessCount = sandboxAvailable ? 1_000 : 10_000;

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
