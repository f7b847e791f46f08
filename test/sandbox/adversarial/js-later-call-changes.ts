/**
 * JavaScript (red-team rt75 A22, X01): a later call of the program that answers a primitive
 * changes an earlier answer the program kept (`last.v = -1; return null`). The program realm
 * answered such a call without looking at its earlier answers (sandbox/snapshot.js, `serve`'s
 * early return), so the tests' copy kept the old contents and a check Node fails passed. Now a
 * call answers that way only when nothing earlier is watched. Controls: the tests check the
 * change (Node sees it too), or the later call changes nothing.
 */
import { checkCases, defineGenerator } from './framework.ts';

/** [a kept answer's initial value (source), the change (`last` is that answer), the changed read, its old value]. */
const SHAPES = [
  ['{ v: n }', 'last.v = -1', 'r.v', 'n'],
  ['[n, n]', 'last[0] = -1', 'r[0]', 'n'],
  ['{ list: [n] }', 'last.list.push(-1)', 'r.list.length', '1'],
  ['new Map([["k", n]])', 'last.set("k", -1)', 'r.get("k")', 'n'],
  ['{ inner: { v: n } }', 'last.inner.v = -1', 'r.inner.v', 'n'],
] as const;

/** What the later call answers. */
const LATER = ['null', '0', "'done'", 'undefined'] as const;

type Shape = (typeof SHAPES)[number];
type Row = (s: Shape) => readonly [string, string];

const program = (s: Shape, later: string, change: boolean) =>
  `let last;\nfunction f(n) {\n  if (n === 0) {\n    ${change ? `${s[1]};\n    ` : ''}return ${later};\n  }\n  last = ${s[0]};\n  return last;\n}\n`;

/** Wrong under Node: the earlier answer changed, and the tests expect it unchanged. */
const WRONG: readonly Row[] = LATER.map(
  (later) => (s: Shape) =>
    [program(s, later, true), `const n = 5;\n  const r = f(n);\n  f(0);\n  assert.deepStrictEqual(${s[2]}, ${s[3]});`] as const,
);

/** Honest: the tests expect the change, or nothing changes. */
const HONEST: readonly Row[] = [
  ...LATER.slice(0, 2).map(
    (later) => (s: Shape) =>
      [
        program(s, later, true),
        `const n = 5;\n  const r = f(n);\n  f(0);\n  assert.notDeepStrictEqual(${s[2]}, ${s[3]});`,
      ] as const,
  ),
  ...LATER.slice(2).map(
    (later) => (s: Shape) =>
      [
        program(s, later, false),
        `const n = 5;\n  const r = f(n);\n  f(0);\n  assert.deepStrictEqual(${s[2]}, ${s[3]});`,
      ] as const,
  ),
];

export const generators = [
  defineGenerator({
    name: 'js-later-call-changes',
    language: 'javascript',
    about: 'a later call answering a primitive changes an earlier answer the tests hold: fail',
    cases: () => checkCases(20, WRONG, SHAPES, ['fail']),
  }),
  defineGenerator({
    name: 'js-later-call-changes-honest',
    language: 'javascript',
    about: 'controls: the tests expect the change, or the later call changes nothing: pass',
    cases: () => checkCases(20, HONEST, SHAPES, ['pass']),
  }),
];
