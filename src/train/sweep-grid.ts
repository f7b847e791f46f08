/**
 * The grid of `anchor-rl sweep`: `--grid KEY=V1,V2,...` axes over run-config keys an arm overlay
 * may set, their cartesian product (the cells), each cell's readable deterministic name and the
 * inline arm definition it becomes. Pure: nothing here touches the disk.
 */
import type { z } from 'zod';
import { checkKeyPath, keysAt, overrideValue, schemaAt, setPath } from '../config/overrides.ts';
import { runConfigSchema } from './run-config.ts';
import { AnchorError } from '../util/errors.ts';
import { SWEEP_SECTIONS } from './sweep-format.ts';
import { ARM_REGISTRY, type armDefinitionSchema } from './arms.ts';

/**
 * Config sections a grid may vary. They are the ones an arm overlay changes without changing what
 * the arms share: the task, policy, reward model, seed and arms are fixed for the whole sweep
 * (every cell of a seed starts from the same base policy, initial RM and data order).
 */

/** One `--grid` axis. */
export interface GridAxis {
  /** The key path as given, e.g. `settlement.rate`. */
  key: string;
  path: string[];
  /** Typed values (like `--set` values), in the order given. */
  values: unknown[];
  /** Short name used in cell names: the last path segment, or the whole path when that is ambiguous. */
  label: string;
}

/** One cell of the grid: its arm name and the value of every axis. */
export interface SweepCell {
  name: string;
  /** Key path → value. */
  values: Record<string, unknown>;
}

/** An inline arm definition (the `arms:` entry a cell becomes). */
export type ArmDefinition = z.input<typeof armDefinitionSchema>;

/** Split `a,b,{x: 1, y: 2},[1, 2]` at the commas outside brackets and quotes. */
export function splitValues(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let cur = '';
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '[' || ch === '{') {
      depth++;
    } else if (ch === ']' || ch === '}') {
      depth--;
    } else if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  out.push(cur);
  return out.map((v) => v.trim());
}

/** Parse one `KEY=V1,V2,...`; the key must be a known key inside one of {@link SWEEP_SECTIONS}. */
export function parseGridArg(text: string, schema: z.ZodType = runConfigSchema): Omit<GridAxis, 'label'> {
  const eq = text.indexOf('=');
  if (eq <= 0)
    throw new AnchorError(
      'BAD_ARGUMENT',
      `--grid ${JSON.stringify(text)}: expected KEY.PATH=V1,V2,..., e.g. --grid settlement.rate=0.05,0.1,0.2`,
    );
  const key = text.slice(0, eq).trim();
  const path = key.split('.');
  checkKeyPath(path, `--grid ${key}`);
  const section = path[0]!;
  if (!(SWEEP_SECTIONS as readonly string[]).includes(section)) {
    throw new AnchorError(
      'BAD_ARGUMENT',
      `--grid ${key}: a sweep can vary only keys an arm overlay may set (sections ${SWEEP_SECTIONS.join(', ')}), not ${JSON.stringify(section)}; ` +
        'every cell of a seed shares the task, policy, reward model, seed and arms (use --set for those)',
    );
  }
  if (path.length < 2)
    throw new AnchorError(
      'BAD_ARGUMENT',
      `--grid ${key}: give a key inside the section, e.g. --grid ${section}.${keysAt(schema, [section])[0] ?? 'KEY'}=...`,
    );
  if (schemaAt(schema, path) === undefined) {
    const parent = path.slice(0, -1);
    const allowed = keysAt(schema, parent);
    throw new AnchorError(
      'BAD_ARGUMENT',
      `--grid ${key}: unknown key${allowed.length ? `; ${parent.join('.')} has: ${allowed.join(', ')}` : ''}`,
    );
  }
  const raws = splitValues(text.slice(eq + 1));
  if (raws.some((r) => r === ''))
    throw new AnchorError(
      'BAD_ARGUMENT',
      `--grid ${key}: empty value in ${JSON.stringify(text.slice(eq + 1))}; expected V1,V2,...`,
    );
  const values = raws.map((r) => overrideValue(schema, path, r, '--grid'));
  const seen = new Set<string>();
  for (const v of values) {
    const k = JSON.stringify(v);
    if (seen.has(k)) throw new AnchorError('BAD_ARGUMENT', `--grid ${key}: value ${k} given twice`);
    seen.add(k);
  }
  return { key, path, values };
}

/** Parse every `--grid` (a key at most once; none: a sweep of the `--reference` arms alone). */
export function parseGrid(texts: readonly string[], schema: z.ZodType = runConfigSchema): GridAxis[] {
  const axes = texts.map((t) => parseGridArg(t, schema));
  for (let i = 0; i < axes.length; i++) {
    for (let j = 0; j < i; j++) {
      const [a, b] = [axes[i]!, axes[j]!];
      const prefix = (p: string[], q: string[]) => p.length <= q.length && p.every((s, k) => s === q[k]);
      if (prefix(a.path, b.path) || prefix(b.path, a.path)) {
        throw new AnchorError(
          'BAD_ARGUMENT',
          a.key === b.key
            ? `--grid ${a.key} given twice; list all its values in one --grid`
            : `--grid ${a.key} and --grid ${b.key} overlap`,
        );
      }
    }
  }
  const last = axes.map((a) => a.path.at(-1)!);
  return axes.map((a, i) => ({ ...a, label: last.filter((l) => l === last[i]).length > 1 ? a.key : last[i]! }));
}

/** A value as it appears in a cell name: scalars as written, collections flattened to [\w.-]. */
export function valueLabel(v: unknown): string {
  // 1e+21 → 1e21: a '+' would otherwise become '-' and read as a negative exponent.
  if (typeof v === 'number') return String(v).replace('e+', 'e');
  if (typeof v === 'boolean' || v === null) return String(v);
  if (typeof v === 'string') return v.replace(/[^\w.-]+/g, '-') || 'empty';
  return (
    JSON.stringify(v)
      .replace(/[^\w.-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'empty'
  );
}

/**
 * The cells: the cartesian product of the axes (first axis outermost; none without axes), each named
 * `<label>-<value>` joined by `_`, e.g. `rate-0.1_strategy-top-proxy`. Two cells that would get
 * the same name (values that differ only in characters a name cannot hold) are BAD_ARGUMENT.
 */
export function gridCells(axes: readonly GridAxis[]): SweepCell[] {
  // No axes, no cells (not one empty cell): the sweep trains its reference arms only.
  if (axes.length === 0) return [];
  let cells: SweepCell[] = [{ name: '', values: {} }];
  for (const a of axes) {
    cells = cells.flatMap((c) =>
      a.values.map((v) => ({
        name: `${c.name ? `${c.name}_` : ''}${a.label}-${valueLabel(v)}`,
        values: { ...c.values, [a.key]: v },
      })),
    );
  }
  const seen = new Map<string, SweepCell>();
  for (const c of cells) {
    const prev = seen.get(c.name);
    if (prev)
      throw new AnchorError(
        'BAD_ARGUMENT',
        `--grid: cells ${JSON.stringify(prev.values)} and ${JSON.stringify(c.values)} would both be named ${c.name}; use values that differ in letters, digits, _ . or -`,
      );
    seen.set(c.name, c);
  }
  return cells;
}

/** The overlay a cell applies: its values as a nested config object. */
function cellOverlay(cell: SweepCell): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(cell.values)) setPath(root, key.split('.'), value, '--grid');
  return root;
}

/** The inline arm a cell becomes: `{name, extends: armBase, overlay}`. */
export function cellArm(cell: SweepCell, armBase: string): ArmDefinition {
  return {
    name: cell.name,
    extends: armBase,
    describe: `${armBase} with ${Object.entries(cell.values)
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(', ')}`,
    overlay: cellOverlay(cell),
  };
}

/** Check `--arm`: the registry arm every cell extends. */
export function checkArmBase(name: string): string {
  if (!ARM_REGISTRY[name])
    throw new AnchorError(
      'BAD_ARGUMENT',
      `--arm ${JSON.stringify(name)}: not a built-in arm; expected one of ${Object.keys(ARM_REGISTRY).join(', ')}`,
    );
  return name;
}

/** Parse `--reference frozen,execution` (or `none`): registry arms trained once per seed. */
export function parseReferences(text: string): string[] {
  const t = text.trim();
  if (t === 'none') return [];
  const names = t.split(',').map((s) => s.trim());
  if (names.some((n) => n === ''))
    throw new AnchorError('BAD_ARGUMENT', `--reference ${JSON.stringify(text)}: expected ARM,ARM,... or none`);
  for (const n of names) {
    if (!ARM_REGISTRY[n])
      throw new AnchorError(
        'BAD_ARGUMENT',
        `--reference ${JSON.stringify(n)}: not a built-in arm; expected one of ${Object.keys(ARM_REGISTRY).join(', ')} (or none)`,
      );
  }
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new AnchorError('BAD_ARGUMENT', `--reference: ${dup} listed twice`);
  return names;
}
