import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleProgram } from '../../src/datasets/problem.ts';
import type { Executor, ProgramSpec } from '../../src/sandbox/types.ts';
import { generateProblems } from '../../src/tasks/index.ts';
import { makeExecutor, sandboxAvailable, sandboxSkipReason } from './sandbox-helper.ts';

if (!sandboxAvailable) console.warn(`[test/tasks/synthetic-js-sandbox] ${sandboxSkipReason}`);

describe.skipIf(!sandboxAvailable)('synthetic-js graded in the real sandbox', () => {
  let executor: Executor;
  beforeAll(async () => {
    executor = await makeExecutor();
  });
  afterAll(async () => {
    await executor?.close();
  });

  const problems = [
    ...generateProblems('synthetic-js', { split: 'train', count: 300, seed: 1 }),
    ...generateProblems('synthetic-js', { split: 'eval', count: 100, seed: 1 }),
  ];

  it('every reference solution passes all its asserts', async () => {
    const specs: ProgramSpec[] = problems.map((p) => ({
      id: p.id,
      language: 'javascript',
      code: assembleProgram(p, p.reference!),
    }));
    const results = await executor.run(specs);
    const bad = results.filter((r) => r.status !== 'pass' || r.passed !== 5 || r.total !== 5);
    expect(bad.map((r) => `${r.id}: ${r.status} ${r.passed}/${r.total} ${r.error ?? ''}`)).toEqual([]);
  });

  it('wrong bodies fail, with partial credit counted per assert', async () => {
    // Another problem's reference of the same kind: usually wrong, sometimes partly right.
    const specs: ProgramSpec[] = problems.map((p, i) => {
      const other =
        problems.find(
          (q, j) =>
            j > i && (q.meta as { kind: string }).kind === (p.meta as { kind: string }).kind && q.reference !== p.reference,
        ) ?? problems.find((q) => q.reference !== p.reference)!;
      return { id: p.id, language: 'javascript', code: assembleProgram(p, other.reference!) };
    });
    const results = await executor.run(specs);
    expect(results.every((r) => r.total === 5)).toBe(true);
    expect(results.filter((r) => r.status === 'pass').length).toBeLessThan(problems.length * 0.2);
    expect(results.filter((r) => r.passed > 0 && r.passed < 5).length).toBeGreaterThan(0);
    const constant = await executor.run([
      { id: 'c', language: 'javascript', code: assembleProgram(problems[0]!, '  return 0;\n}') },
    ]);
    expect(constant[0]!.status).toBe('fail');
    expect(constant[0]!.passed).toBeLessThan(5);
  });
});
