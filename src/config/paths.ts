/**
 * Relative paths in a config, made to mean the same thing from any working directory: a path
 * written in a config file is relative to that file, a default is relative to the package (the
 * embedded configs ship with it), and a path given with `--set` stays relative to the working
 * directory where it was typed.
 *
 * Two kinds of path key: an `input` (a dataset, a model to read) always resolves against the
 * file or package; a `cache` (a base policy pretrained when missing, a random model written when
 * missing) resolves there when something exists at that path, and otherwise stays relative to
 * the working directory, where it is created — never inside an installed package.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

/** A config key that holds a file system path. */
export interface ConfigPathKey {
  /** Key path from the config's root, e.g. `['task', 'dataset']`. */
  key: readonly string[];
  /**
   * `input` or `cache` (see the module docs), decided from the mapping that holds the key (e.g.
   * a model path is a cache when `random_if_missing` writes it); null when the value is not a path
   * there (a dataset name, a judge that is not a local model).
   */
  kind: (parent: Record<string, unknown>, value: string) => 'input' | 'cache' | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The mapping that holds `key` and the key's last segment, when the path through `root` exists. */
export function holder(root: unknown, key: readonly string[]): { parent: Record<string, unknown>; last: string } | null {
  let node = root;
  for (const seg of key.slice(0, -1)) {
    if (!isObject(node)) return null;
    node = node[seg];
  }
  return isObject(node) ? { parent: node, last: key.at(-1)! } : null;
}

/** Whether `key` is set in `root` (to anything). */
export function hasKey(root: unknown, key: readonly string[]): boolean {
  const h = holder(root, key);
  return h !== null && Object.hasOwn(h.parent, h.last);
}

/**
 * Rewrite, in place, every relative path at `keys` in `root` against `baseDir` (see the module
 * docs for inputs and caches). `only` limits the keys rewritten (e.g. to those that came from
 * defaults).
 */
export function resolveConfigPaths(
  root: unknown,
  baseDir: string,
  keys: readonly ConfigPathKey[],
  only: (key: readonly string[]) => boolean = () => true,
): void {
  for (const k of keys) {
    if (!only(k.key)) continue;
    const h = holder(root, k.key);
    const value = h?.parent[h.last];
    if (!h || typeof value !== 'string' || value === '' || isAbsolute(value)) continue;
    const kind = k.kind(h.parent, value);
    if (kind === null) continue;
    const there = resolve(baseDir, value);
    if (kind === 'input' || existsSync(there)) h.parent[h.last] = there;
  }
}
