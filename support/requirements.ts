/**
 * Optional test requirements (services such as redis-server and chromium, the ../shared
 * datasets and models). Locally a missing one skips the dependent tests with a printed reason;
 * with `CI=true` it fails the test file instead, so CI can never go green by silently skipping
 * the queue backend, the browser test or the published-dataset checks.
 */

/** True when running under CI (`CI=true`, as .ci/run sets it). */
const underCi = (): boolean => process.env.CI === 'true';

/**
 * `missing` is null when `what` can run, else the reason it cannot. Returns true when the tests
 * can run; false (after printing `[skip] what: reason`) when they should skip; throws under CI.
 */
export function available(what: string, missing: string | null): boolean {
  if (missing === null) return true;
  if (underCi())
    throw new Error(`${what}: ${missing}; CI=true requires it (.ci/run installs the services, CI provides ../shared)`);
  console.warn(`[skip] ${what}: ${missing}`);
  return false;
}
