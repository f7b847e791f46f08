/**
 * What `anchor-rl serve` keeps between requests: page builds, each rebuilt only when the
 * fingerprint of the directories it shows changes, and the fingerprints themselves (hashed: a
 * page only compares them, and they name files).
 */
import { createHash } from 'node:crypto';
import { entryFingerprint, visibleEntries } from './discover.ts';
import type { Target } from './router.ts';
import type { Slots } from './views.ts';

/** How many page builds are kept (least recently built dropped first). */
const CACHED_BUILDS = 64;

/** Cached page builds: rebuilt only when the watched directories' fingerprint changes. */
export class BuildCache {
  private entries = new Map<string, { fp: string; value: Promise<Slots> }>();

  /** The build under `key` made at fingerprint `fp`, or a new one from `build`. */
  get(key: string, fp: string, build: () => Promise<Slots>): Promise<Slots> {
    const hit = this.entries.get(key);
    if (hit && hit.fp === fp) return hit.value;
    const value = build();
    // A failed build is not kept: the next request tries again.
    value.catch(() => this.entries.get(key)?.value === value && this.entries.delete(key));
    this.entries.delete(key);
    this.entries.set(key, { fp, value });
    while (this.entries.size > CACHED_BUILDS) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}

/** The fingerprint of what target `t` shows under `root` (the index: every visible entry). */
export function targetFingerprint(root: string, only: string | null, t: Target): string {
  return createHash('sha256')
    .update(
      t.page === 'index'
        ? visibleEntries(root, only)
            .map((e) => `${e.kind}:${e.id}=${entryFingerprint(e)}`)
            .join('\n')
        : t.entries.map((e) => entryFingerprint(e)).join('\n'),
    )
    .digest('base64url')
    .slice(0, 22);
}

/** The cache key of a target's build. */
export function targetKey(t: Target): string {
  return `${t.page}:${t.entries.map((e) => e.id).join(',')}:${t.window ?? ''}:${t.metric ?? ''}`;
}
