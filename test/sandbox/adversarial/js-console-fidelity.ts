/**
 * JavaScript (red-team rt60 K6): tests that capture what a program prints (replacing
 * `process.stdout.write`) and compare it with what Node prints. Differences from Node's console
 * failed honest programs: an array of more than six numbers is grouped into columns by Node,
 * `console.group` indents, `console.count` goes through `console.log`, a `Buffer` prints as
 * `<Buffer …>`, and `process.stdout.write`'s callback is called. Each task has an honest
 * completion (its output is Node's) and a wrong one; the expected text in the tests is Node's
 * (checked under Node).
 */
import { format } from 'node:util';
import { defineGenerator, JS_ASSERT, variants } from './framework.ts';

const CAPTURE =
  "function capture(fn) {\n  let out = '';\n  const orig = process.stdout.write;\n  process.stdout.write = (s) => {\n    out += s;\n    return true;\n  };\n  try {\n    fn();\n  } finally {\n    process.stdout.write = orig;\n  }\n  return out;\n}\n";

interface Task {
  prompt: string;
  honest: string;
  wrong: string;
  /** Tests for variant v (0..3). */
  tests: (v: number) => string;
}

const sq = (n: number) => Array.from({ length: n }, (_, i) => (i + 1) * (i + 1));

const TASKS: readonly Task[] = [
  {
    prompt: '// printSquares(n): logs the array of the squares 1..n² with console.log\nfunction printSquares(n) {\n',
    honest: '  console.log(Array.from({ length: n }, (_, i) => (i + 1) ** 2));\n}\n',
    wrong: "  console.log('[ ' + Array.from({ length: n }, (_, i) => (i + 1) ** 2).join(', ') + ' ]');\n}\n",
    tests: (v) => {
      const n = 7 + v * 3;
      // Node's layout of the array: what the Node running the generator prints.
      const want = `${format(sq(n))}\n`;
      return `${CAPTURE}assert.strictEqual(capture(() => printSquares(${n})), ${JSON.stringify(want)});\n`;
    },
  },
  {
    prompt:
      '// printTree(t): prints the tree {name, children} with console.group, one name per line, children indented\nfunction printTree(t) {\n',
    honest: '  console.group(t.name);\n  for (const c of t.children || []) printTree(c);\n  console.groupEnd();\n}\n',
    wrong: "  console.log(t.name);\n  for (const c of t.children || []) printTree({ ...c, name: ' ' + c.name });\n}\n",
    tests: (v) =>
      `${CAPTURE}assert.strictEqual(capture(() => printTree({ name: 'root${v}', children: [{ name: 'a', children: [{ name: 'b' }] }, { name: 'c' }] })), "root${v}\\n  a\\n    b\\n  c\\n");\n`,
  },
  {
    prompt: '// tally(xs): console.count(x) for every x of xs, in order\nfunction tally(xs) {\n',
    honest: '  for (const x of xs) console.count(x);\n}\n',
    wrong: "  const seen = {};\n  for (const x of xs) console.log(x + ': ' + ((seen[x] = (seen[x] || 0) + 1) - 1));\n}\n",
    tests: (v) =>
      `${CAPTURE}assert.strictEqual(capture(() => tally(['a', 'b', 'a'${v > 1 ? ", 'a'" : ''}])), 'a: 1\\nb: 1\\na: 2\\n${v > 1 ? 'a: 3\\n' : ''}');\n`,
  },
  {
    prompt: '// showBytes(s): logs the UTF-8 bytes of s as a Buffer\nfunction showBytes(s) {\n',
    honest: '  console.log(Buffer.from(s));\n}\n',
    wrong: '  console.log(new Uint8Array(Buffer.from(s)));\n}\n',
    tests: (v) =>
      `${CAPTURE}assert.strictEqual(capture(() => showBytes('hi${'!'.repeat(v)}')), '<Buffer 68 69${' 21'.repeat(v)}>\\n');\n`,
  },
  {
    prompt:
      "// emit(s): writes s to stdout; resolves once the write is done (process.stdout.write's callback)\nfunction emit(s) {\n",
    honest: '  return new Promise((resolve) => process.stdout.write(s, resolve));\n}\n',
    wrong: '  return new Promise((resolve) => process.stdout.write(s.toUpperCase(), resolve));\n}\n',
    tests: (v) =>
      `(async () => {\n  let out = '';\n  const orig = process.stdout.write;\n  process.stdout.write = (s, cb) => {\n    out += s;\n    if (typeof cb === 'function') process.nextTick(cb);\n    return true;\n  };\n  await emit('line ${v}\\n');\n  process.stdout.write = orig;\n  assert.strictEqual(out, 'line ${v}\\n');\n})();\n(async () => {\n  await new Promise((resolve) => process.stdout.write('', resolve));\n})();\n`,
  },
];

const build = (wrong: boolean) => (i: number) => {
  const t = TASKS[i % TASKS.length]!;
  const v = Math.floor(i / TASKS.length) % 4;
  return {
    prompt: t.prompt,
    completion: wrong ? t.wrong : t.honest,
    tests: JS_ASSERT + t.tests(v),
    expect: wrong ? (['fail'] as const) : (['pass'] as const),
  };
};

export const generators = [
  defineGenerator({
    name: 'js-console-fidelity-honest',
    language: 'javascript',
    about:
      "controls: honest programs whose printed output is Node's (grouped arrays, console.group, console.count, Buffers, write callbacks) pass",
    cases: () => variants(20, build(false)),
  }),
  defineGenerator({
    name: 'js-console-fidelity',
    language: 'javascript',
    about: "wrong programs printing other text than Node's fail",
    cases: () => variants(20, build(true)),
  }),
];
