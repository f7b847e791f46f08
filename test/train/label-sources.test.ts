/** The label-source registry by behaviour: what each source executes, charges and returns. */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/datasets/problem.ts';
import type { Judge } from '../../src/reward/judges/types.ts';
import type { ExecResult } from '../../src/sandbox/types.ts';
import { INSTANT_LABELS, LABEL_SOURCES } from '../../src/train/label-sources.ts';
import type { Claim } from '../../src/train/settlement.ts';

const problem = { id: 'p', tests: '', prompt: '' } as unknown as Problem;
const claims: Claim[] = ['pass', 'fail', 'timeout'].map((t, i) => ({
  step: 0,
  index: i,
  problem: 0,
  text: t,
  proxy: 0.5,
  gold: i === 0 ? 1 : null,
}));

function context(judge?: Judge) {
  const ctx = {
    executed: [] as string[],
    charged: 0,
    execute: (_: readonly Problem[], texts: readonly string[]) => {
      ctx.executed.push(...texts);
      return Promise.resolve(
        texts.map((t) => ({ id: t, status: t, passed: 0, total: 1, ms: 0, stdout: '' }) as unknown as ExecResult),
      );
    },
    charge: (n: number) => (ctx.charged += n),
    judge,
  };
  return ctx;
}

describe('label sources', () => {
  it('execution: runs every claim, charges each to the budget, and its labels are gold', async () => {
    const ctx = context();
    const l = await LABEL_SOURCES.execution.label(
      claims,
      claims.map(() => problem),
      ctx,
    );
    expect(ctx.executed).toEqual(['pass', 'fail', 'timeout']);
    expect(ctx.charged).toBe(3);
    expect(l.labels).toEqual([1, 0, 0]);
    expect(l.gold).toEqual(l.labels);
    expect(l.judged).toBe(false);
    expect(l.results).toHaveLength(3);
    expect(LABEL_SOURCES.execution.usesJudge).toBe(false);
  });

  it('judge: asks the judge, executes and charges nothing; gold stays what the metrics measured', async () => {
    const asked: string[] = [];
    const judge: Judge = {
      kind: 'learned',
      score: (_p, cs) => (asked.push(...cs), Promise.resolve(cs.map((c) => (c === 'fail' ? null : 0.7)))),
    };
    const ctx = context(judge);
    const l = await LABEL_SOURCES.judge.label(
      claims,
      claims.map(() => problem),
      ctx,
    );
    expect(asked).toEqual(['pass', 'fail', 'timeout']);
    expect(ctx.executed).toEqual([]);
    expect(ctx.charged).toBe(0);
    expect(l.labels).toEqual([0.7, null, 0.7]); // an abstention is no label
    expect(l.gold).toEqual([1, null, null]);
    expect(l.judged).toBe(true);
    expect(LABEL_SOURCES.judge.usesJudge).toBe(true);
  });

  it('instant: the labels the claims arrived with, nothing executed or charged again', async () => {
    const ctx = context();
    const labelled = claims.map((c, i) => ({ ...c, label: i === 1 ? null : i }));
    const l = await INSTANT_LABELS.label(
      labelled,
      labelled.map(() => problem),
      ctx,
    );
    expect(l.labels).toEqual([0, null, 2]);
    expect(ctx.executed).toEqual([]);
    expect(ctx.charged).toBe(0);
  });
});
