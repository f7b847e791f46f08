import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // One temporary root per run, removed at its end (test/helpers/scratch-root.ts).
    globalSetup: ['./test/helpers/scratch-root.ts'],
    // Sandbox and model tests fork worker processes and compile wasm; the machine has 2 cores.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // The published benchmarks come from ../shared/datasets through the dataset cache, as a
    // user's `task.dataset: mbpp` does from theirs (src/datasets/catalog.ts): same names, same
    // pinned SHA-256 checks.
    env: { ANCHOR_RL_DATASETS: process.env.ANCHOR_RL_DATASETS ?? resolve(import.meta.dirname, '../shared/datasets') },
  },
});
