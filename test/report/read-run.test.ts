import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatWarning, readJsonl, readRun, type RunWarning } from '../../src/report/read-run.ts';
import { AnchorError } from '../../src/util/errors.ts';
import { FAKE_ARMS, writeFakeRun } from '../helpers/fake-run.ts';

const root = mkdtempSync(join(tmpdir(), 'anchor-read-run-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(root, `run-${n++}`);

describe('readRun', () => {
  it('reads every arm of a complete run in manifest order', () => {
    const fake = writeFakeRun(fresh(), { steps: 30, samplesPerStep: 2 });
    const run = readRun(fake.dir, { samples: true });
    expect(run.warnings).toEqual([]);
    expect(run.name).toBe('fake');
    expect(run.arms.map((a) => a.name)).toEqual([...FAKE_ARMS]);
    for (const a of run.arms) {
      expect(a.incomplete).toBe(false);
      expect(a.metrics).toHaveLength(30);
      expect(a.metrics.map((m) => m.step)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      expect(a.samples).toHaveLength(60);
      expect(a.refits).toHaveLength(1); // window 25 → one settlement line in 30 steps
    }
    expect(readRun(fake.dir).arms[0]!.samples).toBeNull();
  });

  it('reports a truncated last line with file and line and still reads the rest', () => {
    const fake = writeFakeRun(fresh(), { steps: 40, truncate: { arm: 'frozen', file: 'metrics' } });
    const run = readRun(fake.dir);
    const frozen = run.arms.find((a) => a.name === 'frozen')!;
    expect(frozen.metrics).toHaveLength(39);
    expect(frozen.metrics.at(-1)!.step).toBe(39);
    expect(run.warnings).toHaveLength(1);
    const w = run.warnings[0]!;
    expect(w.file).toBe(join(fake.dir, 'frozen', 'metrics.jsonl'));
    expect(w.line).toBe(40);
    expect(w.message).toMatch(/truncated/);
    expect(formatWarning(w, fake.dir)).toBe(
      'frozen/metrics.jsonl:40: truncated line (no trailing newline, not valid JSON); skipped',
    );
  });

  it('reports a corrupt line in the middle of a file and keeps the lines after it', () => {
    const fake = writeFakeRun(fresh(), { steps: 10, samplesPerStep: 3, corrupt: { arm: 'judge', file: 'samples', line: 5 } });
    const run = readRun(fake.dir, { samples: true });
    const judge = run.arms.find((a) => a.name === 'judge')!;
    expect(judge.samples).toHaveLength(29);
    expect(judge.samples!.at(-1)!.step).toBe(10);
    expect(run.warnings.map((w) => [w.file.endsWith('judge/samples.jsonl'), w.line, /corrupt/.test(w.message)])).toEqual([
      [true, 5, true],
    ]);
  });

  it('flags unfinished arms and arms with no steps', () => {
    const fake = writeFakeRun(fresh(), { steps: 50, running: { anchored: 20 }, noSteps: ['judge'] });
    const run = readRun(fake.dir);
    const by = Object.fromEntries(run.arms.map((a) => [a.name, a]));
    expect(by.anchored!.incomplete).toBe(true);
    expect(by.anchored!.metrics).toHaveLength(20);
    expect(by.judge!.incomplete).toBe(true);
    expect(by.judge!.metrics).toHaveLength(0);
    expect(by.frozen!.incomplete).toBe(false);
    expect(run.warnings.map((w) => w.message)).toEqual(["arm 'judge' has no steps (state pending)"]);
    expect(run.manifest!.endedAt).toBeNull();
  });

  it('reads a run without manifest.json from its arm directories, with a warning', () => {
    const fake = writeFakeRun(fresh(), { steps: 5, noManifest: true });
    const run = readRun(fake.dir);
    expect(run.manifest).toBeNull();
    expect(run.arms.map((a) => a.name).sort()).toEqual([...FAKE_ARMS].sort());
    expect(run.warnings.some((w) => /no manifest.json/.test(w.message))).toBe(true);
  });

  it('rejects a directory that is not a run, a file, and a missing path', () => {
    const empty = fresh();
    mkdirSync(join(empty, 'some-dir'), { recursive: true });
    writeFileSync(join(empty, 'notes.txt'), 'hello');
    const codeOf = (f: () => unknown): string | undefined => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(AnchorError);
        return (e as AnchorError).code + ': ' + (e as AnchorError).message;
      }
      return undefined;
    };
    expect(codeOf(() => readRun(empty))).toMatch(/^BAD_ARGUMENT: not a run directory: .*no manifest.json and no arm directories/);
    expect(codeOf(() => readRun(join(empty, 'notes.txt')))).toMatch(/^BAD_ARGUMENT: not a run directory \(a file\)/);
    expect(codeOf(() => readRun(join(empty, 'nope')))).toMatch(/^NOT_FOUND: run directory not found/);
  });

  it('readJsonl skips blank lines and reports each bad line once', () => {
    const dir = fresh();
    mkdirSync(dir);
    const f = join(dir, 'x.jsonl');
    writeFileSync(f, '{"a":1}\n\nnot json\n{"a":2}\n{"a":');
    const warnings: RunWarning[] = [];
    expect(readJsonl(f, warnings).map((r) => [r.line, r.value])).toEqual([
      [1, { a: 1 }],
      [4, { a: 2 }],
    ]);
    expect(warnings.map((w) => [w.line, w.message.split(' ')[0]])).toEqual([
      [3, 'corrupt'],
      [5, 'truncated'],
    ]);
  });
});
