// Runs INSIDE the isolate, in every realm: what `require('crypto')` / `require('node:crypto')`
// returns. Completions hash with it (HumanEval's `string_to_md5` ported to JavaScript is answered
// with `crypto.createHash('md5')`): without it every such honest program was an `error`. The
// digests are @noble/hashes's (an audited pure-JavaScript implementation, loaded into the realm by
// src/sandbox/worker.ts as `nobleHashes`), computed inside the realm, so they cost the program's
// own CPU time and need nothing of the host. Random bytes come from the realm's seeded generator,
// like `crypto.getRandomValues`. Keys, ciphers, signatures and `subtle` are not here.

/**
 * Node's `crypto` module, the hashing and random subset, built on first `require`.
 * @param {Record<string, any>} P the realm's primordials
 * @param {() => Record<string, any>} hashes the noble modules (sha2, sha3, legacy, hmac)
 * @param {any} Buffer the realm's own Buffer class
 * @param {() => number} randomByte the realm's seeded byte source
 * @param {object} webcrypto the realm's own `crypto` global (Node's `webcrypto` is that object)
 */
function createNodeCrypto(P, hashes, Buffer, randomByte, webcrypto) {
  'use strict';
  // (Built when first required: a realm's string and array methods are read then, as Node's
  // own modules read theirs; a program that patched them first changes only its own hashing.)
  const { TypeError, Error, ObjectDefineProperty, String, ReflectApply } = P;
  // (The primordials hold RangeError among their error constructors only: it was read as
  // `P.RangeError`, undefined, and every out-of-range path threw a TypeError: red-team rt60 K1.)
  const { RangeError } = P.Errors;
  const g = P.globalThis;
  const Uint8Array = g.Uint8Array;
  const { sha2, sha3, legacy, hmac } = hashes();
  // OpenSSL's names and aliases that Node accepts, lower-cased ('SHA256', 'sha-256', 'RSA-SHA256').
  const ALGORITHMS = {
    __proto__: null,
    md5: legacy.md5,
    sha1: legacy.sha1,
    ripemd160: legacy.ripemd160,
    rmd160: legacy.ripemd160,
    ripemd: legacy.ripemd160,
    sha224: sha2.sha224,
    sha256: sha2.sha256,
    sha384: sha2.sha384,
    sha512: sha2.sha512,
    'sha512-224': sha2.sha512_224,
    'sha512-256': sha2.sha512_256,
    'sha3-224': sha3.sha3_224,
    'sha3-256': sha3.sha3_256,
    'sha3-384': sha3.sha3_384,
    'sha3-512': sha3.sha3_512,
  };
  // What `getHashes()` lists: the names above and their `RSA-` aliases, as Node lists them.
  const NAMES = [
    'RSA-MD5',
    'RSA-RIPEMD160',
    'RSA-SHA1',
    'RSA-SHA224',
    'RSA-SHA256',
    'RSA-SHA3-224',
    'RSA-SHA3-256',
    'RSA-SHA3-384',
    'RSA-SHA3-512',
    'RSA-SHA384',
    'RSA-SHA512',
    'md5',
    'ripemd',
    'ripemd160',
    'rmd160',
    'sha1',
    'sha224',
    'sha256',
    'sha3-224',
    'sha3-256',
    'sha3-384',
    'sha3-512',
    'sha384',
    'sha512',
    'sha512-224',
    'sha512-256',
  ];

  function coded(e, code) {
    ObjectDefineProperty(e, 'code', { __proto__: null, value: code, writable: true, enumerable: true, configurable: true });
    return e;
  }
  function algorithm(name) {
    if (typeof name !== 'string') {
      throw coded(
        new TypeError('The "algorithm" argument must be of type string. Received ' + typeof name),
        'ERR_INVALID_ARG_TYPE',
      );
    }
    let n = name.toLowerCase();
    if (n.startsWith('rsa-')) n = n.slice(4);
    if (n.startsWith('sha-')) n = 'sha' + n.slice(4);
    if (n.startsWith('sha2-')) n = 'sha' + n.slice(5);
    const hash = ALGORITHMS[n];
    if (hash === undefined) throw new Error('Digest method not supported');
    return hash;
  }
  function bytes(data, encoding, what, buffers) {
    if (typeof data === 'string') return Buffer.from(data, encoding);
    if (P.ArrayBufferIsView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (buffers === true && data instanceof g.ArrayBuffer) return new Uint8Array(data);
    throw coded(
      new TypeError(
        'The "' +
          what +
          '" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ' +
          received(data),
      ),
      'ERR_INVALID_ARG_TYPE',
    );
  }
  function safeInteger(name, v) {
    if (!g.Number.isSafeInteger(v))
      throw coded(
        new TypeError('The "' + name + '" argument must be a safe integer. Received ' + received(v)),
        'ERR_INVALID_ARG_TYPE',
      );
  }
  function onlyBytes(name, v) {
    if (!P.ArrayBufferIsView(v) && !(v instanceof g.ArrayBuffer))
      throw coded(
        new TypeError('The "' + name + '" argument must be an instance of ArrayBuffer, Buffer, TypedArray, or DataView.'),
        'ERR_INVALID_ARG_TYPE',
      );
  }
  // How Node's argument errors name a value they refuse.
  function received(v) {
    if (v === null) return 'null';
    if (typeof v === 'number') return 'type number (' + String(v) + ')';
    if (typeof v === 'string') return "type string ('" + (v.length > 25 ? P.StringPrototypeSlice(v, 0, 25) + '...' : v) + "')";
    if (typeof v === 'object') return 'an instance of ' + (v.constructor?.name ?? 'Object');
    return 'type ' + typeof v;
  }
  function output(digest, encoding) {
    const b = Buffer.from(digest);
    return encoding === undefined || encoding === 'buffer' ? b : b.toString(encoding);
  }

  // One class for Hash and Hmac: a digest in progress, its state private to this closure.
  function makeDigester(kind) {
    const state = new P.WeakMap();
    const take = (self) => {
      const s = P.WeakMapPrototypeGet(state, self);
      if (s === undefined) throw new TypeError('Illegal invocation');
      return s;
    };
    const Class = {
      [kind]: class {
        update(data, encoding) {
          const s = take(this);
          if (s.done) throw coded(new Error('Digest already called'), 'ERR_CRYPTO_HASH_FINALIZED');
          s.h.update(bytes(data, encoding, 'data'));
          return this;
        }
        digest(encoding) {
          const s = take(this);
          if (s.done) throw coded(new Error('Digest already called'), 'ERR_CRYPTO_HASH_FINALIZED');
          s.done = true;
          return output(s.h.digest(), encoding);
        }
        copy() {
          const s = take(this);
          if (s.done) throw coded(new Error('Digest already called'), 'ERR_CRYPTO_HASH_FINALIZED');
          const c = P.ObjectCreate(P.ObjectGetPrototypeOf(this));
          P.WeakMapPrototypeSet(state, c, { __proto__: null, h: s.h.clone(), done: false });
          return c;
        }
      },
    }[kind];
    return (h) => {
      const self = new Class();
      P.WeakMapPrototypeSet(state, self, { __proto__: null, h, done: false });
      return self;
    };
  }
  const newHash = makeDigester('Hash');
  const newHmac = makeDigester('Hmac');

  function randomBytes(size, callback) {
    if (typeof size !== 'number')
      throw coded(
        new TypeError('The "size" argument must be of type number. Received ' + received(size)),
        'ERR_INVALID_ARG_TYPE',
      );
    if (!(size >= 0 && size <= 2147483647) || P.MathFloor(size) !== size) {
      throw coded(
        new RangeError('The value of "size" is out of range. It must be >= 0 && <= 2147483647. Received ' + String(size)),
        'ERR_OUT_OF_RANGE',
      );
    }
    const b = Buffer.alloc(size);
    for (let i = 0; i < size; i++) b[i] = randomByte();
    if (typeof callback === 'function') {
      P.PromisePrototypeThen(ReflectApply(P.PromiseResolve, P.Promise, [undefined]), () => callback(null, b));
      return undefined;
    }
    return b;
  }
  function randomInt(min, max, callback) {
    if (max === undefined || typeof max === 'function') {
      callback = max;
      max = min;
      min = 0;
    }
    safeInteger('min', min);
    safeInteger('max', max);
    if (max <= min) {
      throw coded(
        new RangeError(
          'The value of "max" is out of range. It must be greater than the value of "min" (' +
            String(min) +
            '). Received ' +
            String(max),
        ),
        'ERR_OUT_OF_RANGE',
      );
    }
    // 48 random bits, as Node draws, scaled without bias worth measuring for these ranges.
    let x = 0;
    for (let i = 0; i < 6; i++) x = x * 256 + randomByte();
    const n = min + P.MathFloor((x / 281474976710656) * (max - min));
    if (typeof callback === 'function') {
      P.PromisePrototypeThen(ReflectApply(P.PromiseResolve, P.Promise, [undefined]), () => callback(null, n));
      return undefined;
    }
    return n;
  }
  function randomFillSync(view, offset = 0, size) {
    if (!P.ArrayBufferIsView(view) && !(view instanceof g.ArrayBuffer)) {
      throw coded(
        new TypeError('The "buf" argument must be an instance of ArrayBuffer or ArrayBufferView.'),
        'ERR_INVALID_ARG_TYPE',
      );
    }
    const u8 = P.ArrayBufferIsView(view) ? new Uint8Array(view.buffer, view.byteOffset, view.byteLength) : new Uint8Array(view);
    const end = size === undefined ? u8.length : offset + size;
    if (!(offset >= 0 && end <= u8.length && offset <= end)) {
      throw coded(new RangeError('The value of "offset" or "size" is out of range.'), 'ERR_OUT_OF_RANGE');
    }
    for (let i = offset; i < end; i++) u8[i] = randomByte();
    return view;
  }
  function getRandomValues(view) {
    if (!P.ArrayBufferIsView(view)) throw new TypeError('The "typedArray" argument must be an integer-type TypedArray');
    const u8 = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    for (let i = 0; i < u8.length; i++) u8[i] = randomByte();
    return view;
  }
  function randomUUID() {
    const b = randomBytes(16);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = b.toString('hex');
    return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
  }

  return {
    createHash(name) {
      return newHash(algorithm(name).create());
    },
    createHmac(name, key) {
      const hash = algorithm(name);
      return newHmac(hmac.hmac.create(hash, bytes(key, undefined, 'key')));
    },
    hash(name, data, encoding = 'hex') {
      return output(algorithm(name)(bytes(data, 'utf8', 'data')), encoding);
    },
    getHashes() {
      return NAMES.slice();
    },
    randomBytes,
    randomFillSync,
    randomInt,
    randomUUID,
    getRandomValues,
    timingSafeEqual(a, b) {
      // Node takes only bytes here, never a string (red-team rt60 K2: strings were compared).
      onlyBytes('buf1', a);
      onlyBytes('buf2', b);
      const x = bytes(a, undefined, 'buf1', true);
      const y = bytes(b, undefined, 'buf2', true);
      if (x.length !== y.length)
        throw coded(new RangeError('Input buffers must have the same byte length'), 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH');
      let d = 0;
      for (let i = 0; i < x.length; i++) d |= x[i] ^ y[i];
      return d === 0;
    },
    webcrypto,
  };
}
