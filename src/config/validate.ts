/**
 * Validation at the edge: parse untrusted config objects with a component's zod schema and
 * turn failures into one {@link AnchorError} whose message names every bad key path, quotes
 * the bad value and says what was expected.
 */
import { z } from 'zod';
import { AnchorError } from '../util/errors.ts';
import { keysAt } from './overrides.ts';

/** Quote a value for an error message, shortened. */
export function quote(value: unknown): string {
  let text: string;
  if (value === undefined) return 'nothing';
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 80 ? text.slice(0, 77) + '...' : text;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

function joinPath(prefix: string, path: readonly PropertyKey[]): string {
  const parts = prefix ? [prefix] : [];
  for (const key of path) parts.push(typeof key === 'number' ? `[${key}]` : String(key));
  return parts.join('.').replace(/\.\[/g, '[') || '(root)';
}

/** One human line per zod issue: `key.path: got VALUE, expected ...`. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], input: unknown, prefix = '', schema?: unknown): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      const parent = valueAt(input, issue.path) as Record<string, unknown> | undefined;
      const allowed = schema ? keysAt(schema, issue.path) : [];
      for (const key of issue.keys) {
        lines.push(
          `${joinPath(prefix, [...issue.path, key])}: unknown key (value ${quote(parent?.[key])})` +
            (allowed.length ? `; expected one of: ${allowed.join(', ')}` : ''),
        );
      }
      continue;
    }
    if (issue.code === 'invalid_union' && 'errors' in issue && issue.errors.length > 0) {
      // Report the branch that got furthest; a union error alone says nothing useful.
      const best = [...issue.errors].sort((a, b) => deepest(b) - deepest(a))[0]!;
      lines.push(...describeIssues(best, input, prefix, schema));
      continue;
    }
    const value = valueAt(input, issue.path);
    lines.push(`${joinPath(prefix, issue.path)}: got ${quote(value)}, ${expectation(issue)}`);
  }
  return lines;
}

function deepest(issues: readonly z.core.$ZodIssue[]): number {
  return Math.max(0, ...issues.map((i) => i.path.length));
}

function expectation(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'too_small':
      return `expected ${issue.origin === 'array' ? 'at least' : issue.inclusive === false ? 'more than' : 'at least'} ${String(issue.minimum)}${issue.origin === 'array' ? ' items' : issue.origin === 'string' ? ' characters' : ''}`;
    case 'too_big':
      return `expected ${issue.inclusive === false ? 'less than' : 'at most'} ${String(issue.maximum)}${issue.origin === 'array' ? ' items' : issue.origin === 'string' ? ' characters' : ''}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return issue.message.replace(/^Invalid input: /, '');
  }
}

/**
 * Parse `input` with `schema`; on failure throw `AnchorError('BAD_CONFIG')` listing each
 * problem as `key.path: got VALUE, expected ...`. `where` names the source (file, flag).
 */
export function parseConfig<S extends z.ZodType>(schema: S, input: unknown, where: string, prefix = ''): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const lines = describeIssues(result.error.issues, input, prefix, schema);
  throw new AnchorError('BAD_CONFIG', `invalid config in ${where}:\n  ${lines.join('\n  ')}`, { issues: lines });
}

/**
 * A name that becomes one directory name (run names, arm names): letters, digits, `_ . -`, and
 * never `.` or `..`, so it can neither escape nor alias its parent directory.
 */
export const dirNameSchema = z
  .string()
  .regex(/^[\w.-]+$/, 'letters, digits, _ . - only (it names a directory)')
  .refine((s) => s !== '.' && s !== '..', 'a name other than "." or ".." (it names a directory)');
