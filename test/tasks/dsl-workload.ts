/** The DSL agreement workload shared by the in-process and sandbox agreement tests. */
import { Rng } from '../../src/util/rng.ts';
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
    for (const program of [task.target, q, 'AQ' + q.slice(2), '', 'x', 'A'.repeat(world.maxLength + 1)]) out.push({ task, program });
  }
  return out;
}

