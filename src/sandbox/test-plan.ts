/**
 * How a JavaScript program's separate tests are run in their own realm (sandbox/harness.js): the
 * tests become the body of a strict-mode function whose parameters object carries the names the
 * tests take from the program (the candidate function, constants), and the prompt's own helper
 * definitions (e.g. a `poly()` the tests use to check `find_zero`) are prepended from the trusted
 * prompt, so a completion that redefines a helper after its function body changes only what the
 * candidate sees, never what the tests use.
 *
 * Parsing is done once per distinct (tests, prompt) pair and cached.
 */
import { parse, type Node } from 'acorn';
import { runInNewContext } from 'node:vm';

/** What the worker needs to run one problem's tests. */
interface TestPlan {
  /** Names the tests read from the program realm, as JSON (a string array). */
  namesJson: string;
  names: readonly string[];
  /** Source of `(function (scope) { 'use strict'; ... })`, run in the tests realm. */
  wrapper: string;
  /** Source of the program-realm script that reads those names (null-prototype object). */
  resolver: string;
}

/** A plan, or why the tests cannot be run. */
export type TestPlanResult = { ok: true; plan: TestPlan } | { ok: false; error: string };

const CACHE_LIMIT = 512;
const cache = new Map<string, TestPlanResult>();

/** Globals every realm has (V8 builtins plus what the harness installs): never read from the program. */
const REALM_GLOBALS: ReadonlySet<string> = new Set([
  ...(runInNewContext('Object.getOwnPropertyNames(globalThis)') as string[]),
  'globalThis',
  'require',
  'console',
  'module',
  'exports',
  'arguments',
  'eval',
  'undefined',
  'NaN',
  'Infinity',
  '__anchorScope',
  '__anchorRead',
]);

type AnyNode = Node & Record<string, unknown>;

function isNode(v: unknown): v is AnyNode {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';
}

/** Names bound by a declaration pattern. */
function patternNames(p: AnyNode | null | undefined, into: Set<string>): void {
  if (!p) return;
  switch (p.type) {
    case 'Identifier':
      into.add(p.name as string);
      break;
    case 'ObjectPattern':
      for (const prop of p.properties as AnyNode[])
        patternNames(prop.type === 'RestElement' ? prop : (prop.value as AnyNode), into);
      break;
    case 'ArrayPattern':
      for (const el of p.elements as Array<AnyNode | null>) patternNames(el, into);
      break;
    case 'RestElement':
      patternNames(p.argument as AnyNode, into);
      break;
    case 'AssignmentPattern':
      patternNames(p.left as AnyNode, into);
      break;
    default:
      break;
  }
}

/** Identifiers referenced and names declared anywhere in `root` (scopes are not distinguished). */
function scan(root: AnyNode): { refs: Set<string>; declared: Set<string> } {
  const refs = new Set<string>();
  const declared = new Set<string>();
  const visit = (n: AnyNode, parent: AnyNode | undefined, key: string | undefined): void => {
    switch (n.type) {
      case 'Identifier': {
        const skip =
          (parent?.type === 'MemberExpression' && key === 'property' && !parent.computed) ||
          ((parent?.type === 'Property' || parent?.type === 'MethodDefinition' || parent?.type === 'PropertyDefinition') &&
            key === 'key' &&
            !parent.computed) ||
          ((parent?.type === 'LabeledStatement' || parent?.type === 'BreakStatement' || parent?.type === 'ContinueStatement') &&
            key === 'label') ||
          parent?.type === 'MetaProperty';
        if (!skip) refs.add(n.name as string);
        return;
      }
      case 'VariableDeclarator':
        patternNames(n.id as AnyNode, declared);
        break;
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
        if (n.id) patternNames(n.id as AnyNode, declared);
        for (const p of n.params as AnyNode[]) patternNames(p, declared);
        break;
      case 'ClassDeclaration':
      case 'ClassExpression':
        if (n.id) patternNames(n.id as AnyNode, declared);
        break;
      case 'CatchClause':
        patternNames(n.param as AnyNode | null, declared);
        break;
      default:
        break;
    }
    for (const k of Object.keys(n)) {
      const v = n[k];
      if (Array.isArray(v)) {
        for (const c of v) if (isNode(c)) visit(c, n, k);
      } else if (isNode(v) && k !== 'loc') visit(v, n, k);
    }
  };
  visit(root, undefined, undefined);
  return { refs, declared };
}

function parseScript(src: string): AnyNode | undefined {
  try {
    return parse(src, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true }) as unknown as AnyNode;
  } catch {
    return undefined;
  }
}

/**
 * The prompt's top-level helper declarations the tests may use, as source: every top-level
 * function, class or variable declaration except the last function (the one the completion
 * writes). The prompt normally ends inside that function, so it is closed before parsing.
 */
function promptHelpers(
  prompt: string,
  testsDeclared: ReadonlySet<string>,
  testsRefs: ReadonlySet<string>,
): { source: string; names: Set<string> } {
  const none = { source: '', names: new Set<string>() };
  const ast = parseScript(prompt) ?? parseScript(`${prompt}\n}`);
  if (!ast) return none;
  const body = (ast.body as AnyNode[]).filter(
    (s) => s.type === 'FunctionDeclaration' || s.type === 'ClassDeclaration' || s.type === 'VariableDeclaration',
  );
  let lastFn = -1;
  for (let i = 0; i < body.length; i++) if (body[i]!.type === 'FunctionDeclaration') lastFn = i;
  const parts: string[] = [];
  const names = new Set<string>();
  body.forEach((stmt, i) => {
    if (i === lastFn) return;
    const declared = new Set<string>();
    if (stmt.type === 'VariableDeclaration')
      for (const d of stmt.declarations as AnyNode[]) patternNames(d.id as AnyNode, declared);
    else patternNames(stmt.id as AnyNode, declared);
    const used = [...declared].some((n) => testsRefs.has(n));
    const clash = [...declared].some((n) => testsDeclared.has(n));
    if (!used || clash) return;
    parts.push(prompt.slice(stmt.start, Math.min(stmt.end, prompt.length)));
    for (const n of declared) names.add(n);
  });
  return { source: parts.join('\n'), names };
}

/** Build (or fetch from the cache) the plan for one problem's tests. */
export function planTests(tests: string, prompt: string | undefined): TestPlanResult {
  const key = `${prompt?.length ?? -1}:${prompt ?? ''}\u0000${tests}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const result = buildPlan(tests, prompt);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, result);
  return result;
}

function buildPlan(tests: string, prompt: string | undefined): TestPlanResult {
  const ast = parseScript(tests);
  if (!ast) {
    try {
      parse(tests, { ecmaVersion: 'latest', sourceType: 'script' });
    } catch (e) {
      return { ok: false, error: `the tests do not parse: ${e instanceof Error ? e.message : String(e)}` };
    }
  }
  const { refs, declared } = scan(ast!);
  const helpers = prompt ? promptHelpers(prompt, declared, refs) : { source: '', names: new Set<string>() };
  if (helpers.source) {
    const h = parseScript(helpers.source);
    if (h) for (const n of scan(h).refs) refs.add(n);
  }
  const names = [...refs].filter((n) => !declared.has(n) && !helpers.names.has(n) && !REALM_GLOBALS.has(n)).sort();

  // The last top-level expression statement's value is the tests' completion (an async test
  // returns its promise there), so it is returned from the function.
  const stmts = ast!.body as AnyNode[];
  let body = tests;
  const last = stmts[stmts.length - 1];
  if (last && last.type === 'ExpressionStatement' && !(last as { directive?: string }).directive) {
    const expr = last.expression as AnyNode;
    body = `${tests.slice(0, expr.start)}return (${tests.slice(expr.start, expr.end)});${tests.slice(last.end)}`;
  }
  const binding = names.length ? `const { ${names.join(', ')} } = __anchorScope;\n` : '';
  const wrapper = `(function (__anchorScope) {\n'use strict';\n${binding}${helpers.source}\n${body}\n})`;
  const reads = names.map((n) => `try { __anchorRead[${JSON.stringify(n)}] = ${n}; } catch {}`).join('\n');
  const resolver = `(function () {\n'use strict';\nconst __anchorRead = { __proto__: null };\n${reads}\nreturn __anchorRead;\n})()`;
  return { ok: true, plan: { names, namesJson: JSON.stringify(names), wrapper, resolver } };
}
