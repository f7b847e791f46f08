/**
 * Running each distinct program of a batch once. A GRPO group samples the same completion several
 * times (a third to a half of the executed rollouts of the default sweep are repeats of another
 * rollout of the same prompt in the same step), and the gold watch and the gold metric each run
 * all of them. A verdict is a pure function of the program (language, code, tests, prompt, time
 * limit), the executor's options and the run seed — the program's random sources are seeded from
 * its problem's text, never from its id (src/sandbox/worker.ts `programSeed`) — so a repeat gets a copy of
 * the first one's result with its own id and `ms: 0` (no sandbox time was spent on it). On by
 * default through the `sandbox.dedupe` config key; an executor made directly runs every program.
 */
import type { ExecResult, Executor, OnResult, ProgramSpec } from './types.ts';

/** Everything of a program its verdict depends on besides the executor's options: all of it but `id`. */
function programKey(p: ProgramSpec): string {
  return JSON.stringify([p.language, p.code, p.tests ?? null, p.prompt ?? null, p.timeoutMs ?? null, p.draw ?? 0]);
}

/**
 * Run each distinct program of `programs` once through `run` and copy its result to the repeats
 * (own id, `ms: 0`). Results come back in input order and `onResult` sees every index, as from
 * {@link Executor.run}; an error thrown by `onResult` is rethrown after the batch.
 */
export async function runDistinct(
  programs: readonly ProgramSpec[],
  onResult: OnResult | undefined,
  run: Executor['run'],
): Promise<ExecResult[]> {
  // repeats[u]: the indexes in `programs` of the u-th distinct program, first occurrence first.
  const first = new Map<string, number>();
  const repeats: number[][] = [];
  programs.forEach((p, i) => {
    const key = programKey(p);
    const u = first.get(key);
    if (u === undefined) {
      first.set(key, repeats.length);
      repeats.push([i]);
    } else repeats[u]!.push(i);
  });
  if (repeats.length === programs.length) return run(programs, onResult);

  const results: ExecResult[] = new Array(programs.length);
  let callbackError: unknown;
  const deliver = (r: ExecResult, u: number) => {
    repeats[u]!.forEach((i, k) => {
      results[i] = k === 0 ? r : { ...r, id: programs[i]!.id, ms: 0 };
      try {
        onResult?.(results[i]!, i);
      } catch (e) {
        callbackError ??= e;
      }
    });
  };
  const ran = await run(
    repeats.map((is) => programs[is[0]!]!),
    (r, u) => deliver(r, u),
  );
  // A result the inner run returned without reporting it still reaches every slot.
  ran.forEach((r, u) => results[repeats[u]![0]!] === undefined && deliver(r, u));
  if (callbackError !== undefined) throw callbackError;
  return results;
}
