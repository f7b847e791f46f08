/**
 * JavaScript (red-team rt60 K1–K3): where the tests compute what they expect with their realm's
 * own host globals (`new TextDecoder('utf-8', { fatal: true })`, `Buffer#toString('ascii')`,
 * `crypto.randomBytes(-1)` throwing a RangeError), a difference from Node in those globals is a
 * door: a wrong program written to the difference matched the tests' wrong expectation, and an
 * honest one relying on Node's behaviour failed. Fixed in sandbox/node-globals.js and
 * sandbox/node-crypto.js: crypto's out-of-range errors are RangeErrors (they were TypeErrors: the
 * constructor was read from the wrong place), `timingSafeEqual` refuses strings, `TextDecoder`
 * has `fatal`, `ignoreBOM`, a dropped BOM and `{ stream: true }`, `TextEncoder#encodeInto`, hex
 * is read a digit pair at a time, `ascii` drops the high bit, `utf16le` is an encoding. Each task
 * below has an honest completion (passes under Node) and a wrong one written to the old
 * behaviour (fails under Node); the tests read the sandbox's globals in either realm.
 */
import { defineGenerator, JS_ASSERT, variants } from './framework.ts';

interface Task {
  prompt: string;
  honest: string;
  wrong: string;
  tests: string;
}

const TASKS: readonly Task[] = [
  {
    prompt:
      "const crypto = require('crypto');\n// pick(xs): a random element of xs; throws a RangeError when xs is empty\nfunction pick(xs) {\n",
    honest: '  return xs[crypto.randomInt(0, xs.length)];\n}\n',
    wrong: "  if (xs.length === 0) throw new TypeError('empty');\n  return xs[crypto.randomInt(0, xs.length)];\n}\n",
    tests:
      'for (let i = 0; i < 5; i++) assert.ok([3, 1, 4].includes(pick([3, 1, 4])));\nassert.throws(() => pick([]), RangeError);\n',
  },
  {
    prompt:
      "const crypto = require('crypto');\n// token(n): n random bytes in hex; a size out of range throws what crypto.randomBytes throws\nfunction token(n) {\n",
    honest: "  return crypto.randomBytes(n).toString('hex');\n}\n",
    wrong: "  if (n < 0) throw new TypeError('negative');\n  return crypto.randomBytes(n).toString('hex');\n}\n",
    tests:
      "assert.match(token(3), /^[0-9a-f]{6}$/);\nlet expected;\ntry {\n  require('crypto').randomBytes(-1);\n} catch (e) {\n  expected = e.constructor;\n}\nassert.throws(() => token(-1), expected);\nassert.strictEqual(expected, RangeError);\n",
  },
  {
    prompt:
      "const crypto = require('crypto');\n// same(a, b): whether two Buffers hold the same bytes, compared in constant time (false when lengths differ)\nfunction same(a, b) {\n",
    honest: '  return a.length === b.length && crypto.timingSafeEqual(a, b);\n}\n',
    wrong: "  return crypto.timingSafeEqual(a.toString('hex'), b.toString('hex'));\n}\n",
    tests:
      "assert.strictEqual(same(Buffer.from('key'), Buffer.from('key')), true);\nassert.strictEqual(same(Buffer.from('key'), Buffer.from('kez')), false);\nassert.strictEqual(same(Buffer.from('k'), Buffer.from('key')), false);\n",
  },
  {
    prompt: '// validUtf8(bytes): whether the array of byte values is well-formed UTF-8\nfunction validUtf8(bytes) {\n',
    honest:
      "  try {\n    new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));\n    return true;\n  } catch {\n    return false;\n  }\n}\n",
    wrong: "  return !new TextDecoder('utf-8').decode(Uint8Array.from(bytes)).includes('\\uFFFD') || bytes.length > 3;\n}\n",
    tests:
      "const strict = new TextDecoder('utf-8', { fatal: true });\nfor (const b of [[0x68, 0x69], [0xe2, 0x82], [0xc3, 0xa9], [0xf0, 0x9f, 0x98, 0x80], [0xed, 0xa0, 0x80, 0x41]]) {\n  let want = true;\n  try {\n    strict.decode(Uint8Array.from(b));\n  } catch {\n    want = false;\n  }\n  assert.strictEqual(validUtf8(b), want);\n}\n",
  },
  {
    prompt:
      '// text(bytes): the text of UTF-8 file bytes (a Uint8Array), a leading byte-order mark removed\nfunction text(bytes) {\n',
    honest: '  return new TextDecoder().decode(bytes);\n}\n',
    wrong: "  return Buffer.from(bytes).toString('utf8');\n}\n",
    tests:
      'for (const b of [[0x41, 0x42], [0xef, 0xbb, 0xbf, 0x68, 0xc3, 0xa9]]) {\n  const u = new Uint8Array(b);\n  assert.strictEqual(text(u), new TextDecoder().decode(u));\n}\nassert.strictEqual(new TextDecoder().decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41])), "A");\n',
  },
  {
    prompt:
      '// decodeChunks(chunks): the UTF-8 text of the concatenated Uint8Array chunks (a character may be split across chunks)\nfunction decodeChunks(chunks) {\n',
    honest:
      '  const d = new TextDecoder();\n  let s = "";\n  for (const c of chunks) s += d.decode(c, { stream: true });\n  return s + d.decode();\n}\n',
    wrong: '  let s = "";\n  for (const c of chunks) s += new TextDecoder().decode(c);\n  return s;\n}\n',
    tests:
      "const e = new TextEncoder().encode('h\\u00e9\\u20ac\\ud83d\\ude00');\nassert.strictEqual(decodeChunks([e.slice(0, 2), e.slice(2, 5), e.slice(5)]), 'h\\u00e9\\u20ac\\ud83d\\ude00');\nassert.strictEqual(decodeChunks([e]), 'h\\u00e9\\u20ac\\ud83d\\ude00');\n",
  },
  {
    prompt: '// fit(s, n): how many UTF-16 code units of s fit, as whole characters, in n bytes of UTF-8\nfunction fit(s, n) {\n',
    honest: '  return new TextEncoder().encodeInto(s, new Uint8Array(n)).read;\n}\n',
    wrong: '  return Math.min(s.length, n);\n}\n',
    tests:
      "assert.strictEqual(fit('abc', 2), 2);\nassert.strictEqual(fit('a\\u00e9\\u20acx', 4), 2);\nassert.strictEqual(fit('\\ud83d\\ude00!', 3), 0);\nconst r = new TextEncoder().encodeInto('\\u00e9\\u00e9', new Uint8Array(3));\nassert.deepStrictEqual([r.read, r.written], [1, 2]);\n",
  },
  {
    prompt: '// isHex(s): whether s is an even-length string of hex digits\nfunction isHex(s) {\n',
    honest: "  return s.length % 2 === 0 && Buffer.from(s, 'hex').length * 2 === s.length;\n}\n",
    wrong: '  return s.length % 2 === 0 && !/[^0-9a-fA-F]/.test(s.slice(0, 1));\n}\n',
    tests:
      "assert.strictEqual(isHex('00ff'), true);\nassert.strictEqual(isHex('zz'), false);\nassert.strictEqual(isHex('1g'), false);\nassert.strictEqual(isHex('f '), false);\nassert.strictEqual(Buffer.from('-1ff', 'hex').length, 0);\n",
  },
  {
    prompt: "// toAscii(bytes): the bytes decoded as Node's 'ascii' encoding does\nfunction toAscii(bytes) {\n",
    honest: "  return Buffer.from(bytes).toString('ascii');\n}\n",
    wrong: '  return String.fromCharCode(...bytes);\n}\n',
    tests:
      "for (const b of [[0x68, 0x69], [0xe9, 0x41, 0xff]]) assert.strictEqual(toAscii(b), Buffer.from(b).toString('ascii'));\nassert.strictEqual(Buffer.from([0xe9]).toString('ascii'), 'i');\n",
  },
  {
    prompt: '// utf16(s): the UTF-16LE bytes of s as an array of numbers\nfunction utf16(s) {\n',
    honest: "  return [...Buffer.from(s, 'utf16le')];\n}\n",
    wrong: "  return [...Buffer.from(s, 'latin1')];\n}\n",
    tests:
      "assert.deepStrictEqual(utf16('h\\u00e9'), [104, 0, 233, 0]);\nassert.deepStrictEqual(utf16('\\u20ac'), [172, 32]);\nassert.strictEqual(Buffer.from([104, 0, 233, 0, 65]).toString('ucs2'), 'h\\u00e9');\n",
  },
];

const build = (wrong: boolean) => (i: number) => {
  const t = TASKS[i % TASKS.length]!;
  // Odd rounds run the tests inside an async function, so the checks are the tests realm's too
  // when they come from a job.
  const tests = Math.floor(i / TASKS.length) % 2 === 1 ? `(async () => {\n  await null;\n${t.tests}})();\n` : t.tests;
  return {
    prompt: t.prompt,
    completion: wrong ? t.wrong : t.honest,
    tests: JS_ASSERT + tests,
    expect: wrong ? (['fail', 'error'] as const) : (['pass'] as const),
  };
};

export const generators = [
  defineGenerator({
    name: 'js-host-fidelity-honest',
    language: 'javascript',
    about: "controls: honest programs relying on Node's crypto errors, TextDecoder/TextEncoder and Buffer encodings pass",
    cases: () => variants(20, build(false)),
  }),
  defineGenerator({
    name: 'js-host-fidelity',
    language: 'javascript',
    about: 'wrong programs written to the former differences from Node fail (the tests read their own globals)',
    cases: () => variants(20, build(true)),
  }),
];
