/**
 * JavaScript: which entry point the tests call. (1) A prompt whose entry point is named like a
 * global every realm has (`function btoa(s) {`, `escape`, `parseInt`, `structuredClone`): the tests
 * read the name from their own realm, so they called the builtin, and any completion (`return 0`)
 * passed when the builtin does what the prompt asks. The prompt's entry point is now always read
 * from the program. (2) A prompt whose entry point is not a function declaration (`class Stack {`,
 * `const f = (xs) => {`, `var gcd = function (a, b) {`): its unclosed statement was copied into
 * the tests' copy of the prompt, which then did not compile (every honest completion failed); the
 * statement the completion continues is the entry point, whatever its kind.
 */
import { defineGenerator, grid } from './framework.ts';

const ASSERT = "const assert = require('node:assert');\n";

/** Entry points named like realm globals: [name, wrong body, tests calling it, honest body]. */
const GLOBAL_NAMED: ReadonlyArray<readonly [string, string, string, string]> = [
  [
    'btoa',
    "  return '';\n",
    "assert.strictEqual(btoa('hello'), 'aGVsbG8=');\n",
    "  return Buffer.from(s, 'latin1').toString('base64');\n",
  ],
  [
    'atob',
    "  return '';\n",
    "assert.strictEqual(atob('aGVsbG8='), 'hello');\n",
    "  return Buffer.from(s, 'base64').toString('latin1');\n",
  ],
  ['parseInt', '  return 0;\n', "assert.strictEqual(parseInt('42'), 42);\n", '  return Number(s);\n'],
  ['parseFloat', '  return 0;\n', "assert.strictEqual(parseFloat('4.5'), 4.5);\n", '  return Number(s);\n'],
  [
    'encodeURIComponent',
    '  return s;\n',
    "assert.strictEqual(encodeURIComponent('a b'), 'a%20b');\n",
    "  return s.split(' ').join('%20');\n",
  ],
  ['escape', '  return s;\n', "assert.strictEqual(escape('a<b'), 'a&lt;b');\n", "  return s.replace(/</g, '&lt;');\n"],
  [
    'isNaN',
    '  return true;\n',
    "assert.strictEqual(isNaN('x'), false);\nassert.strictEqual(isNaN(NaN), true);\n",
    '  return s !== s;\n',
  ],
  [
    'structuredClone',
    '  return s;\n',
    'const o = { a: [1] };\nassert.notStrictEqual(structuredClone(o), o);\nassert.deepStrictEqual(structuredClone(o), o);\n',
    '  return JSON.parse(JSON.stringify(s));\n',
  ],
  [
    'isFinite',
    '  return true;\n',
    "assert.strictEqual(isFinite('5'), false);\n",
    "  return typeof s === 'number' && Number.isFinite(s);\n",
  ],
  ['queueMicrotask', '  return 0;\n', 'assert.strictEqual(queueMicrotask(2), 4);\n', '  return s * 2;\n'],
];

const globalNamed = defineGenerator({
  name: 'js-entry-named-like-global',
  language: 'javascript',
  about:
    "an entry point named like a global of every realm: the tests call the program's, so a wrong one fails and an honest one passes",
  cases: () =>
    grid(20, GLOBAL_NAMED, [false, true], ([name, wrong, tests, honest], isHonest) => ({
      prompt: `/** the prompt's own ${name} */\nfunction ${name}(s) {\n`,
      completion: `${isHonest ? honest : wrong}}\n`,
      tests: ASSERT + tests,
      expect: isHonest ? ['pass'] : ['fail', 'error'],
      ...(isHonest ? {} : { maxPassed: 0 }),
      note: `${name} ${isHonest ? 'honest' : 'wrong'}`,
    })),
});

/** Prompts whose entry point is not a function declaration: [prompt, honest, wrong, tests]. */
const FORMS: ReadonlyArray<readonly [string, string, string, string]> = [
  [
    '/** sum of squares */\nconst sumSq = (xs) => {\n',
    '  return xs.reduce((a, x) => a + x * x, 0);\n};\n',
    '  return 0;\n};\n',
    'assert.strictEqual(sumSq([1, 2, 3]), 14);\nassert.strictEqual(sumSq([]), 0);\n',
  ],
  [
    '/** greatest common divisor */\nvar gcd = function (a, b) {\n',
    '  return b === 0 ? a : gcd(b, a % b);\n};\n',
    '  return 1;\n};\n',
    'assert.strictEqual(gcd(12, 18), 6);\nassert.strictEqual(gcd(7, 5), 1);\n',
  ],
  [
    '/** A LIFO stack */\nclass Stack {\n',
    '  constructor() {\n    this.items = [];\n  }\n  push(x) {\n    this.items.push(x);\n  }\n  pop() {\n    return this.items.pop();\n  }\n  size() {\n    return this.items.length;\n  }\n}\n',
    '  push(x) {}\n  pop() {\n    return 1;\n  }\n  size() {\n    return 0;\n  }\n}\n',
    'const s = new Stack();\ns.push(1);\ns.push(2);\nassert.strictEqual(s.pop(), 2);\nassert.strictEqual(s.size(), 1);\n',
  ],
  [
    'const LIMIT = 3;\n/** the first LIMIT items */\nlet take = function (xs) {\n',
    '  return xs.slice(0, LIMIT);\n};\n',
    '  return xs;\n};\n',
    'assert.deepStrictEqual(take([1, 2, 3, 4]), [1, 2, 3]);\n',
  ],
  [
    '/** async double */\nconst double = async (x) => {\n',
    '  return x * 2;\n};\n',
    '  return x;\n};\n',
    'async function t() {\n  assert.strictEqual(await double(4), 8);\n}\nt();\n',
  ],
];

const forms = defineGenerator({
  name: 'js-entry-forms',
  language: 'javascript',
  about: 'entry points that are classes, arrows and function expressions: honest completions pass, wrong ones fail',
  cases: () =>
    grid(20, FORMS, [true, false], ([prompt, honest, wrong, tests], isHonest) => ({
      prompt,
      completion: isHonest ? honest : wrong,
      tests: ASSERT + tests,
      expect: isHonest ? ['pass'] : ['fail', 'error'],
      ...(isHonest ? {} : { maxPassed: 1 }),
      note: `${prompt.split('\n')[1]} ${isHonest ? 'honest' : 'wrong'}`,
    })),
});

/** Tests that also declare the entry point's name in an inner scope: [tests]. */
const SHADOWS = [
  // The tests rebind the entry point (a spy), as a Node script may.
  'const calls = [];\nconst orig = count;\ncount = (xs, x) => {\n  calls.push(x);\n  return orig(xs, x);\n};\nassert.strictEqual(count([1, 1], 1), 2);\nassert.deepStrictEqual(calls, [1]);\n',
  'for (let count = 0; count < 1; count++) assert.strictEqual(count, 0);\nassert.strictEqual(count([1, 2, 2], 2), 2);\n',
  'function helper(count) {\n  return count + 1;\n}\nassert.strictEqual(helper(1), 2);\nassert.strictEqual(count([1, 1], 1), 2);\n',
  '[1].forEach((count) => assert.strictEqual(count, 1));\nassert.strictEqual(count([3, 4], 5), 0);\n',
  '{\n  const count = 7;\n  assert.strictEqual(count, 7);\n}\nassert.strictEqual(count([7, 7, 7], 7), 3);\n',
  'const t = { count: 2 };\nconst { count: c } = t;\nassert.strictEqual(c, 2);\nassert.strictEqual(count([0], 0), 1);\n',
];

const shadowed = defineGenerator({
  name: 'js-entry-shadowed-inside-tests',
  language: 'javascript',
  about: 'an entry point whose name the tests also declare in an inner scope is still read from the program',
  cases: () =>
    grid(24, SHADOWS, [true, false], (tests, isHonest) => ({
      prompt: '/** occurrences of x in xs */\nfunction count(xs, x) {\n',
      completion: isHonest ? '  return xs.filter((v) => v === x).length;\n}\n' : '  return -1;\n}\n',
      tests: ASSERT + tests,
      expect: isHonest ? ['pass'] : ['fail'],
      note: `${tests.split('\n')[0]} ${isHonest ? 'honest' : 'wrong'}`,
    })),
});

export const generators = [globalNamed, forms, shadowed];
