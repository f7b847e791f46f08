/**
 * Re-running what was not a verdict. A result coded `host_overloaded` or `sandbox_unavailable` says
 * nothing about the program (the host gave up or never ran it), so a caller that turns results into
 * labels runs those programs again instead of reading a 0 into its data.
 */
import { type ExecResult, type Executor, isVerdict, type ProgramSpec } from './types.ts';

/** How many times {@link runVerdicts} runs a program at most, by default. */
const DEFAULT_VERDICT_ATTEMPTS = 3;

/**
 * Run `specs` on `executor`, then run again (up to `attempts` runs in all) each program whose result
 * is not a verdict ({@link isVerdict}). Results stay in the order of `specs`; a program that never
 * got a verdict keeps its last result, so the caller still sees the code and can count it.
 */
export async function runVerdicts(
  executor: Executor,
  specs: readonly ProgramSpec[],
  attempts = DEFAULT_VERDICT_ATTEMPTS,
): Promise<ExecResult[]> {
  const results = await executor.run([...specs]);
  for (let run = 1; run < attempts; run++) {
    const again = results.flatMap((r, i) => (isVerdict(r) ? [] : [i]));
    if (again.length === 0) break;
    const rerun = await executor.run(again.map((i) => specs[i]!));
    again.forEach((i, k) => (results[i] = rerun[k]!));
  }
  return results;
}
