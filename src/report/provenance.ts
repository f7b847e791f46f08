/**
 * Filtering a run by the provenance stamps of its samples (docs/gold-watch.md): `--where
 * harness=41a0…` keeps, per arm, the samples stamped with that sandbox harness and the steps
 * (metrics and refit lines) those samples came from. Keys: `policy.step`, `policy.weights`,
 * `rm.refit`, `rm.hash`, `harness`, `verdict`, `seed`; a hash matches by prefix. Runs written
 * before the stamps have none, so nothing of them matches.
 */
import { AnchorError } from '../util/errors.ts';
import type { SampleLine } from '../train/run-format.ts';
import type { RunData } from './read-run.ts';

/** The stamp fields `--where` may name. */
const WHERE_KEYS = ['policy.step', 'policy.weights', 'rm.refit', 'rm.hash', 'harness', 'verdict', 'seed'] as const;
/** Stamp fields compared by prefix (hashes). */
const PREFIX_KEYS: ReadonlySet<string> = new Set(['policy.weights', 'rm.hash', 'harness']);

/** One `key=value` condition. */
interface Condition {
  key: (typeof WHERE_KEYS)[number];
  value: string;
}

/** Parse `--where key=value` options (BAD_ARGUMENT quoting the bad one). */
export function parseWhere(items: readonly string[]): Condition[] {
  return items.map((item) => {
    const at = item.indexOf('=');
    const key = item.slice(0, Math.max(0, at)).trim();
    const value = item.slice(at + 1).trim();
    if (at < 0 || !(WHERE_KEYS as readonly string[]).includes(key) || !value)
      throw new AnchorError(
        'BAD_ARGUMENT',
        `--where ${JSON.stringify(item)}: expected KEY=VALUE with KEY one of ${WHERE_KEYS.join(', ')}`,
      );
    return { key: key as Condition['key'], value };
  });
}

/** The stamp field of a sample line (undefined where the line has none). */
function field(line: SampleLine, key: Condition['key']): string | undefined {
  const v =
    key === 'policy.step'
      ? line.policy?.step
      : key === 'policy.weights'
        ? line.policy?.weights
        : key === 'rm.refit'
          ? line.rm?.refit
          : key === 'rm.hash'
            ? line.rm?.hash
            : line[key];
  return v === undefined || v === null ? undefined : String(v);
}

/** True when a sample line satisfies every condition. */
function matches(line: SampleLine, where: readonly Condition[]): boolean {
  return where.every((c) => {
    const v = field(line, c.key);
    return v !== undefined && (PREFIX_KEYS.has(c.key) ? v.startsWith(c.value) : v === c.value);
  });
}

/**
 * The run restricted to the samples that match `where` and the steps they came from (the run
 * must have been read with samples). No conditions: the run unchanged.
 */
export function filterRun(run: RunData, where: readonly Condition[]): RunData {
  if (where.length === 0) return run;
  return {
    ...run,
    arms: run.arms.map((arm) => {
      const samples = (arm.samples ?? []).filter((s) => matches(s, where));
      const steps = new Set(samples.map((s) => s.step));
      return {
        ...arm,
        samples,
        metrics: arm.metrics.filter((l) => steps.has(l.step)),
        refits: arm.refits.filter((r) => steps.has(r.step)),
      };
    }),
  };
}
