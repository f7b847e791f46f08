/**
 * How a JavaScript program's separate tests are run in their own realm (sandbox/harness.js): the
 * tests become the body of a strict-mode function whose parameters object carries the names the
 * tests take from the program (the entry points: names that neither the tests, the tests realm's
 * copy of the prompt nor the realm's globals define). The tests realm evaluates its own copy of the
 * trusted prompt (everything but the entry point the completion writes), so a completion that
 * rebinds a helper, constant or class changes only what the candidate sees. The tests' async
 * functions and awaits are instrumented so the harness observes their completion.
 *
 * Parsing is done once per distinct (tests, prompt) pair and cached.
 */
import { parse, type Node } from 'acorn';
import { runInNewContext } from 'node:vm';
import { HOST_GLOBALS, TIMER_GLOBALS } from './host-globals.ts';

/** What the worker needs to run one problem's tests. */
export interface TestPlan {
  /** Names the tests read from the program realm, as JSON (a string array). */
  namesJson: string;
  names: readonly string[];
  /** Source of `(function (scope) { 'use strict'; ... })`, run in the tests realm. */
  wrapper: string;
  /** Source of the program-realm script that reads those names (null-prototype object). */
  resolver: string;
  /** The tests (or the prompt's copy) mention NaN, so a NaN answer can be what they expect. */
  nanExpected: boolean;
  /**
   * The tests evaluate text at run time (`eval`, `Function`): text an answer can supply, which
   * could change the tests realm for the programs after it, so the worker replaces that realm
   * after each such run.
   */
  evaluatesText: boolean;
  /**
   * Strict verdict: the rewrite with skip scopes gave text that does not parse, so the tests run
   * without them (every other rule kept). Never expected; set so a collision of edits is visible
   * (the adversarial suite asserts no case of its own plans this way).
   */
  withoutSkipScopes?: true;
}

/** A plan, or why the tests cannot be run. */
export type TestPlanResult = { ok: true; plan: TestPlan } | { ok: false; error: string };

const CACHE_LIMIT = 512;
const cache = new Map<string, TestPlanResult>();

/** Node's host globals each realm gets from sandbox/node-globals.js. */
const NODE_GLOBALS = [...HOST_GLOBALS, ...TIMER_GLOBALS];

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
  '__anchorHooks',
  // Node's host globals: every realm has its own (sandbox/node-globals.js), so the tests never read
  // them from the program.
  ...NODE_GLOBALS,
]);

type AnyNode = Node & Record<string, unknown>;

function isNode(v: unknown): v is AnyNode {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';
}

/** Call `fn` on each child node of `n` with the key it sits under. */
function eachChild(n: AnyNode, fn: (child: AnyNode, key: string) => void): void {
  for (const k of Object.keys(n)) {
    const v = n[k];
    if (Array.isArray(v)) {
      for (const c of v) if (isNode(c)) fn(c, k);
    } else if (isNode(v) && k !== 'loc') fn(v, k);
  }
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

/**
 * Identifiers referenced and names declared anywhere in `root` (scopes are not distinguished), and
 * whether it calls `eval` or `Function` (see {@link runtimeCode}).
 */
function scan(root: AnyNode): { refs: Set<string>; declared: Set<string>; valued: Set<string>; evaluates: boolean } {
  const refs = new Set<string>();
  const declared = new Set<string>();
  // Names with a reference other than as what a call or `new` calls (`X(…)`, `new X`, `X.m(…)`):
  // their value is read, tested for truth or probed with `typeof`.
  const valued = new Set<string>();
  const callees = new Set<AnyNode>();
  let evaluates = false;
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
        if (!skip) {
          refs.add(n.name as string);
          if (!callees.has(n)) valued.add(n.name as string);
        }
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
      case 'CallExpression':
      case 'NewExpression': {
        const callee = n.callee as AnyNode;
        if ((n.type === 'CallExpression' && isEvalCallee(callee)) || (callee.type === 'Identifier' && callee.name === 'Function'))
          evaluates = true;
        if (callee.type === 'Identifier') callees.add(callee);
        else if (callee.type === 'MemberExpression' && (callee.object as AnyNode).type === 'Identifier')
          callees.add(callee.object as AnyNode);
        break;
      }
      default:
        break;
    }
    eachChild(n, (c, k) => visit(c, n, k));
  };
  visit(root, undefined, undefined);
  return { refs, declared, valued, evaluates };
}

function parseScript(src: string): AnyNode | undefined {
  try {
    return parse(src, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true }) as unknown as AnyNode;
  } catch {
    return undefined;
  }
}

/**
 * The tests realm's own copy of the prompt: every top-level statement of the trusted prompt except
 * the last function declaration (the entry point the completion writes), so helpers, constants and
 * classes — and what they use in turn — are the tests realm's own. A declaration whose name the
 * tests declare themselves is left out (the tests' wins). The prompt normally ends inside the entry
 * point, so it is closed before parsing. `classes` are the class declarations among them.
 */
function promptCopy(
  prompt: string,
  testsDeclared: ReadonlySet<string>,
): { source: string; names: Set<string>; classes: string[]; entry: Set<string> } {
  const none = { source: '', names: new Set<string>(), classes: [], entry: new Set<string>() };
  if (prompt === '') return none;
  // At most one of the two forms parses (a complete script followed by `}` never does), so the
  // order only saves work: a prompt ending in `{` (inside its entry point) is tried closed first.
  const closed = `${prompt}\n}`;
  const ast = prompt.trimEnd().endsWith('{')
    ? (parseScript(closed) ?? parseScript(prompt))
    : (parseScript(prompt) ?? parseScript(closed));
  if (!ast) return none;
  const body = ast.body as AnyNode[];
  // The entry point: the statement the completion continues, whatever its kind (`class Stack {`,
  // `const f = (xs) => {`: it only closes with the completion), else the last function declaration.
  let entryAt = -1;
  const tail = body[body.length - 1];
  if (tail && tail.end > prompt.length) entryAt = body.length - 1;
  else for (let i = 0; i < body.length; i++) if (body[i]!.type === 'FunctionDeclaration') entryAt = i;
  const parts: string[] = [];
  const names = new Set<string>();
  const classes: string[] = [];
  const entry = new Set<string>();
  body.forEach((stmt, i) => {
    const declared = new Set<string>();
    if (stmt.type === 'VariableDeclaration')
      for (const d of stmt.declarations as AnyNode[]) patternNames(d.id as AnyNode, declared);
    else if (stmt.type === 'FunctionDeclaration' || stmt.type === 'ClassDeclaration') patternNames(stmt.id as AnyNode, declared);
    if (i === entryAt) {
      for (const n of declared) entry.add(n);
      return;
    }
    if ([...declared].some((n) => testsDeclared.has(n))) return;
    parts.push(prompt.slice(stmt.start, Math.min(stmt.end, prompt.length)));
    for (const n of declared) names.add(n);
    if (stmt.type === 'ClassDeclaration') classes.push((stmt.id as AnyNode).name as string);
  });
  return { source: parts.join('\n'), names, classes, entry };
}

/** Strict verdict: the tests' ordering comparisons are guarded against NaN / infinities (bits). */
const GUARD_NAN = 1;
const GUARD_INF = 2;
const ORDERING = ['<', '<=', '>', '>='];
// The bitwise operators (`~` is code 6) read NaN and the infinities as 0 (ToInt32), so
// `(x - e) * 1e9 | 0` is 0 for an answer that is NaN: guarded like the orderings.
const BITWISE = ['|', '&', '^', '<<', '>>', '>>>'];
// The guarded binary operators: each becomes `__anchorHooks.<hook>(a, b, k)`, k = the operator's
// index + stride × the guard bits (sandbox/harness.js reads k & (stride - 1) and k / stride).
const GUARDED_BINARY = [
  { ops: ORDERING, hook: 'cmp', stride: 4 },
  { ops: BITWISE, hook: 'bit', stride: 8 },
];

/** What a text mentions of the non-finite numbers (whole words, as the language spells them). */
interface Mentions {
  /** `NaN`, `NaNs` or `isNaN`. */
  nan: boolean;
  /** `Infinity`, `isFinite`, `POSITIVE_INFINITY` or `NEGATIVE_INFINITY`. */
  inf: boolean;
}

// A mention is a whole word, case-sensitive, where a word is a run of identifier characters
// (letters, digits, `_`, `$`; so `.` separates: `Number.isNaN`, `Number.POSITIVE_INFINITY`
// mention). A substring rule let any tests or prompt holding `BaNaNa`, `NaNo` or `InfinityStone`
// switch the guard off.
const NAN_WORDS: ReadonlySet<string> = new Set(['NaN', 'NaNs', 'isNaN']);
const INF_WORDS: ReadonlySet<string> = new Set(['Infinity', 'isFinite', 'POSITIVE_INFINITY', 'NEGATIVE_INFINITY']);

/**
 * Strict verdict: whether the trusted texts of a problem (its tests, its prompt) mention NaN or an
 * infinity, so an answer can be expected to be one: then the tests' comparisons keep the
 * language's semantics for it (see {@link instrument}) and, for NaN, an answer holding it is not
 * refused on its way in (sandbox/snapshot.js).
 */
function mentionsOf(...texts: readonly string[]): Mentions {
  const m = { nan: false, inf: false };
  for (const t of texts)
    for (const [w] of t.matchAll(/[\w$]+/g)) {
      if (NAN_WORDS.has(w)) m.nan = true;
      else if (INF_WORDS.has(w)) m.inf = true;
    }
  return m;
}

/**
 * `src` with only its ordering comparisons guarded (guard bits `guard`; see {@link instrument}),
 * or `src` when it does not parse: the tests realm's copy of the prompt, and the text the tests
 * evaluate at run time (`eval`, `new Function`; sandbox/harness.js asks for it through the worker).
 */
export function guardSource(src: string, guard: number): string {
  const ast = parseScript(src);
  return ast ? instrument(src, ast, { guard }) : src;
}

/** The modules whose functions are the tests' checks (as `require` serves them). */
const ASSERT_MODULES: ReadonlySet<string> = new Set(['assert', 'node:assert', 'assert/strict', 'node:assert/strict']);

/** `require('assert')`, `require('node:assert').strict` and the like. */
function isAssertModule(e: AnyNode | null | undefined): boolean {
  if (!e) return false;
  if (e.type === 'MemberExpression') return isAssertModule(e.object as AnyNode);
  if (e.type !== 'CallExpression') return false;
  const callee = e.callee as AnyNode;
  const arg = (e.arguments as AnyNode[])[0];
  return (
    callee.type === 'Identifier' &&
    callee.name === 'require' &&
    arg?.type === 'Literal' &&
    ASSERT_MODULES.has(arg.value as string)
  );
}

/** The property name of member expression `m` (`eq` for `c.eq` and `c['eq']`), or undefined when it is computed otherwise. */
function memberKey(m: AnyNode): string | undefined {
  const prop = m.property as AnyNode;
  if (!m.computed) return prop.type === 'Identifier' ? (prop.name as string) : undefined;
  return prop.type === 'Literal' && typeof prop.value === 'string' ? prop.value : undefined;
}

/** The identifier a callee hangs from (`assert` for `assert.strict.equal`), or undefined. */
function calleeRoot(callee: AnyNode): string | undefined {
  let c = callee;
  while (c.type === 'MemberExpression') c = c.object as AnyNode;
  return c.type === 'Identifier' ? (c.name as string) : undefined;
}

/**
 * The names whose calls are the tests' checks: the assert module's bindings (`assert`, what the
 * tests take from `require('assert')`) and the tests' own helpers that call a check (`__check`,
 * `test_humaneval`), found to a fixpoint. Scope-blind, as {@link scan}.
 */
function checkNames(ast: AnyNode): {
  names: Set<string>;
  asserts: Set<string>;
  methods: Set<string>;
  aliases: Set<string>;
  aliasMethods: ReadonlyMap<string, ReadonlySet<string>>;
  bodiesOf: (name: string | undefined, key: string | undefined) => AnyNode[];
} {
  const names = new Set<string>(['assert']);
  const bodies = new Map<string, AnyNode>();
  const methodBodies = new Map<string, AnyNode[]>();
  const declarators: AnyNode[] = [];
  // Where a value is bound to names other than by a declaration: `x = v`, `for (const x of v)`,
  // a default `(check = checkEq) =>`, and the tests' own calls (their arguments bind the callee's
  // parameters).
  const binds: Array<[AnyNode, AnyNode]> = [];
  const calls: AnyNode[] = [];
  const isFn = (v: AnyNode | undefined): v is AnyNode =>
    v !== undefined && v !== null && (v.type === 'FunctionExpression' || v.type === 'ArrowFunctionExpression');
  const visit = (n: AnyNode): void => {
    if (n.type === 'VariableDeclarator' && isAssertModule(n.init as AnyNode)) patternNames(n.id as AnyNode, names);
    else if (n.type === 'VariableDeclarator' && n.init) declarators.push(n);
    if (n.type === 'AssignmentExpression' && n.operator === '=') binds.push([n.left as AnyNode, n.right as AnyNode]);
    else if (n.type === 'AssignmentPattern') binds.push([n.left as AnyNode, n.right as AnyNode]);
    else if (n.type === 'ForOfStatement' || n.type === 'ForInStatement') {
      const left = n.left as AnyNode;
      const target = left.type === 'VariableDeclaration' ? ((left.declarations as AnyNode[])[0]!.id as AnyNode) : left;
      binds.push([target, n.right as AnyNode]);
    } else if (n.type === 'CallExpression') calls.push(n);
    if (n.type === 'FunctionDeclaration' && n.id) bodies.set((n.id as AnyNode).name as string, n);
    const init = n.init as AnyNode | undefined;
    if (n.type === 'VariableDeclarator' && (n.id as AnyNode).type === 'Identifier' && isFn(init))
      bodies.set((n.id as AnyNode).name as string, init);
    // Methods of the tests' objects and classes (`{ eq(a, b) { … } }`, `static eq = (a, b) => …`):
    // by name, as their calls are `obj.eq(…)`.
    const key = n.key as AnyNode | undefined;
    const value = n.value as AnyNode | undefined;
    if (
      (n.type === 'MethodDefinition' || n.type === 'Property' || n.type === 'PropertyDefinition') &&
      !n.computed &&
      key?.type === 'Identifier' &&
      isFn(value)
    ) {
      const list = methodBodies.get(key.name as string) ?? [];
      list.push(value);
      methodBodies.set(key.name as string, list);
    }
    eachChild(n, visit);
  };
  visit(ast);
  // Aliases of the assert module or of its functions (`const eq = assert.strictEqual`,
  // `const { strictEqual: eq } = assert`, `assert.deepEqual.bind(assert)`), to a fixpoint: their
  // calls are the module's checks (a loop of `eq(…)` over an empty answer is a check never reached).
  const fromAssert = (e: AnyNode | undefined): boolean => {
    if (!e) return false;
    if (e.type === 'Identifier') return names.has(e.name as string);
    if (e.type === 'MemberExpression') return fromAssert(e.object as AnyNode);
    if (e.type === 'CallExpression') {
      const callee = e.callee as AnyNode;
      return (
        callee.type === 'MemberExpression' &&
        !callee.computed &&
        (callee.property as AnyNode).name === 'bind' &&
        fromAssert(callee.object as AnyNode)
      );
    }
    return false;
  };
  for (let grew = true; grew; ) {
    grew = false;
    for (const d of declarators) {
      if (!fromAssert(d.init as AnyNode)) continue;
      const before = names.size;
      patternNames(d.id as AnyNode, names);
      grew ||= names.size > before;
    }
  }
  // Helpers reached by another name: `const eq = checkEq`, `{ eq: checkEq }`, `[checkEq]`,
  // `checkEq.bind(null)`, a checker handed to a tests function or method as an argument
  // (`run(checkEq)` → `check(got, w)` in `run`). Their calls are checks (an error skipping them is
  // seen), found to a fixpoint with the helpers; scope-blind and over-approximating, as a checker
  // missed lets an error skip its checks unseen. Not required to be reached (`aliases`): a runner
  // handed the test functions, calling the next one from its `catch`, is not a check an honest run
  // must reach.
  const aliases = new Set<string>();
  const params = new Map<string, AnyNode[][]>();
  const addParams = (name: string, fn: AnyNode) => {
    const list = params.get(name) ?? [];
    list.push(fn.params as AnyNode[]);
    params.set(name, list);
  };
  for (const [name, fn] of bodies) addParams(name, fn);
  for (const [name, fns] of methodBodies) for (const fn of fns) addParams(name, fn);
  // What each alias (a name, or a member key `this.check`) may hold: the checking names its values mention.
  const aliasTargets = new Map<string, Set<string>>();
  const aliasMethods = new Map<string, Set<string>>();
  const holds = (e: AnyNode | null | undefined, into: Set<string>): boolean => {
    if (!e) return false;
    switch (e.type) {
      case 'Identifier':
        if (!names.has(e.name as string)) return false;
        into.add(e.name as string);
        return true;
      case 'MemberExpression':
        return holds(e.object as AnyNode, into);
      case 'ObjectExpression':
        return (e.properties as AnyNode[])
          .map((q) => holds((q.type === 'SpreadElement' ? q.argument : q.value) as AnyNode, into))
          .includes(true);
      case 'ArrayExpression':
        return (e.elements as Array<AnyNode | null>)
          .map((x) => holds(x?.type === 'SpreadElement' ? (x.argument as AnyNode) : x, into))
          .includes(true);
      case 'ConditionalExpression':
        return [holds(e.consequent as AnyNode, into), holds(e.alternate as AnyNode, into)].includes(true);
      case 'LogicalExpression':
        return [holds(e.left as AnyNode, into), holds(e.right as AnyNode, into)].includes(true);
      case 'SequenceExpression':
        return holds((e.expressions as AnyNode[]).at(-1), into);
      case 'CallExpression': {
        // What a call makes of a value holding a checker may hold it too: `checkEq.bind(null)`,
        // `Object.values(CHECKS)`, `CH.slice(1)`.
        const callee = e.callee as AnyNode;
        const parts = [
          callee.type === 'MemberExpression' ? (callee.object as AnyNode) : undefined,
          ...(e.arguments as AnyNode[]),
        ];
        return parts.map((x) => holds(x?.type === 'SpreadElement' ? (x.argument as AnyNode) : x, into)).includes(true);
      }
      default:
        return false;
    }
  };
  const grows = (table: Map<string, Set<string>>, key: string, from: Set<string>): boolean => {
    const have = table.get(key) ?? new Set<string>();
    table.set(key, have);
    const before = have.size;
    for (const x of from) have.add(x);
    return have.size > before;
  };
  const alias = (target: AnyNode | null | undefined, from: Set<string>): boolean => {
    const into = new Set<string>();
    let grew = false;
    if (target?.type === 'MemberExpression') {
      const root = calleeRoot(target);
      if (root !== undefined) into.add(root);
      // `this.check = checkEq` → `this.check(…)`.
      const key = memberKey(target);
      if (key !== undefined) grew = grows(aliasMethods, key, from) || grew;
    } else patternNames(target, into);
    for (const name of into) {
      if (names.has(name) && !aliases.has(name)) continue;
      names.add(name);
      aliases.add(name);
      grew = grows(aliasTargets, name, from) || grew;
    }
    return grew;
  };
  const aliasPass = (): boolean => {
    let grew = false;
    const from = new Set<string>();
    const bind = (target: AnyNode | null | undefined, value: AnyNode | null | undefined) => {
      from.clear();
      if (!isFn(value as AnyNode) && holds(value, from)) grew = alias(target, from) || grew;
    };
    for (const d of declarators) bind(d.id as AnyNode, d.init as AnyNode);
    for (const [target, value] of binds) bind(target, value);
    for (const c of calls) {
      const callee = c.callee as AnyNode;
      // A callback handed to a method of a value holding a checker gets it as an argument
      // (`Object.values(CHECKS).forEach((c) => c(got, w))`): its parameters hold what it holds.
      from.clear();
      if (callee.type === 'MemberExpression' && holds(callee.object as AnyNode, from)) {
        const held = new Set(from);
        for (const arg of c.arguments as AnyNode[])
          if (isFn(arg)) for (const param of arg.params as AnyNode[]) grew = alias(param, held) || grew;
      }
      const name =
        callee.type === 'Identifier'
          ? (callee.name as string)
          : callee.type === 'MemberExpression'
            ? memberKey(callee)
            : undefined;
      const lists = name === undefined ? undefined : params.get(name);
      if (!lists) continue;
      (c.arguments as AnyNode[]).forEach((arg, i) => {
        for (const ps of lists) bind(ps[i], arg);
      });
    }
    return grew;
  };
  const methods = new Set<string>();
  const callsCheck = (n: AnyNode): boolean => {
    if (n.type === 'CallExpression') {
      const callee = n.callee as AnyNode;
      const root = calleeRoot(callee);
      if (root !== undefined && names.has(root)) return true;
      const key = callee.type === 'MemberExpression' ? memberKey(callee) : undefined;
      if (key !== undefined && (methods.has(key) || aliasMethods.has(key))) return true;
    }
    let found = false;
    eachChild(n, (c) => {
      found ||= callsCheck(c);
    });
    return found;
  };
  // The assert module's own bindings: their calls always record an outcome (the helpers' do not).
  const asserts = new Set(names);
  for (let grew = true; grew; ) {
    grew = aliasPass();
    for (const [name, fn] of bodies)
      if (!names.has(name) && callsCheck(fn)) {
        names.add(name);
        grew = true;
      }
    for (const [name, fns] of methodBodies)
      if (!methods.has(name) && fns.some(callsCheck)) {
        methods.add(name);
        grew = true;
      }
  }
  // The functions a checking name or member key may call: through aliases, to their helpers' bodies.
  const bodiesOf = (name: string | undefined, key: string | undefined): AnyNode[] => {
    const out = new Set<AnyNode>();
    const seen = new Set<string>();
    const walk = (n: string) => {
      if (seen.has(n)) return;
      seen.add(n);
      const fn = bodies.get(n);
      if (fn) out.add(fn);
      for (const m of aliasTargets.get(n) ?? []) walk(m);
    };
    if (name !== undefined) walk(name);
    if (key !== undefined) {
      for (const fn of methods.has(key) ? (methodBodies.get(key) ?? []) : []) out.add(fn);
      for (const m of aliasMethods.get(key) ?? []) walk(m);
    }
    return [...out];
  };
  return { names, asserts, methods, aliases, aliasMethods, bodiesOf };
}

/** A check that an honest run never reaches: `assert.fail(…)`, `assert(false)`, `assert.ok(0)`. */
function isFailureMarker(call: AnyNode): boolean {
  const callee = call.callee as AnyNode;
  if (callee.type === 'MemberExpression' && !callee.computed && (callee.property as AnyNode).name === 'fail') return true;
  const first = (call.arguments as AnyNode[])[0];
  if (!first) return false;
  if (first.type === 'Identifier') return first.name === 'undefined';
  return first.type === 'Literal' && !first.value && !(first as { regex?: unknown }).regex;
}

/** Where operator `op` of binary expression `n` starts (after the left operand, its closing parentheses and comments). */
function operatorAt(src: string, n: AnyNode, op: string): number {
  return tokenAt(src, (n.left as AnyNode).end, (n.right as AnyNode).start, op);
}

/** Where token `op` first starts in `src` between `from` and `end`, outside comments; -1 if it does not. */
function tokenAt(src: string, from: number, end: number, op: string): number {
  let i = from;
  while (i < end) {
    if (src.startsWith('/*', i)) i = src.indexOf('*/', i + 2) + 2;
    else if (src.startsWith('//', i)) i = src.indexOf('\n', i);
    else if (src.startsWith(op, i)) return i;
    else i++;
  }
  return -1;
}

/**
 * The tests made observable (sandbox/harness.js). Their promises: every async function or arrow
 * of the tests is wrapped so each call's promise is tracked, and the operand of every `await` is
 * marked handled. An async method (object or class member, static, private, computed key)
 * becomes a plain method whose body is an async arrow called at once and tracked:
 * `async m(a) { B }` → `m(...args) { return track((async (a) => { B })(...args)); }` — the arrow
 * keeps the method's `this`, `super`, `arguments` and `new.target`, and evaluates the parameters
 * inside the async function, so a throwing default still rejects. Async generators are not
 * wrapped (their `next()` promises are the engine's own).
 *
 * With `strict` (the strict verdict, separate tests): each call of a check — the assert module
 * or a helper of the tests that calls it — marks itself reached (`(reach(k), assert).equal(…)`;
 * `checks` collects their lines), so a check the run never reached is known; failure markers
 * (`assert.fail`) are left out. And when `strict.guard` is set, each ordering comparison
 * `a < b` becomes `cmp(a, b, op + 4 × guard)`, which compares exactly as the operator does after
 * refusing the non-finite values these tests never mention.
 */
function instrument(
  src: string,
  ast: AnyNode,
  strict?: {
    guard: number;
    checks?: number[];
    scopes?: SkipScope[];
    optional?: number[];
    inner?: number[][];
    loops?: LoopEntry[];
    ordered?: number[][];
  },
): string {
  // Edits, applied in order of position; at one position the closing texts of nested wrappers go
  // first (innermost first), then replacements, then opening texts (outermost first).
  const edits: Array<{ pos: number; text: string; del: number; rank: number }> = [];
  const open = (pos: number, text: string, depth: number) => edits.push({ pos, text, del: 0, rank: 2e6 + depth });
  const close = (pos: number, text: string, depth: number) => edits.push({ pos, text, del: 0, rank: 1e6 - depth });
  const replace = (pos: number, text: string, del: number) => edits.push({ pos, text, del, rank: 1e6 + 1 });
  const checks = strict?.checks ? checkNames(ast) : undefined;
  // The tests' own names for a function that only reports (a swallowing handler may call one).
  const reporters = strict?.loops ? reportingNames(ast) : new Set<string>();
  // Where each check's call starts, and the functions a helper call (by its id) may run.
  const checkAt: number[] = [];
  const calleeBodies: AnyNode[][] = [];
  // Without `checks` (the tests realm's copy of the prompt) only the comparisons are rewritten.
  const asyncs = strict === undefined || strict.checks !== undefined;
  // Tests that can make a thenable (their text names `then`): their functions pull on entry (below).
  const entries = strict?.checks !== undefined && /\bthen\b/.test(src);
  let line = 1;
  let lineAt = 0;
  const lineOf = (pos: number): number => {
    // Calls are met in source order within a statement, not across the tree: count from 0 when behind.
    if (pos < lineAt) {
      line = 1;
      lineAt = 0;
    }
    for (; lineAt < pos; lineAt++) if (src.charCodeAt(lineAt) === 10) line++;
    return line;
  };
  // Strict verdict: the scopes an error can unwind past checks in (see {@link skipScopes}).
  const skips =
    strict?.checks && strict.scopes
      ? skipScopes(src, strict.scopes, () => strict.checks!.length, open, close, replace, reporters)
      : undefined;
  let inAsyncGenerator = false;
  // The tests' loops (where an error that ends the run interrupted a pass of one: see LoopEntry).
  const loopNodes: Array<[AnyNode, number]> = [];
  // The blocks of `try` statements that store answers in a collection and whose handler only
  // leaves or reports (see collects).
  const collectingTries: AnyNode[] = [];
  // Where the tests fail a case of their own accord (a failure marker, a `throw`): a loop holding
  // one judges what its passes catch (see quiet loops below).
  const judgedAt: number[] = [];
  // The functions of the tests whose body runs elsewhere than where it is written (see ordered).
  const elsewhere: AnyNode[] = [];
  const visit = (n: AnyNode, parent: AnyNode | undefined, block: AnyNode | undefined, depth: number): void => {
    if (strict?.loops && (LOOPS.has(n.type) || isIterationCall(n))) loopNodes.push([n, depth]);
    if (strict?.loops && n.type === 'TryStatement' && n.handler && collects(n.block as AnyNode))
      if (swallowing((n.handler as AnyNode).body as AnyNode, reporters, caughtName(n.handler as AnyNode)))
        collectingTries.push(n.block as AnyNode);
    if (strict?.loops && n.type === 'TryStatement' && !n.handler && n.finalizer && finallyJumps(n.finalizer as AnyNode)) {
      // A `try` with no `catch` whose `finally` jumps out (`finally { continue; }`, `break`,
      // `return got`) drops what its block threw, as a `catch` that only leaves does: told to the
      // harness the same way (sandbox/harness.js, hooks.dropped).
      const b = n.block as AnyNode;
      open(b.start + 1, ' try {', depth);
      close(b.end - 1, '} catch (__anchorF) { throw __anchorHooks.dropped(__anchorF); }', depth);
    }
    if (strict?.loops && n.type === 'ThrowStatement') judgedAt.push(n.start);
    if (strict?.loops && n.type === 'CallExpression') {
      // A promise handler written in place that only leaves or logs (`.catch(() => {})`) is told
      // to the harness as a `catch` clause's is (sandbox/harness.js, hooks.dropping).
      const h = droppingHandler(n, reporters);
      if (h) {
        open(h.start, '__anchorHooks.dropping(', depth);
        close(h.end, ')', depth);
      }
    }
    if (strict?.ordered && FUNCTIONS.has(n.type) && !(parent && runsInPlace(n, parent))) elsewhere.push(n);
    const method =
      parent?.type === 'MethodDefinition' || (parent?.type === 'Property' && (parent.method || parent.kind !== 'init'));
    if (entries && FUNCTIONS.has(n.type)) {
      // Every function of the tests pulls as it is entered (a no-op unless a microtask turn passed
      // since the last crossing): the engine enters some of them from a job with no `await` or
      // handler of theirs around — a thenable's `then` (`await t`, `Promise.resolve(t)`,
      // `Promise.all`, an async function returning it), which read the tests' objects as they were
      // before the program's microtask changed them (red-team rt70 K01-K28: 16 wrong passes).
      const body = n.body as AnyNode;
      if (body.type === 'BlockStatement') open(afterDirectives(body), ' __anchorHooks.resumed();', depth + 2);
      else {
        open(body.start, '(__anchorHooks.resumed(), ', depth + 2);
        close(body.end, ')', depth + 2);
      }
    }
    if (!asyncs) {
      // comparisons only (below)
    } else if ((n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression') && n.async && !n.generator && !method) {
      open(n.start, '__anchorHooks.async(', depth);
      close(n.end, ')', depth);
    } else if (n.type === 'FunctionExpression' && n.async && !n.generator && method) {
      asyncMethod(src, parent!, n, depth, open, close, replace);
    } else if (n.type === 'FunctionDeclaration' && n.async && !n.generator && block) {
      const name = (n.id as AnyNode).name as string;
      open(afterDirectives(block), `${name} = __anchorHooks.async(${name});`, depth - 1);
    } else if (n.type === 'AwaitExpression' || n.type === 'YieldExpression') {
      // (An async generator's `yield x` awaits x as `await x` does.)
      if (n.type === 'AwaitExpression' || (n.argument && !n.delegate && inAsyncGenerator)) {
        const arg = n.argument as AnyNode;
        open(arg.start, '__anchorHooks.seen(', depth);
        close(arg.end, ')', depth);
      }
      // Where the tests resume after an `await`, what the program changed meanwhile in its
      // microtasks is pulled before they read on (sandbox/harness.js, pullChanges). Wrapped
      // around the whole expression: its parentheses go outside the operand's. A generator of the
      // tests resumes after any `yield` the same way, when the next value is asked for, maybe
      // from a `for await` after a turn (red-team rt69 JA03, JA21, JA28).
      open(n.start, '__anchorHooks.resumed(', depth - 0.5);
      close(n.end, ')', depth - 0.5);
    } else if (n.type === 'ForOfStatement' && n.await) {
      // `for await` awaits each value of a sync iterable (an array of promises) inside the engine.
      const right = n.right as AnyNode;
      open(right.start, '__anchorHooks.seenEach(', depth);
      close(right.end, ')', depth);
      // Each pass of its body starts after the engine's `await`: pulled as an `await` is (rt69
      // JA01, JA22: the body read the tests' array as it was before the program's microtask).
      const body = n.body as AnyNode;
      if (body.type === 'BlockStatement') open(body.start + 1, ' __anchorHooks.resumed();', depth);
      else {
        open(body.start, '{ __anchorHooks.resumed(); ', depth);
        close(body.end, ' }', depth);
      }
    } else if (strict?.checks && n.type === 'CallExpression') {
      const callee = n.callee as AnyNode;
      // A check of the module required where it is called (`require('node:assert').ok(x)`) is the
      // module's as much as `assert.ok(x)` (red-team rt66 J36: no site, so never "never ran").
      const root = calleeRoot(callee) ?? (isAssertModule(callee) ? 'assert' : undefined);
      // (`super.m()` stays as it is: `super` cannot stand in a comma expression.)
      const key =
        callee.type === 'MemberExpression' && (callee.object as AnyNode).type !== 'Super' ? memberKey(callee) : undefined;
      const helperMethod = key !== undefined && checks!.methods.has(key);
      const aliasMethod = key !== undefined && !helperMethod && checks!.aliasMethods.has(key);
      // `Reflect.apply(assert.strictEqual, assert, [a, b])`: a check, called the long way.
      const first = (n.arguments as AnyNode[])[0];
      const viaReflect =
        callee.type === 'MemberExpression' &&
        !callee.computed &&
        (callee.object as AnyNode).type === 'Identifier' &&
        (callee.object as AnyNode).name === 'Reflect' &&
        (callee.property as AnyNode).name === 'apply' &&
        first !== undefined &&
        first.type !== 'SpreadElement' &&
        checks!.names.has(calleeRoot(first) ?? '');
      const named = root !== undefined && checks!.names.has(root);
      if ((named || helperMethod || aliasMethod || viaReflect) && !isFailureMarker(n)) {
        const target = callee.type === 'MemberExpression' ? (callee.object as AnyNode) : callee;
        // An assert call (not a helper) is open until it records: see sandbox/harness.js, openCheck.
        // Its last argument, when it has one and is not spread, reports that the arguments were all
        // evaluated (`done`): one that never does was interrupted by what they threw.
        const args = n.arguments as AnyNode[];
        const last = args[args.length - 1];
        const isAssert = root !== undefined && checks!.asserts.has(root) && !helperMethod && !viaReflect;
        const tracked = isAssert && last !== undefined && last.type !== 'SpreadElement';
        const opens = tracked ? ', 2' : isAssert ? ', 1' : '';
        const k = strict.checks.length;
        open(target.start, `(__anchorHooks.reach(${k}${opens}), `, depth);
        close(target.end, ')', depth);
        if (tracked) {
          open(last.start, `__anchorHooks.done(${k}, `, depth);
          close(last.end, ')', depth);
        }
        if (!isAssert && !viaReflect)
          calleeBodies[k] = checks!.bodiesOf(named ? root : undefined, helperMethod || aliasMethod ? key : undefined);
        const runner = skips?.check(
          k,
          !isAssert,
          callee.type === 'Identifier' ? (callee.name as string) : undefined,
          calleeBodies[k],
        );
        // A checker reached only through an alias or a parameter: an error skipping it is seen,
        // but the run need not reach it (see checkNames).
        if (runner || (!helperMethod && !viaReflect && (named ? checks!.aliases.has(root!) : aliasMethod)))
          strict.optional?.push(k);
        checkAt[k] = n.start;
        strict.checks.push(lineOf(n.start));
      } else if (named || helperMethod || aliasMethod || viaReflect) judgedAt.push(n.start);
    }
    if (strict?.checks && strict.guard) runtimeCode(n, open, close, depth);
    const op = n.operator as string;
    const family = strict?.guard && n.type === 'BinaryExpression' ? GUARDED_BINARY.find((f) => f.ops.includes(op)) : undefined;
    if (strict?.guard && family) {
      const at = operatorAt(src, n, op);
      if (at !== -1) {
        open(n.start, `__anchorHooks.${family.hook}(`, depth);
        replace(at, ',', op.length);
        close(n.end, `, ${family.ops.indexOf(op) + family.stride * strict.guard})`, depth);
      }
    }
    if (strict?.guard && n.type === 'UnaryExpression' && n.operator === '~') {
      open(n.start, '__anchorHooks.bit(', depth);
      replace(n.start, '', 1);
      close(n.end, `, 0, ${6 + 8 * strict.guard})`, depth);
    }
    const inner = n.type === 'Program' || n.type === 'BlockStatement' ? n : block;
    const outerAsyncGenerator = inAsyncGenerator;
    if (FUNCTIONS.has(n.type)) inAsyncGenerator = !!(n.async && n.generator);
    const scope = skips?.enter(n, parent);
    const dead = n.type === 'Program' || n.type === 'BlockStatement' ? shadowedDeclarations(n) : undefined;
    eachChild(n, (c, key) => {
      // A function declared again further down never runs: its checks are never expected to.
      if (dead?.has(c)) return;
      if (scope !== undefined && (key === 'handler' || key === 'finalizer') && n.type === 'TryStatement') skips!.part(scope, key);
      // A destructured catch parameter moves into the handler's body as text (skipScopes).
      if (skips !== undefined && key === 'param' && n.type === 'CatchClause' && c.type !== 'Identifier') return;
      visit(c, n, inner, depth + 1);
    });
    if (scope !== undefined) skips!.leave(n, scope, depth);
    inAsyncGenerator = outerAsyncGenerator;
  };
  visit(ast, undefined, undefined, 0);
  // A helper call skipped skips the checks in the helper's body: they fail with it (an honest wrong
  // value would have failed them there).
  if (strict?.inner)
    for (let k = 0; k < checkAt.length; k++) {
      const fns = calleeBodies[k] ?? [];
      strict.inner[k] = fns.length
        ? checkAt.flatMap((at, j) => (j !== k && fns.some((f) => f.start <= at && at < f.end) ? [j] : []))
        : [];
    }
  // Checks that run in the order they are written, in groups: those outside any function (but the
  // callback of an array iteration written in place), and those of each function's own body, whose
  // statements run in written order whenever it runs (sandbox/harness.js, verdict: a check of a
  // group never reached while a later one of it ran is a check the run went past). The body of
  // a tests' function counts since 2026-12-07: `function test() { … }`, the MultiPL-E shape,
  // kept the passes a loop over an empty answer let through (red-team rt61 PO01).
  if (strict?.ordered) {
    const groups = new Map<AnyNode | null, number[]>();
    for (const k of checkAt.map((_, k) => k).sort((a, b) => checkAt[a]! - checkAt[b]!)) {
      let home: AnyNode | null = null;
      for (const f of elsewhere)
        if (f.start <= checkAt[k]! && checkAt[k]! < f.end && (home === null || f.start > home.start)) home = f;
      const g = groups.get(home);
      if (g) g.push(k);
      else groups.set(home, [k]);
    }
    for (const g of groups.values()) if (g.length > 1) strict.ordered.push(g);
  }
  if (strict?.loops)
    for (const [l, depth] of loopNodes) {
      const ks = checkAt.flatMap((at, k) => (l.start <= at && at < l.end ? [k] : []));
      // A quiet loop (no check, failure marker or `throw` in it) gets no pass hook: the harness
      // needs only where it lies, to see an error of the program that came in inside it and that a
      // handler of the tests swallowed (sandbox/harness.js, hooks.caught).
      if (ks.length === 0) {
        if (!judgedAt.some((at) => l.start <= at && at < l.end)) strict.loops.push([lineOf(l.start), lineOf(l.end), ks]);
        continue;
      }
      // Each pass of the loop starts by telling the harness (an error of the program the tests
      // caught in a pass that then ran none of the loop's checks: sandbox/harness.js, hooks.pass).
      // A loop's body starts with the hook (half a level below the loop: outside its statements'
      // own edits). An array callback is wrapped where it is written, outside every edit of its
      // own (a skip scope turns an expression body into a block returning it): the wrapper tells
      // the harness, then calls it with the same `this` and arguments.
      const id = strict.loops.length;
      if (LOOPS.has(l.type)) {
        const body = l.body as AnyNode;
        if (body.type === 'BlockStatement') open(body.start + 1, ` __anchorHooks.pass(${id});`, depth + 1.5);
        else {
          open(body.start, `{ __anchorHooks.pass(${id}); `, depth + 0.5);
          close(body.end, ' }', depth + 0.5);
        }
      } else {
        const cb = (l.arguments as AnyNode[])[0]!;
        open(cb.start, `__anchorHooks.passes(${id}, `, depth + 0.5);
        close(cb.end, ')', depth + 0.5);
      }
      strict.loops.push([lineOf(l.start), lineOf(l.end), ks]);
    }
  // A `try` that stores answers in a collection (`try { got.push([f(2), 4]) } catch {}`, written
  // out case by case, or inside a loop that also throws to validate its cases) with no check in its
  // block and a handler that only leaves or reports is quiet as such a loop is: an error of the
  // program it swallows drops the case from what was collected (sandbox/harness.js, swallowedIn).
  if (strict?.loops)
    for (const b of collectingTries)
      if (!checkAt.some((at) => b.start <= at && at < b.end) && !judgedAt.some((at) => b.start <= at && at < b.end))
        strict.loops.push([lineOf(b.start), lineOf(b.end), []]);
  if (edits.length === 0) return src;
  const order = edits.map((e, i) => ({ ...e, i })).sort((a, b) => a.pos - b.pos || a.rank - b.rank || a.i - b.i);
  let out = '';
  let at = 0;
  for (const { pos, text, del } of order) {
    out += src.slice(at, pos) + text;
    // max: a deletion (`~`) sorts before the opens at its own position, which delete nothing.
    at = Math.max(at, pos + del);
  }
  return out + src.slice(at);
}

/** The function declarations of a script or block that a later one of the same name replaces. */
function shadowedDeclarations(n: AnyNode): Set<AnyNode> | undefined {
  let out: Set<AnyNode> | undefined;
  const last = new Map<string, AnyNode>();
  for (const stmt of n.body as AnyNode[]) {
    if (stmt.type !== 'FunctionDeclaration') continue;
    const name = (stmt.id as AnyNode).name as string;
    const before = last.get(name);
    if (before) (out ??= new Set()).add(before);
    last.set(name, stmt);
  }
  return out;
}

/** Statements that run their body again: a check in one is skipped on the pass an error ends, whatever ran before. */
const LOOPS: ReadonlySet<string> = new Set([
  'ForStatement',
  'ForInStatement',
  'ForOfStatement',
  'WhileStatement',
  'DoWhileStatement',
]);
const FUNCTIONS: ReadonlySet<string> = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/**
 * A loop of the tests as sandbox/harness.js reads it: [first line, last line, checks in it]. An
 * error of the program that ends the run from inside a pass of the loop (a line of the tests'
 * stack when it came in is in the loop) interrupted that pass: the loop's checks that passed on
 * earlier passes fail, as the check a wrong value reached would have (`for (…) { const got =
 * f(n); assert.strictEqual(got, w); }` with `f` throwing on a hard case kept the easy cases' pass:
 * gold 1/2 where a wrong value scored 0, red-team rt7 B01–B09, T08–T11).
 */
type LoopEntry = [number, number, number[]];

/** Array methods that call their callback once per element: a loop whose body is the callback. */
const ITERATION_METHODS: ReadonlySet<string> = new Set([
  'forEach',
  'map',
  'flatMap',
  'filter',
  'some',
  'every',
  'find',
  'findIndex',
  'findLast',
  'findLastIndex',
  'reduce',
  'reduceRight',
]);

/**
 * Whether function `fn`, a child of `parent`, runs where it is written, as part of the code
 * around it (for the strict verdict's written order): the callback of an array iteration written
 * in place (`xs.forEach((x) => …)`), called at once (`((x) => …)(d)`), or the callback of
 * `Array.from(xs, fn)` or of an array method called through `call`
 * (`Array.prototype.forEach.call(xs, fn)`) — red-team rt62 P01–P03.
 */
function runsInPlace(fn: AnyNode, parent: AnyNode): boolean {
  if (parent.type !== 'CallExpression') return false;
  if (parent.callee === fn || (isIterationCall(parent) && (parent.arguments as AnyNode[])[0] === fn)) return true;
  const callee = parent.callee as AnyNode;
  if (callee.type !== 'MemberExpression' || callee.computed || (parent.arguments as AnyNode[])[1] !== fn) return false;
  const name = (callee.property as AnyNode).name as string;
  const object = callee.object as AnyNode;
  if (name === 'from') return object.type === 'Identifier' && object.name === 'Array';
  return (
    name === 'call' &&
    object.type === 'MemberExpression' &&
    !object.computed &&
    ITERATION_METHODS.has((object.property as AnyNode).name as string)
  );
}

/** `xs.forEach(…)` and the like (see ITERATION_METHODS), with a callback written in place. */
function isIterationCall(n: AnyNode): boolean {
  if (n.type !== 'CallExpression') return false;
  const callee = n.callee as AnyNode;
  if (callee.type !== 'MemberExpression' || callee.computed) return false;
  const name = (callee.property as AnyNode).name as string;
  const first = (n.arguments as AnyNode[])[0];
  return ITERATION_METHODS.has(name) && first !== undefined && FUNCTIONS.has(first.type);
}

/** A function body or `try` block of the tests being instrumented, and the checks inside it. */
interface SkipScope {
  /** A function body, a `try` with a `catch`, or a `try` with only a `finally`. */
  kind: 'fn' | 'try' | 'fin';
  /** Loops and functions around it (a check deeper than this can have been skipped by a later pass). */
  nest: number;
  /** Checks directly in it: skipped by an error unless they recorded since it was entered. */
  tight: number[];
  /** Checks in its loops or nested functions, and calls of the tests' helpers: skipped by any error. */
  loose: number[];
  /**
   * Its checks may record in another execution meanwhile (it awaits or yields: another task; its
   * function calls itself: a nested call), so "recorded since entered" proves nothing: all loose.
   */
  suspends: boolean;
  /** `try`: the first and past-the-last check ids of its handler (the checks that judge the error). */
  judges: [number, number];
  /** `fn`: the skip scopes of the `try` statements inside it (made loose with it when it calls itself). */
  inner: SkipScope[];
  /** `fn`: its name, if it has one; `try`: the name of the function it is in, if any. */
  name?: string;
  fn?: string;
  /** `fn`: its node; `try`: the node of the function it is in, if any. */
  node?: AnyNode;
  fnNode?: AnyNode;
  /**
   * `try`: checks in its handler that do not judge the error: calls of the function the `try` is
   * in, by its name or any other a call resolves to it by (an alias, a method key: a recursive
   * runner carrying on with the next cases from inside the handler runs the skipped check again,
   * for another case).
   */
  notJudges: number[];
}

/**
 * One skip scope as sandbox/harness.js reads it: [tight, loose, judges]. `judges` are the checks
 * whose running judges an error the scope handles: a `catch`'s own checks, or, for a function
 * (given to `then` as a rejection handler), all of its checks.
 */
type SkipEntry = [number[], number[], number[]];

/** Scope `s` as the harness reads it. */
function skipEntry(s: SkipScope): SkipEntry {
  const all = [...s.tight, ...s.loose].sort((a, b) => a - b);
  const judges =
    s.kind === 'fn'
      ? all
      : Array.from({ length: s.judges[1] - s.judges[0] }, (_, i) => s.judges[0] + i).filter((k) => !s.notJudges.includes(k));
  return s.suspends ? [[], all, judges] : [s.tight, s.loose, judges];
}

/** The name function `n` (under `parent`) is called by: its own, or the variable it initialises. */
function functionName(n: AnyNode, parent: AnyNode | undefined): string | undefined {
  const id = n.id as AnyNode | null | undefined;
  return id
    ? (id.name as string)
    : parent?.type === 'VariableDeclarator' && (parent.id as AnyNode).type === 'Identifier'
      ? ((parent.id as AnyNode).name as string)
      : undefined;
}

/** Whether function `n` names itself in its body (a recursive walk records its own checks deeper). */
function callsItself(n: AnyNode, parent: AnyNode | undefined): boolean {
  const name = functionName(n, parent);
  if (name === undefined) return false;
  let found = false;
  const visit = (x: AnyNode): void => {
    if (found) return;
    if (x.type === 'Identifier' && x.name === name) found = true;
    else eachChild(x, visit);
  };
  visit(n.body as AnyNode);
  return found;
}

/**
 * Whether wrapping the body of function `n` in a block changes what it declares: a function
 * declared twice at its top, or under a name a `var` of it also has, is legal in a function body
 * and an error (or another binding) in a block.
 */
function declarationsClash(body: AnyNode): boolean {
  const fns = new Set<string>();
  for (const stmt of body.body as AnyNode[])
    if (stmt.type === 'FunctionDeclaration') {
      const name = (stmt.id as AnyNode).name as string;
      if (fns.has(name)) return true;
      fns.add(name);
    }
  if (fns.size === 0) return false;
  let clash = false;
  const visit = (x: AnyNode): void => {
    if (clash || FUNCTIONS.has(x.type)) return;
    if (x.type === 'VariableDeclaration' && x.kind === 'var') {
      const names = new Set<string>();
      for (const d of x.declarations as AnyNode[]) patternNames(d.id as AnyNode, names);
      for (const name of names) if (fns.has(name)) clash = true;
    }
    eachChild(x, visit);
  };
  for (const stmt of body.body as AnyNode[]) if (stmt.type !== 'FunctionDeclaration') visit(stmt);
  return clash;
}

/**
 * Strict verdict: where an error can skip the tests' checks, and the hooks that see it happen
 * (sandbox/harness.js). A program that throws on the hard cases must not keep the pass its easy
 * cases earned because the tests catch what it threw and go on (a `try`/`catch` per case that
 * logs, an `it()` runner, `test().catch(console.error)`): the checks the error skipped are
 * executions that did not pass, as a wrong value would have failed them.
 * - Each function of the tests that holds a check becomes
 *   `{ const __anchorS = enter(id); try { BODY } catch (x) { throw unwound(id, __anchorS, x); } }`:
 *   an error leaving it notes, against that error, the checks it skipped. The id in its text is
 *   how the harness knows the function when it is given to a promise's `then` (its checks are
 *   skipped when that promise rejects).
 * - Each `try` with a `catch` is entered with `enter()`, and its handler asks `caught(id, stamp, e)`
 *   for the checks skipped on the way (its own block's, and those noted against `e`). They fail
 *   when the handler ends without one of its own checks running (a handler that checks the error
 *   judged it: `catch (e) { assert.ok(c.throws) }`) and without rethrowing (then the next `catch`
 *   or the end of the run decides); errors noted and never caught by a `catch` of the tests (a
 *   promise's `.catch(console.error)`, a `finally` that returns) fail theirs at the verdict.
 * - A `try` with only a `finally` notes its block's checks against an error leaving it, as a
 *   function does (a `finally { return; }` swallows it without a `catch`).
 * `table` gets each scope (see {@link skipEntry}), indexed by the id the hooks are called with.
 */
function skipScopes(
  src: string,
  table: SkipScope[],
  checkCount: () => number,
  open: (pos: number, text: string, depth: number) => void,
  close: (pos: number, text: string, depth: number) => void,
  replace: (pos: number, text: string, del: number) => void,
  reporters: ReadonlySet<string>,
) {
  const stack: SkipScope[] = [];
  // The `try` scopes whose handler is being visited.
  const judging: SkipScope[] = [];
  const unjudging = (s: SkipScope) => {
    const i = judging.indexOf(s);
    if (i !== -1) judging.splice(i, 1);
  };
  let nest = 0;
  const scope = (kind: SkipScope['kind']): SkipScope => ({
    kind,
    nest,
    tight: [],
    loose: [],
    suspends: false,
    judges: [0, 0],
    inner: [],
    notJudges: [],
  });
  // Gives scope `s` its id, and tells the `fn` scopes around it, which may make it loose later.
  const add = (s: SkipScope): number => {
    for (const outer of stack) if (outer.kind === 'fn') outer.inner.push(s);
    return table.push(s) - 1;
  };
  return {
    /** Node `n` (under `parent`) is being entered: the scope it opens, if any. */
    enter(n: AnyNode, parent: AnyNode | undefined): SkipScope | 'loop' | undefined {
      if (LOOPS.has(n.type)) {
        nest++;
        return 'loop';
      }
      if (n.type === 'AwaitExpression' || n.type === 'YieldExpression' || (n.type === 'ForOfStatement' && n.await)) {
        for (let i = stack.length - 1; i >= 0; i--) {
          stack[i]!.suspends = true;
          if (stack[i]!.kind === 'fn') break;
        }
      }
      if (FUNCTIONS.has(n.type)) {
        nest++;
        const s = scope('fn');
        s.suspends = callsItself(n, parent);
        s.name = functionName(n, parent);
        s.node = n;
        stack.push(s);
        return s;
      }
      if (n.type === 'TryStatement' && (n.handler || n.finalizer)) {
        const s = scope(n.handler ? 'try' : 'fin');
        for (const x of stack)
          if (x.kind === 'fn') {
            s.fn = x.name;
            s.fnNode = x.node;
          }
        stack.push(s);
        return s;
      }
      return undefined;
    },
    /**
     * Check `k` was met (a call of a helper of the tests when `helper`, by the name `callee`, of
     * the functions `bodies`).
     */
    check(k: number, helper: boolean, callee?: string, bodies: readonly AnyNode[] = []): boolean {
      for (const s of stack) (helper || nest > s.nest ? s.loose : s.tight).push(k);
      // A call of the function a handler is in: no judgement of the error that handler caught
      // (red-team rt6 J01/J02: `const next = run` and `R.run(i + 1)` too). Nor a check an honest
      // run must reach: a runner carrying on with the next cases from its handler runs its own
      // checks, which are required where they stand (rt6 J02h failed an honest run).
      let runner = false;
      if (helper)
        for (const t of judging)
          if ((callee !== undefined && t.fn === callee) || (t.fnNode !== undefined && bodies.includes(t.fnNode))) {
            t.notJudges.push(k);
            runner = true;
          }
      return runner;
    },
    /** Part `key` of the `try` statement of scope `s` begins (the block's checks end at its handler or finalizer). */
    part(s: SkipScope | 'loop', key: string): void {
      if (s === 'loop') return;
      if (stack.at(-1) === s) stack.pop();
      if (key === 'handler') {
        s.judges = [checkCount(), checkCount()];
        judging.push(s);
      } else if (key === 'finalizer' && s.kind === 'try') {
        s.judges[1] = checkCount();
        unjudging(s);
      }
    },
    /** Node `n`, which opened scope `s`, is left: its edits. */
    leave(n: AnyNode, s: SkipScope | 'loop', depth: number): void {
      if (s === 'loop') {
        nest--;
        return;
      }
      if (s.kind === 'fn') {
        stack.pop();
        nest--;
        // A function that calls itself: its inner `try` scopes' checks may record deeper too.
        if (s.suspends) for (const inner of s.inner) inner.suspends = true;
        if (s.tight.length + s.loose.length === 0) return;
        const body = n.body as AnyNode;
        if (body.type === 'BlockStatement' && declarationsClash(body)) return;
        const id = add(s);
        const prologue = ` const __anchorS = __anchorHooks.enter(${id}); try {`;
        const guard = `} catch (__anchorX) { throw __anchorHooks.unwound(${id}, __anchorS, __anchorX); }`;
        if (body.type === 'BlockStatement') {
          // Opened before anything else at the body's top (an async declaration's hoisted wrapper
          // must sit inside the `try`, with the declaration), closed after everything in it.
          open(afterDirectives(body), prologue, depth);
          close(body.end - 1, guard, depth);
        } else {
          const params = n.params as AnyNode[];
          const arrow = tokenAt(src, params.length ? params[params.length - 1]!.end : n.start, body.start, '=>');
          if (arrow === -1) return;
          // `return (`: a body on the next line after a bare `return` would be `return;`.
          open(arrow + 2, ` {${prologue} return (`, depth);
          close(n.end, `); ${guard} }`, depth + 1);
        }
        return;
      }
      if (s.kind === 'fin') {
        if (s.tight.length + s.loose.length === 0) return;
        const id = add(s);
        open(n.start, `{ const __anchorT${id} = __anchorHooks.enterTry(${id}); `, depth);
        close(n.end, ' }', depth);
        open(
          (n.block as AnyNode).end,
          ` catch (__anchorX) { throw __anchorHooks.unwound(${id}, __anchorT${id}, __anchorX); }`,
          depth,
        );
        return;
      }
      // A `try` statement with a `catch`.
      if (!n.finalizer) {
        s.judges[1] = checkCount();
        unjudging(s);
      }
      const id = add(s);
      const handler = n.handler as AnyNode;
      const param = handler.param as AnyNode | null;
      const hb = handler.body as AnyNode;
      const err = param?.type === 'Identifier' ? (param.name as string) : `__anchorE${id}`;
      let unpack = '';
      if (!param) open(handler.start + 'catch'.length, ` (${err})`, depth);
      else if (param.type !== 'Identifier') {
        replace(param.start, err, param.end - param.start);
        unpack = ` let ${src.slice(param.start, param.end)} = ${err};`;
      }
      open(n.start, `{ const __anchorT${id} = __anchorHooks.enterTry(${id}); `, depth);
      close(n.end, ' }', depth);
      const swallows = swallowing(hb, reporters, caughtName(handler)) ? ', 1' : '';
      const enterHandler = ` const __anchorC${id} = __anchorHooks.caught(${id}, __anchorT${id}, ${err}${swallows});${unpack} try {`;
      const leaveHandler = `} catch (__anchorR) { throw __anchorHooks.rethrew(__anchorC${id}, __anchorR); } finally { __anchorHooks.left(__anchorC${id}); }`;
      // An empty handler (`catch {}`): both at one position, where closing texts would go first.
      if (hb.end - hb.start === 2) open(hb.start + 1, enterHandler + leaveHandler, depth);
      else {
        open(hb.start + 1, enterHandler, depth);
        close(hb.end - 1, leaveHandler, depth);
      }
    },
  };
}

/**
 * Whether a `catch` block only leaves or logs (empty, `continue`, `break`, `return;`,
 * `console.log(e)`, `if (DEBUG) console.log(e)`, `void e`): the error it takes answers nothing the
 * tests keep (sandbox/harness.js, hooks.caught). A handler that does anything else — sets a flag,
 * pushes a stand-in, checks — is taken to record the case. `reporters`: the tests' own names for
 * a function that only reports (see reportingNames).
 */
function swallowing(block: AnyNode, reporters: ReadonlySet<string>, caught?: string): boolean {
  return (block.body as AnyNode[]).every((st) => quietStatement(st, reporters, caught));
}

/** `caught`: the name the `catch` binds; throwing it on (`if (!(e instanceof Skip)) throw e;`) is the handler declining the error, not recording it. */
function quietStatement(st: AnyNode, reporters: ReadonlySet<string>, caught?: string): boolean {
  switch (st.type) {
    case 'EmptyStatement':
    case 'ContinueStatement':
    case 'BreakStatement':
      return true;
    case 'ReturnStatement':
      return !st.argument;
    case 'ThrowStatement':
      return caught !== undefined && (st.argument as AnyNode).type === 'Identifier' && (st.argument as AnyNode).name === caught;
    case 'BlockStatement':
      return swallowing(st, reporters, caught);
    case 'IfStatement':
      return (
        pure(st.test as AnyNode) &&
        quietStatement(st.consequent as AnyNode, reporters, caught) &&
        (!st.alternate || quietStatement(st.alternate as AnyNode, reporters, caught))
      );
    case 'ExpressionStatement':
      return reports(st.expression as AnyNode, reporters);
    default:
      return false;
  }
}

/** The name a `catch` clause binds, if it binds one. */
function caughtName(handler: AnyNode): string | undefined {
  const p = handler.param as AnyNode | null;
  return p?.type === 'Identifier' ? (p.name as string) : undefined;
}

/**
 * An expression that only reports or does nothing: a call that logs (`console.error('skip', n,
 * e.message)`, `process.stderr.write(…)`; its arguments are not looked into, as tests record
 * nothing there), a bare value (`e;`, `void e`), `DEBUG && console.log(e)`, `v ? console.log(e) :
 * null`.
 */
function reports(e: AnyNode, reporters: ReadonlySet<string>): boolean {
  switch (e.type) {
    case 'CallExpression':
      return reportingCallee(e.callee as AnyNode, reporters);
    case 'ConditionalExpression':
      return pure(e.test as AnyNode) && reports(e.consequent as AnyNode, reporters) && reports(e.alternate as AnyNode, reporters);
    case 'LogicalExpression':
      return reports(e.left as AnyNode, reporters) && reports(e.right as AnyNode, reporters);
    case 'SequenceExpression':
      return (e.expressions as AnyNode[]).every((x) => reports(x, reporters));
    case 'UnaryExpression':
      return e.operator === 'void' ? reports(e.argument as AnyNode, reporters) : pure(e);
    default:
      return pure(e);
  }
}

/** The members of `console` (also as `globalThis.console`), `process.stdout.write`, `process.stderr.write`, and the tests' own reporters. */
function reportingCallee(c: AnyNode, reporters: ReadonlySet<string>): boolean {
  if (c.type === 'Identifier') return reporters.has(c.name as string);
  if (c.type !== 'MemberExpression') return false;
  const o = c.object as AnyNode;
  if (o.type === 'Identifier') return o.name === 'console';
  if (o.type !== 'MemberExpression' || o.computed) return false;
  const base = o.object as AnyNode;
  const key = (o.property as AnyNode).name;
  if (base.type !== 'Identifier') return false;
  if (key === 'console') return GLOBAL_NAMES.has(base.name as string);
  return (
    base.name === 'process' && (key === 'stdout' || key === 'stderr') && !c.computed && (c.property as AnyNode).name === 'write'
  );
}

/** Node kinds a reporting expression's parts may be made of: they compute a value and change nothing. */
const PURE = new Set([
  'Identifier',
  'Literal',
  'MemberExpression',
  'TemplateLiteral',
  'TemplateElement',
  'BinaryExpression',
  'LogicalExpression',
  'ConditionalExpression',
  'ArrayExpression',
  'SpreadElement',
  'ThisExpression',
]);
/** Calls a reporting expression's parts may make: `String(e)`, `JSON.stringify(x)`. */
const PURE_CALLS = new Set(['String', 'JSON.stringify']);

/** Whether expression `e` computes a value and changes nothing (see PURE). */
function pure(e: AnyNode): boolean {
  if (e.type === 'UnaryExpression') return e.operator !== 'delete' && pure(e.argument as AnyNode);
  if (e.type === 'CallExpression') {
    const c = e.callee as AnyNode;
    const name =
      c.type === 'Identifier'
        ? (c.name as string)
        : c.type === 'MemberExpression' && !c.computed && (c.object as AnyNode).type === 'Identifier'
          ? `${(c.object as AnyNode).name}.${(c.property as AnyNode).name}`
          : '';
    return PURE_CALLS.has(name) && (e.arguments as AnyNode[]).every(pure);
  }
  if (!PURE.has(e.type)) return false;
  let ok = true;
  eachChild(e, (c) => {
    if (ok && !pure(c)) ok = false;
  });
  return ok;
}

/**
 * The tests' own names for a function that only reports: top-level functions whose body only
 * leaves or logs (`function log(e) { console.error(e); }`, `const noop = () => {}`) and names bound
 * to a reporting callee (`const log = console.log`, `console.warn.bind(console)`).
 */
function reportingNames(ast: AnyNode): ReadonlySet<string> {
  const names = new Set<string>();
  const quietFunction = (f: AnyNode | null | undefined): boolean => {
    if (!f) return false;
    if (f.type === 'FunctionDeclaration' || f.type === 'FunctionExpression' || f.type === 'ArrowFunctionExpression') {
      if (f.generator || f.async) return false;
      const body = f.body as AnyNode;
      return body.type === 'BlockStatement' ? swallowing(body, names) : reports(body, names);
    }
    if (reportingCallee(f, names)) return true;
    // `console.log.bind(console)`
    const c = f.type === 'CallExpression' ? (f.callee as AnyNode) : undefined;
    return (
      !!c &&
      c.type === 'MemberExpression' &&
      !c.computed &&
      (c.property as AnyNode).name === 'bind' &&
      reportingCallee(c.object as AnyNode, names)
    );
  };
  // Three rounds: a reporter may call another one declared after it.
  for (let round = 0; round < 3; round++)
    for (const st of ast.body as AnyNode[]) {
      if (st.type === 'FunctionDeclaration' && st.id && quietFunction(st)) names.add((st.id as AnyNode).name as string);
      if (st.type === 'VariableDeclaration' && st.kind === 'const')
        for (const d of st.declarations as AnyNode[])
          if ((d.id as AnyNode).type === 'Identifier' && quietFunction(d.init as AnyNode))
            names.add((d.id as AnyNode).name as string);
    }
  return names;
}

/** Methods that store into a collection (`got.push(x)`, `seen.add(x)`, `m.set(k, v)`). */
const STORING = new Set(['push', 'unshift', 'splice', 'add', 'set']);

/**
 * Whether a `try` block stores into a collection: a call of a storing method (`got.push(…)`) or a
 * write to a member (`got[n] = …`, `out.k = …`). A plain variable (`r = f(n)`) is no collection:
 * a "must throw" test keeps what a call returned that way.
 */
/**
 * Whether a `finally` block can jump out of itself: a `return` (outside functions it defines), a
 * `continue` outside loops it holds, or a `break` outside its loops and `switch`es (a labelled one
 * may leave those too).
 */
function finallyJumps(block: AnyNode): boolean {
  let found = false;
  // `inner`: inside a loop of the block (a `continue` stays there); `breaks`: inside a loop or
  // `switch` of it (a `break` stays there; a `continue` in a `switch` still leaves).
  const walk = (n: AnyNode, inner: boolean, breaks: boolean) => {
    if (found || FUNCTIONS.has(n.type) || n.type === 'ClassDeclaration' || n.type === 'ClassExpression') return;
    if (
      n.type === 'ReturnStatement' ||
      (n.type === 'ContinueStatement' && (!inner || n.label)) ||
      (n.type === 'BreakStatement' && (!breaks || n.label))
    ) {
      found = true;
      return;
    }
    eachChild(n, (c) => walk(c, inner || LOOPS.has(n.type), breaks || LOOPS.has(n.type) || n.type === 'SwitchStatement'));
  };
  walk(block, false, false);
  return found;
}

function collects(block: AnyNode): boolean {
  let found = false;
  const walk = (n: AnyNode) => {
    if (found) return;
    if (
      (n.type === 'CallExpression' &&
        (n.callee as AnyNode).type === 'MemberExpression' &&
        !(n.callee as AnyNode).computed &&
        STORING.has(((n.callee as AnyNode).property as AnyNode).name as string)) ||
      (n.type === 'AssignmentExpression' && (n.left as AnyNode).type === 'MemberExpression')
    ) {
      found = true;
      return;
    }
    eachChild(n, walk);
  };
  walk(block);
  return found;
}

/**
 * The rejection handler of a promise's `.catch(h)` or `.then(ok, h)`, when it is written in place
 * and only leaves or logs as a swallowing `catch` block does (`() => {}`, `(e) => console.log(e)`,
 * `console.error`), else undefined.
 */
function droppingHandler(n: AnyNode, reporters: ReadonlySet<string>): AnyNode | undefined {
  const c = n.callee as AnyNode;
  if (c.type !== 'MemberExpression' || c.computed) return undefined;
  const name = (c.property as AnyNode).name;
  const h = (n.arguments as AnyNode[])[name === 'catch' ? 0 : name === 'then' ? 1 : -1];
  if (!h) return undefined;
  if (reportingCallee(h, reporters)) return h;
  if ((h.type !== 'ArrowFunctionExpression' && h.type !== 'FunctionExpression') || h.generator) return undefined;
  const body = h.body as AnyNode;
  return (body.type === 'BlockStatement' ? swallowing(body, reporters) : reports(body, reporters)) ? h : undefined;
}

/** `eval` read off the global object (`globalThis.eval`), or the bare name after a comma (`(0, eval)`). */
function isEvalCallee(c: AnyNode): boolean {
  if (c.type === 'Identifier') return c.name === 'eval';
  if (c.type === 'SequenceExpression') return isEvalCallee((c.expressions as AnyNode[]).at(-1)!);
  if (c.type !== 'MemberExpression' || c.computed) return false;
  const o = c.object as AnyNode;
  return (c.property as AnyNode).name === 'eval' && o.type === 'Identifier' && GLOBAL_NAMES.has(o.name as string);
}
const GLOBAL_NAMES: ReadonlySet<string> = new Set(['globalThis', 'global', 'self', 'window']);

/**
 * Strict verdict: code the tests build from text at run time is guarded as their own. The text an
 * `eval` call (direct or indirect: `(0, eval)(s)`, `globalThis.eval(s)`) is given passes through
 * `__anchorHooks.source` (a direct call stays direct: its callee is untouched), and `Function`
 * (called or constructed) becomes `(__anchorHooks.func(Function))`, which builds the same function
 * from the guarded text (sandbox/harness.js). A `Function` reached another way (`f.constructor`)
 * is not.
 */
function runtimeCode(
  n: AnyNode,
  open: (pos: number, text: string, depth: number) => void,
  close: (pos: number, text: string, depth: number) => void,
  depth: number,
): void {
  if (n.type !== 'CallExpression' && n.type !== 'NewExpression') return;
  const callee = n.callee as AnyNode;
  const first = (n.arguments as AnyNode[])[0];
  if (n.type === 'CallExpression' && isEvalCallee(callee) && first && first.type !== 'SpreadElement') {
    open(first.start, '__anchorHooks.source(', depth);
    close(first.end, ')', depth);
  } else if (callee.type === 'Identifier' && callee.name === 'Function') {
    // Parenthesized, so `new` constructs what the hook returns (not the hook's call).
    open(callee.start, '(__anchorHooks.func(', depth + 1);
    close(callee.end, '))', depth + 1);
  }
}

/** Where statements can be added at the top of a block or script: after its directive prologue ('use strict'). */
function afterDirectives(block: AnyNode): number {
  let at = block.type === 'Program' ? block.start : block.start + 1;
  for (const stmt of block.body as AnyNode[]) {
    if (stmt.type !== 'ExpressionStatement' || typeof stmt.directive !== 'string') break;
    at = stmt.end;
  }
  return at;
}

/**
 * A self-contained script (program and tests in one) with its promises made observable as
 * {@link instrument} does for separate tests, or the script unchanged when it has no async
 * function (nothing to wrap; its promises are still tracked by the realm's `Promise`) or does not
 * parse (the engine reports that).
 */
export function instrumentScript(src: string): string {
  if (!src.includes('async')) return src;
  const ast = parseScript(src);
  return ast ? instrument(src, ast) : src;
}

/** The edits that turn async method `fn` (the value of member `member`) into a tracked plain method. */
function asyncMethod(
  src: string,
  member: AnyNode,
  fn: AnyNode,
  depth: number,
  open: (pos: number, text: string, depth: number) => void,
  close: (pos: number, text: string, depth: number) => void,
  replace: (pos: number, text: string, del: number) => void,
): void {
  const key = member.key as AnyNode;
  // The `async` keyword sits between the member's start and its key (`static async [k]()`).
  const head = src.slice(member.start, member.computed ? src.lastIndexOf('[', key.start) : key.start);
  const m = /\basync\b(?![\s\S]*\basync\b)/.exec(head);
  const body = fn.body as AnyNode;
  const paren = src.lastIndexOf(')', body.start);
  if (!m || paren < fn.start) return;
  replace(member.start + m.index, '', 5);
  open(fn.start, '(...__anchorArgs) { return __anchorHooks.track((async ', depth);
  open(paren + 1, ' =>', depth);
  close(fn.end, ')(...__anchorArgs)); }', depth);
}

/**
 * The names a script declares in its top scope (what the `let` binding at the top of the function
 * the tests become would collide with): its top-level declarations and every `var` outside a function.
 */
function topDeclared(ast: AnyNode): Set<string> {
  const out = new Set<string>();
  for (const stmt of ast.body as AnyNode[]) {
    if (stmt.type === 'FunctionDeclaration' || stmt.type === 'ClassDeclaration') patternNames(stmt.id as AnyNode, out);
  }
  const visit = (n: AnyNode, top: boolean): void => {
    if (n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression') return;
    if (n.type === 'ClassDeclaration' || n.type === 'ClassExpression') return;
    if (n.type === 'VariableDeclaration' && (top || n.kind === 'var'))
      for (const d of n.declarations as AnyNode[]) patternNames(d.id as AnyNode, out);
    eachChild(n, (c) => visit(c, false));
  };
  for (const stmt of ast.body as AnyNode[]) visit(stmt, true);
  return out;
}

/**
 * Build (or fetch from the cache) the plan for one problem's tests. `strict`: the strict verdict
 * (its checks must all be reached, its comparisons guarded; see {@link instrument}).
 */
/** The assert module's checking functions, by their names. */
const ASSERT_FUNCTIONS: ReadonlySet<string> = new Set([
  'ok',
  'equal',
  'notEqual',
  'deepEqual',
  'notDeepEqual',
  'strictEqual',
  'notStrictEqual',
  'deepStrictEqual',
  'notDeepStrictEqual',
  'throws',
  'doesNotThrow',
  'rejects',
  'doesNotReject',
  'match',
  'doesNotMatch',
  'fail',
  'ifError',
]);

/** Methods taking a callback, and which of their arguments are callbacks. */
const CALLBACK_SLOTS: ReadonlyMap<string, readonly number[]> = new Map<string, readonly number[]>([
  ...[...ITERATION_METHODS, 'catch', 'finally'].map((m): [string, readonly number[]] => [m, [0]]),
  ['then', [0, 1]],
  ['from', [1]],
]);

/**
 * Strict verdict: the tests with each check handed by reference (`xs.forEach(assert.ok)`,
 * `p.then(assert.fail)`, a destructured `ok` passed the same way) written as an arrow calling it
 * where it stands (on the same line). Its calls are then a check of the tests like any written
 * out, which a run over an empty answer never reaches; by reference it was no site until it ran,
 * so `primes(20).map(isPrime).forEach(assert.ok)` passed a program answering `[]` (red-team rt63
 * X_G02), where `.forEach((p) => assert.ok(p))` fails it. A reference is a check function of the
 * module (`assert.ok`, `assert['ok']`, `assert.strict.equal`, `require('node:assert').ok`, a
 * destructured `ok`, any of them `.bind(…)`), or the module itself (callable as `ok`) handed to a
 * call, found where a value is handed on: a call's argument, an object literal's property, an array
 * literal's element; the module in the callback slot of an iteration or promise method. (`forEach(assert)`,
 * `forEach(assert.ok.bind(assert))`, `forEach(assert['ok'])`, `{ pos: assert.ok }` then
 * `forEach(c.pos)` and `forEach(require('node:assert').ok)` were no site: red-team rt66 J30,
 * J33-J36, J64.) A reference bound to a name (`const eq = assert.equal`) is not rewritten: calls
 * through the name are sites already (checkNames).
 */
function inlineCheckReferences(tests: string, ast: AnyNode): string {
  const { asserts } = checkNames(ast);
  // [start, end, how: a check function, the module, a shorthand property's check function]
  const spots: Array<[number, number, 'check' | 'module' | 'shorthand']> = [];
  const isModule = (e: AnyNode): boolean =>
    (e.type === 'Identifier' && asserts.has(e.name as string) && !ASSERT_FUNCTIONS.has(e.name as string)) ||
    isAssertModule(e) ||
    (e.type === 'MemberExpression' && memberKey(e) === 'strict' && isModule(e.object as AnyNode));
  const isCheckFunction = (e: AnyNode): boolean => {
    if (e.type === 'Identifier') return ASSERT_FUNCTIONS.has(e.name as string) && asserts.has(e.name as string);
    if (e.type === 'MemberExpression') {
      const key = memberKey(e);
      return key !== undefined && ASSERT_FUNCTIONS.has(key) && isModule(e.object as AnyNode);
    }
    if (e.type === 'CallExpression') {
      const callee = e.callee as AnyNode;
      return callee.type === 'MemberExpression' && memberKey(callee) === 'bind' && isCheckFunction(callee.object as AnyNode);
    }
    return false;
  };
  // A value handed on at `e`; `callback`: the callback slot of an iteration or promise method,
  // where the module itself is handed on to be called (elsewhere, as a `thisArg` or to a helper
  // reading `a.equal`, it is not, and a site made of it would never be reached).
  const hand = (e: AnyNode | null | undefined, callback: boolean): void => {
    if (!e) return;
    if (isCheckFunction(e)) spots.push([e.start as number, e.end as number, 'check']);
    else if (callback && isModule(e)) spots.push([e.start as number, e.end as number, 'module']);
  };
  const visit = (n: AnyNode): void => {
    if (n.type === 'CallExpression' || n.type === 'NewExpression') {
      const callee = n.callee as AnyNode;
      const slots = callee.type === 'MemberExpression' ? CALLBACK_SLOTS.get(memberKey(callee) ?? '') : undefined;
      (n.arguments as AnyNode[]).forEach((a, i) => hand(a, slots?.includes(i) === true));
    } else if (n.type === 'ArrayExpression') for (const a of n.elements as AnyNode[]) hand(a, false);
    else if (n.type === 'ObjectExpression')
      for (const p of n.properties as AnyNode[]) {
        if (p.type !== 'Property' || p.kind !== 'init' || p.method) continue;
        const value = p.value as AnyNode;
        // `{ ok }`: the shorthand is written out, `{ ok: (...) => ok(...) }`.
        if (p.shorthand && isCheckFunction(value)) spots.push([value.start as number, value.end as number, 'shorthand']);
        else if (!p.shorthand) hand(value, false);
      }
    eachChild(n, visit);
  };
  visit(ast);
  // The outermost of nested references only (`forEach(assert.ok.bind(assert))` hands on the
  // module inside the bound check).
  const outer: typeof spots = [];
  for (const spot of spots.sort((a, b) => a[0] - b[0] || b[1] - a[1]))
    if (outer.length === 0 || spot[0] >= outer[outer.length - 1]![1]) outer.push(spot);
  let out = tests;
  for (const [start, end, how] of outer.reverse()) {
    const ref = tests.slice(start, end);
    // The module keeps its members (a helper handed `assert` calls `a.equal(…)`): the arrow
    // inherits them.
    const arrow =
      how === 'module'
        ? `Object.setPrototypeOf((...__anchorArgs) => ${ref}(...__anchorArgs), ${ref})`
        : `((...__anchorArgs) => ${ref}(...__anchorArgs))`;
    out = `${out.slice(0, start)}${how === 'shorthand' ? `${ref}: ${arrow}` : arrow}${out.slice(end)}`;
  }
  return out;
}

export function planTests(tests: string, prompt: string | undefined, strict = true): TestPlanResult {
  const key = `${strict ? 's' : 'p'}${prompt?.length ?? -1}:${prompt ?? ''}\u0000${tests}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const result = buildPlan(tests, prompt, strict);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, result);
  return result;
}

function buildPlan(given: string, prompt: string | undefined, strict: boolean): TestPlanResult {
  let tests = given;
  let ast = parseScript(given);
  if (strict && ast) {
    tests = inlineCheckReferences(given, ast);
    if (tests !== given) ast = parseScript(tests);
  }
  if (!ast) {
    try {
      parse(tests, { ecmaVersion: 'latest', sourceType: 'script' });
    } catch (e) {
      return { ok: false, error: `the tests do not parse: ${e instanceof Error ? e.message : String(e)}` };
    }
  }
  const { refs, declared, valued, evaluates } = scan(ast!);
  // The tests evaluate text at run time, or the prompt's copy they run does.
  let evaluatesText = evaluates;
  const helpers = promptCopy(prompt ?? '', declared);
  if (helpers.source) {
    const h = parseScript(helpers.source);
    if (h) {
      const inPrompt = scan(h);
      evaluatesText ||= inPrompt.evaluates;
      // A name the prompt's copy uses but only declares inside itself (a parameter, a local) is
      // still not read from the program: `declared` is scope-blind on purpose (conservative).
      for (const n of inPrompt.refs) if (!inPrompt.declared.has(n)) refs.add(n);
      for (const n of inPrompt.valued) if (!inPrompt.declared.has(n)) valued.add(n);
    }
  }
  // The prompt's entry point is the program's even when it is named like a global of every realm
  // (`function escape(s)`, `function btoa(s)`): the tests calling it mean the solution, not the
  // builtin (which answered for any completion), and even when the tests also declare its name in
  // an inner scope (a loop variable `count` beside the entry point `count`): only a declaration in
  // the tests' own top scope, which the binding would collide with, keeps it out.
  const top = helpers.entry.size > 0 ? topDeclared(ast!) : declared;
  const names = [...refs]
    .filter((n) => (helpers.entry.has(n) ? !top.has(n) : !declared.has(n) && !helpers.names.has(n) && !REALM_GLOBALS.has(n)))
    .sort();
  // Strict verdict, a prompt naming the entry point(s): those, and names the prompt's text
  // mentions (its specification), are read from the program whatever they hold. Any other free
  // name of the tests is read only when the program binds it to a function or class (a second
  // function of the completion's the tests call): a value (`LIMIT` used as an expected value, a
  // flag probed with `typeof`) is undefined for every completion, where a program defining it
  // steered the checks (red-team rt4 E10). And only when the tests only call it: a name they also
  // test for truth or probe (`typeof FAST !== 'undefined' && FAST`) is undefined, where a program
  // defining `function FAST() {}` chose which cases ran (red-team rt6 N01).
  const entryOnly = strict && helpers.entry.size > 0;
  const mentioned = new Set(entryOnly ? (prompt ?? '').match(/[A-Za-z_$][\w$]*/g) : []);
  const callableOnly = new Set(entryOnly ? names.filter((n) => !helpers.entry.has(n) && !mentioned.has(n)) : []);

  // The last top-level expression statement's value is the tests' completion (an async test
  // returns its promise there), so it is returned from the function.
  const mentions = mentionsOf(tests, prompt ?? '');
  const nanExpected = mentions.nan;
  const guard = (mentions.nan ? 0 : GUARD_NAN) | (mentions.inf ? 0 : GUARD_INF);
  let checks: number[] = [];
  let scopes: SkipScope[] = [];
  let optional: number[] = [];
  let inner: number[][] = [];
  let loops: LoopEntry[] = [];
  let ordered: number[][] = [];
  let instrumented = instrument(tests, ast!, strict ? { guard, checks, scopes, optional, inner, loops, ordered } : undefined);
  // Checked as the strict code it runs as (a function declared twice in a block is an error only there).
  const strictOk = (text: string) => parseScript(`'use strict';\n${text}`) !== undefined;
  let iast = instrumented === tests ? ast! : parseScript(instrumented);
  let withoutSkipScopes = false;
  if (strict && instrumented !== tests && (!iast || (!strictOk(instrumented) && strictOk(tests)))) {
    withoutSkipScopes = true;
    // Text the rewrite did not foresee: the tests keep every other rule without the skip scopes,
    // rather than every program of the problem ending in an internal error.
    checks = [];
    scopes = [];
    optional = [];
    inner = [];
    loops = [];
    ordered = [];
    instrumented = instrument(tests, ast!, { guard, checks, optional, inner, loops, ordered });
    iast = parseScript(instrumented);
  }
  if (!iast) return { ok: false, error: 'the tests could not be instrumented (the rewritten text does not parse)' };
  // The tests realm's copy of the prompt runs there too, and its helpers' comparisons decide the
  // tests' checks as much as the tests' own (`near(a, b)` from the prompt): guarded the same way.
  const helperSource = strict && guard && helpers.source ? guardSource(helpers.source, guard) : helpers.source;
  const stmts = iast.body as AnyNode[];
  let body = instrumented;
  const last = stmts[stmts.length - 1];
  if (last && last.type === 'ExpressionStatement' && !(last as { directive?: string }).directive) {
    const expr = last.expression as AnyNode;
    body = `${instrumented.slice(0, expr.start)}return (${instrumented.slice(expr.start, expr.end)});${instrumented.slice(last.end)}`;
  }
  // `let`: tests may rebind the entry point (`square = spy(square)`), as in a Node script.
  const binding = names.length ? `let { ${names.join(', ')} } = __anchorScope;\n` : '';
  const classes = helpers.classes.length ? `__anchorHooks.classes({ ${helpers.classes.join(', ')} });\n` : '';
  // The realm's sorts compare on the tests' behalf: they refuse what the tests' own comparisons do.
  const sorts = strict && guard ? `__anchorHooks.guard(${guard});\n` : '';
  const head = `(function (__anchorScope, __anchorHooks) {\n'use strict';\n${sorts}${binding}${helperSource}\n${classes}`;
  // The lines before the tests' first (the edits add none), so a stack line of the wrapper maps to a tests line.
  let before = 1;
  for (let i = 0; i < head.length; i++) if (head.charCodeAt(i) === 10) before++;
  const reached = strict
    ? `__anchorHooks.checks(${JSON.stringify(checks)}, ${JSON.stringify(scopes.map(skipEntry))}, ${JSON.stringify(optional)}, ${JSON.stringify(inner)}, ${JSON.stringify(loops)}, ${before}, ${JSON.stringify(ordered)});\n`
    : '';
  const wrapper = `${head}${reached}${body}\n})`;
  const reads = names
    .filter((n) => !(callableOnly.has(n) && valued.has(n)))
    .map((n) =>
      callableOnly.has(n)
        ? `try { if (typeof ${n} === 'function') __anchorRead[${JSON.stringify(n)}] = ${n}; } catch {}`
        : `try { __anchorRead[${JSON.stringify(n)}] = ${n}; } catch {}`,
    )
    .join('\n');
  // The prompt's classes as the program left their names, under a key no name the tests read can
  // be (a leading NUL): the program realm tells its own classes named like them from them.
  const classReads = helpers.classes
    .map((n) => `try { __anchorRead[${JSON.stringify(`\u0000${n}`)}] = ${n}; } catch {}`)
    .join('\n');
  const resolver = `(function () {\n'use strict';\nconst __anchorRead = { __proto__: null };\n${reads}\n${classReads}\nreturn __anchorRead;\n})()`;
  const plan: TestPlan = { names, namesJson: JSON.stringify(names), wrapper, resolver, nanExpected, evaluatesText };
  if (withoutSkipScopes) plan.withoutSkipScopes = true;
  return { ok: true, plan };
}
