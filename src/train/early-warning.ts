/**
 * The settled-label early warning: a Gao et al. (2022) RL curve R(d) = g₀ + d(α − β ln d) fitted
 * to one point per settlement window — d = the window's mean √KL(π‖π_base), R = the mean executed
 * label of the claims settled in it — plus the base point (0, mean base-policy label). It fires
 * when the fitted curve has turned over and the current d is past its peak d* (fitted slope < 0):
 * the settled sample alone says more optimisation now buys less gold. It uses no gold beyond what
 * settlement paid for, so an arm can act on it (adaptive settlement, `settlement.adaptive.signal:
 * gao`). The settled mean of a non-uniform strategy (top-proxy, uncertainty) is not the window's
 * gold: the warning is meant for uniform settlement (`random`, `groups`, instant).
 */
import { fitGao, type GaoFit } from '../util/gao-fit.ts';

/** Fewest window points (besides the base point) before the warning may fire. */
const GAO_MIN_WINDOWS = 3;

/** State of the warning (checkpointed). */
export interface GaoWarningState {
  base: number | null;
  points: [number, number][];
}

/** One evaluation after a window. */
export interface GaoWarningReading {
  fired: boolean | null;
  fit: GaoFit | null;
}

/** The warning, fed one point per settlement window. */
export class GaoWarning {
  private s: GaoWarningState = { base: null, points: [] };

  /** Set the base-policy level (mean label of the initial label set) once, at a fresh start. */
  setBase(mean: number): void {
    this.s.base ??= mean;
  }

  /** Add a window (its mean √KL and mean settled label) and evaluate. */
  push(d: number, settledMean: number): GaoWarningReading {
    if (Number.isFinite(d) && Number.isFinite(settledMean)) this.s.points.push([d, settledMean]);
    if (this.s.points.length < GAO_MIN_WINDOWS) return { fired: null, fit: null };
    const pts = this.s.base === null ? this.s.points : [[0, this.s.base] as [number, number], ...this.s.points];
    const fit = fitGao(
      pts.map((p) => p[0]),
      pts.map((p) => p[1]),
      'rl',
    );
    if (!fit) return { fired: null, fit: null };
    return { fired: fit.dStar !== null && d > fit.dStar, fit };
  }

  getState(): GaoWarningState {
    return structuredClone(this.s);
  }

  setState(s: GaoWarningState | undefined): void {
    this.s = s ? structuredClone(s) : { base: null, points: [] };
  }
}

/** Adaptive settlement's alarm with its release hysteresis (`settlement.adaptive.release`; checkpointed). */
export interface AlarmState {
  raised: boolean;
  /** Consecutive quiet refits while raised. */
  quiet: number;
}

/**
 * The alarm after a refit: raised when the refit's signal fires; once raised, released only after
 * `release` quiet refits in a row (never when null), so one noisy reading does not end it.
 */
export function nextAlarm(alarm: AlarmState, fired: boolean, release: number | null): AlarmState {
  const quiet = fired ? 0 : alarm.quiet + 1;
  const raised = fired || (alarm.raised && (release === null || quiet < release));
  return { raised, quiet: raised ? quiet : 0 };
}
