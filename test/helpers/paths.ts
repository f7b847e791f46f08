/** Paths shared by tests: the repo root and the optional ../shared folder (present in CI). */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { available } from '../../support/requirements.ts';

/** Repository root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** ../shared/datasets next to the repository (absent on a bare clone). */
export const sharedDatasets = resolve(repoRoot, '../shared/datasets');

/** ../shared/models next to the repository. */
export const sharedModels = resolve(repoRoot, '../shared/models');

/** True when ../shared/datasets exists; otherwise prints why dependent tests skip (fails under CI). */
export function haveSharedDatasets(what: string): boolean {
  return haveSharedPath(what, sharedDatasets);
}

/** True when ../shared/models exists; otherwise prints why dependent tests skip (fails under CI). */
export function haveSharedModels(what: string): boolean {
  return haveSharedPath(what, sharedModels);
}

/** True when `path` (a file or folder of ../shared) exists; otherwise skips, or fails under CI. */
export function haveSharedPath(what: string, path: string): boolean {
  return available(what, existsSync(path) ? null : `${path} is absent (CI provides ../shared)`);
}

/** A fixture file under test/fixtures. */
export function fixture(...parts: string[]): string {
  return resolve(repoRoot, 'test/fixtures', ...parts);
}
