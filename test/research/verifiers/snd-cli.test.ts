import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analysePool, readPool } from '../../../src/cli/commands/snd.ts';
import { runCli } from '../../helpers/cli.ts';
import { main } from '../../../src/cli/main.ts';

const dir = mkdtempSync(join(tmpdir(), 'snd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Problem p1 is the hand case of snd.test.ts for "bad": Snd@1 = 1, Snd@2 = 1/3.
const records = [
  { problem: 'p1', candidate: 'a', scores: { bad: 3, exec: 0 }, gold: 0 },
  { problem: 'p1', candidate: 'b', scores: { bad: 2, exec: 1 }, gold: 1 },
  { problem: 'p1', candidate: 'c', scores: { bad: 1, exec: 1 }, gold: 1 },
];

describe('snd command', () => {
  it('reads a pool and reports Snd@N per verifier', async () => {
    const f = join(dir, 'pool.jsonl');
    writeFileSync(f, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const res = analysePool(await readPool(f));
    const bad = res.verifiers.find((v) => v.name === 'bad')!;
    expect(bad.snd.points.map((p) => p.snd)).toEqual([1, expect.closeTo(1 / 3, 12)]);
    expect(bad.snd.auc).toBeCloseTo(2 / 3, 12);
    expect(bad.brier).toBeUndefined(); // scores outside [0, 1]
    const exec = res.verifiers.find((v) => v.name === 'exec')!;
    expect(exec.snd.auc).toBeCloseTo(1, 12);
    expect(exec.brier?.brier).toBe(0);

    const cli = runCli(['snd', '--pool', f, '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout).verifiers[0].snd.auc).toBeCloseTo(2 / 3, 12);
    expect(await main(['snd', '--pool', f])).toBe(0); // text table, in-process
  });

  it('rejects malformed pools and impossible --max-log2 with exit code 2', async () => {
    const f = join(dir, 'bad.jsonl');
    writeFileSync(f, JSON.stringify(records[0]) + '\n{"problem": "p1", "scores": {"bad": 1}, "gold": 1}\n');
    const r = runCli(['snd', '--pool', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad.jsonl:2: .*differ/);
    const g = join(dir, 'good.jsonl');
    writeFileSync(g, records.map((x) => JSON.stringify(x)).join('\n'));
    expect(await main(['snd', '--pool', g, '--max-log2', '2'])).toBe(2);
    expect(await main(['snd', '--pool', join(dir, 'missing.jsonl')])).toBe(2);
  });
});
