/**
 * JavaScript feature extractors:
 *
 * - `js-surface`: hashed token n-gram counts (n = 1…3 over {@link tokenizeJs} tokens, FNV-1a
 *   hashed into `hashDim` buckets) followed by {@link LENGTH_FEATURES}. Only the completion is
 *   featurised: the prompt is the same for every completion of a problem, so it would add a
 *   per-problem constant and nothing else.
 * - `js-ast`: counts of ESTree node types from a real parse (acorn), max depth, node count and
 *   a parses-or-not flag. The completion is parsed after its prompt (a function body only
 *   parses inside its signature); when a prompt is given, the prompt's own node counts are
 *   subtracted so the features describe the completion.
 */
import { parse, type Node } from 'acorn';
import { fnv1a32 } from '../../tasks/index.ts';
import { tokenizeJs } from './js-tokenize.ts';
import { addHashedNgrams, type FeatureExtractor } from './types.ts';
import { AnchorError } from '../../util/errors.ts';

/** Names of the length features that close the `js-surface` vector. */
export const LENGTH_FEATURES = [
  'chars',
  'log1p_chars',
  'lines',
  'tokens',
  'log1p_tokens',
  'max_line_length',
  'brace_balance',
  'paren_balance',
] as const;

/** Options of `js-surface`. */
export interface JsSurfaceOptions {
  /** Hash buckets for the n-gram counts (default 1024). */
  hashDim?: number;
  /** Largest n-gram order (default 3). */
  maxN?: number;
}

/** The `js-surface` extractor: hashed 1–3-gram counts + length features. */
export function jsSurfaceExtractor(opts: JsSurfaceOptions = {}): FeatureExtractor {
  const hashDim = opts.hashDim ?? 1024;
  const maxN = opts.maxN ?? 3;
  if (!Number.isInteger(hashDim) || hashDim < 1)
    throw new AnchorError('BAD_CONFIG', `hashDim must be a positive integer, got ${hashDim}`);
  const dim = hashDim + LENGTH_FEATURES.length;
  return {
    name: 'js-surface',
    dim,
    featureNames: [...Array.from({ length: hashDim }, (_, i) => `ngram#${i}`), ...LENGTH_FEATURES],
    extract(text) {
      const out = new Float32Array(dim);
      const toks = tokenizeJs(text);
      addHashedNgrams(out, toks, hashDim, maxN, fnv1a32);
      const lines = text.split('\n');
      let balBrace = 0;
      let balParen = 0;
      for (const t of toks) {
        if (t === '{') balBrace++;
        else if (t === '}') balBrace--;
        else if (t === '(') balParen++;
        else if (t === ')') balParen--;
      }
      const len = [
        text.length,
        Math.log1p(text.length),
        lines.length,
        toks.length,
        Math.log1p(toks.length),
        Math.max(...lines.map((l) => l.length)),
        balBrace,
        balParen,
      ];
      out.set(len, hashDim);
      return out;
    },
  };
}

/** ESTree node types counted by `js-ast`, in feature order; anything else counts as `other`. */
export const ESTREE_TYPES = [
  'Program',
  'ExpressionStatement',
  'BlockStatement',
  'EmptyStatement',
  'DebuggerStatement',
  'WithStatement',
  'ReturnStatement',
  'LabeledStatement',
  'BreakStatement',
  'ContinueStatement',
  'IfStatement',
  'SwitchStatement',
  'SwitchCase',
  'ThrowStatement',
  'TryStatement',
  'CatchClause',
  'WhileStatement',
  'DoWhileStatement',
  'ForStatement',
  'ForInStatement',
  'ForOfStatement',
  'FunctionDeclaration',
  'VariableDeclaration',
  'VariableDeclarator',
  'ClassDeclaration',
  'ClassExpression',
  'ClassBody',
  'MethodDefinition',
  'PropertyDefinition',
  'StaticBlock',
  'Identifier',
  'PrivateIdentifier',
  'Literal',
  'ThisExpression',
  'Super',
  'ArrayExpression',
  'ObjectExpression',
  'Property',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'UnaryExpression',
  'UpdateExpression',
  'BinaryExpression',
  'AssignmentExpression',
  'LogicalExpression',
  'MemberExpression',
  'ConditionalExpression',
  'CallExpression',
  'NewExpression',
  'SequenceExpression',
  'YieldExpression',
  'AwaitExpression',
  'TemplateLiteral',
  'TaggedTemplateExpression',
  'TemplateElement',
  'SpreadElement',
  'RestElement',
  'ObjectPattern',
  'ArrayPattern',
  'AssignmentPattern',
  'MetaProperty',
  'ChainExpression',
  'ImportExpression',
] as const;

const TYPE_INDEX = new Map<string, number>(ESTREE_TYPES.map((t, i) => [t, i]));
/** Tail of the `js-ast` vector after the type counts. */
export const AST_EXTRA_FEATURES = ['other', 'parses', 'max_depth', 'nodes', 'log1p_nodes'] as const;

interface AstStats {
  counts: Float32Array;
  maxDepth: number;
  nodes: number;
}

function astStats(source: string): AstStats | null {
  let root: Node;
  try {
    root = parse(source, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true });
  } catch {
    return null;
  }
  const counts = new Float32Array(ESTREE_TYPES.length + 1);
  let maxDepth = 0;
  let nodes = 0;
  // Explicit stack: generated code can nest deeply, and recursion here would be a second limit.
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    const n = node as Record<string, unknown> & { type: string };
    nodes++;
    if (depth > maxDepth) maxDepth = depth;
    counts[TYPE_INDEX.get(n.type) ?? ESTREE_TYPES.length]! += 1;
    for (const key in n) {
      if (key === 'type' || key === 'start' || key === 'end' || key === 'loc' || key === 'range') continue;
      const v = n[key];
      if (Array.isArray(v)) {
        for (const c of v) if (isNode(c)) stack.push([c, depth + 1]);
      } else if (isNode(v)) stack.push([v, depth + 1]);
    }
  }
  return { counts, maxDepth, nodes };
}

function isNode(v: unknown): boolean {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';
}

/** The `js-ast` extractor: ESTree type counts, other, parses, max depth, node count. */
export function jsAstExtractor(): FeatureExtractor {
  const k = ESTREE_TYPES.length + 1;
  const dim = k + AST_EXTRA_FEATURES.length - 1;
  // Prompts repeat across the completions of a problem; cache their parse.
  const promptCache = new Map<string, AstStats | null>();
  return {
    name: 'js-ast',
    dim,
    extract(text, prompt) {
      const out = new Float32Array(dim);
      const full = astStats((prompt ?? '') + text);
      if (!full) return out; // parses = 0, everything else 0
      let base: AstStats | null | undefined;
      if (prompt) {
        base = promptCache.get(prompt);
        if (base === undefined && !promptCache.has(prompt)) {
          base = astStats(prompt);
          if (promptCache.size > 1000) promptCache.clear();
          promptCache.set(prompt, base);
        }
      }
      for (let i = 0; i < k; i++) out[i] = full.counts[i]! - (base ? base.counts[i]! : 0);
      const nodes = full.nodes - (base ? base.nodes : 0);
      out[k] = 1;
      out[k + 1] = full.maxDepth;
      out[k + 2] = nodes;
      out[k + 3] = Math.log1p(Math.max(0, nodes));
      return out;
    },
  };
}
