/**
 * The task-family registry: `synthetic-js`, `dsl6`, `richdsl`. Families are data entries
 * (see {@link TaskFamily}); adding one is adding an entry to `FAMILIES`.
 */
import type { Problem } from '../datasets/problem.ts';
import { AnchorError } from '../util/errors.ts';
import { dsl6Family, richdslFamily } from './dsl/family.ts';
import { syntheticJsFamily } from './synthetic-js/family.ts';
import { FAMILY_NAMES } from './family-names.ts';
import type { GenerateOptions, TaskFamily } from './types.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const FAMILIES: readonly TaskFamily<any>[] = [syntheticJsFamily, dsl6Family, richdslFamily];

// `--help` lists the names from ./family-names.ts without loading the families: keep the two equal.
if (FAMILIES.map((f) => f.name).join() !== FAMILY_NAMES.join()) {
  throw new AnchorError('INTERNAL', `task families ${FAMILIES.map((f) => f.name).join(', ')} differ from FAMILY_NAMES`);
}

/** Names of the registered families. */
export function listFamilies(): string[] {
  return FAMILIES.map((f) => f.name);
}

/** The family of a name (AnchorError NOT_FOUND otherwise). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function getFamily(name: string): TaskFamily<any> {
  const family = FAMILIES.find((f) => f.name === name);
  if (!family) throw new AnchorError('NOT_FOUND', `unknown task family "${name}" (have: ${listFamilies().join(', ')})`);
  return family;
}

/**
 * Generate problems of a family. `opts` holds split/count/seed plus the family's knobs; the
 * knobs are validated against the family schema (unknown or bad knobs: AnchorError BAD_CONFIG).
 */
export function generateProblems(family: string, opts: GenerateOptions): Problem[] {
  const fam = getFamily(family);
  const { split, count, seed, ...knobs } = opts;
  if (split !== 'train' && split !== 'eval') {
    throw new AnchorError('BAD_CONFIG', `task split must be "train" or "eval", got ${JSON.stringify(split)}`);
  }
  if (!Number.isInteger(count) || count < 0) {
    throw new AnchorError('BAD_CONFIG', `task count must be a non-negative integer, got ${JSON.stringify(count)}`);
  }
  if (!Number.isInteger(seed)) {
    throw new AnchorError('BAD_CONFIG', `task seed must be an integer, got ${JSON.stringify(seed)}`);
  }
  const parsed = fam.schema.safeParse(knobs);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(knobs)'}: ${i.message}`).join('; ');
    throw new AnchorError('BAD_CONFIG', `bad knobs for task family "${family}": ${issues}`, { issues: parsed.error.issues });
  }
  return fam.generate({ ...(parsed.data as object), split, count, seed });
}
