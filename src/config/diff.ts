/** Differences between two resolved configs, by key path (for "changed config" errors). */
import { quote } from './validate.ts';

/** One leaf where two configs differ. */
export interface ConfigChange {
  key: string;
  before: unknown;
  after: unknown;
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Leaf key paths where `a` and `b` differ (arrays compare whole), at most `limit`. */
export function configDiff(a: unknown, b: unknown, limit = Infinity, path = '', out: ConfigChange[] = []): ConfigChange[] {
  if (out.length >= limit) return out;
  if (isObj(a) && isObj(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])])
      configDiff(a[k], b[k], limit, path ? `${path}.${k}` : k, out);
    return out;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ key: path, before: a, after: b });
  return out;
}

/** `key: recorded X, now Y` for an error message. */
export function describeChange(c: ConfigChange): string {
  return `${c.key}: recorded ${quote(c.before)}, now ${quote(c.after)}`;
}
