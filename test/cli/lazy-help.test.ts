/**
 * `anchor-rl --help` and every subcommand's `--help` load none of the heavy backends: tfjs, ONNX
 * Runtime, isolated-vm, the queue client (bullmq) — they are imported by the commands that use
 * them, in their handlers. (Startup time itself is a benchmark figure, not a unit-test assertion.)
 */
import { createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';

const HEAVY = ['@tensorflow', 'onnxruntime-node', 'isolated-vm', 'bullmq', 'vega'];

/** Heavy packages in Node's CommonJS module cache (every one of them is, or loads, CommonJS). */
function loadedHeavy(): string[] {
  const keys = Object.keys(createRequire(import.meta.url).cache);
  return HEAVY.filter((h) => keys.some((k) => k.includes(`/node_modules/${h}/`)));
}

describe('CLI help is light', () => {
  it('top-level and every subcommand --help import no backend', async () => {
    expect(loadedHeavy()).toEqual([]);
    const { main } = await import('../../src/cli/main.ts');
    const { commands } = await import('../../src/cli/commands/index.ts');
    const write = process.stdout.write.bind(process.stdout);
    const log = console.log;
    process.stdout.write = (() => true) as typeof process.stdout.write;
    console.log = () => {};
    try {
      expect(await main(['--help'])).toBe(0);
      for (const c of commands) {
        const name = String(c.command).split(' ')[0]!;
        expect(await main([name, '--help'])).toBe(0);
      }
    } finally {
      process.stdout.write = write;
      console.log = log;
    }
    expect(loadedHeavy()).toEqual([]);
  });

  it("imports only the invoked command's module: none for the top-level --help", async () => {
    const { main } = await import('../../src/cli/main.ts');
    const { commands, commandName } = await import('../../src/cli/commands/index.ts');
    const loads = commands.map((c) => vi.spyOn(c as { load: () => Promise<unknown> }, 'load'));
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = (() => true) as typeof process.stdout.write;
    try {
      expect(await main(['--help'])).toBe(0);
      expect(loads.filter((l) => l.mock.calls.length > 0)).toHaveLength(0);
      expect(await main(['compare', '--help'])).toBe(0);
      const loaded = commands.filter((_, i) => loads[i]!.mock.calls.length > 0).map(commandName);
      expect(loaded).toEqual(['compare']);
    } finally {
      process.stdout.write = write;
      for (const l of loads) l.mockRestore();
    }
  });
});
