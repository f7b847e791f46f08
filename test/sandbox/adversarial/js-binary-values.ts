/**
 * JavaScript (red-team rt74 A10-A19): binary values whose class, own data or buffer layout did
 * not cross. A DataView or ArrayBuffer crossed as its bytes alone (an own property, a subclass
 * or a null prototype dropped), a SharedArrayBuffer or a resizable ArrayBuffer crossed as a
 * plain ArrayBuffer, and a view over part of a larger buffer came back over a buffer of its own
 * size (`buffer`, `byteOffset` read otherwise). Now DataViews and ArrayBuffers carry their class
 * and own data as other builtins do, shared and resizable buffers are refused, and a view over
 * part of a buffer crosses with that buffer (sandbox/snapshot.js, `plainBuffer`, `viewLayout`).
 * Each case's expected status is what Node gives for the program and the tests in one file.
 */
import { checkCases, defineGenerator } from './framework.ts';

/** The byte counts a case is made of. */
const SIZES = [2, 4, 6] as const;

/** [program (entry `f`), the tests' statements] for a size. */
type Row = (n: number) => readonly [string, string];

/** Wrong under Node: fail. */
const WRONG: readonly Row[] = [
  (n) => [
    `function f(n) {\n  const dv = new DataView(new ArrayBuffer(n));\n  dv.setUint8(0, 7);\n  dv.note = 'x';\n  return dv;\n}\n`,
    `const e = new DataView(new ArrayBuffer(${n}));\n  e.setUint8(0, 7);\n  assert.deepStrictEqual(f(${n}), e);`,
  ],
  (n) => [
    `class DV extends DataView {}\nfunction f(n) {\n  const dv = new DV(new ArrayBuffer(n));\n  dv.setUint8(0, 7);\n  return dv;\n}\n`,
    `const e = new DataView(new ArrayBuffer(${n}));\n  e.setUint8(0, 7);\n  assert.deepStrictEqual(f(${n}), e);`,
  ],
  (n) => [
    `function f(n) {\n  const dv = new DataView(new ArrayBuffer(n + 8), 4, n);\n  dv.setUint8(0, 7);\n  return dv;\n}\n`,
    `const r = f(${n});\n  assert.strictEqual(r.getUint8(0), 7);\n  assert.strictEqual(r.buffer.byteLength, ${n});`,
  ],
  (n) => [
    `function f(n) {\n  const big = new Uint8Array(n + 16);\n  big[8] = 1;\n  return big.subarray(8, 8 + n);\n}\n`,
    `const r = f(${n});\n  assert.strictEqual(r[0], 1);\n  assert.strictEqual(r.byteOffset, 0);`,
  ],
  (n) => [
    `function f(n) {\n  const big = new Uint8Array(n * 2);\n  big[n] = 9;\n  return new Uint8Array(big.buffer, n, n);\n}\n`,
    `const r = f(${n});\n  assert.deepStrictEqual(Array.from(new Uint8Array(r.buffer)), Array.from(r));`,
  ],
  (n) => [
    `function f(n) {\n  const b = new ArrayBuffer(n);\n  b.tag = 'x';\n  return b;\n}\n`,
    `assert.deepStrictEqual(f(${n}), new ArrayBuffer(${n}));`,
  ],
  (n) => [
    `class AB extends ArrayBuffer {}\nfunction f(n) {\n  return new AB(n);\n}\n`,
    `assert.deepStrictEqual(f(${n}), new ArrayBuffer(${n}));`,
  ],
  (n) => [`function f(n) {\n  return new SharedArrayBuffer(n);\n}\n`, `assert.deepStrictEqual(f(${n}), new ArrayBuffer(${n}));`],
  (n) => [
    `function f(n) {\n  return new SharedArrayBuffer(n);\n}\n`,
    `const r = f(${n});\n  assert.ok(r instanceof ArrayBuffer);\n  assert.strictEqual(r.byteLength, ${n});`,
  ],
  (n) => [
    `function f(n) {\n  return new ArrayBuffer(n, { maxByteLength: 64 });\n}\n`,
    `const r = f(${n});\n  assert.strictEqual(r.byteLength, ${n});\n  assert.strictEqual(r.resizable, false);`,
  ],
  (n) => [
    `function f(n) {\n  const dv = new DataView(new ArrayBuffer(n));\n  Object.setPrototypeOf(dv, null);\n  return dv;\n}\n`,
    `assert.deepStrictEqual(f(${n}), new DataView(new ArrayBuffer(${n})));`,
  ],
  (n) => [
    'function f(u8) {\n  return new DataView(u8.buffer).getUint8(0);\n}\n',
    `const big = new Uint8Array(${n} + 2).fill(9);\n  big[2] = 1;\n  assert.strictEqual(f(big.subarray(2)), 1);`,
  ],
  (n) => [
    'function f(b) {\n  let s = 0;\n  for (const x of new Uint8Array(b.buffer)) s += x;\n  return s;\n}\n',
    `const b = Buffer.from([50, 50, ${n}]).subarray(2);\n  assert.strictEqual(f(b), ${n});`,
  ],
  (n) => [
    'function f(dv) {\n  return new Uint8Array(dv.buffer)[0];\n}\n',
    `const buf = new Uint8Array([7, ${n}, 9]).buffer;\n  assert.strictEqual(f(new DataView(buf, 1, 2)), ${n});`,
  ],
];

/** Honest under Node: pass. */
const HONEST: readonly Row[] = [
  (n) => [
    `function f(n) {\n  const dv = new DataView(new ArrayBuffer(n));\n  dv.setUint8(0, 7);\n  return dv;\n}\n`,
    `const e = new DataView(new ArrayBuffer(${n}));\n  e.setUint8(0, 7);\n  assert.deepStrictEqual(f(${n}), e);`,
  ],
  (n) => [
    `function f(u) {\n  return u.subarray(1, 3);\n}\n`,
    `const u = new Uint8Array(${n} + 4);\n  u[1] = 5;\n  u[2] = 6;\n  assert.deepStrictEqual(f(u), new Uint8Array([5, 6]));`,
  ],
  (n) => [
    `function f(n) {\n  const big = new Uint8Array(n + 16);\n  big[8] = 1;\n  return big.subarray(8, 8 + n);\n}\n`,
    `const r = f(${n});\n  assert.strictEqual(r.byteOffset, 8);\n  assert.strictEqual(r.buffer.byteLength, ${n} + 16);\n  assert.strictEqual(new Uint8Array(r.buffer)[8], 1);`,
  ],
  (n) => [
    `function f(n) {\n  const dv = new DataView(new ArrayBuffer(n + 8), 4, n);\n  dv.setUint8(0, 7);\n  return dv;\n}\n`,
    `const r = f(${n});\n  assert.strictEqual(r.getUint8(0), 7);\n  assert.strictEqual(r.byteOffset, 4);\n  assert.strictEqual(new Uint8Array(r.buffer)[4], 7);`,
  ],
  (n) => [
    `function f(n) {\n  const b = new ArrayBuffer(n);\n  new Uint8Array(b)[0] = 3;\n  return b;\n}\n`,
    `const e = new ArrayBuffer(${n});\n  new Uint8Array(e)[0] = 3;\n  assert.deepStrictEqual(f(${n}), e);`,
  ],
  (n) => [
    `function f(n) {\n  return Buffer.from('ab'.repeat(n)).subarray(1);\n}\n`,
    `assert.strictEqual(f(${n}).toString(), 'ab'.repeat(${n}).slice(1));`,
  ],
  (n) => [
    `function f(n) {\n  return new Float64Array([1.5, n]);\n}\n`,
    `assert.deepStrictEqual(f(${n}), new Float64Array([1.5, ${n}]));`,
  ],
  (n) => [
    'function f(u8) {\n  return new DataView(u8.buffer, u8.byteOffset, u8.byteLength).getUint8(0);\n}\n',
    `const big = new Uint8Array(${n} + 2).fill(9);\n  big[2] = 1;\n  assert.strictEqual(f(big.subarray(2)), 1);`,
  ],
  (n) => [
    'function f(u8) {\n  u8.sort();\n  return u8.length;\n}\n',
    `const big = new Uint8Array([9, 3, 2, 1]);\n  const part = big.subarray(1);\n  assert.strictEqual(f(part), 3);\n  assert.deepStrictEqual(Array.from(part), [1, 2, 3]);\n  assert.strictEqual(big[0], 9 + ${n} - ${n});`,
  ],
];

export const generators = [
  defineGenerator({
    name: 'js-binary-values',
    language: 'javascript',
    about: "a DataView's or ArrayBuffer's class or own data, a shared or resizable buffer, a view's buffer layout: fail",
    cases: () => checkCases(42, WRONG, SIZES, ['fail']),
  }),
  defineGenerator({
    name: 'js-binary-values-honest',
    language: 'javascript',
    about: 'controls: DataViews, ArrayBuffers and views over part of a buffer that Node judges equal: pass',
    cases: () => checkCases(27, HONEST, SIZES, ['pass']),
  }),
];
