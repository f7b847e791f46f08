/**
 * `--set a.b.c=value` command-line overrides. Values are typed by the schema: a key whose
 * schema is a string keeps the raw text; anything else is read as a YAML scalar or flow
 * collection (`0.1`, `true`, `[frozen, anchored]`, `{low: 0.2, high: 0.28}`).
 */
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { AnchorError } from '../util/errors.ts';

/** A parsed override: the key path and the raw text after `=`. */
export interface Override {
  path: string[];
  raw: string;
}

/** Parse `a.b.c=value` strings; a missing `=` or empty key is a BAD_ARGUMENT. */
export function parseOverrides(sets: readonly string[]): Override[] {
  return sets.map((text) => {
    const eq = text.indexOf('=');
    if (eq <= 0) {
      throw new AnchorError('BAD_ARGUMENT', `--set ${JSON.stringify(text)}: expected KEY.PATH=VALUE, e.g. --set grpo.lr=1e-4`);
    }
    const path = text.slice(0, eq).trim().split('.');
    checkKeyPath(path, `--set ${JSON.stringify(text)}`);
    return { path, raw: text.slice(eq + 1) };
  });
}

/** Key segments that would reach an object's prototype instead of a config key. */
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * A key path from the command line (`--set`, `--grid`): no empty segment, and none of
 * `__proto__`, `constructor`, `prototype` (they would write into Object.prototype). `where`
 * starts the BAD_ARGUMENT message.
 */
export function checkKeyPath(path: readonly string[], where: string): void {
  if (path.some((p) => p === '')) throw new AnchorError('BAD_ARGUMENT', `${where}: empty segment in key path`);
  const bad = path.find((p) => FORBIDDEN_SEGMENTS.has(p));
  if (bad !== undefined) throw new AnchorError('BAD_ARGUMENT', `${where}: ${JSON.stringify(bad)} is not allowed in a key path`);
}

type AnyDef = { type: string; [k: string]: unknown };

function defOf(schema: unknown): AnyDef | undefined {
  return (schema as { _zod?: { def?: AnyDef } } | undefined)?._zod?.def;
}

/** Strip wrappers (default, optional, nullable, pipe...) down to the schema that says the type. */
function unwrap(schema: unknown): unknown {
  let cur = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(cur);
    if (!def) return cur;
    if (['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch', 'nonoptional'].includes(def.type)) {
      cur = def.innerType;
    } else if (def.type === 'pipe') {
      cur = def.in;
    } else if (def.type === 'lazy') {
      cur = (def.getter as () => unknown)();
    } else {
      return cur;
    }
  }
  return cur;
}

/** The schema at `path` (wrappers stripped), or undefined when the schema does not know the key. */
export function schemaAt(schema: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = unwrap(schema);
  for (const key of path) {
    const def = defOf(cur);
    if (!def) return undefined;
    if (def.type === 'object') {
      const shape = def.shape as Record<string, unknown>;
      if (typeof key !== 'string' || !Object.hasOwn(shape, key)) return undefined;
      cur = unwrap(shape[key]);
    } else if (def.type === 'record') {
      cur = unwrap(def.valueType);
    } else if (def.type === 'array' && (typeof key === 'number' || /^\d+$/.test(String(key)))) {
      cur = unwrap(def.element);
    } else if (def.type === 'union') {
      const next = (def.options as unknown[]).map(unwrap).find((o) => {
        const d = defOf(o);
        return d?.type === 'object' && Object.hasOwn(d.shape as Record<string, unknown>, String(key));
      });
      if (!next) return undefined;
      cur = unwrap((defOf(next)!.shape as Record<string, unknown>)[String(key)]);
    } else {
      return undefined;
    }
  }
  return cur;
}

/** Keys an object schema (or any object branch of a union) accepts at `path`. */
export function keysAt(schema: unknown, path: readonly PropertyKey[]): string[] {
  const at = schemaAt(schema, path);
  const def = defOf(at);
  if (def?.type === 'object') return Object.keys(def.shape as Record<string, unknown>);
  if (def?.type === 'union') {
    return [
      ...new Set(
        (def.options as unknown[]).flatMap((o) => {
          const d = defOf(unwrap(o));
          return d?.type === 'object' ? Object.keys(d.shape as Record<string, unknown>) : [];
        }),
      ),
    ];
  }
  return [];
}

/**
 * The leaf kind the schema expects at `path`: 'string' (keep raw text), 'other', or
 * undefined when the schema does not know the key (validation will then report it).
 */
export function leafKind(schema: z.ZodType, path: readonly string[]): 'string' | 'other' | undefined {
  const cur = schemaAt(schema, path);
  if (cur === undefined) return undefined;
  const def = defOf(cur);
  if (!def) return 'other';
  if (def.type === 'string' || def.type === 'template_literal') return 'string';
  if (def.type === 'union') {
    const kinds = (def.options as unknown[]).map((o) => defOf(unwrap(o))?.type);
    if (kinds.every((k) => k === 'string' || k === 'literal' || k === 'enum')) {
      return kinds.includes('string') ? 'string' : 'other';
    }
  }
  return 'other';
}

/**
 * The typed value of one override's text: the raw text where the schema expects a string, else
 * the text read as YAML. `flag` names the option in error messages (`--set`, `--grid`).
 */
export function overrideValue(schema: z.ZodType, path: readonly string[], text: string, flag = '--set'): unknown {
  if (leafKind(schema, path) === 'string') return text;
  try {
    return text.trim() === '' ? '' : parseYaml(text);
  } catch (err) {
    throw new AnchorError(
      'BAD_ARGUMENT',
      `${flag} ${path.join('.')}=${text}: cannot read value (${(err as Error).message.split('\n')[0]})`,
    );
  }
}

/** Apply overrides to a raw (not yet validated) config object, returning a new object. */
export function applyOverrides(raw: unknown, overrides: readonly Override[], schema: z.ZodType): Record<string, unknown> {
  const root: Record<string, unknown> =
    raw && typeof raw === 'object' && !Array.isArray(raw) ? structuredClone(raw as Record<string, unknown>) : {};
  for (const { path, raw: text } of overrides) {
    setPath(root, path, overrideValue(schema, path, text));
  }
  return root;
}

/**
 * Set `value` at `path` in a plain config object, creating sections on the way; a scalar where a
 * section is needed is BAD_ARGUMENT (`flag` names the option in the message).
 */
export function setPath(root: Record<string, unknown>, path: readonly string[], value: unknown, flag = '--set'): void {
  checkKeyPath(path, `${flag} ${path.join('.')}`);
  let cur: Record<string, unknown> = root;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    const next = cur[key];
    if (next === undefined || next === null) {
      cur[key] = {};
    } else if (typeof next !== 'object') {
      throw new AnchorError(
        'BAD_ARGUMENT',
        `${flag} ${path.join('.')}: ${path.slice(0, i + 1).join('.')} is ${JSON.stringify(next)}, not a section`,
      );
    }
    cur = cur[key] as Record<string, unknown>;
  }
  cur[path[path.length - 1]!] = value;
}

/** Deep-merge plain objects (arrays and scalars in `over` replace). */
export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && b && typeof b === 'object' && !Array.isArray(b)
        ? deepMerge(b as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}
