/**
 * `anchor-rl audit` (src/train/audit.ts): a run's recorded passes are re-executed under the
 * current harness in strict mode and every changed verdict is listed — a pass recorded under
 * parity that strict refuses, a strict pass recorded by a (simulated) older harness with a
 * hole, a canary pass — while honest passes stay unchanged; the CLI exits 1 when any changed.
 * Also `anchor-rl gold-watch` on the scripted policies' completions (the documented CLI run).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecutor } from '../../src/sandbox/index.ts';
import { problemProgram } from '../../src/sandbox/programs.ts';
import { auditRun } from '../../src/train/audit.ts';
import { loadProblems } from '../../src/train/assets.ts';
import { runConfigSchema } from '../../src/train/run-config.ts';
import type { SampleLine } from '../../src/train/run-format.ts';
import { cheatingCompletion, honestCompletion } from '../../support/scripted-policy.ts';
import { runCli } from '../helpers/cli.ts';

const root = mkdtempSync(join(tmpdir(), 'anchor-audit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const config = runConfigSchema.parse({
  name: 'audited',
  task: { family: 'synthetic-js', split_seed: 1, train: 12, eval: 2 },
  sandbox: { workers: 1 },
  arms: ['frozen'],
});
const { train } = loadProblems(config);

/** Write a run directory whose frozen arm recorded `lines`. */
function writeRun(name: string, lines: SampleLine[]): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'frozen'), { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ name, seed: 0, config, arms: ['frozen'] }));
  writeFileSync(join(dir, 'frozen', 'samples.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return dir;
}

const line = (step: number, problem: string, text: string, extra: Partial<SampleLine>): SampleLine => ({
  step,
  problem,
  index: 0,
  text,
  tokens: 1,
  proxy: 0,
  gold: 1,
  judge: null,
  settled: false,
  ...extra,
});

let honestDir: string;
let mixedDir: string;
beforeAll(async () => {
  // A problem whose exploit (the right value as a string) parity accepts and strict refuses.
  const ex = createExecutor({ workers: 1, verdict: 'strict' });
  const rs = await ex.run(train.map((p) => problemProgram(p, cheatingCompletion(p, 0), p.id)));
  await ex.close();
  const victim = train[rs.findIndex((r) => r.status !== 'pass')]!;
  const honest = train.map((p, i) =>
    line(i, p.id, honestCompletion(p), { status: 'pass', verdict: 'strict', verdicts: { strict: 'pass', parity: 'pass' } }),
  );
  honestDir = writeRun('honest', honest);
  mixedDir = writeRun('mixed', [
    ...honest,
    // A run trained under parity recorded the exploit as a pass.
    line(20, victim.id, cheatingCompletion(victim, 0), { status: 'pass', verdict: 'parity' }),
    // An older harness (another hash) recorded the exploit as a strict pass.
    line(21, victim.id, cheatingCompletion(victim, 0), {
      status: 'pass',
      verdict: 'strict',
      harness: 'old0000000000000',
      verdicts: { strict: 'pass', parity: 'pass' },
    }),
    // A canary recorded as passed (only a tamper could), honest text: strict now says fail.
    line(22, victim.id, honestCompletion(victim), {
      status: 'pass',
      verdict: 'strict',
      verdicts: { strict: 'pass', parity: 'pass' },
      canary: { kind: 'one_off', site: 0, strict: 'pass', parity: 'pass' },
    }),
    // A recorded failure is not re-judged.
    line(23, victim.id, cheatingCompletion(victim, 0), { status: 'fail', verdict: 'strict' }),
  ]);
}, 120_000);

describe('audit', () => {
  it('lists every re-judged verdict that differs, and only those', async () => {
    const r = await auditRun(mixedDir);
    expect(r.rejudged.frozen).toBe(train.length + 4);
    expect(r.changed.map((c) => [c.step, c.tests, `${c.recorded.verdict}:${c.recorded.status}`, c.now])).toEqual([
      [20, 'gold', 'parity:pass', 'fail'],
      [21, 'gold', 'strict:pass', 'fail'],
      [22, 'canary', 'strict:pass', 'fail'],
    ]);
    expect(r.changed[1]!.harness).toBe('old0000000000000');
    expect(r.recordedHarnesses).toEqual(['old0000000000000']);
  }, 120_000);

  it('an honest run re-judges unchanged', async () => {
    const r = await auditRun(honestDir);
    expect(r.rejudged.frozen).toBe(train.length);
    expect(r.changed).toEqual([]);
  }, 120_000);

  it('the CLI exits 1 when a verdict changed and 0 otherwise', () => {
    const bad = runCli(['audit', mixedDir]);
    expect(bad.code, bad.stderr).toBe(1);
    expect(bad.stdout).toMatch(/3 of \d+ recorded passes changed verdict/);
    expect(bad.stdout).toContain('parity:pass');
    const ok = runCli(['audit', honestDir]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/0 of 12 recorded passes changed verdict/);
    expect(runCli(['audit', join(root, 'nope')]).code).toBe(2);
  }, 240_000);
});

describe('gold-watch CLI on scripted policies (docs/gold-watch.md)', () => {
  it('the cheating completions make gold/parity_only and canary/pass_rate non-zero, the honest ones keep them at 0', async () => {
    const { loadDataset } = await import('../../src/datasets/formats.ts');
    const cfg = join(root, 'mini.yaml');
    writeFileSync(
      cfg,
      [
        `task: { dataset: ${resolve('test/fixtures/datasets/humaneval-mini.jsonl')}, eval_fraction: 0 }`,
        'policy: { model: { context: 1024 } }',
        'sandbox: { workers: 1 }',
        'canaries: { rate: 1 }',
      ].join('\n'),
    );
    const problems = loadDataset('test/fixtures/datasets/humaneval-mini.jsonl').problems;
    const write = (name: string, f: (p: (typeof problems)[number], i: number) => string) => {
      const file = join(root, `${name}.jsonl`);
      const lines = problems.flatMap((p) => [0, 1].map((i) => JSON.stringify({ problem: p.id, completion: f(p, i) })));
      writeFileSync(file, lines.join('\n') + '\n');
      return file;
    };
    const run = (file: string) => {
      const r = runCli(['gold-watch', file, '--config', cfg, '--json'], { timeoutMs: 240_000 });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout).metrics as Record<string, number>;
    };
    const cheating = run(write('cheating', cheatingCompletion));
    expect(cheating['gold/parity_only']).toBe(2);
    expect(cheating['canary/pass_rate']).toBe(0.5);
    expect(cheating['canary/strict_pass_rate']).toBe(0);
    const honest = run(write('honest', (p) => honestCompletion(p)));
    expect(honest['gold/parity_only']).toBe(0);
    expect(honest['canary/pass_rate']).toBe(0);
    expect(honest['canary/count']).toBe(4);
  }, 600_000);
});
