/**
 * The worker caches per problem what the completions of one problem share: the test plan (parsed
 * once), the tests' wrapper in the tests realm and the compiled reader of the names the tests use
 * (src/sandbox/worker.ts). A cache is only safe if nothing a program does reaches it: here hostile
 * completions of a problem — patching every intrinsic the harness and the reader could touch,
 * planting getters and prototype properties under the names the tests read, rebinding the prompt's
 * helpers — run in the same worker (one isolate) right before honest completions of the same
 * problem, whose verdicts must be exactly those of an honest completion run alone.
 */
import { describe, expect, it } from 'vitest';
import { createExecutor, type ProgramSpec } from '../../src/sandbox/index.ts';
import { ASSERT } from './helpers.ts';

const PROMPT = `const MOD = 7;
function isPrime(n) {
  if (n < 2) return false;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
  return true;
}
/** The primes below n, each taken modulo MOD, and how many there are. */
function primesMod(n) {
`;
const HONEST = `  const out = [];
  for (let k = 2; k < n; k++) if (isPrime(k)) out.push(k % MOD);
  return { values: out, count: out.length };
}
`;
const TESTS = `${ASSERT}function test() {
  const candidate = primesMod;
  assert.deepEqual(candidate(10), { values: [2, 3, 5, 0], count: 4 });
  assert.deepEqual(candidate(2), { values: [], count: 0 });
  assert.ok(isPrime(13) && MOD === 7);
  for (let n = 3; n < 30; n++) assert.equal(candidate(n).count, [...Array(n).keys()].filter(isPrime).length);
}
test();
`;

/** Completions that try to leave something behind for the next program of the same problem. */
const HOSTILE: Record<string, string> = {
  'patch-intrinsics': `  return { values: [1], count: 99 };
}
const wrong = () => ({ values: [2, 3, 5, 0], count: 4 });
Object.prototype.primesMod = wrong;
Object.defineProperty(Object.prototype, 'values', { get() { return [2, 3, 5, 0]; }, configurable: true });
Function.prototype.call = function () { return wrong(); };
Function.prototype.apply = function () { return wrong(); };
Reflect.apply = () => wrong();
JSON.parse = () => [];
JSON.stringify = () => '[]';
Object.getOwnPropertyDescriptor = () => ({ value: wrong, writable: true, enumerable: true, configurable: true });
Array.prototype.push = function () { return 0; };
Map.prototype.get = () => undefined;
Map.prototype.set = function () { return this; };
Promise.prototype.then = function () {};
`,
  'global-getter': `  return { values: [], count: -1 };
}
const keep = primesMod;
Object.defineProperty(globalThis, '__anchorRead', { get() { return { primesMod: () => ({ values: [2, 3, 5, 0], count: 4 }) }; }, configurable: true });
Object.defineProperty(globalThis, 'isPrime', { get() { return () => true; }, configurable: true });
globalThis.MOD = 1;
var __anchorScope = { primesMod: keep };
`,
  'rebind-helpers': `  return { values: [0], count: 1 };
}
isPrime = () => false;
MOD = 1;
this.primesMod = () => ({ values: [2, 3, 5, 0], count: 4 });
`,
  'throws-after-patching': `  return { values: [2, 3, 5, 0], count: 4 };
}
Object.prototype.count = 4;
Array.prototype.length = 0;
throw new Error('gone');
`,
};

function spec(id: string, completion: string): ProgramSpec {
  return { id, language: 'javascript', code: PROMPT + completion, tests: TESTS, prompt: PROMPT };
}

describe('per-problem caches of the JavaScript worker', () => {
  it('a hostile completion cannot change the verdict of the next honest completion of its problem', async () => {
    // One worker: every program of the batch runs in the same isolate, so the hostile runs and
    // the honest ones share the problem's cached plan, tests wrapper and name reader.
    const ex = createExecutor({ workers: 1, timeoutMs: 5000, memoryMb: 64 });
    try {
      const [alone] = await ex.run([spec('honest-alone', HONEST)]);
      expect(alone!.status, JSON.stringify(alone)).toBe('pass');
      expect(alone!.total).toBe(alone!.passed);
      expect(alone!.passed).toBeGreaterThanOrEqual(4);
      const specs: ProgramSpec[] = [];
      for (const [name, code] of Object.entries(HOSTILE)) specs.push(spec(name, code), spec(`honest-after-${name}`, HONEST));
      const results = await ex.run(specs);
      for (const r of results) {
        if (r.id.startsWith('honest-after-')) {
          expect({ id: r.id, status: r.status, passed: r.passed, total: r.total }, JSON.stringify(r)).toEqual({
            id: r.id,
            status: 'pass',
            passed: alone!.passed,
            total: alone!.total,
          });
        } else {
          expect(['fail', 'error'], JSON.stringify(r)).toContain(r.status);
        }
      }
    } finally {
      await ex.close();
    }
  });
});
