/**
 * The baseline the Python sandbox is measured against: one real `python3` process per program
 * (prompt + solution + tests in one file, pass = exit status 0), at a given concurrency.
 */
import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ProgramSpec } from '../src/sandbox/index.ts';

/** The real interpreter behind PATH's python3 (pyenv's shim adds ~70 ms per start). */
export function realPython(): string | undefined {
  try {
    return execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Run every program as its own `python` process, `workers` at a time; programs/s and who passed. */
export async function baselineRun(
  python: string,
  specs: ProgramSpec[],
  dir: string,
  workers: number,
): Promise<{ rate: number; passed: boolean[] }> {
  const files = specs.map((s, i) => {
    const f = path.join(dir, `p${i}.py`);
    writeFileSync(f, s.code + '\n' + (s.tests ?? ''));
    return f;
  });
  const passed: boolean[] = new Array(specs.length).fill(false);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let i = next++; i < files.length; i = next++) {
        passed[i] = await new Promise<boolean>((resolve) => {
          execFile(python, [files[i]!], { timeout: 10_000 }, (err) => resolve(!err));
        });
      }
    }),
  );
  return { rate: specs.length / ((performance.now() - t0) / 1000), passed };
}
