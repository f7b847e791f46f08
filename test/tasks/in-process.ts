/**
 * A fast in-process grader for this directory's tests only (never for untrusted code: it runs
 * programs in the test process). It mirrors how the sandbox counts: every `assert.deepEqual`
 * call is counted as passed or failed, and a failing one throws (like Node's assert), so
 * `total` is the number of assertions attempted.
 */

export interface InProcessResult {
  passed: number;
  total: number;
  status: 'pass' | 'fail' | 'error' | 'syntax_error';
}

export function runInProcess(code: string): InProcessResult {
  let passed = 0;
  let failed = 0;
  // Like Node's (and the sandbox's) assert: count, then throw on failure.
  const countingAssert = {
    deepEqual(actual: unknown, expected: unknown): void {
      if (looseDeepEqual(actual, expected)) {
        passed++;
        return;
      }
      failed++;
      throw new Error('assert.deepEqual failed');
    },
  };
  const fakeRequire = (name: string): unknown => {
    if (name === 'node:assert' || name === 'assert') return countingAssert;
    throw new Error(`require(${name}) is not available`);
  };
  let fn: (req: typeof fakeRequire) => void;
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    fn = new Function('require', code) as typeof fn;
  } catch {
    return { passed: 0, total: 0, status: 'syntax_error' };
  }
  try {
    fn(fakeRequire);
  } catch {
    return { passed, total: passed + failed, status: failed > 0 ? 'fail' : 'error' };
  }
  return { passed, total: passed + failed, status: failed > 0 ? 'fail' : 'pass' };
}

/**
 * Node's legacy `assert.deepEqual` for the values these tasks produce (primitives, arrays,
 * plain objects): primitives compare with `==` (NaN equals NaN), objects by own enumerable
 * keys, recursively. Written out because building a failing AssertionError (with its diff
 * message) costs far more than the comparison itself.
 */
export function looseDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const ao = typeof a === 'object' && a !== null;
  const bo = typeof b === 'object' && b !== null;
  if (!ao || !bo) {
    if (ao || bo) return false;
    // biome-ignore lint/suspicious/noDoubleEquals: mirrors assert.deepEqual, whose primitive comparison is loose
    return a == b || (Number.isNaN(a) && Number.isNaN(b));
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b as object, k)) return false;
    if (!looseDeepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}
