/** Paths shared by tests: the repo root and the optional ../shared folder (present in CI). */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** ../shared/datasets next to the repository (absent on a bare clone). */
export const sharedDatasets = resolve(repoRoot, '../shared/datasets');

/** ../shared/models next to the repository. */
export const sharedModels = resolve(repoRoot, '../shared/models');

/** True when ../shared/datasets exists; otherwise prints why dependent tests skip. */
export function haveSharedDatasets(what: string): boolean {
  const ok = existsSync(sharedDatasets);
  if (!ok) console.warn(`[skip] ${what}: ${sharedDatasets} is absent (CI provides ../shared)`);
  return ok;
}

/** True when ../shared/models exists; otherwise prints why dependent tests skip. */
export function haveSharedModels(what: string): boolean {
  const ok = existsSync(sharedModels);
  if (!ok) console.warn(`[skip] ${what}: ${sharedModels} is absent (CI provides ../shared)`);
  return ok;
}

/** A fixture file under test/fixtures. */
export function fixture(...parts: string[]): string {
  return resolve(repoRoot, 'test/fixtures', ...parts);
}
