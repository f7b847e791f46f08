/**
 * Windowed statistics over a metrics log. Windows are measured in steps, not lines, so a log with
 * gaps (gold measured only on some steps, a resumed run) is averaged over what it actually holds.
 */
import type { MetricsLine } from './read-run.ts';

/** `v` if it is a finite number, else null. */
export function finiteOrNull(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** The value of `key` as a finite number, or null. */
export function metricValue(line: Record<string, unknown>, key: string): number | null {
  return finiteOrNull(line[key]);
}

/** Mean of the non-null values (null when there are none). */
export function meanOf(values: readonly (number | null)[]): number | null {
  let s = 0;
  let n = 0;
  for (const v of values) {
    if (v === null || !Number.isFinite(v)) continue;
    s += v;
    n++;
  }
  return n > 0 ? s / n : null;
}

export { meanSe } from '../util/stats.ts';

/** Mean of `key` over the last `window` steps (steps > lastStep − window). */
export function finalWindowMean(metrics: readonly MetricsLine[], key: string, window: number): number | null {
  const last = metrics.at(-1);
  if (!last) return null;
  const from = last.step - window;
  return meanOf(metrics.filter((m) => m.step > from).map((m) => metricValue(m, key)));
}

/** One point of a trailing rolling mean. */
export interface RollingPoint {
  step: number;
  /** Mean of the non-null values in steps (step − window, step]; null when there are none. */
  value: number | null;
  /** True when the window lies entirely within the logged steps (no partial window at the start). */
  full: boolean;
}

/** Trailing rolling mean of `key` with a window of `window` steps (partial at the start). */
export function rollingMean(metrics: readonly MetricsLine[], key: string, window: number): RollingPoint[] {
  const out: RollingPoint[] = [];
  const first = metrics[0]?.step ?? 0;
  let lo = 0;
  let sum = 0;
  let n = 0;
  for (let hi = 0; hi < metrics.length; hi++) {
    const m = metrics[hi]!;
    const v = metricValue(m, key);
    if (v !== null) (sum += v), n++;
    while (metrics[lo]!.step <= m.step - window) {
      const old = metricValue(metrics[lo]!, key);
      if (old !== null) (sum -= old), n--;
      lo++;
    }
    out.push({ step: m.step, value: n > 0 ? sum / n : null, full: m.step - window + 1 >= first });
  }
  return out;
}

/**
 * Peak of the rolling mean over full windows (a partial window at the start is too noisy to call a
 * peak). An arm shorter than one window has no full window: its peak is the mean over all of it,
 * at its last step.
 */
export function rollingPeak(
  metrics: readonly MetricsLine[],
  key: string,
  window: number,
): { value: number; step: number } | null {
  const roll = rollingMean(metrics, key, window);
  const candidates = roll.filter((p) => p.full && p.value !== null);
  if (candidates.length === 0) {
    const last = roll.at(-1);
    return last && last.value !== null ? { value: last.value, step: last.step } : null;
  }
  let best = candidates[0]!;
  for (const p of candidates) if (p.value! > best.value!) best = p;
  return { value: best.value!, step: best.step };
}

/** The last non-null value of `key` at or before `step` (the whole log when step is omitted). */
export function lastValue(metrics: readonly MetricsLine[], key: string, atOrBefore = Infinity): number | null {
  for (let i = metrics.length - 1; i >= 0; i--) {
    const m = metrics[i]!;
    if (m.step > atOrBefore) continue;
    const v = metricValue(m, key);
    if (v !== null) return v;
  }
  return null;
}
