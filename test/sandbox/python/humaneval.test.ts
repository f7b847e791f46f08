/**
 * Integration: the 164 HumanEval canonical solutions pass in the Python sandbox, and broken
 * variants of every one fail (body replaced by `pass`, or by a wrong constant). Uses
 * ../shared/datasets/HumanEval.jsonl; skips with a printed reason when it is absent.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDataset } from '../../../src/datasets/formats.ts';
import { createExecutor, type ProgramSpec } from '../../../src/sandbox/index.ts';
import { haveSharedDatasets, sharedDatasets } from '../../helpers/paths.ts';

const have = haveSharedDatasets('HumanEval canonical solutions in the Python sandbox');

describe.skipIf(!have)('python sandbox: HumanEval', () => {
  const ex = createExecutor({ workers: 2, timeoutMs: 10_000, memoryMb: 64 });
  afterAll(() => ex.close());
  const problems = have ? loadDataset(join(sharedDatasets, 'HumanEval.jsonl')).problems : [];

  // With the prompt given apart, as training and settlement give it (src/sandbox/programs.ts): the
  // tests' interpreter runs the prompt's own definitions but the one the completion completes.
  it('all 164 canonical solutions pass', { timeout: 300_000 }, async () => {
    expect(problems).toHaveLength(164);
    const specs: ProgramSpec[] = problems.map((p) => ({
      id: p.id,
      language: 'python',
      code: p.prompt + p.reference!,
      prompt: p.prompt,
      tests: p.tests,
    }));
    const rs = await ex.run(specs);
    const bad = rs.filter((r) => r.status !== 'pass').map((r) => `${r.id}: ${r.status} ${r.error ?? ''}`);
    expect(bad).toEqual([]);
    for (const r of rs) expect(r.passed).toBeGreaterThan(0);
  });

  it('broken variants of every problem fail', { timeout: 300_000 }, async () => {
    const specs: ProgramSpec[] = problems.flatMap((p) => [
      { id: `${p.id}#pass`, language: 'python' as const, code: p.prompt + '    pass\n', prompt: p.prompt, tests: p.tests },
      { id: `${p.id}#const`, language: 'python' as const, code: p.prompt + '    return 0\n', prompt: p.prompt, tests: p.tests },
    ]);
    const rs = await ex.run(specs);
    const passing = rs.filter((r) => r.status === 'pass').map((r) => r.id);
    expect(passing).toEqual([]);
    // Wrong answers are reported as failed assertions (not crashes) for most problems.
    expect(rs.filter((r) => r.status === 'fail').length).toBeGreaterThan(rs.length / 2);
  });
});
