/**
 * Mean ± standard error: the one implementation behind every mean ± SE the project reports (the
 * comparison over seeds, the experiments over tasks, the gate's bound on the hacking gap).
 */

/** Mean and standard error (sample std / √n) of the finite non-null values; se is null for n < 2. */
export function meanSe(values: readonly (number | null)[]): { mean: number | null; se: number | null; n: number } {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v));
  const n = xs.length;
  if (n === 0) return { mean: null, se: null, n };
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, se: null, n };
  const varS = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
  return { mean, se: Math.sqrt(varS / n), n };
}
