import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/datasets/formats.ts';
import { assembleProgram, truncateAtStop } from '../../src/datasets/problem.ts';
import { runCli } from '../helpers/cli.ts';
import { fixture, haveSharedDatasets, sharedDatasets } from '../helpers/paths.ts';

describe('dataset loaders on fixtures', () => {
  it('HumanEval JSONL → python problems with check(entry_point) appended', () => {
    const ds = loadDataset(fixture('datasets/humaneval-mini.jsonl'));
    expect(ds.format).toBe('humaneval');
    expect(ds.problems).toHaveLength(2);
    const p = ds.problems[0]!;
    expect(p).toMatchObject({ id: 'Mini/0', language: 'python', entryPoint: 'add', reference: '    return a + b\n' });
    expect(p.tests.trimEnd().endsWith('check(add)')).toBe(true);
  });

  it('reads .jsonl.gz transparently', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anchor-ds-'));
    const gz = join(dir, 'he.jsonl.gz');
    writeFileSync(gz, gzipSync(readFileSync(fixture('datasets/humaneval-mini.jsonl'))));
    const ds = loadDataset(gz);
    expect(ds.format).toBe('humaneval');
    expect(ds.problems.map((p) => p.id)).toEqual(['Mini/0', 'Mini/1']);
  });

  it('MBPP JSONL: CRLF normalised, setup code kept, entry point from the asserts', () => {
    const ds = loadDataset(fixture('datasets/mbpp-mini.jsonl'));
    expect(ds.format).toBe('mbpp');
    const [a, b] = ds.problems;
    expect(a!.reference).toBe('def square(n):\n  return n * n');
    expect(a!.entryPoint).toBe('square');
    expect(a!.tests.split('\n').filter(Boolean)).toHaveLength(3);
    expect(b!.setup).toBe('import math');
    expect(b!.entryPoint).toBe('is_even');
  });

  it('sanitized MBPP JSON array: test_imports become setup; entry point falls back to the def', () => {
    const ds = loadDataset(fixture('datasets/sanitized-mbpp-mini.json'));
    expect(ds.format).toBe('sanitized-mbpp');
    expect(ds.problems[1]!.setup).toBe('import math');
    expect(ds.problems[1]!.entryPoint).toBe('get_pi');
  });

  it('MultiPL-E JSONL: javascript, stop tokens, entry point, evaluation-only flag', () => {
    const ds = loadDataset(fixture('datasets/multipl-e-mini.jsonl'));
    expect(ds.format).toBe('multipl-e');
    const p = ds.problems[0]!;
    expect(p.language).toBe('javascript');
    expect(p.entryPoint).toBe('add');
    expect(p.stopTokens).toContain('\nfunction ');
    expect(p.meta?.evaluationOnly).toBe(true);
    const completion = truncateAtStop('  return a + b;\n}\n\nfunction extra() {}', p.stopTokens);
    expect(completion).toBe('  return a + b;\n}\n');
    expect(assembleProgram(p, completion)).toBe(p.prompt + completion + '\n' + p.tests);
  });

  it('a malformed line names the file and line', () => {
    const f = fixture('datasets/bad-json.jsonl');
    expect(() => loadDataset(f)).toThrow(/bad-json\.jsonl:3: not valid JSON/);
  });

  it('a record missing a field names the file, line and field', () => {
    expect(() => loadDataset(fixture('datasets/bad-record.jsonl'))).toThrow(
      /bad-record\.jsonl:2: not a valid humaneval record: entry_point: got nothing, expected string/,
    );
  });

  it('a JSON array record error points at the line the element starts on', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anchor-ds-'));
    const f = join(dir, 's.json');
    copyFileSync(fixture('datasets/sanitized-mbpp-mini.json'), f);
    const arr = JSON.parse(readFileSync(f, 'utf8'));
    arr[1].test_list = 'not a list';
    writeFileSync(f, JSON.stringify(arr, null, 2));
    const text = readFileSync(f, 'utf8').split('\n');
    const line = text.findIndex((l, i) => i > 1 && l.trim() === '{') + 1;
    expect(() => loadDataset(f)).toThrow(new RegExp(`s\\.json:${line}: not a valid sanitized-mbpp record: test_list`));
  });

  it('unknown formats ask for --format', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anchor-ds-'));
    const f = join(dir, 'x.jsonl');
    writeFileSync(f, '{"foo": 1}\n');
    expect(() => loadDataset(f)).toThrow(/cannot tell the format from fields foo; give --format/);
    expect(() => loadDataset(f, 'nope')).toThrow(/unknown dataset format "nope"/);
  });
});

describe('datasets inspect (CLI)', () => {
  it('prints count, language, fields and a sample', () => {
    const r = runCli(['datasets', 'inspect', fixture('datasets/multipl-e-mini.jsonl')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/format:\s+multipl-e/);
    expect(r.stdout).toMatch(/problems:\s+2/);
    expect(r.stdout).toMatch(/language:\s+javascript/);
    expect(r.stdout).toContain('fields:     name, language, prompt');
    expect(r.stdout).toContain('Mini_0_add');
    expect(r.stdout).toContain('EVALUATE only');
  });

  it('exits 2 on a malformed file', () => {
    const r = runCli(['datasets', 'inspect', fixture('datasets/bad-json.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bad-json.jsonl:3');
  });
});

describe.skipIf(!haveSharedDatasets('published dataset counts'))('published datasets in ../shared', () => {
  const cases: [string, string, number, string][] = [
    ['HumanEval.jsonl', 'humaneval', 164, 'python'],
    ['HumanEval.jsonl.gz', 'humaneval', 164, 'python'],
    ['mbpp.jsonl', 'mbpp', 974, 'python'],
    ['sanitized-mbpp.json', 'sanitized-mbpp', 427, 'python'],
    ['humaneval-js-reworded.jsonl', 'multipl-e', 161, 'javascript'],
    ['mbpp-js-reworded.jsonl', 'multipl-e', 399, 'javascript'],
  ];
  it.each(cases)('%s loads as %s with %i problems', (file, format, count, language) => {
    const ds = loadDataset(join(sharedDatasets, file));
    expect(ds.format).toBe(format);
    expect(ds.problems).toHaveLength(count);
    expect(new Set(ds.problems.map((p) => p.language))).toEqual(new Set([language]));
    expect(new Set(ds.problems.map((p) => p.id)).size).toBe(count);
    expect(ds.problems.every((p) => p.entryPoint)).toBe(true);
  });
});
