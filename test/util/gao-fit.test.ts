import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/util/rng.ts';
import { fitGao, fitGaoWithSe, gaoPeak, gaoPredict, gaoSlope, slopeTurnStep } from '../../src/util/gao-fit.ts';

function curve(form: 'rl' | 'bon', g0: number, alpha: number, beta: number, noise: number, seed = 1) {
  const rng = new Rng(seed);
  const d = Array.from({ length: 120 }, (_, t) => 0.02 + (t / 119) * 2.5);
  const gold = d.map((x) => gaoPredict({ form, g0, alpha, beta }, x) + noise * rng.normal());
  return { d, gold };
}

describe('Gao et al. fits', () => {
  it('recovers α, β, g₀ exactly from a noiseless RL curve, and its peak', () => {
    const { d, gold } = curve('rl', 0.15, 0.2, 0.3, 0);
    const f = fitGao(d, gold, 'rl')!;
    expect(f.alpha).toBeCloseTo(0.2, 9);
    expect(f.beta).toBeCloseTo(0.3, 9);
    expect(f.g0).toBeCloseTo(0.15, 9);
    expect(f.dStar).toBeCloseTo(Math.exp(0.2 / 0.3 - 1), 9);
    expect(gaoSlope(f, f.dStar!)).toBeCloseTo(0, 9);
  });
  it('recovers the best-of-n form and its peak α/(2β)', () => {
    const { d, gold } = curve('bon', 0.1, 0.4, 0.1, 0);
    const f = fitGao(d, gold, 'bon')!;
    expect(f.alpha).toBeCloseTo(0.4, 9);
    expect(f.beta).toBeCloseTo(0.1, 9);
    expect(f.dStar).toBeCloseTo(2, 9);
  });
  it('on noisy curves the truth lies within 3 bootstrap SEs, and the SEs shrink with less noise', () => {
    const noisy = curve('rl', 0.15, 0.2, 0.3, 0.03, 7);
    const f = fitGaoWithSe(noisy.d, noisy.gold, 'rl', 300, 1)!;
    expect(Math.abs(f.alpha - 0.2)).toBeLessThan(3 * f.se.alpha);
    expect(Math.abs(f.beta - 0.3)).toBeLessThan(3 * f.se.beta);
    expect(f.se.dStar).not.toBeNull();
    const quiet = curve('rl', 0.15, 0.2, 0.3, 0.003, 7);
    const q = fitGaoWithSe(quiet.d, quiet.gold, 'rl', 300, 1)!;
    expect(q.se.alpha).toBeLessThan(f.se.alpha / 3);
  });
  it('a monotone curve has no peak; too few points give no fit', () => {
    expect(gaoPeak('rl', 0.2, -0.1)).toBeNull();
    const { d, gold } = curve('rl', 0.1, 0.2, -0.05, 0);
    expect(fitGao(d, gold)!.dStar).toBeNull();
    expect(fitGao([0.1, 0.2, 0.3], [1, 2, 3])).toBeNull();
    expect(fitGao([0.5, 0.5, 0.5, 0.5], [1, 2, 3, 4])).toBeNull();
  });
  it('the slope turns negative at the first step whose trailing d reaches d*', () => {
    const d = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6];
    expect(slopeTurnStep(d, 0.35, 1)).toBe(3);
    expect(slopeTurnStep(d, 0.36, 2)).toBe(4); // trailing means 0.35 at step 3, 0.45 at step 4
    expect(slopeTurnStep(d, 2, 1)).toBeNull();
    expect(slopeTurnStep(d, null)).toBeNull();
  });
});

describe('settled-label early warning', () => {
  it('stays silent while settled gold rises with √KL and fires once the window points turn over', async () => {
    const { GaoWarning } = await import('../../src/train/early-warning.ts');
    const w = new GaoWarning();
    w.setBase(0.15);
    const truth = { form: 'rl' as const, g0: 0.15, alpha: 0.2, beta: 0.3 }; // d* = e^(2/3 − 1) ≈ 0.72
    const readings = [0.2, 0.35, 0.5, 0.65, 0.8, 0.95].map((d) => ({ d, r: w.push(d, gaoPredict(truth, d)) }));
    expect(readings.slice(0, 2).every((x) => x.r.fired === null)).toBe(true); // too few windows
    expect(readings[2]!.r.fired).toBe(false);
    expect(readings[3]!.r.fired).toBe(false);
    expect(readings[4]!.r.fired).toBe(true);
    expect(readings[4]!.r.fit!.dStar).toBeCloseTo(Math.exp(0.2 / 0.3 - 1), 6);
    // State round-trips (checkpoints).
    const w2 = new GaoWarning();
    w2.setState(w.getState());
    expect(w2.push(1.1, gaoPredict(truth, 1.1))).toEqual(w.push(1.1, gaoPredict(truth, 1.1)));
  });
});
