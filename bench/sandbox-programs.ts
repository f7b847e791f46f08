/**
 * The generated MultiPL-E-style JavaScript programs of the sandbox benchmarks (bench:sandbox and
 * the A/B script bench/sandbox-js-ab.ts): function templates with a correct and a buggy body,
 * three `assert.deepEqual` checks each, as whole programs or in training's shape.
 */
import type { ProgramSpec } from '../src/sandbox/types.ts';
import { Rng } from '../src/util/rng.ts';

interface Template {
  name: string;
  args: (r: Rng) => unknown[];
  correct: string;
  buggy: string;
  reference: (...a: never[]) => unknown;
}

/** The function templates. */
export const TEMPLATES: Template[] = [
  {
    name: 'add',
    args: (r) => [r.int(100), r.int(100)],
    correct: 'return a + b;',
    buggy: 'return a - b;',
    reference: ((a: number, b: number) => a + b) as never,
  },
  {
    name: 'reverse_string',
    args: (r) => [word(r)],
    correct: "return a.split('').reverse().join('');",
    buggy: 'return a;',
    reference: ((a: string) => [...a].reverse().join('')) as never,
  },
  {
    name: 'sum_list',
    args: (r) => [list(r)],
    correct: 'return a.reduce((s, x) => s + x, 0);',
    buggy: 'return a.length;',
    reference: ((a: number[]) => a.reduce((s, x) => s + x, 0)) as never,
  },
  {
    name: 'max_of',
    args: (r) => [list(r, 1)],
    correct: 'return Math.max(...a);',
    buggy: 'return a[0];',
    reference: ((a: number[]) => Math.max(...a)) as never,
  },
  {
    name: 'count_vowels',
    args: (r) => [word(r)],
    correct: "return [...a].filter((c) => 'aeiou'.includes(c)).length;",
    buggy: "return [...a].filter((c) => 'aei'.includes(c)).length;",
    reference: ((a: string) => [...a].filter((c) => 'aeiou'.includes(c)).length) as never,
  },
  {
    name: 'is_palindrome',
    args: (r) => [r.next() < 0.5 ? pal(r) : word(r)],
    correct: "return a === a.split('').reverse().join('');",
    buggy: 'return a.length % 2 === 1;',
    reference: ((a: string) => a === [...a].reverse().join('')) as never,
  },
  {
    name: 'factorial',
    args: (r) => [r.int(12)],
    correct: 'let f = 1; for (let i = 2; i <= a; i++) f *= i; return f;',
    buggy: 'let f = 1; for (let i = 2; i < a; i++) f *= i; return f;',
    reference: ((a: number) => {
      let f = 1;
      for (let i = 2; i <= a; i++) f *= i;
      return f;
    }) as never,
  },
  {
    name: 'fib',
    args: (r) => [r.int(20)],
    correct: 'let x = 0, y = 1; for (let i = 0; i < a; i++) [x, y] = [y, x + y]; return x;',
    buggy: 'return a < 2 ? a : a - 1;',
    reference: ((a: number) => {
      let x = 0,
        y = 1;
      for (let i = 0; i < a; i++) [x, y] = [y, x + y];
      return x;
    }) as never,
  },
  {
    name: 'sort_numbers',
    args: (r) => [list(r)],
    correct: 'return [...a].sort((p, q) => p - q);',
    buggy: 'return [...a].sort();',
    reference: ((a: number[]) => [...a].sort((p, q) => p - q)) as never,
  },
  {
    name: 'unique',
    args: (r) => [list(r).map((x) => x % 5)],
    correct: 'return [...new Set(a)];',
    buggy: 'return a;',
    reference: ((a: number[]) => [...new Set(a)]) as never,
  },
  {
    name: 'word_lengths',
    args: (r) => [[word(r), word(r), word(r)].join(' ')],
    correct: "return Object.fromEntries(a.split(' ').map((w) => [w, w.length]));",
    buggy: "return a.split(' ').map((w) => w.length);",
    reference: ((a: string) => Object.fromEntries(a.split(' ').map((w) => [w, w.length]))) as never,
  },
  {
    name: 'flatten',
    args: (r) => [[list(r), [r.int(9), [r.int(9)]]]],
    correct: 'return a.flat(Infinity);',
    buggy: 'return a.flat();',
    reference: ((a: unknown[]) => a.flat(Infinity)) as never,
  },
];

function word(r: Rng): string {
  const n = 1 + r.int(8);
  let s = '';
  for (let i = 0; i < n; i++) s += 'abcdefghijklmnopqrstuvwxyz'[r.int(26)];
  return s;
}
function pal(r: Rng): string {
  const w = word(r);
  return w + [...w].reverse().join('');
}
function list(r: Rng, min = 0): number[] {
  return Array.from({ length: min + r.int(8) }, () => r.int(50) - 10);
}

/** A MultiPL-E-shaped program: comment + function + `const assert = require('node:assert')` + test(). */
function makeProgram(t: Template, correct: boolean, r: Rng, k: number): string {
  const params = ['a', 'b'].slice(0, t.args(r).length).join(', ');
  const checks: string[] = [];
  for (let i = 0; i < 3; i++) {
    const args = t.args(r);
    checks.push(
      `  assert.deepEqual(candidate(${args.map((a) => JSON.stringify(a)).join(', ')}),${JSON.stringify(t.reference(...(args as never[])))});`,
    );
  }
  return `//${t.name} (variant ${k})\nfunction ${t.name}(${params}){\n  ${correct ? t.correct : t.buggy}\n}\n\nconst assert = require('node:assert');\n\nfunction test() {\n  let candidate = ${t.name};\n${checks.join('\n')}\n}\n\ntest();\n`;
}

/**
 * Training's shape: the prompt + a sampled completion as the program, the tests separate (they run
 * in their own realm), 8 completions per problem sharing its prompt and tests, as in a GRPO group.
 */
export function trainingPrograms(n: number, seed: number): ProgramSpec[] {
  const r = new Rng(seed);
  const out: ProgramSpec[] = [];
  for (let k = 0; out.length < n; k++) {
    const t = TEMPLATES[r.int(TEMPLATES.length)]!;
    const full = makeProgram(t, true, r, k);
    const cut = full.indexOf('\n\nconst assert');
    const prompt = full.slice(0, full.indexOf('{\n') + 2);
    const tests = full.slice(cut);
    for (let g = 0; g < 8 && out.length < n; g++) {
      const body = r.next() < 0.6 ? t.correct : t.buggy;
      out.push({ id: `t${out.length}`, language: 'javascript', code: `${prompt}  ${body}\n}`, tests, prompt });
    }
  }
  return out;
}

/** `n` whole programs (tests inside, bench:sandbox's shape), 60 % correct. */
export function programs(n: number, seed: number): ProgramSpec[] {
  const r = new Rng(seed);
  return Array.from({ length: n }, (_, k) => {
    const t = TEMPLATES[r.int(TEMPLATES.length)]!;
    return { id: `p${k}`, language: 'javascript' as const, code: makeProgram(t, r.next() < 0.6, r, k) };
  });
}
