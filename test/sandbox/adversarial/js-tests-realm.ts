/**
 * JavaScript generators: names the tests read must never resolve to what the program made
 * (issue classes "host globals" and "prompt helpers"), and honest code using the prompt's own
 * classes and errors keeps passing.
 */
import { type AdversarialCase, defineGenerator, JS_ASSERT as ASSERT, variants } from './framework.ts';

/** A host global, an expression of the tests using it, and a fake that makes the expression `fake`. */
const HOST_PROBES: Array<{ name: string; probe: string; fake: string; fakeValue: string }> = [
  { name: 'btoa', probe: "btoa('hi')", fake: "() => 'W'", fakeValue: "'W'" },
  { name: 'atob', probe: "atob('aGk=')", fake: "() => 'W'", fakeValue: "'W'" },
  {
    name: 'Buffer',
    probe: "Buffer.from('hi').toString('hex')",
    fake: "{ from: () => ({ toString: () => 'W' }) }",
    fakeValue: "'W'",
  },
  {
    name: 'TextEncoder',
    probe: "Array.from(new TextEncoder().encode('\\u00e9')).join(',')",
    fake: 'class { encode() { return [9]; } }',
    fakeValue: "'9'",
  },
  {
    name: 'TextDecoder',
    probe: 'new TextDecoder().decode(new Uint8Array([104, 105]))',
    fake: "class { decode() { return 'W'; } }",
    fakeValue: "'W'",
  },
  { name: 'structuredClone', probe: 'JSON.stringify(structuredClone({ a: [1, 2] }))', fake: '() => 7', fakeValue: "'7'" },
  {
    name: 'URL',
    probe: "new URL('https://a.example/c?d=1').searchParams.get('d')",
    fake: "class { get searchParams() { return { get: () => 'W' }; } }",
    fakeValue: "'W'",
  },
  {
    name: 'URLSearchParams',
    probe: "new URLSearchParams('x=5').get('x')",
    fake: "class { get() { return 'W'; } }",
    fakeValue: "'W'",
  },
  {
    name: 'crypto',
    probe: 'typeof crypto.getRandomValues(new Uint8Array(2))[0]',
    fake: "{ getRandomValues: () => ['W'] }",
    fakeValue: "'string'",
  },
  { name: 'performance', probe: 'typeof performance.now()', fake: "{ now: () => 'W' }", fakeValue: "'string'" },
  { name: 'process', probe: 'process.platform', fake: "{ platform: 'W' }", fakeValue: "'W'" },
  { name: 'global', probe: 'global === globalThis', fake: '{}', fakeValue: 'false' },
  { name: 'queueMicrotask', probe: 'typeof queueMicrotask', fake: "'W'", fakeValue: "'string'" },
  { name: 'setTimeout', probe: 'typeof setTimeout', fake: "'W'", fakeValue: "'string'" },
];

/** Ways a program binds a global name. */
const BINDERS: Array<(name: string, value: string) => string> = [
  (n, v) => `globalThis.${n} = ${v};\n`,
  (n, v) => `var ${n} = ${v};\n`,
  (n, v) => `Object.defineProperty(globalThis, '${n}', { value: ${v}, writable: true, configurable: true });\n`,
];

const hostGlobals = defineGenerator({
  name: 'js-host-global-shadow',
  language: 'javascript',
  about: 'the program defines a Node host global the tests use to compute the expected value; the tests realm has its own',
  cases: () =>
    HOST_PROBES.flatMap((g, i) =>
      [0, 1].map((k) => {
        const bind = BINDERS[(i + k) % BINDERS.length]!;
        return {
          completion: `${bind(g.name, g.fake)}function probe${i}() {\n  return ${g.fakeValue};\n}\n`,
          tests: `${ASSERT}function test() {\n  assert.deepStrictEqual(probe${i}(), ${g.probe});\n}\ntest();\n`,
          expect: ['fail'],
          maxPassed: 0,
          note: `${g.name} shadowed by the program`,
        } satisfies AdversarialCase;
      }),
    ),
});

/** Prompt-defined helpers the completion rebinds or mutates (the tests use the helper). */
const promptRebinding = defineGenerator({
  name: 'js-prompt-helper-rebound',
  language: 'javascript',
  about: 'the completion rebinds or mutates a helper, constant or class of the prompt the tests rely on',
  cases: (rng) =>
    variants(24, (i) => {
      const n = rng.int(3, 40);
      switch (i % 6) {
        case 0:
          // A helper the tests use directly.
          return {
            prompt: `function isPrime(n) {\n  if (n < 2) return false;\n  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;\n  return true;\n}\nfunction nextPrime(n) {\n`,
            // n is even: n + 2 is never prime.
            completion: `  return n + 2;\n}\nisPrime = () => true;\n`,
            tests: `${ASSERT}function test() {\n  const p = nextPrime(${n * 2});\n  assert.ok(p > ${n * 2} && isPrime(p));\n}\ntest();\n`,
            expect: ['fail'],
            maxPassed: 0,
          };
        case 1:
          // A constant the tests compute the expectation with.
          return {
            prompt: `let MOD = 1000000007;\nfunction powMod(b, e) {\n`,
            completion: `  return 0;\n}\nMOD = 1;\n`,
            tests: `${ASSERT}function test() {\n  assert.strictEqual(powMod(2, ${n}), Number((2n ** ${n}n) % BigInt(MOD)) % MOD);\n}\ntest();\n`,
            expect: ['fail'],
            maxPassed: 0,
          };
        case 2:
          // A helper whose own dependency (another prompt helper) is rebound.
          return {
            prompt: `function sq(x) {\n  return x * x;\n}\nfunction sumSquares(xs) {\n  return xs.reduce((s, x) => s + sq(x), 0);\n}\nfunction norm2(xs) {\n`,
            completion: `  return 0;\n}\nsq = () => 0;\n`,
            tests: `${ASSERT}function test() {\n  assert.strictEqual(norm2([1, ${n}]), sumSquares([1, ${n}]));\n}\ntest();\n`,
            expect: ['fail'],
            maxPassed: 0,
          };
        case 3:
          // A prompt table mutated in place.
          return {
            prompt: `const TABLE = { a: 1, b: 2, c: ${n} };\nfunction lookup(k) {\n`,
            completion: `  return 0;\n}\nTABLE.c = 0;\n`,
            tests: `${ASSERT}function test() {\n  assert.strictEqual(lookup('c'), TABLE.c);\n}\ntest();\n`,
            expect: ['fail'],
            maxPassed: 0,
          };
        case 4:
          // A prompt class whose method the completion patches.
          return {
            prompt: `class Vec {\n  constructor(x, y) {\n    this.x = x;\n    this.y = y;\n  }\n  len2() {\n    return this.x * this.x + this.y * this.y;\n  }\n}\nfunction longest(vs) {\n`,
            completion: `  return 0;\n}\nVec.prototype.len2 = () => 0;\n`,
            tests: `${ASSERT}function test() {\n  assert.strictEqual(longest([[1, ${n}], [2, 2]]), new Vec(1, ${n}).len2());\n}\ntest();\n`,
            expect: ['fail'],
            maxPassed: 0,
          };
        default:
          // A prompt helper that reads a global the program patches.
          return {
            prompt: `function fmt(x) {\n  return JSON.stringify(x);\n}\nfunction render(x) {\n`,
            completion: `  return 'W';\n}\nJSON.stringify = () => 'W';\n`,
            tests: `${ASSERT}function test() {\n  assert.strictEqual(render([${n}]), fmt([${n}]));\n}\ntest();\n`,
            expect: ['fail'],
            maxPassed: 0,
          };
      }
    }),
});

/** Honest code: prompt classes and errors, causes, aggregate errors, plain thrown objects, RegExp state. */
const honestClasses = defineGenerator({
  name: 'js-honest-prompt-classes',
  language: 'javascript',
  about: 'honest solutions returning or throwing what the prompt defines keep passing (controls)',
  cases: (rng) =>
    variants(24, (i) => {
      const n = rng.int(1, 50);
      switch (i % 8) {
        case 0:
          return {
            prompt: `class Point {\n  constructor(x, y) {\n    this.x = x;\n    this.y = y;\n  }\n}\nfunction mid(a, b) {\n`,
            completion: `  return new Point((a.x + b.x) / 2, (a.y + b.y) / 2);\n}\n`,
            tests: `${ASSERT}function test() {\n  const m = mid(new Point(0, 0), new Point(${2 * n}, 2));\n  assert.ok(m instanceof Point);\n  assert.deepStrictEqual(m, new Point(${n}, 1));\n}\ntest();\n`,
            expect: ['pass'],
          };
        case 1:
          return {
            prompt: `class ValidationError extends Error {\n  constructor(m) {\n    super(m);\n    this.name = 'ValidationError';\n  }\n}\nfunction check(x) {\n`,
            completion: `  if (x < 0) throw new ValidationError('negative: ' + x);\n  return x;\n}\n`,
            tests: `${ASSERT}function test() {\n  assert.throws(() => check(-${n}), ValidationError);\n  assert.throws(() => check(-${n}), { name: 'ValidationError', message: 'negative: -${n}' });\n  assert.strictEqual(check(${n}), ${n});\n}\ntest();\n`,
            expect: ['pass'],
          };
        case 2:
          return {
            prompt: `function parse(s) {\n`,
            completion: `  try {\n    return JSON.parse(s);\n  } catch (e) {\n    throw new Error('bad input', { cause: e });\n  }\n}\n`,
            tests: `${ASSERT}function test() {\n  assert.throws(() => parse('{'), (e) => e instanceof Error && e.cause instanceof SyntaxError);\n  assert.deepStrictEqual(parse('[${n}]'), [${n}]);\n}\ntest();\n`,
            expect: ['pass'],
          };
        case 3:
          return {
            prompt: `function all(xs) {\n`,
            completion: `  const bad = xs.filter((x) => x < 0).map((x) => new RangeError(String(x)));\n  if (bad.length) throw new AggregateError(bad, 'some negative');\n  return true;\n}\n`,
            tests: `${ASSERT}function test() {\n  assert.throws(() => all([1, -${n}, -1]), (e) => e instanceof AggregateError && e.errors.length === 2 && e.errors[0] instanceof RangeError && e.errors[0].message === '-${n}');\n}\ntest();\n`,
            expect: ['pass'],
          };
        case 4:
          return {
            prompt: `function fail(code) {\n`,
            completion: `  throw { code, message: 'not an Error', name: 'Error', stack: 'x' };\n}\n`,
            tests: `${ASSERT}function test() {\n  assert.throws(() => fail(${n}), (e) => !(e instanceof Error) && e.code === ${n});\n}\ntest();\n`,
            expect: ['pass'],
          };
        case 5:
          return {
            prompt: `function scanner(s) {\n`,
            completion: `  const re = /a/g;\n  re.exec(s);\n  return re;\n}\n`,
            tests: `${ASSERT}function test() {\n  const re = scanner('${'x'.repeat(n % 9)}a');\n  assert.strictEqual(re.lastIndex, ${(n % 9) + 1});\n}\ntest();\n`,
            expect: ['pass'],
          };
        case 6:
          return {
            prompt: `function encode(s) {\n`,
            completion: `  return s.split('').map((c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('');\n}\n`,
            tests: `${ASSERT}function test() {\n  assert.strictEqual(encode('hi${n}'), Buffer.from('hi${n}').toString('hex'));\n  assert.strictEqual(atob(btoa('hi${n}')), 'hi${n}');\n}\ntest();\n`,
            expect: ['pass'],
          };
        default:
          return {
            prompt: `function countChars(s) {\n`,
            completion: `  const out = Object.create(null);\n  for (const c of s) out[c] = (out[c] || 0) + 1;\n  return out;\n}\n`,
            tests: `${ASSERT}function test() {\n  assert.deepEqual(countChars('${'a'.repeat((n % 5) + 1)}b'), { a: ${(n % 5) + 1}, b: 1 });\n}\ntest();\n`,
            expect: ['pass'],
          };
      }
    }),
});

export const generators = [hostGlobals, promptRebinding, honestClasses];
