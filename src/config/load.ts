/**
 * Reading config files: YAML → raw object → `--set` overrides → schema validation.
 * Nothing is written anywhere until this has succeeded.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { AnchorError } from '../util/errors.ts';
import { PACKAGE_ROOT } from '../util/package-root.ts';
import { applyOverrides, parseOverrides } from './overrides.ts';
import { type ConfigPathKey, hasKey, resolveConfigPaths } from './paths.ts';
import { parseConfig } from './validate.ts';

/** Read a YAML file into a plain object; syntax errors name the file, line and column. */
function readYamlFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new AnchorError(
      'NOT_FOUND',
      `cannot read config ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const at = e.linePos?.[0] ? `${path}:${e.linePos[0].line}:${e.linePos[0].col}` : path;
    throw new AnchorError('BAD_CONFIG', `YAML error in ${at}: ${e.message.split('\n')[0]}`);
  }
  const value = doc.toJS();
  if (value === null || value === undefined) {
    // An empty file (or only comments) is valid YAML, but running the defaults silently would
    // hide a wrong path or an unsaved editor buffer.
    process.stderr.write(`anchor-rl: warning: config ${path} is empty; running the embedded defaults\n`);
    return {};
  }
  return value;
}

/**
 * Load and validate a config: `path` may be undefined (embedded defaults only), `sets` are
 * `a.b.c=value` overrides applied before validation. Relative paths at `paths` resolve against
 * the config file, and defaults against the package (./paths.ts); `--set` paths stay as typed.
 */
export function loadConfig<S extends z.ZodType>(
  schema: S,
  path: string | undefined,
  sets: readonly string[] = [],
  paths: readonly ConfigPathKey[] = [],
): z.output<S> {
  const raw = path ? readYamlFile(path) : {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new AnchorError(
      'BAD_CONFIG',
      `invalid config in ${path}: the top level must be a mapping of keys to values, got ${Array.isArray(raw) ? 'a list' : JSON.stringify(raw)}`,
    );
  }
  if (path) resolveConfigPaths(raw, dirname(resolve(path)), paths);
  const merged = applyOverrides(raw, parseOverrides(sets), schema);
  const where = [path ?? 'embedded defaults', sets.length ? `--set ${sets.join(' --set ')}` : ''].filter(Boolean).join(' + ');
  const config = parseConfig(schema, merged, where);
  resolveConfigPaths(config, PACKAGE_ROOT, paths, (key) => !hasKey(merged, key));
  return config;
}
