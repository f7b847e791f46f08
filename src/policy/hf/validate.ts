/** Weight-map validation against a contract (names and shapes), shared by the HF loaders, models and exports. */
import { AnchorError } from '../../util/errors.ts';
import type { WeightMap } from '../weights.ts';

/**
 * Check `w` holds exactly the tensors of `expected` (names and shapes); BAD_MODEL naming all
 * problems. `fileShape` maps a contract shape back to the layout the user's file stores (the
 * contract transposes Hugging Face's [out, in] linears), so a wrong shape is reported as the
 * file has it.
 */
export function validateContract(
  expected: Map<string, number[]>,
  w: WeightMap,
  what: string,
  fileShape: (name: string, shape: readonly number[]) => readonly number[] = (_, s) => s,
): void {
  const missing = [...expected.keys()].filter((n) => !w.has(n));
  const extra = [...w.keys()].filter((n) => !expected.has(n));
  const wrong = [...expected]
    .filter(([n, s]) => {
      const t = w.get(n);
      return (
        t && (t.shape.length !== s.length || t.shape.some((x, i) => x !== s[i]) || t.data.length !== s.reduce((a, b) => a * b, 1))
      );
    })
    .map(([n, s]) => `'${n}' has shape [${fileShape(n, w.get(n)!.shape)}], expected [${fileShape(n, s)}]`);
  const parts: string[] = [];
  if (missing.length) parts.push(`missing tensors: ${missing.join(', ')}`);
  if (extra.length) parts.push(`unexpected tensors: ${extra.join(', ')}`);
  if (wrong.length) parts.push(wrong.join('; '));
  if (parts.length) throw new AnchorError('BAD_MODEL', `${what}: ${parts.join('; ')}`, { missing, extra });
}
