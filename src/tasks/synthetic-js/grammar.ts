/**
 * The `synthetic-js` function grammar: short integer, array and string functions of one
 * argument `x`, built by composing a few operations. Each draw yields the body text (the
 * reference completion) and, by compiling that exact text, its semantics — the generator never
 * keeps a second hand-written model of JavaScript that could disagree with the sandbox.
 */
import type { Rng } from '../../util/rng.ts';

/** Kinds of functions. */
export type FunctionKind = 'int' | 'array' | 'string';

/** Integer operations composed on `x`. */
export const INT_OPS = ['add', 'sub', 'mul', 'neg', 'abs', 'max', 'min', 'mod', 'square'] as const;
type IntOp = (typeof INT_OPS)[number];

/** Array pipeline stages (`length` and `sum` only end a pipeline). */
export const ARRAY_OPS = ['map', 'filter', 'reverse', 'slice', 'length', 'sum'] as const;
type ArrayOp = (typeof ARRAY_OPS)[number];

/** String operations (`length` only ends a chain). */
export const STRING_OPS = ['upper', 'reverse', 'slice', 'prefix', 'repeat', 'suffix', 'double', 'length'] as const;
type StringOp = (typeof STRING_OPS)[number];

/** Grammar knobs (the family schema's subset the grammar reads). */
export interface GrammarKnobs {
  min_ops: number;
  max_ops: number;
  const_max: number;
  int_ops: readonly IntOp[];
  array_ops: readonly ArrayOp[];
  string_ops: readonly StringOp[];
  conditional_rate: number;
}

/** A drawn function: its body (reference completion, ending with `}`) and op sequence. */
export interface DrawnFunction {
  kind: FunctionKind;
  /** Text following `function f(x) {\n`, e.g. `  return x * 3 + 1;\n}`. */
  body: string;
  /** Operation names in application order (for meta/difficulty reports). */
  ops: string[];
}

// Precedence levels of the expression being built, to parenthesise only where needed.
const ADD = 1;
const MUL = 2;
const UNARY = 3;
const ATOM = 4;

interface Expr {
  text: string;
  prec: number;
}

const wrap = (e: Expr, min: number): string => (e.prec < min ? `(${e.text})` : e.text);

/** Operations that would be redundant right after `prev` (x + 2 - 1, --x, |(|x|)|, ...). */
function intClash(prev: IntOp | null, op: IntOp): boolean {
  if (prev === null) return false;
  const group = (o: IntOp): string => (o === 'add' || o === 'sub' ? 'addsub' : o === 'max' || o === 'min' ? 'clamp' : o);
  if (group(prev) === group(op)) return true;
  if (op === 'abs' && prev === 'square') return true;
  return false;
}

function applyIntOp(rng: Rng, e: Expr, op: IntOp, k: GrammarKnobs, v: string): Expr {
  const c = (lo: number): number => rng.range(lo, Math.max(lo, k.const_max));
  switch (op) {
    case 'add':
      return { text: `${e.text} + ${c(1)}`, prec: ADD };
    case 'sub':
      return { text: `${e.text} - ${c(1)}`, prec: ADD };
    case 'mul':
      return { text: `${wrap(e, MUL)} * ${c(2)}`, prec: MUL };
    case 'mod':
      return { text: `${wrap(e, MUL)} % ${c(2)}`, prec: MUL };
    case 'neg':
      return { text: `-${wrap(e, UNARY)}`, prec: UNARY };
    case 'abs':
      return { text: `Math.abs(${e.text})`, prec: ATOM };
    case 'max':
      return { text: `Math.max(${e.text}, ${c(0)})`, prec: ATOM };
    case 'min':
      return { text: `Math.min(${e.text}, ${c(0)})`, prec: ATOM };
    case 'square':
      return { text: `${v} * ${v}`, prec: MUL };
  }
}

/** An integer expression over variable `v` with `n` operations (n may be 0: just `v`). */
function intExpr(rng: Rng, n: number, k: GrammarKnobs, v: string, allowed: readonly IntOp[]): { expr: Expr; ops: IntOp[] } {
  let e: Expr = { text: v, prec: ATOM };
  const ops: IntOp[] = [];
  let prev: IntOp | null = null;
  for (let i = 0; i < n; i++) {
    const choices = allowed.filter((o) => !intClash(prev, o) && (o !== 'square' || i === 0));
    if (choices.length === 0) break;
    const op = rng.pick(choices);
    e = applyIntOp(rng, e, op, k, v);
    ops.push(op);
    prev = op;
  }
  return { expr: e, ops };
}

function drawInt(rng: Rng, n: number, k: GrammarKnobs): DrawnFunction {
  if (n >= 2 && k.conditional_rate > 0 && rng.next() < k.conditional_rate) {
    // Piecewise: one operation on the guarded branch, the rest on the fall-through.
    const guard = rng.range(-2, 2);
    const a = intExpr(rng, 1, k, 'x', k.int_ops);
    const b = intExpr(rng, n - 1, k, 'x', k.int_ops);
    return {
      kind: 'int',
      body: `  if (x < ${guard}) return ${a.expr.text};\n  return ${b.expr.text};\n}`,
      ops: ['if', ...a.ops, ...b.ops],
    };
  }
  const { expr, ops } = intExpr(rng, n, k, 'x', k.int_ops);
  return { kind: 'int', body: `  return ${expr.text};\n}`, ops };
}

const MAP_OPS: readonly IntOp[] = ['add', 'sub', 'mul', 'mod', 'square'];

function arrayStage(rng: Rng, op: ArrayOp, k: GrammarKnobs): string {
  switch (op) {
    case 'map': {
      const allowed = MAP_OPS.filter((o) => k.int_ops.includes(o) || o === 'add' || o === 'mul');
      return `.map(v => ${intExpr(rng, 1, k, 'v', allowed).expr.text})`;
    }
    case 'filter': {
      const form = rng.int(3);
      if (form === 0) return `.filter(v => v % 2 == ${rng.int(2)})`;
      return `.filter(v => v ${form === 1 ? '>' : '<'} ${rng.range(2, 7)})`;
    }
    case 'reverse':
      return '.reverse()';
    case 'slice':
      return '.slice(1)';
    case 'length':
      return '.length';
    case 'sum':
      return '.reduce((a, v) => a + v, 0)';
  }
}

function drawArray(rng: Rng, n: number, k: GrammarKnobs): DrawnFunction {
  const ops: ArrayOp[] = [];
  let text = 'x';
  for (let i = 0; i < n; i++) {
    const last = i === n - 1;
    const prev = ops[ops.length - 1];
    const choices = k.array_ops.filter((o) => o !== prev && (last || (o !== 'length' && o !== 'sum')));
    if (choices.length === 0) break;
    const op = rng.pick(choices);
    text += arrayStage(rng, op, k);
    ops.push(op);
  }
  return { kind: 'array', body: `  return ${text};\n}`, ops };
}

const LETTERS = 'abcdefgh';

function drawString(rng: Rng, n: number, k: GrammarKnobs): DrawnFunction {
  let e: Expr = { text: 'x', prec: ATOM };
  const ops: StringOp[] = [];
  const word = (): string => {
    let w = '';
    const len = rng.range(1, 2);
    for (let i = 0; i < len; i++) w += LETTERS[rng.int(LETTERS.length)];
    return w;
  };
  for (let i = 0; i < n; i++) {
    const last = i === n - 1;
    const prev = ops[ops.length - 1];
    const choices = k.string_ops.filter(
      (o) =>
        o !== prev && (last || o !== 'length') && (o !== 'upper' || !ops.includes('upper')) && (o !== 'double' || e.text === 'x'),
    );
    if (choices.length === 0) break;
    const op = rng.pick(choices);
    switch (op) {
      case 'upper':
        e = { text: `${wrap(e, ATOM)}.toUpperCase()`, prec: ATOM };
        break;
      case 'reverse':
        e = { text: `${wrap(e, ATOM)}.split("").reverse().join("")`, prec: ATOM };
        break;
      case 'slice':
        e = { text: `${wrap(e, ATOM)}.slice(${rng.next() < 0.5 ? '1' : `0, ${rng.range(1, 3)}`})`, prec: ATOM };
        break;
      case 'repeat':
        e = { text: `${wrap(e, ATOM)}.repeat(${rng.range(2, 3)})`, prec: ATOM };
        break;
      case 'length':
        e = { text: `${wrap(e, ATOM)}.length`, prec: ATOM };
        break;
      case 'prefix':
        // String + is associative, so no parentheses are needed around a concatenation.
        e = { text: `"${word()}" + ${e.text}`, prec: ADD };
        break;
      case 'suffix':
        e = { text: `${e.text} + "${word()}"`, prec: ADD };
        break;
      case 'double':
        e = { text: 'x + x', prec: ADD };
        break;
    }
    ops.push(op);
  }
  return { kind: 'string', body: `  return ${e.text};\n}`, ops };
}

/** Draw one function of a kind with `n` operations. */
export function drawFunction(rng: Rng, kind: FunctionKind, n: number, k: GrammarKnobs): DrawnFunction {
  if (kind === 'int') return drawInt(rng, n, k);
  if (kind === 'array') return drawArray(rng, n, k);
  return drawString(rng, n, k);
}

/** Input values of each kind. */
export type JsValue = number | number[] | string;

/** Draw an input of a kind; `forExample` inputs are never empty (empty ones say little). */
export function drawInput(rng: Rng, kind: FunctionKind, input_max: number, array_max_len: number, forExample: boolean): JsValue {
  if (kind === 'int') return rng.range(-input_max, input_max);
  if (kind === 'array') {
    const len = rng.range(forExample ? 1 : 0, array_max_len);
    return Array.from({ length: len }, () => rng.range(0, 9));
  }
  const len = rng.range(forExample ? 1 : 0, 5);
  let s = '';
  for (let i = 0; i < len; i++) s += LETTERS[rng.int(LETTERS.length)];
  return s;
}

/** JavaScript literal of a value (compact JSON: `[1,2,3]`, `"ab"`, `-4`). */
export function literal(value: unknown): string {
  return JSON.stringify(value);
}

/**
 * Compile a body to a callable. The generator uses it to compute expected outputs from the
 * very text that becomes the reference solution. Only ever called on text this module built.
 */
export function compileBody(body: string): (x: JsValue) => unknown {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function(`function f(x) {\n${body}\nreturn f;`)() as (x: JsValue) => unknown;
}
