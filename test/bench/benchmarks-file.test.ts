/**
 * BENCHMARKS.md sections (bench/benchmarks-file.ts): a bench replaces only its own section (above
 * its history mark), a new one is appended (or put first on request), and the median helper.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HISTORY_MARK, median, writeBenchSection } from '../../bench/benchmarks-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'anchor-bench-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeBenchSection', () => {
  it('replaces its own section, appends a new one, and puts a `first` one before the others', () => {
    const file = join(dir, 'BENCHMARKS.md');
    writeFileSync(file, '# Benchmarks\n\n## A\n\nold a\n\n## B\n\nb stays\n');
    writeBenchSection(file, 'A', '## A\n\nnew a');
    writeBenchSection(file, 'C', '## C\n\nc');
    writeBenchSection(file, 'Run', '## Run\n\nrun', { first: true });
    writeBenchSection(file, 'Run', '## Run\n\nrun 2', { first: true });
    expect(readFileSync(file, 'utf8')).toBe('# Benchmarks\n\n## Run\n\nrun 2\n\n## A\n\nnew a\n\n## B\n\nb stays\n\n## C\n\nc\n');
  });

  it('keeps what stands below the history mark of its section', () => {
    const file = join(dir, 'HISTORY.md');
    writeFileSync(file, `# Benchmarks\n\n## A\n\nlatest\n\n${HISTORY_MARK}\n\nrun 1 by hand\n\n## B\n\nb\n`);
    writeBenchSection(file, 'A', '## A\n\nnewer');
    expect(readFileSync(file, 'utf8')).toBe(`# Benchmarks\n\n## A\n\nnewer\n\n${HISTORY_MARK}\n\nrun 1 by hand\n\n## B\n\nb\n`);
  });
});

describe('median', () => {
  it('is the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
