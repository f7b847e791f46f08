/**
 * JavaScript: `oom` comes only from the host's own measure of memory. A program that holds most of
 * the isolate's memory and then makes the engine throw a RangeError that has nothing to do with
 * memory (`new Array(-1)`, `(1).toFixed(500)`, a stack overflow, an invalid code point or date)
 * was reported `oom` (red-team D01–D03): a label a program could choose. Only the engine's own
 * refusal of an allocation ("Array buffer allocation failed") near the limit, or the isolate
 * disposed at its limit, is out of memory now. Controls: real buffer bombs are `oom`, and a
 * program that holds the same memory and answers right passes.
 *
 * `js-oom-forged`: the engine's own text forged. Counting the program's calls of `RangeError`
 * missed errors that are RangeErrors by every reading without that call —
 * `Reflect.construct(Error, [text], RangeError)`, `Object.setPrototypeOf(new Error(text), …)`, a
 * caught TypeError given RangeError.prototype and the text, the real `Error` reached through
 * `Object.getPrototypeOf(RangeError)` — all `oom` at aeee968 (found by a fresh hostile pass).
 * Now the program realm observes the refusal itself (sandbox/harness.js, allocationRefusals).
 *
 * `js-oom-implausible`: most of the memory held, then an allocation no engine gives (a terabyte),
 * refused at any memory level — Node reports an error — was `oom` at 30f5ea6 (a fresh hostile
 * pass). A refusal counts only for a size an unlimited engine could give (at most 4 GiB).
 */
import { defineGenerator, grid } from './framework.ts';

const ASSERT = "const assert = require('node:assert');\n";

/** Engine RangeErrors unrelated to memory. */
const RANGE = [
  'new Array(-1)',
  '(1).toFixed(500)',
  "'x'.repeat(-1)",
  'String.fromCodePoint(-1)',
  '(10).toString(1)',
  'new Date(NaN).toISOString()',
  '((k) => { const r = (j) => r(j + 1) + 1; return r(k); })(0)',
  'new ArrayBuffer(-1)',
  "'abc'.normalize('X')",
  "new Intl.NumberFormat('en', { maximumFractionDigits: 500 })",
];
/** Ways to hold most of the 64 MB the suite's isolates get. */
const HOLD = [
  'for (let i = 0; i < 52; i++) keep.push(new Uint8Array(1 << 20).fill(1));',
  'for (let i = 0; i < 52; i++) keep.push(new Float64Array(1 << 17).fill(i));',
];

const spoofs = defineGenerator({
  name: 'js-oom-spoof',
  language: 'javascript',
  about: 'most of the memory held, then an engine RangeError unrelated to memory: an error, never oom',
  cases: () =>
    grid(20, RANGE, HOLD, (range, hold) => ({
      prompt: 'function f(n) {\n',
      completion: `  const keep = (globalThis.__keep ||= []);\n  ${hold}\n  return ${range};\n}\n`,
      tests: `${ASSERT}assert.strictEqual(f(1), 1);\n`,
      expect: ['error', 'fail'],
      maxPassed: 0,
      note: `${hold} / ${range}`,
    })),
});

const real = defineGenerator({
  name: 'js-oom-spoof-honest',
  language: 'javascript',
  about: 'controls: buffer bombs are oom; the same memory held with a right answer passes',
  cases: () =>
    grid(20, [0, 1], HOLD.concat(['for (;;) keep.push(new Uint8Array(1 << 20));']), (kind, hold) =>
      kind === 0 || !hold.startsWith('for (;;)')
        ? {
            prompt: 'function f(n) {\n',
            completion: `  const keep = [];\n  ${hold.startsWith('for (;;)') ? HOLD[0] : hold}\n  return n + keep.length - 52;\n}\n`,
            tests: `${ASSERT}assert.strictEqual(f(1), 1);\n`,
            expect: ['pass'],
          }
        : {
            prompt: 'function f(n) {\n',
            completion: `  const keep = [];\n  ${hold}\n}\n`,
            tests: `${ASSERT}assert.strictEqual(f(1), 1);\n`,
            expect: ['oom'],
          },
    ),
});

/** RangeErrors with the engine's allocation text that no refusal made. */
const FORGED = [
  "Reflect.construct(Error, ['Array buffer allocation failed'], RangeError)",
  "Object.setPrototypeOf(new Error('Array buffer allocation failed'), RangeError.prototype)",
  "(() => { try { null.x; } catch (e) { Object.setPrototypeOf(e, RangeError.prototype); e.message = 'Array buffer allocation failed'; return e; } })()",
  "(() => { try { new Array(-1); } catch (e) { e.message = 'Array buffer allocation failed'; return e; } })()",
  "Reflect.construct(Object.getPrototypeOf(RangeError), ['Array buffer allocation failed'], RangeError)",
  "new RangeError('Array buffer allocation failed')",
  "(() => { class E extends Error {} E.prototype.name = 'RangeError'; return new E('Array buffer allocation failed'); })()",
  "Object.assign(Object.create(RangeError.prototype), { message: 'Array buffer allocation failed' })",
  "(() => { try { new ArrayBuffer(-1); } catch (e) { e.message = 'Array buffer allocation failed'; return e; } })()",
  "(() => { try { new Uint8Array({ length: 4, get 0() { throw Reflect.construct(Error, ['Array buffer allocation failed'], RangeError); } }); } catch (e) { return e; } })()",
];

const forged = defineGenerator({
  name: 'js-oom-forged',
  language: 'javascript',
  about: "most of the memory held, then a RangeError forged with the engine's allocation text: an error, never oom",
  cases: () =>
    grid(20, FORGED, HOLD, (err, hold) => ({
      prompt: 'function f(n) {\n',
      completion: `  const keep = (globalThis.__keep ||= []);\n  ${hold}\n  throw ${err};\n}\n`,
      tests: `${ASSERT}assert.strictEqual(f(1), 1);\n`,
      expect: ['error', 'fail'],
      maxPassed: 0,
      note: `${hold} / ${err}`,
    })),
});

/** Allocations no engine gives, refused at any memory level (as under Node: an error). */
const IMPLAUSIBLE = [
  'new ArrayBuffer(2 ** 40).byteLength',
  'new Float64Array(2 ** 38).length',
  'new SharedArrayBuffer(2 ** 41).byteLength',
  'new Uint8Array(2 ** 36).length',
  'new BigInt64Array(2 ** 37).length',
];

const implausible = defineGenerator({
  name: 'js-oom-implausible',
  language: 'javascript',
  about: 'most of the memory held, then an allocation no engine gives (a terabyte): an error, never oom',
  cases: () =>
    grid(
      20,
      IMPLAUSIBLE,
      HOLD.concat([
        'for (let i = 0; i < 26; i++) keep.push(new Uint8Array(2 << 20).fill(2));',
        'for (let i = 0; i < 52; i++) keep.push(new Int32Array(1 << 18).fill(i));',
      ]),
      (ask, hold) => ({
        prompt: 'function f(n) {\n',
        completion: `  const keep = (globalThis.__keep ||= []);\n  ${hold}\n  return ${ask};\n}\n`,
        tests: `${ASSERT}assert.strictEqual(f(1), 1);\n`,
        expect: ['error', 'fail'],
        maxPassed: 0,
        note: `${hold} / ${ask}`,
      }),
    ),
});

export const generators = [spoofs, real, forged, implausible];
