/**
 * Canary mutations (src/tasks/canaries.ts): every test shape the repository executes has sites;
 * the reference solution passes the real tests and fails every canary under both verdicts (an
 * honest program can never pass an impossible variant); the mutation keeps the prompt.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/datasets/formats.ts';
import type { Problem } from '../../src/datasets/problem.ts';
import { createExecutor } from '../../src/sandbox/index.ts';
import { problemProgram } from '../../src/sandbox/programs.ts';
import { applyCanary, CANARY_KINDS, canarySites, mutateExpected } from '../../src/tasks/canaries.ts';
import { generateProblems } from '../../src/tasks/registry.ts';

const synthetic = generateProblems('synthetic-js', { split: 'train', count: 8, seed: 1 });
const multiplE = generateProblems('synthetic-js', { split: 'train', count: 4, seed: 1, test_style: 'multipl-e' });
const datasets = ['mbpp-mini.jsonl', 'humaneval-mini.jsonl', 'multipl-e-mini.jsonl'].flatMap(
  (f) => loadDataset(`test/fixtures/datasets/${f}`).problems,
);
const all: Problem[] = [...synthetic, ...multiplE, ...datasets.filter((p) => p.reference !== undefined)];

const strict = createExecutor({ workers: 1, verdict: 'strict' });
const parity = createExecutor({ workers: 1, verdict: 'parity' });
afterAll(async () => {
  await strict.close();
  await parity.close();
});

describe('canary mutations', () => {
  it('finds one site per test case (synthetic guarded cases, MultiPL-E lines, MBPP and HumanEval asserts)', () => {
    expect(canarySites(synthetic[0]!)).toHaveLength(5); // the guard's own assert is not a case
    expect(canarySites(multiplE[0]!)).toHaveLength(5);
    const mbpp = datasets.find((p) => p.id === 'mbpp/2')!;
    expect(canarySites(mbpp)).toHaveLength(3);
    const he = datasets.find((p) => p.id === 'Mini/0')!;
    expect(canarySites(he)).toHaveLength(2);
  });

  it('changes an expected value into a different one of the same kind where it can', () => {
    expect(mutateExpected('4', 'javascript')).toBe('5');
    expect(mutateExpected('-1.50', 'python')).toBe('-0.50');
    expect(mutateExpected('true', 'javascript')).toBe('false');
    expect(mutateExpected('True', 'python')).toBe('False');
    expect(mutateExpected('"ab"', 'javascript')).toBe('"ab~"');
    expect(mutateExpected('[1, 2]', 'javascript')).toBe('[1, 2, 0]');
    expect(mutateExpected('[]', 'python')).toBe('[0]');
    expect(mutateExpected('{a: 1}', 'javascript')).toBe("[{a: 1}, 'canary']");
    expect(mutateExpected('{1: 2}', 'python')).toBe("('canary', {1: 2})");
  });

  it('keeps the prompt and changes only the tests; one_off replaces a line, conflicting adds one', () => {
    const p = synthetic[0]!;
    const one = applyCanary(p, { kind: 'one_off', site: 2 })!;
    const two = applyCanary(p, { kind: 'conflicting', site: 2 })!;
    expect(one.prompt).toBe(p.prompt);
    expect(two.prompt).toBe(p.prompt);
    expect(one.tests).not.toBe(p.tests);
    expect(one.tests.split('\n')).toHaveLength(p.tests.split('\n').length);
    expect(two.tests.split('\n')).toHaveLength(p.tests.split('\n').length + 1);
    expect(applyCanary(p, { kind: 'one_off', site: 99 })).toBeUndefined();
  });

  it('an honest solution passes the real tests and fails every canary, under both verdicts', async () => {
    const programs = all.flatMap((p) => [
      { want: 'pass', spec: problemProgram(p, p.reference!, `${p.id}#real`) },
      ...CANARY_KINDS.flatMap((kind) =>
        canarySites(p).map((_, site) => ({
          want: 'not pass',
          spec: problemProgram(applyCanary(p, { kind, site })!, p.reference!, `${p.id}#${kind}#${site}`),
        })),
      ),
    ]);
    for (const ex of [strict, parity]) {
      const rs = await ex.run(programs.map((p) => p.spec));
      const wrong = rs.filter((r, i) => (r.status === 'pass') !== (programs[i]!.want === 'pass'));
      expect(wrong.map((r) => `${r.id}: ${r.status}`)).toEqual([]);
    }
    expect(programs.length).toBeGreaterThan(100);
  }, 120_000);
});
