/**
 * Test-only helpers for the pretraining tests: a small in-process Executor (node:vm with a
 * timeout; NOT a sandbox — only for the model's own synthetic outputs in tests) and a fixture
 * Problem list with references.
 */
import vm from 'node:vm';
import nodeAssert from 'node:assert';
import type { Problem } from '../../src/datasets/problem.ts';
import type { ExecResult, Executor, ProgramSpec } from '../../src/sandbox/types.ts';

/**
 * Runs JavaScript programs in a fresh vm context each; statuses follow the Executor contract.
 * Only valid for tests that THROW on failure (plain `assert`, as in {@link fixtureProblems}): a
 * program that finishes without an exception is `pass`. The synthetic-js family's soft-assert
 * harness never throws, so grade those problems with the real sandbox (src/sandbox).
 */
export function vmExecutor(timeoutMs = 500): Executor & { calls: number } {
  const ex = {
    calls: 0,
    async run(programs: readonly ProgramSpec[], onResult?: (r: ExecResult, i: number) => void): Promise<ExecResult[]> {
      ex.calls++;
      return programs.map((p, i) => {
        const t0 = performance.now();
        let status: ExecResult['status'] = 'pass';
        let error: string | undefined;
        if (p.language !== 'javascript') {
          status = 'unsupported';
        } else {
          let script: vm.Script | undefined;
          try {
            script = new vm.Script(p.code);
          } catch (e) {
            status = 'syntax_error';
            error = String(e);
          }
          if (script) {
            try {
              const req = (name: string): unknown => {
                if (name === 'node:assert' || name === 'assert') return nodeAssert;
                throw new Error(`require(${name}) is not available`);
              };
              script.runInNewContext({ require: req }, { timeout: timeoutMs });
            } catch (e) {
              const msg = String(e);
              status = /timed out/i.test(msg) ? 'timeout' : (e as { code?: string })?.code === 'ERR_ASSERTION' ? 'fail' : 'error';
              error = msg;
            }
          }
        }
        const r: ExecResult = {
          id: p.id,
          status,
          passed: status === 'pass' ? 1 : 0,
          total: 1,
          ms: performance.now() - t0,
          stdout: '',
          ...(error ? { error } : {}),
        };
        onResult?.(r, i);
        return r;
      });
    },
    async close(): Promise<void> {},
  };
  return ex;
}

const OPS: { name: string; ref: string; fn: (x: number) => number }[] = [
  { name: 'inc', ref: '  return x + 1;\n}', fn: (x) => x + 1 },
  { name: 'double', ref: '  return x * 2;\n}', fn: (x) => x * 2 },
  { name: 'neg', ref: '  return -x;\n}', fn: (x) => -x },
  { name: 'square', ref: '  return x * x;\n}', fn: (x) => x * x },
];

/** Tiny integer-function problems (prompt shows examples; reference is one of four bodies). */
export function fixtureProblems(count: number, offset = 0): Problem[] {
  return Array.from({ length: count }, (_, k) => {
    const i = k + offset;
    const op = OPS[i % OPS.length]!;
    const xs = [(i % 5) + 1, (i % 3) + 2];
    const prompt = xs.map((x) => `// f(${x}) = ${op.fn(x)}`).join('\n') + '\nfunction f(x) {\n';
    const tests =
      `const assert = require('node:assert');\n` + [3, 4].map((x) => `assert.deepEqual(f(${x}), ${op.fn(x)});`).join('\n') + '\n';
    return {
      id: `fixture/${i}`,
      language: 'javascript' as const,
      prompt,
      tests,
      entryPoint: 'f',
      stopTokens: ['\nfunction ', '\n//'],
      reference: op.ref,
      source: 'fixture',
    };
  });
}
