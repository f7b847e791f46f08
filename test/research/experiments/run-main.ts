/** Run the CLI in-process (no child process start-up cost) and capture what it writes to stdout. */
import { vi } from 'vitest';
import { main } from '../../../src/cli/main.ts';

export async function runMain(args: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  });
  try {
    const code = await main(args);
    return { code, stdout };
  } finally {
    spy.mockRestore();
  }
}
