/**
 * JavaScript (red-team rt7 I01h): identity across calls. An object the tests hand to a stateful
 * entry point in one call and get back from a later one is, in one realm, the very object they
 * sent: `q.enqueue(a); q.dequeue() === a`, `s.add(a); s.has(a)`, `m.set(k, v); m.get(k) === v`.
 * Arguments are copied into the program's realm, so before this class every such answer was a
 * new object in the tests realm and honest queues, sets and registries failed their
 * `strictEqual`. Controls: honest stateful classes (and a function keeping module state) pass,
 * also when the program hands the stored objects to a callback of the tests.
 * Wrong twins: the same classes answering with a copy (`{ ...x }`, `[...x]`, `structuredClone`),
 * or looking objects up by value, fail as they do under Node.
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT, type Rng } from './framework.ts';

const OBJECTS = ['{ id: 1 }', '{ id: 7, tag: "x" }', '[1, 2]', '{ name: "job", n: 3 }', '[{ k: 1 }]', '{}'];
const OTHERS = ['{ id: 2 }', '{ id: 8, tag: "y" }', '[3]', '{ name: "other", n: 4 }', '[{ k: 2 }]', '{ z: 0 }'];

/** A stateful entry point: its prompt, honest completion, wrong completions and tests. */
interface Kind {
  note: string;
  prompt: (c: string) => string;
  honest: string;
  /** Completions that give back copies or compare by value (fail under Node too). */
  wrong: readonly string[];
  tests: (c: string, a: string, b: string) => string;
}

const CLASSES = ['Box', 'Store', 'Keeper', 'Holder', 'Pool'];

const KINDS: readonly Kind[] = [
  {
    note: 'queue',
    prompt: (c) => `/** FIFO queue: put(x), take() gives back the oldest object put. */\nclass ${c} {\n`,
    honest:
      '  constructor() {\n    this.items = [];\n  }\n  put(x) {\n    this.items.push(x);\n  }\n  take() {\n    return this.items.shift();\n  }\n}\n',
    wrong: [
      '  constructor() {\n    this.items = [];\n  }\n  put(x) {\n    this.items.push(x);\n  }\n  take() {\n    const v = this.items.shift();\n    return Array.isArray(v) ? [...v] : { ...v };\n  }\n}\n',
      '  constructor() {\n    this.items = [];\n  }\n  put(x) {\n    this.items.push(structuredClone(x));\n  }\n  take() {\n    return this.items.shift();\n  }\n}\n',
    ],
    tests: (c, a, b) =>
      `const q = new ${c}();\nconst a = ${a};\nconst b = ${b};\nq.put(a);\nq.put(b);\nassert.strictEqual(q.take(), a);\nassert.strictEqual(q.take(), b);\n`,
  },
  {
    note: 'stack, peek then pop',
    prompt: (c) => `/** LIFO stack: push(x), peek() and pop() give back the newest object. */\nclass ${c} {\n`,
    honest:
      '  constructor() {\n    this.s = [];\n  }\n  push(x) {\n    this.s.push(x);\n  }\n  peek() {\n    return this.s[this.s.length - 1];\n  }\n  pop() {\n    return this.s.pop();\n  }\n}\n',
    wrong: [
      '  constructor() {\n    this.s = [];\n  }\n  push(x) {\n    this.s.push(JSON.parse(JSON.stringify(x)));\n  }\n  peek() {\n    return this.s[this.s.length - 1];\n  }\n  pop() {\n    return this.s.pop();\n  }\n}\n',
    ],
    tests: (c, a, b) =>
      `const s = new ${c}();\nconst a = ${a};\nconst b = ${b};\ns.push(a);\ns.push(b);\nassert.ok(s.peek() === b);\nassert.strictEqual(s.pop(), b);\nassert.strictEqual(s.pop(), a);\n`,
  },
  {
    note: 'set by identity',
    prompt: (c) => `/** A set of objects by identity: add(x), has(x). */\nclass ${c} {\n`,
    honest:
      '  constructor() {\n    this.seen = new Set();\n  }\n  add(x) {\n    this.seen.add(x);\n  }\n  has(x) {\n    return this.seen.has(x);\n  }\n}\n',
    wrong: [
      '  constructor() {\n    this.seen = [];\n  }\n  add(x) {\n    this.seen.push(JSON.stringify(x));\n  }\n  has(x) {\n    return this.seen.includes(JSON.stringify(x));\n  }\n}\n',
    ],
    tests: (c, a, b) =>
      `const s = new ${c}();\nconst a = ${a};\nconst b = ${b};\ns.add(a);\nassert.strictEqual(s.has(a), true);\nassert.strictEqual(s.has(b), false);\nassert.strictEqual(s.has(${a}), false);\n`,
  },
  {
    note: 'registry keyed by object',
    prompt: (c) =>
      `/** A registry: set(key, value) with object keys by identity; get(key) gives the value back. */\nclass ${c} {\n`,
    honest:
      '  constructor() {\n    this.m = new Map();\n  }\n  set(k, v) {\n    this.m.set(k, v);\n  }\n  get(k) {\n    return this.m.get(k);\n  }\n}\n',
    wrong: [
      '  constructor() {\n    this.m = new Map();\n  }\n  set(k, v) {\n    this.m.set(JSON.stringify(k), v);\n  }\n  get(k) {\n    return this.m.get(JSON.stringify(k));\n  }\n}\n',
      '  constructor() {\n    this.m = new Map();\n  }\n  set(k, v) {\n    this.m.set(k, v);\n  }\n  get(k) {\n    const v = this.m.get(k);\n    return v === undefined ? v : structuredClone(v);\n  }\n}\n',
    ],
    tests: (c, a, b) =>
      `const r = new ${c}();\nconst k1 = ${a};\nconst k2 = ${a};\nconst v = ${b};\nr.set(k1, v);\nassert.strictEqual(r.get(k1), v);\nassert.strictEqual(r.get(k2), undefined);\n`,
  },
  {
    note: 'items read as a field',
    prompt: (c) => `/** A list holder: add(x) appends the very object to this.items. */\nclass ${c} {\n`,
    honest: '  constructor() {\n    this.items = [];\n  }\n  add(x) {\n    this.items.push(x);\n  }\n}\n',
    wrong: ['  constructor() {\n    this.items = [];\n  }\n  add(x) {\n    this.items.push(structuredClone(x));\n  }\n}\n'],
    tests: (c, a, b) =>
      `const h = new ${c}();\nconst a = ${a};\nconst b = ${b};\nh.add(a);\nh.add(b);\nassert.strictEqual(h.items[0], a);\nassert.strictEqual(h.items[1], b);\n`,
  },
  {
    note: 'a callback of the tests given the stored objects',
    prompt: (c) => `/** A list: add(x); each(f) calls f with every object added, in order. */\nclass ${c} {\n`,
    honest:
      '  constructor() {\n    this.items = [];\n  }\n  add(x) {\n    this.items.push(x);\n  }\n  each(f) {\n    for (const x of this.items) f(x);\n  }\n}\n',
    wrong: [
      '  constructor() {\n    this.items = [];\n  }\n  add(x) {\n    this.items.push(x);\n  }\n  each(f) {\n    for (const x of this.items) f(structuredClone(x));\n  }\n}\n',
    ],
    tests: (c, a, b) =>
      `const h = new ${c}();\nconst a = ${a};\nconst b = ${b};\nh.add(a);\nh.add(b);\nconst seen = [];\nh.each((x) => seen.push(x));\nassert.strictEqual(seen[0], a);\nassert.strictEqual(seen[1], b);\n`,
  },
];

/** A plain function keeping module state: `keep(x)` then `last()` gives x back. */
const FUNCTION_PROMPT = '/** keep(x) remembers x; last() gives back the very object kept last. */\nfunction keep(x) {\n';
const FUNCTION_HONEST = '  kept = x;\n}\nlet kept;\nfunction last() {\n  return kept;\n}\n';
const FUNCTION_WRONG = '  kept = structuredClone(x);\n}\nlet kept;\nfunction last() {\n  return kept;\n}\n';
const functionTests = (a: string, b: string) =>
  `const a = ${a};\nconst b = ${b};\nkeep(a);\nassert.strictEqual(last(), a);\nkeep(b);\nassert.strictEqual(last(), b);\n`;

function pair(rng: Rng): [string, string] {
  const i = rng.int(0, OBJECTS.length - 1);
  return [OBJECTS[i]!, OTHERS[i]!];
}

const honest = defineGenerator({
  name: 'js-identity-across-calls',
  language: 'javascript',
  about: "controls: an object given to a stateful entry point and given back by a later call is the tests' own object, pass",
  cases: (rng) => [
    ...grid(20, KINDS, CLASSES, (kind, c, i): AdversarialCase => {
      const [a, b] = pair(rng);
      return {
        prompt: kind.prompt(c),
        completion: kind.honest,
        tests: `${JS_ASSERT}${kind.tests(c, a, b)}`,
        expect: ['pass'],
        note: `${kind.note} (${i})`,
      };
    }),
    ...grid(4, [0, 1, 2, 3], [0], (k): AdversarialCase => {
      const [a, b] = [OBJECTS[k]!, OTHERS[k]!];
      return {
        prompt: FUNCTION_PROMPT,
        completion: FUNCTION_HONEST,
        tests: `${JS_ASSERT}${functionTests(a, b)}`,
        expect: ['pass'],
        note: 'a function keeping module state',
      };
    }),
  ],
});

const wrong = defineGenerator({
  name: 'js-identity-across-calls-wrong',
  language: 'javascript',
  about: 'the same entry points giving back copies or comparing by value: fail, as under Node',
  cases: (rng) => [
    ...grid(
      20,
      KINDS.flatMap((k) => k.wrong.map((w) => [k, w] as const)),
      CLASSES,
      ([kind, w], c, i): AdversarialCase => {
        const [a, b] = pair(rng);
        return {
          prompt: kind.prompt(c),
          completion: w,
          tests: `${JS_ASSERT}${kind.tests(c, a, b)}`,
          expect: ['fail'],
          note: `${kind.note}, a copy or by value (${i})`,
        };
      },
    ),
    ...grid(
      4,
      [0, 1, 2, 3],
      [0],
      (k): AdversarialCase => ({
        prompt: FUNCTION_PROMPT,
        completion: FUNCTION_WRONG,
        tests: `${JS_ASSERT}${functionTests(OBJECTS[k]!, OTHERS[k]!)}`,
        expect: ['fail'],
        note: 'a function keeping a copy',
      }),
    ),
  ],
});

export const generators = [honest, wrong];
