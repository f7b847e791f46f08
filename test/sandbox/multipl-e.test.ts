/**
 * Integration: every MultiPL-E JavaScript problem (HumanEval-JS 161 + MBPP-JS 399) with an empty
 * body must give a non-pass result and never crash the executor. The empty body is `}` — the
 * prompt ends with `function name(args){\n`, so `prompt + "}\n" + tests` is syntactically complete
 * and the function returns undefined. Four problems ship tests that are not valid JavaScript;
 * they must come back as syntax_error.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createExecutor, type ExecStatus } from '../../src/sandbox/index.ts';
import { available } from '../../support/requirements.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = path.resolve(repoRoot, '../shared/datasets');
const files = ['humaneval-js-reworded.jsonl', 'mbpp-js-reworded.jsonl'].map((f) => path.join(dir, f));
const present = available(
  'sandbox multipl-e test',
  files.every((f) => existsSync(f)) ? null : `${dir} does not hold the MultiPL-E JS files (CI provides ../shared)`,
);

const INVALID_TESTS = [
  'HumanEval_51_remove_vowels',
  'mbpp_237_check_occurences',
  'mbpp_563_extract_values',
  'mbpp_725_extract_quotation',
];

describe.skipIf(!present)('MultiPL-E JS problems with an empty body', () => {
  const ex = createExecutor({ workers: 2, timeoutMs: 5000 });
  afterAll(() => ex.close());

  it('all 560 come back as non-pass results, without crashing', async () => {
    const problems = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as { name: string; prompt: string; tests: string }),
    );
    expect(problems).toHaveLength(560);
    const results = await ex.run(
      problems.map((p) => ({ id: p.name, language: 'javascript' as const, code: p.prompt + '}\n' + p.tests })),
    );
    expect(results).toHaveLength(560);
    const counts: Partial<Record<ExecStatus, number>> = {};
    for (const r of results) counts[r.status] = (counts[r.status] ?? 0) + 1;
    console.log('[sandbox multipl-e test] empty-body statuses:', JSON.stringify(counts));
    for (const r of results) expect(['fail', 'error', 'syntax_error'], JSON.stringify(r)).toContain(r.status);
    const syntax = results
      .filter((r) => r.status === 'syntax_error')
      .map((r) => r.id)
      .sort();
    expect(syntax).toEqual([...INVALID_TESTS].sort());
    // Tests ran: almost every failure is an assertion failure with a counted assertion.
    const fails = results.filter((r) => r.status === 'fail');
    expect(fails.length).toBeGreaterThan(500);
    for (const r of fails) expect(r.total).toBeGreaterThan(0);
  });
});
