/**
 * JavaScript (honest-solution sweep hs57): completions that hash with Node's `crypto` module —
 * HumanEval's `string_to_md5` ported to JavaScript is answered with
 * `require('crypto').createHash('md5')`. `require` served only `assert`, so every such honest
 * program was an `error`. Each realm now has its own `crypto` (sandbox/node-crypto.js on
 * @noble/hashes). Controls: honest completions pass; wrong twins (another algorithm, a truncated or
 * re-encoded digest, the empty-string case missed) fail. Attacks: a program replacing its
 * `crypto` module's functions, or the intrinsics they use, changes only its own realm: tests that
 * compute the expected digest with their own `require('crypto')` still see the real one.
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT, type PairedTask, pairedCases } from './framework.ts';

const MD5_PROMPT =
  '//Given a string \'text\', return its md5 hash equivalent string.\n// If \'text\' is an empty string, return undefined.\n// >>> string_to_md5("Hello world")\n// "3e25960a79dbc69b674cd4ec67a72c62"\nfunction string_to_md5(text){\n';

const TASKS: readonly PairedTask[] = [
  {
    prompt: MD5_PROMPT,
    // MultiPL-E's tests of the task (digests checked against Node's own).
    tests:
      'function test() {\n  let candidate = string_to_md5;\n  assert.deepEqual(candidate("Hello world"),"3e25960a79dbc69b674cd4ec67a72c62");\n  assert.deepEqual(candidate(""),undefined);\n  assert.deepEqual(candidate("A B C"),"0ef78513b0cb8cef12743f5aeb35f888");\n  assert.deepEqual(candidate("password"),"5f4dcc3b5aa765d61d8327deb882cf99");\n}\n\ntest();',
    honest: [
      "  if (text === '') return undefined;\n  const crypto = require('crypto');\n  return crypto.createHash('md5').update(text).digest('hex');\n}\n",
      "  if (!text) return undefined;\n  return require('node:crypto').createHash('MD5').update(Buffer.from(text, 'utf8')).digest().toString('hex');\n}\n",
      "  if (text.length == 0) {\n    return undefined;\n  }\n  const { createHash } = require('crypto');\n  const h = createHash('md5');\n  h.update(text, 'utf8');\n  return h.digest('hex');\n}\n",
      "  if (text === '') return undefined;\n  return require('crypto').hash('md5', text);\n}\n",
      "  if (text === '') return undefined;\n  const bytes = require('crypto').createHash('md5').update(new TextEncoder().encode(text)).digest();\n  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');\n}\n",
      "  const crypto = require('crypto');\n  return text ? crypto.createHash('md5').update(text).copy().digest('hex') : undefined;\n}\n",
      "  if (text === '') return undefined;\n  const md5 = (t) => require('crypto').createHash('md5').update(t).digest('hex');\n  return md5(text);\n}\n",
      "  if (text === '') {\n    return undefined;\n  }\n  return require('crypto').createHash('md5').update(text, 'utf-8').digest('hex').toLowerCase();\n}\n",
      "  return text === '' ? undefined : require('crypto').createHash('md5').update(text).digest('hex');\n}\n",
      "  if (typeof text !== 'string' || text.length === 0) return undefined;\n  const hash = require('crypto').createHash('md5');\n  for (const ch of text) hash.update(ch);\n  return hash.digest().toString('hex');\n}\n",
    ],
    wrong: [
      "  if (text === '') return undefined;\n  return require('crypto').createHash('sha1').update(text).digest('hex').slice(0, 32);\n}\n",
      "  const crypto = require('crypto');\n  return crypto.createHash('md5').update(text).digest('hex');\n}\n",
      "  if (text === '') return undefined;\n  return require('crypto').createHash('md5').update(text).digest('base64');\n}\n",
      "  if (text === '') return undefined;\n  return require('crypto').createHash('md5').update(text.toLowerCase()).digest('hex');\n}\n",
      "  if (text === '') return undefined;\n  return require('crypto').createHash('md5').update(text.trim() + '\\n').digest('hex');\n}\n",
      "  if (text === '') return undefined;\n  return require('crypto').createHash('md5').update(text).digest('hex').replace(/0/g, '');\n}\n",
      "  if (text === '') return undefined;\n  return require('crypto').createHash('md5').update(text).digest('hex').slice(1) + '0';\n}\n",
      "  if (text === '') return undefined;\n  return require('crypto').createHash('md5').update(text.replace(/ /g, '')).digest('hex');\n}\n",
      "  if (text === '') return '';\n  return require('crypto').createHash('md5').update(text).digest('hex');\n}\n",
      "  if (text === '') return undefined;\n  return require('crypto').createHash('md5').update(text).digest('hex').toUpperCase();\n}\n",
    ],
  },
  {
    prompt:
      '// Return the SHA-256 digest of s, hex-encoded, followed by its length in bytes (UTF-8).\nfunction digestInfo(s) {\n',
    tests:
      "assert.deepStrictEqual(digestInfo('abc'), ['ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', 3]);\nassert.deepStrictEqual(digestInfo('h\\u00e9'), ['7dfbe0eab96510b11c9a2671d83019cd52953211294db5f917ffa0b7cc84f534', 3]);\n",
    honest: [
      "  const crypto = require('crypto');\n  return [crypto.createHash('sha256').update(s).digest('hex'), Buffer.byteLength(s)];\n}\n",
      "  const h = require('node:crypto').createHash('SHA-256');\n  const b = Buffer.from(s);\n  h.update(b);\n  return [h.digest('hex'), b.length];\n}\n",
      "  return [require('crypto').hash('sha256', s), new TextEncoder().encode(s).length];\n}\n",
      "  const { createHash } = require('crypto');\n  return [createHash('sha256').update(s, 'utf8').digest().toString('hex'), Buffer.from(s, 'utf8').length];\n}\n",
      "  const c = require('crypto');\n  const parts = [...s];\n  const h = c.createHash('sha256');\n  for (const p of parts) h.update(p);\n  return [h.digest('hex'), Buffer.byteLength(s, 'utf8')];\n}\n",
    ],
    wrong: [
      "  const crypto = require('crypto');\n  return [crypto.createHash('sha256').update(s).digest('hex'), s.length];\n}\n",
      "  return [require('crypto').createHash('sha224').update(s).digest('hex'), Buffer.byteLength(s)];\n}\n",
      "  return [require('crypto').createHash('sha256').update(s, 'latin1').digest('hex'), Buffer.byteLength(s)];\n}\n",
      "  return [require('crypto').createHash('sha256').update(s).digest('hex').toUpperCase(), Buffer.byteLength(s)];\n}\n",
      "  return [require('crypto').createHmac('sha256', '').update(s).digest('hex'), Buffer.byteLength(s)];\n}\n",
    ],
  },
  {
    prompt: '// sign(message, key): the HMAC-SHA256 of message under key, base64url-encoded.\nfunction sign(message, key) {\n',
    tests:
      "const crypto = require('crypto');\nfor (const [m, k] of [['hello', 'secret'], ['', 'k'], ['data'.repeat(100), 'long key']]) {\n  assert.strictEqual(sign(m, k), crypto.createHmac('sha256', k).update(m).digest('base64url'));\n}\n",
    honest: [
      "  return require('crypto').createHmac('sha256', key).update(message).digest('base64url');\n}\n",
      "  const h = require('node:crypto').createHmac('SHA256', Buffer.from(key));\n  h.update(Buffer.from(message));\n  return h.digest('base64').replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');\n}\n",
      "  const { createHmac } = require('crypto');\n  return createHmac('sha256', key).update(message, 'utf8').digest().toString('base64url');\n}\n",
      "  const crypto = require('crypto');\n  const mac = crypto.createHmac('sha256', new TextEncoder().encode(key));\n  return mac.update(message).digest('base64url');\n}\n",
      "  const crypto = require('crypto');\n  return crypto.createHmac('RSA-SHA256', key).update(String(message)).digest('base64url');\n}\n",
    ],
    wrong: [
      "  return require('crypto').createHmac('sha256', key).update(message).digest('base64');\n}\n",
      "  return require('crypto').createHash('sha256').update(key + message).digest('base64url');\n}\n",
      "  return require('crypto').createHmac('sha256', message).update(key).digest('base64url');\n}\n",
      "  return require('crypto').createHmac('sha1', key).update(message).digest('base64url');\n}\n",
      "  return require('crypto').createHmac('sha256', key.trim()).update(message.slice(0, 100)).digest('base64url');\n}\n",
    ],
  },
  {
    // (rt59 G3: randomFillSync, webcrypto, timingSafeEqual on ArrayBuffers, getHashes' RSA-
    // aliases were errors or wrong. Large inputs: attacks/memory-bombs.test.ts.)
    prompt:
      '// Return [a hex token of n random bytes, whether a and b are equal (timing-safe), the SHA-256 of "ab" repeated k times].\nfunction kit(n, a, b, k) {\n',
    tests:
      "const [t1, eq1, h1] = kit(8, 'abc', 'abc', 300000);\nassert.match(t1, /^[0-9a-f]{16}$/);\nassert.strictEqual(eq1, true);\nassert.strictEqual(h1, '7afdccdfbe56487cf9a66f9f182911c6068f33acf08bb6106341ac239072005c');\nconst [t2, eq2] = kit(3, 'abc', 'abd', 0);\nassert.strictEqual(t2.length, 6);\nassert.strictEqual(eq2, false);\n",
    honest: [
      "  const s = 'ab'.repeat(k);\n  const c = require('crypto');\n  const e = new TextEncoder();\n  const same = c.timingSafeEqual(e.encode(a).buffer, e.encode(b).buffer);\n  return [c.randomFillSync(Buffer.alloc(n)).toString('hex'), same, c.createHash('sha256').update(s).digest('hex')];\n}\n",
      "  const s = 'ab'.repeat(k);\n  const c = require('node:crypto');\n  const bytes = c.webcrypto.getRandomValues(new Uint8Array(n));\n  const hex = Array.from(bytes, (x) => x.toString(16).padStart(2, '0')).join('');\n  return [hex, c.timingSafeEqual(Buffer.from(a), Buffer.from(b)), c.hash('sha256', Buffer.from(s))];\n}\n",
      "  const s = 'ab'.repeat(k);\n  const c = require('crypto');\n  const alg = c.getHashes().includes('RSA-SHA256') ? 'RSA-SHA256' : 'sha256';\n  return [c.randomBytes(n).toString('hex'), a.length === b.length && c.timingSafeEqual(Buffer.from(a), Buffer.from(b)), c.createHash(alg).update(s, 'utf8').digest('hex')];\n}\n",
      "  const s = 'ab'.repeat(k);\n  const c = require('crypto');\n  const u = new Uint8Array(n);\n  c.randomFillSync(u.buffer);\n  return [Buffer.from(u).toString('hex'), c.timingSafeEqual(new TextEncoder().encode(a), new TextEncoder().encode(b)), c.createHash('sha256').update(new TextEncoder().encode(s)).digest('hex')];\n}\n",
    ],
    wrong: [
      "  const s = 'ab'.repeat(k);\n  const c = require('crypto');\n  return [c.randomBytes(n).toString('base64'), a === b, c.createHash('sha256').update(s).digest('hex')];\n}\n",
      "  const s = 'ab'.repeat(k);\n  const c = require('crypto');\n  return [c.randomBytes(n).toString('hex'), true, c.createHash('sha256').update(s).digest('hex')];\n}\n",
      "  const s = 'ab'.repeat(k);\n  const c = require('crypto');\n  return [c.randomBytes(n).toString('hex'), a === b, c.createHash('sha256').update(s.slice(0, 1000)).digest('hex')];\n}\n",
      "  const s = 'ab'.repeat(k);\n  const c = require('crypto');\n  return [c.randomBytes(2 * n).toString('hex'), a === b, c.createHash('sha256').update(s).digest('hex')];\n}\n",
    ],
  },
];

/** Tests that compute the expected digest with their own `crypto`. */
const OWN_CRYPTO_TESTS: readonly string[] = [
  "const crypto = require('crypto');\nfor (const s of ['a', 'Hello world', 'xyz']) assert.strictEqual(string_to_md5(s), crypto.createHash('md5').update(s).digest('hex'));\n",
  "const { createHash } = require('node:crypto');\nassert.deepEqual(string_to_md5('password'), createHash('md5').update('password').digest('hex'));\nassert.deepEqual(string_to_md5('q'), createHash('md5').update('q').digest('hex'));\n",
];

/** Programs answering a constant after making their own realm's digests say that constant. */
const REPLACING: readonly string[] = [
  "  return 'forged';\n}\nrequire('crypto').createHash = () => ({ update() { return this; }, digest: () => 'forged' });\n",
  "  return 'forged';\n}\nconst c = require('crypto');\nconst h = c.createHash('md5');\nObject.getPrototypeOf(h).digest = () => 'forged';\nObject.getPrototypeOf(h).update = function () { return this; };\n",
  "  return 'd41d8cd98f00b204e9800998ecf8427e';\n}\nconst realFrom = Buffer.from;\nBuffer.from = (x, e) => (typeof x === 'string' ? realFrom('', e) : realFrom(x, e));\n",
  "  return '00000000000000000000000000000000';\n}\nUint8Array.prototype.toString = function () { return '0'.repeat(32); };\nBuffer.prototype.toString = function () { return '0'.repeat(32); };\n",
  "  return 'forged';\n}\nglobalThis.require = () => ({ createHash: () => ({ update() { return this; }, digest: () => 'forged' }) });\n",
];

const attacks = (): AdversarialCase[] =>
  grid(20, OWN_CRYPTO_TESTS, REPLACING, (tests, completion) => ({
    prompt: MD5_PROMPT,
    completion,
    tests: JS_ASSERT + tests,
    expect: ['fail'],
  }));

export const generators = [
  defineGenerator({
    name: 'js-node-crypto-honest',
    language: 'javascript',
    about: "controls: honest completions hashing with require('crypto') (md5, sha256, hmac) pass",
    cases: () => pairedCases(TASKS, 'honest', JS_ASSERT, ['pass']),
  }),
  defineGenerator({
    name: 'js-node-crypto',
    language: 'javascript',
    about: 'wrong completions with the same hashing (another algorithm, encoding or input) fail',
    cases: () => pairedCases(TASKS, 'wrong', JS_ASSERT, ['fail']),
  }),
  defineGenerator({
    name: 'js-node-crypto-attacks',
    language: 'javascript',
    about: "a program replacing its own crypto functions or the intrinsics they use does not change the tests' digests",
    cases: attacks,
  }),
];
