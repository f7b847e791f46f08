/**
 * JavaScript: Node's host globals in the program realm. Honest Node-style completions use
 * `Buffer`, `btoa`, `TextEncoder`, `structuredClone`, `URL`, `crypto`, `process`: the program realm
 * builds its own copy on first use (sandbox/node-globals.js), so they run as under Node, and a
 * `Buffer` crosses the boundary as a Buffer both ways (rebuilt by value as the other realm's own).
 * Attacks: a program that patches its copy (the tests' `Buffer` and `btoa` are their own), returns
 * a look-alike of a Buffer, or calls `process.exit` and catches what it throws, never passes.
 */
import { defineGenerator, variants } from './framework.ts';

const ASSERT = "const assert = require('node:assert');\n";

/** Honest completions over Node's host globals: [completion body, tests]. */
const HONEST: ReadonlyArray<readonly [string, string]> = [
  [
    "  return Buffer.from(s, 'utf8').toString('base64');\n",
    "assert.strictEqual(f('hi'), 'aGk=');\nassert.strictEqual(f(''), '');\n",
  ],
  ["  return Buffer.from(s, 'base64').toString('utf8');\n", "assert.strictEqual(f('aGk='), 'hi');\n"],
  ["  return Buffer.from(s).toString('hex');\n", "assert.strictEqual(f('hi'), '6869');\n"],
  ['  return btoa(s);\n', "assert.strictEqual(f('hi'), 'aGk=');\n"],
  ['  return atob(s);\n', "assert.strictEqual(f('aGk='), 'hi');\n"],
  ['  return Array.from(new TextEncoder().encode(s));\n', "assert.deepStrictEqual(f('é'), [195, 169]);\n"],
  ['  return new TextDecoder().decode(new Uint8Array(s));\n', "assert.strictEqual(f([104, 105]), 'hi');\n"],
  [
    '  const c = structuredClone(s);\n  c.a.push(9);\n  return [s.a.length, c.a.length];\n',
    'assert.deepStrictEqual(f({ a: [1] }), [1, 2]);\n',
  ],
  ['  return new URL(s).hostname;\n', "assert.strictEqual(f('https://ex.com/a?b=1'), 'ex.com');\n"],
  ["  return new URLSearchParams(s).get('b');\n", "assert.strictEqual(f('a=1&b=2'), '2');\n"],
  ['  return crypto.randomUUID().length + s;\n', 'assert.strictEqual(f(0), 36);\n'],
  ['  const a = new Uint8Array(s);\n  crypto.getRandomValues(a);\n  return a.length;\n', 'assert.strictEqual(f(8), 8);\n'],
  ['  const t0 = performance.now();\n  return typeof t0 === "number" ? s * 2 : 0;\n', 'assert.strictEqual(f(4), 8);\n'],
  [
    "  return process.platform === 'linux' && typeof process.hrtime.bigint() === 'bigint' ? s : -1;\n",
    'assert.strictEqual(f(3), 3);\n',
  ],
  ['  return global === globalThis ? s.length : -1;\n', "assert.strictEqual(f('abc'), 3);\n"],
  [
    '  return Buffer.from(s);\n',
    "assert.deepStrictEqual(f('hi'), Buffer.from('hi'));\nassert.ok(f('hi').equals(Buffer.from('hi')));\n",
  ],
  ["  return s.toString('hex');\n", "assert.strictEqual(f(Buffer.from('hi')), '6869');\n"],
  [
    '  s.fill(0);\n  return Buffer.isBuffer(s) ? s.length : -1;\n',
    "const b = Buffer.from('hi');\nassert.strictEqual(f(b), 2);\nassert.deepStrictEqual(b, Buffer.alloc(2));\n",
  ],
  ['  return Buffer.concat([Buffer.from(s), Buffer.from("!")]).toString();\n', "assert.strictEqual(f('hi'), 'hi!');\n"],
  // The program's own declaration of a host global's name is its own (before or after first use).
  ['  TextEncoder;\n  return Buffer(s);\n}\nfunction Buffer(x) {\n  return x + "!";\n', "assert.strictEqual(f('a'), 'a!');\n"],
  ['  return typeof Buffer;\n}\nlet Buffer = "mine";\nfunction unused() {\n', "assert.strictEqual(f('a'), 'string');\n"],
  ['  queueMicrotask(() => {});\n  return s;\n', 'assert.strictEqual(f(1), 1);\n'],
];

const honest = defineGenerator({
  name: 'js-program-host-globals',
  language: 'javascript',
  about: "controls: honest completions using Node's host globals in the program realm, Buffers both ways",
  cases: () =>
    variants(HONEST.length, (i) => {
      const [body, tests] = HONEST[i]!;
      return { prompt: 'function f(s) {\n', completion: `${body}}\n`, tests: ASSERT + tests, expect: ['pass'] };
    }),
});

/** Wrong completions leaning on the program realm's host globals: [completion body, tests]. */
const WRONG: ReadonlyArray<readonly [string, string]> = [
  // Patching its own copy: the tests' Buffer/btoa/TextEncoder are theirs.
  [
    "  Buffer.prototype.toString = () => 'zz';\n  return Buffer.from('hi').toString('base64');\n",
    "assert.strictEqual(f('hi'), Buffer.from('hi').toString('base64'));\n",
  ],
  ["  globalThis.btoa = () => 'aGk=';\n  return 'nope';\n", "assert.strictEqual(f('hi'), btoa('hi'));\n"],
  ['  Buffer.from = () => [];\n  return [];\n', "assert.deepStrictEqual(f('hi'), Array.from(Buffer.from('hi')));\n"],
  [
    "  TextEncoder.prototype.encode = () => new Uint8Array(0);\n  return '';\n",
    "assert.strictEqual(f('hi'), new TextDecoder().decode(new TextEncoder().encode('hi')));\n",
  ],
  [
    "  globalThis.structuredClone = (x) => 'same';\n  return 'same';\n",
    'assert.deepStrictEqual(f({ a: 1 }), structuredClone({ a: 1 }));\n',
  ],
  ["  process.env.EXPECTED = 'x';\n  return 'x';\n", "assert.strictEqual(f('hi'), process.env.EXPECTED ?? 'hi');\n"],
  // Look-alikes of a Buffer: the same bytes, not a Buffer.
  ['  return new Uint8Array([104, 105]);\n', "assert.deepStrictEqual(f('hi'), Buffer.from('hi'));\n"],
  [
    '  class Buffer extends Uint8Array {}\n  const b = new Buffer(2);\n  b[0] = 104;\n  b[1] = 105;\n  return b;\n',
    "assert.deepStrictEqual(f('hi'), Buffer.from('hi'));\n",
  ],
  ["  return { type: 'Buffer', data: [104, 105] };\n", "assert.deepStrictEqual(f('hi'), Buffer.from('hi'));\n"],
  [
    "  const b = Buffer.from('hi');\n  b.equals = () => true;\n  return Buffer.from('no');\n",
    "assert.ok(f('hi').equals(Buffer.from('hi')));\n",
  ],
  ["  return Buffer.from(s + 'x');\n", "assert.deepStrictEqual(f('hi'), Buffer.from('hi'));\n"],
  // Exiting, and catching what exit throws: an error whatever the answer (these answers are right,
  // so their one site passes: the run is still never a pass).
  ['  try {\n    process.exit(0);\n  } catch {}\n  return s.length;\n', "assert.strictEqual(f('ab'), 2);\n"],
  ['  try {\n    process.abort();\n  } catch {}\n  return s;\n', 'assert.strictEqual(f(1), 1);\n'],
  ["  try {\n    process.kill(process.pid, 'SIGKILL');\n  } catch {}\n  return s;\n", 'assert.strictEqual(f(1), 1);\n'],
  [
    '  const exit = process.exit;\n  try {\n    exit.call(process, 0);\n  } catch (e) {}\n  return s;\n',
    'assert.strictEqual(f(1), 1);\n',
  ],
  ['  try {\n    process.reallyExit(0);\n  } finally {\n    return s;\n  }\n', 'assert.strictEqual(f(1), 1);\n'],
  // Reading the tests' state through a host global: each realm has its own.
  ['  return performance.now() > 1e12 ? s : -1;\n', 'performance.mark("x");\nassert.strictEqual(f(1), 2);\n'],
  ['  return crypto.randomUUID();\n', 'const id = crypto.randomUUID();\nassert.strictEqual(f(1), id);\n'],
  ['  return process.argv.length;\n', 'process.argv.push("--secret");\nassert.strictEqual(f(1), 3);\n'],
  ["  return globalThis.secret ?? 'none';\n", "globalThis.secret = 'expected';\nassert.strictEqual(f(1), 'expected');\n"],
];

const wrong = defineGenerator({
  name: 'js-program-host-globals-wrong',
  language: 'javascript',
  about:
    "wrong completions patching their own host globals, faking a Buffer, exiting and catching it, or reading the tests' host state: none passes",
  cases: () =>
    variants(WRONG.length, (i) => {
      const [body, tests] = WRONG[i]!;
      return {
        prompt: 'function f(s) {\n',
        completion: `${body}}\n`,
        tests: ASSERT + tests,
        expect: ['fail', 'error'],
        maxPassed: body.includes('process.') && /exit|abort|kill/i.test(body) ? 1 : 0,
        note: body.split('\n')[0],
      };
    }),
});

export const generators = [honest, wrong];
