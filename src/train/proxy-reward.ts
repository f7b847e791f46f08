/**
 * How an RM-trained arm turns reward-model scores into its training reward (`proxy:` in a run
 * config). By default the reward is the RM's score. Two over-optimisation defences can change it:
 *
 * - A conservative ensemble (Coste et al., ICLR 2024, arXiv 2310.02743): K bootstrap members of
 *   the RM, refitted with it at every window; the reward is mean − λ·std of the members
 *   (uncertainty-weighted, `std`) or their minimum (worst case, `min`). Where the label set says
 *   little, the policy is paid less.
 * - Bounded shaping (PAR, arXiv 2502.18770): σ((r − r_ref)/s), a sigmoid centred on a reference
 *   reward — here the mean label of the initial (base-policy) label set, i.e. what a base-policy
 *   completion earns — so scores far above the reference stop paying more.
 *
 * `reward/proxy` stays the RM's own score in the logs (the hacking gap is measured on it);
 * `reward/train` is what GRPO optimised.
 */
import type { proxyConfigSchema } from './config.ts';
import type { z } from 'zod';

/** Parsed `proxy:` block. */
export type ProxyConfig = z.output<typeof proxyConfigSchema>;

/** Conservative reward from per-member predictions: mean − λ·std (population std) or min. */
export function conservativeReward(preds: readonly ArrayLike<number>[], mode: 'std' | 'min', lambda: number): Float64Array {
  const K = preds.length;
  if (K === 0) throw new RangeError('conservativeReward needs at least one member');
  const n = preds[0]!.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let mean = 0;
    let min = Infinity;
    for (const p of preds) (mean += p[i]! / K), (min = Math.min(min, p[i]!));
    if (mode === 'min') {
      out[i] = min;
      continue;
    }
    let v = 0;
    for (const p of preds) v += (p[i]! - mean) ** 2 / K;
    out[i] = mean - lambda * Math.sqrt(v);
  }
  return out;
}

/** PAR shaping σ((r − centre)/scale), elementwise. */
export function parShape(r: ArrayLike<number>, centre: number, scale: number): Float64Array {
  return Float64Array.from(r, (v) => 1 / (1 + Math.exp(-(v - centre) / scale)));
}

/** Whether a config changes the reward away from the RM's plain score. */
export function shapesReward(cfg: ProxyConfig): boolean {
  return cfg.ensemble.members > 0 || cfg.par.enabled;
}
