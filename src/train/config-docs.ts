/**
 * The config reference, generated from the zod schemas (each field's `.describe()` text, type,
 * bounds and default): docs/config.md and the JSON Schema files the shipped configs name in
 * their `# yaml-language-server: $schema=...` line, so an editor validates and completes them.
 * `npm run docs:config` writes the files; test/train/config-docs.test.ts checks they are current.
 */
import { z } from 'zod';
import { pretrainConfigSchema } from './pretrain/config.ts';
import { runConfigSchema } from './run-config.ts';

/** A documented config file kind: its schema, the JSON Schema file it points to, its docs heading. */
interface ConfigKind {
  title: string;
  /** Repository path of the generated JSON Schema. */
  schemaFile: string;
  /** What the configs of this kind are and where they live. */
  about: string;
  schema: z.ZodType;
}

/** The config kinds with a generated reference. */
export const CONFIG_KINDS: readonly ConfigKind[] = [
  {
    title: 'Run config',
    schemaFile: 'configs/run-config.schema.json',
    about:
      'A multi-arm GRPO run: `anchor-rl train|sweep|config show --config FILE` (configs/default.yaml, smoke.yaml, ...). Section schemas are owned by their components and composed in src/train/run-config.ts.',
    schema: runConfigSchema,
  },
  {
    title: 'Pretraining config',
    schemaFile: 'configs/pretrain.schema.json',
    about:
      'Supervised pretraining of the base policy: `anchor-rl pretrain --config configs/pretrain.yaml` (schema: src/train/pretrain/config.ts).',
    schema: pretrainConfigSchema,
  },
];

/** The JSON Schema node type as z.toJSONSchema emits it (the subset read here). */
interface Node {
  type?: string | string[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Node>;
  items?: Node;
  anyOf?: Node[];
  oneOf?: Node[];
  additionalProperties?: Node | boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  pattern?: string;
  format?: string;
}

/** The JSON Schema of a config kind: the input side (every defaulted key optional), with title and description. */
export function configJsonSchema(kind: ConfigKind): Record<string, unknown> {
  // `io: 'input'`: a YAML file is the schema's input, so defaulted keys are optional there.
  const schema = z.toJSONSchema(kind.schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...schema, title: `anchor-rl ${kind.title.toLowerCase()}`, description: kind.about };
}

/** One reference row. */
interface Row {
  key: string;
  type: string;
  default: string;
  description: string;
}

const alternativesOf = (n: Node): Node[] | undefined => n.anyOf ?? n.oneOf;

function typeOf(n: Node): string {
  if (n.const !== undefined) return JSON.stringify(n.const);
  if (n.enum) return n.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  const alts = alternativesOf(n);
  if (alts) return alts.map(typeOf).join(' \\| ');
  if (n.properties?.kind?.const !== undefined) return `{kind: ${JSON.stringify(n.properties.kind.const)}}`;
  if (n.type === 'array') {
    const item = n.items ? typeOf(n.items) : 'any';
    return n.items && alternativesOf(n.items) ? `(${item})[]` : `${item}[]`;
  }
  if (n.type === 'object' && !n.properties) return 'mapping';
  if (Array.isArray(n.type)) return n.type.join(' \\| ');
  return n.type ?? 'any';
}

/** Bounds and patterns, e.g. `integer ≥ 1, ≤ 256`. */
function constraintsOf(n: Node): string {
  const c: string[] = [];
  // z.int() bounds itself to the safe integers; that is noise in a reference.
  if (n.minimum !== undefined && n.minimum !== Number.MIN_SAFE_INTEGER) c.push(`≥ ${n.minimum}`);
  if (n.exclusiveMinimum !== undefined) c.push(`> ${n.exclusiveMinimum}`);
  if (n.maximum !== undefined && n.maximum !== Number.MAX_SAFE_INTEGER) c.push(`≤ ${n.maximum}`);
  if (n.exclusiveMaximum !== undefined) c.push(`< ${n.exclusiveMaximum}`);
  if (n.minItems !== undefined) c.push(`≥ ${n.minItems} items`);
  if (n.maxItems !== undefined) c.push(`≤ ${n.maxItems} items`);
  if (n.minLength) c.push('non-empty');
  if (n.format) c.push(n.format);
  return c.join(', ');
}

function defaultOf(n: Node): string {
  if (n.default === undefined) return '';
  // Sections default to `{}` (every key of theirs defaulted): their rows carry the defaults.
  if (n.default !== null && typeof n.default === 'object' && !Array.isArray(n.default) && Object.keys(n.default).length === 0)
    return '';
  return '`' + JSON.stringify(n.default).replace(/\|/g, '\\|') + '`';
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Rows for `n` at `key` and everything under it; undocumented keys are collected in `missing`. */
function rowsOf(n: Node, key: string, rows: Row[], missing: string[], note = ''): void {
  const objects = alternativesOf(n)?.filter((a) => a.properties);
  const isSection = n.properties !== undefined || (objects !== undefined && objects.length > 0);
  if (key) {
    if (!n.description) missing.push(key);
    const bounds = isSection ? '' : constraintsOf(n);
    rows.push({
      key: '`' + key + '`',
      type: (isSection ? 'section' : typeOf(n)) + (bounds ? ` (${bounds})` : ''),
      default: isSection ? '' : defaultOf(n),
      description: note + cell(n.description ?? '(undocumented)'),
    });
  }
  for (const [k, child] of Object.entries(n.properties ?? {})) rowsOf(child, key ? `${key}.${k}` : k, rows, missing, note);
  // A union of object forms (task, judge, arms, gate invariants): each form's keys, marked by its `kind` or first key.
  for (const form of objects ?? []) {
    const tag = form.properties?.kind?.const;
    const label = tag !== undefined ? `kind: ${String(tag)}` : `form with \`${Object.keys(form.properties!)[0]}\``;
    for (const [k, child] of Object.entries(form.properties!)) {
      if (k === 'kind' && tag !== undefined) continue;
      rowsOf(child, `${key}.${k}`, rows, missing, `[${label}] `);
    }
  }
  if (n.type === 'array' && n.items) {
    const itemForms = alternativesOf(n.items)?.filter((a) => a.properties) ?? (n.items.properties ? [n.items] : []);
    for (const form of itemForms) {
      const tag = form.properties?.kind?.const;
      const label = tag !== undefined ? `kind: ${String(tag)}` : 'entry';
      for (const [k, child] of Object.entries(form.properties!)) {
        if (k === 'kind' && tag !== undefined) continue;
        rowsOf(child, `${key}[].${k}`, rows, missing, `[${label}] `);
      }
    }
  }
}

/** The reference rows of a config kind and the keys that lack a description. */
function configRows(kind: ConfigKind): { rows: Row[]; missing: string[] } {
  const rows: Row[] = [];
  const missing: string[] = [];
  rowsOf(configJsonSchema(kind) as Node, '', rows, missing);
  return { rows, missing };
}

/** docs/config.md. */
function renderConfigDocs(): string {
  const out = [
    '# Config reference',
    '',
    '<!-- Generated by `npm run docs:config` from the zod schemas; edit the `.describe()` texts there, not this file. -->',
    '',
    'Every key of the YAML configs, its type and bounds, its default, and what it does. The text comes',
    "from each schema's `.describe()`; the same schemas are written as JSON Schema files that the",
    'shipped configs name in their first line (`# yaml-language-server: $schema=...`), so an editor with',
    'the YAML language server validates and completes a config. Keys are dotted paths; `[kind: X]` marks',
    'a key of one form of a union (e.g. `judge.kind`), `[]` an entry of a list. Defaults of `{}` sections',
    "are their keys' defaults. Every config is strict: an unknown key is an error naming it.",
  ];
  for (const kind of CONFIG_KINDS) {
    out.push('', `## ${kind.title}`, '', `${kind.about} JSON Schema: \`${kind.schemaFile}\`.`, '');
    out.push('| Key | Type | Default | Description |', '| --- | --- | --- | --- |');
    for (const r of configRows(kind).rows) out.push(`| ${r.key} | ${r.type} | ${r.default} | ${r.description} |`);
  }
  return out.join('\n') + '\n';
}

/** Every generated file: repository path → content. */
export function generatedConfigFiles(): Map<string, string> {
  const files = new Map<string, string>();
  files.set('docs/config.md', renderConfigDocs());
  for (const kind of CONFIG_KINDS) files.set(kind.schemaFile, JSON.stringify(configJsonSchema(kind), null, 2) + '\n');
  return files;
}

/** Keys without a description, per config kind (`title: key`). */
export function undocumentedConfigKeys(): string[] {
  return CONFIG_KINDS.flatMap((kind) => configRows(kind).missing.map((key) => `${kind.title}: ${key}`));
}
