// Runs INSIDE the isolate. The `assert` / `node:assert` / `assert/strict` module served by the
// harness's `require`. Semantics follow Node 20's lib/assert.js (MIT licence, Copyright Node.js
// contributors): `deepEqual`/`equal` are the legacy LOOSE comparisons, `deepStrictEqual`/
// `strictEqual` the strict ones. Messages are simpler than Node's (no diffs).
//
// Every call records its outcome in the harness's recorder `R` BEFORE anything the program can
// observe happens (throwing, building a message that may call user code), so a program that
// catches and swallows an AssertionError still fails. The module objects are frozen.

// `verdict` is the run's comparison mode: in `strict` the loose functions of the module served
// to tests (`deepEqual`, `equal` and their negations) compare like types only (see
// docs/sandbox.md); `parity` keeps Node's loose semantics.
function createAssert(P, C, I, R, verdict) {
  'use strict';
  const {
    ObjectIs,
    ObjectKeys,
    ObjectFreeze,
    ObjectDefineProperty,
    ObjectPrototypeHasOwnProperty,
    ReflectApply,
    NumberIsNaN,
    String,
    RegExpPrototypeExec,
    Promise,
    PromiseResolve,
    PromisePrototypeThen,
    TypeError,
    FunctionPrototypeSymbolHasInstance,
    Error,
  } = P;
  const { isDeepEqual, isDeepStrictEqual, isAnswerEqual, isRegExp, isNativeError, isErrorInstance } = C;
  const inspect = (v) => I.inspect(v, 4000);

  function define(obj, key, value, enumerable) {
    ObjectDefineProperty(obj, key, { __proto__: null, value, writable: true, enumerable, configurable: true });
  }

  // Whether this module is making the AssertionError (a check that failed, recorded already).
  let making = 0;
  class AssertionError extends Error {
    constructor(options) {
      if (options === null || typeof options !== 'object') {
        throw new TypeError('The "options" argument must be of type object.');
      }
      const message = options.message;
      const generated = message === undefined || message === null;
      super(generated ? 'Failed' : String(message));
      // Strict: one the tests make themselves is a failure they state (`if (got !== want) throw
      // new assert.AssertionError(…)`), a failed check where it is made, whether or not they
      // then catch and log it (red-team rt67 ZB18, ZA29: a wrong program passed tests that
      // caught their own hand-made failures, as under Node).
      if (making === 0 && verdict === 'strict') {
        R.fail();
        R.note('the tests made an AssertionError: ' + this.message);
      }
      define(this, 'name', 'AssertionError', false);
      define(this, 'generatedMessage', generated, true);
      define(this, 'code', 'ERR_ASSERTION', true);
      define(this, 'actual', options.actual, true);
      define(this, 'expected', options.expected, true);
      define(this, 'operator', options.operator, true);
    }
  }
  ObjectFreeze(AssertionError.prototype);
  ObjectFreeze(AssertionError);
  // The AssertionError of one of this module's own failed checks (recorded already, see `making`).
  function failure(options) {
    making++;
    try {
      return new AssertionError(options);
    } finally {
      making--;
    }
  }

  const isError = (v) => typeof v === 'object' && v !== null && (isNativeError(v) || isErrorInstance(v));

  function describeThrown(e) {
    try {
      if (!isError(e)) return 'thrown value: ' + inspect(e);
      const s = I.errorText(e);
      const at = P.StringPrototypeIndexOf(s, '\n    at ');
      return at === -1 ? s : P.StringPrototypeSlice(s, 0, at);
    } catch {
      return 'an exception was thrown';
    }
  }

  // The assertion failed: count it, then build and throw the error.
  function fail(operator, actual, expected, message, generate) {
    R.fail();
    if (isError(message)) {
      R.note(describeThrown(message));
      throw message;
    }
    let text;
    let generated = false;
    try {
      if (message !== undefined && message !== null) text = String(message);
      else {
        generated = true;
        text = generate();
      }
    } catch {
      text = 'assert.' + operator + ' failed';
    }
    R.note(text);
    const err = failure({ __proto__: null, message: text, actual, expected, operator });
    define(err, 'generatedMessage', generated, true);
    throw err;
  }

  // Count a failure caused by the assertion's own evaluation throwing, and rethrow it.
  function crashed(e) {
    R.fail();
    R.note(describeThrown(e));
    return e;
  }

  function missingArgs(name, n, need) {
    if (n >= need) return;
    const e = new TypeError('The "actual" and "expected" arguments must be specified');
    define(e, 'code', 'ERR_MISSING_ARGS', true);
    R.fail();
    R.note('assert.' + name + ': ' + e.message);
    throw e;
  }

  function compare(name, test, actual, expected, message, generate) {
    let ok;
    try {
      ok = test(actual, expected);
    } catch (e) {
      throw crashed(e);
    }
    if (ok) {
      R.pass();
      return;
    }
    fail(name, actual, expected, message, generate);
  }

  function ok(...args) {
    const value = args[0];
    if (args.length === 0) {
      fail('==', undefined, true, undefined, () => 'No value argument passed to `assert.ok()`');
    }
    if (value) {
      R.pass();
      return;
    }
    fail('==', value, true, args[1], () => 'The expression evaluated to a falsy value:\n\n  assert.ok(' + inspect(value) + ')\n');
  }

  function equal(actual, expected, message) {
    missingArgs('equal', arguments.length, 2);
    // eslint-disable-next-line eqeqeq
    compare(
      '==',
      (a, b) => a == b || (NumberIsNaN(a) && NumberIsNaN(b)),
      actual,
      expected,
      message,
      () => inspect(actual) + ' == ' + inspect(expected),
    );
  }
  function notEqual(actual, expected, message) {
    missingArgs('notEqual', arguments.length, 2);
    // eslint-disable-next-line eqeqeq
    compare(
      '!=',
      (a, b) => !(a == b || (NumberIsNaN(a) && NumberIsNaN(b))),
      actual,
      expected,
      message,
      () => inspect(actual) + ' != ' + inspect(expected),
    );
  }
  function strictEqual(actual, expected, message) {
    missingArgs('strictEqual', arguments.length, 2);
    compare(
      'strictEqual',
      ObjectIs,
      actual,
      expected,
      message,
      () => 'Expected values to be strictly equal:\n\n' + inspect(actual) + ' !== ' + inspect(expected) + '\n',
    );
  }
  function notStrictEqual(actual, expected, message) {
    missingArgs('notStrictEqual', arguments.length, 2);
    compare(
      'notStrictEqual',
      (a, b) => !ObjectIs(a, b),
      actual,
      expected,
      message,
      () => 'Expected "actual" to be strictly unequal to: ' + inspect(expected),
    );
  }
  function deepEqual(actual, expected, message) {
    missingArgs('deepEqual', arguments.length, 2);
    compare(
      'deepEqual',
      isDeepEqual,
      actual,
      expected,
      message,
      () =>
        'Expected values to be loosely deep-equal:\n\n' +
        inspect(actual) +
        '\n\nshould loosely deep-equal\n\n' +
        inspect(expected),
    );
  }
  function notDeepEqual(actual, expected, message) {
    missingArgs('notDeepEqual', arguments.length, 2);
    compare(
      'notDeepEqual',
      (a, b) => !isDeepEqual(a, b),
      actual,
      expected,
      message,
      () => '"actual" deepEqual "expected":\n\n' + inspect(actual),
    );
  }
  function deepStrictEqual(actual, expected, message) {
    missingArgs('deepStrictEqual', arguments.length, 2);
    compare(
      'deepStrictEqual',
      isDeepStrictEqual,
      actual,
      expected,
      message,
      () => 'Expected values to be strictly deep-equal:\n\n' + inspect(actual) + '\n\nshould equal\n\n' + inspect(expected),
    );
  }
  function notDeepStrictEqual(actual, expected, message) {
    missingArgs('notDeepStrictEqual', arguments.length, 2);
    compare(
      'notDeepStrictEqual',
      (a, b) => !isDeepStrictEqual(a, b),
      actual,
      expected,
      message,
      () => 'Expected "actual" not to be strictly deep-equal to:\n\n' + inspect(expected),
    );
  }

  // The `strict` verdict's versions of the loose functions: no type coercion, -0 equals 0, NaN
  // equals NaN, objects compared with deepStrictEqual's rules.
  const sameTyped = (a, b) => a === b || (NumberIsNaN(a) && NumberIsNaN(b));
  function typedEqual(actual, expected, message) {
    missingArgs('equal', arguments.length, 2);
    compare(
      '==',
      sameTyped,
      actual,
      expected,
      message,
      () => 'Expected values to be equal (strict verdict: same type):\n\n' + inspect(actual) + ' !== ' + inspect(expected) + '\n',
    );
  }
  // The negations keep Node's own loose test as well: making `equal` stricter makes its negation
  // weaker, and `assert.notEqual(f(1), null)` held for `undefined` (`false` for `notEqual(x, 0)`,
  // strings for `notDeepEqual(xs, [1, 2, 3])`). A strict verdict passes no negation Node fails.
  function notTypedEqual(actual, expected, message) {
    missingArgs('notEqual', arguments.length, 2);
    compare(
      '!=',
      // eslint-disable-next-line eqeqeq
      (a, b) => !sameTyped(a, b) && !(a == b || (NumberIsNaN(a) && NumberIsNaN(b))),
      actual,
      expected,
      message,
      () => 'Expected "actual" to be unequal to: ' + inspect(expected),
    );
  }
  function answerDeepEqual(actual, expected, message) {
    missingArgs('deepEqual', arguments.length, 2);
    compare(
      'deepEqual',
      isAnswerEqual,
      actual,
      expected,
      message,
      () =>
        'Expected values to be deep-equal (strict verdict: same types):\n\n' +
        inspect(actual) +
        '\n\nshould equal\n\n' +
        inspect(expected),
    );
  }
  function notAnswerDeepEqual(actual, expected, message) {
    missingArgs('notDeepEqual', arguments.length, 2);
    compare(
      'notDeepEqual',
      (a, b) => !isAnswerEqual(a, b) && !isDeepEqual(a, b),
      actual,
      expected,
      message,
      () => '"actual" deepEqual "expected":\n\n' + inspect(actual),
    );
  }
  const strictVerdict = verdict === 'strict';

  function assertFail(message) {
    fail('fail', undefined, undefined, message, () => 'Failed');
  }

  function ifError(err) {
    if (err === null || err === undefined) {
      R.pass();
      return;
    }
    fail('ifError', err, null, undefined, () => 'ifError got unwanted exception: ' + describeThrown(err));
  }

  function match(string, regexp, message) {
    if (!isRegExp(regexp)) throw crashed(new TypeError('The "regexp" argument must be an instance of RegExp.'));
    let ok;
    try {
      ok = typeof string === 'string' && RegExpPrototypeExec(regexp, string) !== null;
    } catch (e) {
      throw crashed(e);
    }
    if (ok) {
      R.pass();
      return;
    }
    fail('match', string, regexp, message, () =>
      typeof string !== 'string'
        ? 'The "string" argument must be of type string. Received ' + inspect(string)
        : 'The input did not match the regular expression ' + inspect(regexp) + '. Input:\n\n' + inspect(string) + '\n',
    );
  }
  function doesNotMatch(string, regexp, message) {
    if (!isRegExp(regexp)) throw crashed(new TypeError('The "regexp" argument must be an instance of RegExp.'));
    let ok;
    try {
      ok = typeof string === 'string' && RegExpPrototypeExec(regexp, string) === null;
    } catch (e) {
      throw crashed(e);
    }
    if (ok) {
      R.pass();
      return;
    }
    fail('doesNotMatch', string, regexp, message, () =>
      typeof string !== 'string'
        ? 'The "string" argument must be of type string. Received ' + inspect(string)
        : 'The input was expected to not match the regular expression ' +
          inspect(regexp) +
          '. Input:\n\n' +
          inspect(string) +
          '\n',
    );
  }

  // Node's expectedException: undefined when `actual` satisfies `expected`, else a failure message.
  function mismatch(actual, expected) {
    if (typeof expected !== 'function') {
      if (isRegExp(expected)) {
        const str = String(actual);
        if (RegExpPrototypeExec(expected, str) !== null) return undefined;
        return 'The input did not match the regular expression ' + inspect(expected) + '. Input:\n\n' + inspect(str) + '\n';
      }
      if (typeof actual !== 'object' || actual === null) {
        return 'Expected values to be strictly deep-equal:\n\n' + inspect(actual) + '\n\nshould equal\n\n' + inspect(expected);
      }
      const keys = ObjectKeys(expected);
      if (isErrorInstance(expected)) {
        C.push(keys, 'name');
        C.push(keys, 'message');
      } else if (keys.length === 0) return 'The "error" argument may not be an empty object';
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        const a = actual[key];
        const e = expected[key];
        if (typeof a === 'string' && isRegExp(e) && RegExpPrototypeExec(e, a) !== null) continue;
        if (!(key in actual) || !isDeepStrictEqual(a, e)) {
          return (
            'Expected values to be strictly deep-equal (key "' +
            String(key) +
            '"):\n\n' +
            inspect(a) +
            '\n\nshould equal\n\n' +
            inspect(e)
          );
        }
      }
      return undefined;
    }
    if (expected.prototype !== undefined && FunctionPrototypeSymbolHasInstance(expected, actual)) return undefined;
    if (FunctionPrototypeSymbolHasInstance(Error, expected.prototype) || expected === Error) {
      let m = 'The error is expected to be an instance of "' + String(expected.name) + '". Received ';
      m += isError(actual) ? '"' + describeThrown(actual) + '"' : '"' + inspect(actual) + '"';
      return m;
    }
    const res = ReflectApply(expected, {}, [actual]);
    if (res !== true) {
      return (
        'The ' +
        (expected.name ? '"' + String(expected.name) + '" ' : '') +
        'validation function is expected to return "true". Received ' +
        inspect(res)
      );
    }
    return undefined;
  }

  function checkFn(name, fn) {
    if (typeof fn !== 'function') {
      throw crashed(new TypeError('The "fn" argument of assert.' + name + ' must be of type function. Received ' + inspect(fn)));
    }
  }

  function throws(fn, error, message) {
    checkFn('throws', fn);
    if (typeof error === 'string') {
      message = error;
      error = undefined;
    }
    let threw = false;
    let actual;
    try {
      fn();
    } catch (e) {
      threw = true;
      actual = e;
    }
    if (!threw) {
      fail(
        'throws',
        undefined,
        error,
        message,
        () => 'Missing expected exception' + (typeof error === 'function' && error.name ? ' (' + String(error.name) + ').' : '.'),
      );
    }
    if (error === undefined) {
      R.pass();
      return;
    }
    let why;
    try {
      why = mismatch(actual, error);
    } catch (e) {
      throw crashed(e);
    }
    if (why === undefined) {
      R.pass();
      return;
    }
    fail('throws', actual, error, message, () => why);
  }

  function doesNotThrow(fn, error, message) {
    checkFn('doesNotThrow', fn);
    if (typeof error === 'string') {
      message = error;
      error = undefined;
    }
    try {
      fn();
    } catch (actual) {
      if (error !== undefined && typeof error === 'function') {
        let matches;
        try {
          matches = mismatch(actual, error) === undefined;
        } catch (e) {
          throw crashed(e);
        }
        if (!matches) {
          throw crashed(actual);
        }
      }
      fail(
        'doesNotThrow',
        actual,
        error,
        message,
        () => 'Got unwanted exception.\nActual message: "' + describeThrown(actual) + '"',
      );
    }
    R.pass();
  }

  // rejects/doesNotReject: counted as pending until they settle; an unsettled one fails the run.
  function asyncAssert(name, promiseFn, error, message, wantReject) {
    R.pendingStart();
    // The site is the caller's, read now: the outcome is recorded later, from a callback.
    const site = R.site();
    let settled = false;
    const settle = (okFlag, text) => {
      if (settled) return;
      settled = true;
      R.pendingEnd();
      if (okFlag) R.pass(site);
      else {
        R.fail(site);
        R.note(text);
      }
    };
    return new Promise((resolve, reject) => {
      if (typeof error === 'string') {
        message = error;
        error = undefined;
      }
      let p;
      try {
        if (typeof promiseFn === 'function') p = promiseFn();
        else p = promiseFn;
        // The tests handle this promise's rejection here (not an unhandled rejection).
        R.seen(p);
        if (p === null || (typeof p !== 'object' && typeof p !== 'function') || typeof p.then !== 'function') {
          throw new TypeError('assert.' + name + ' expects a promise, a thenable or a function returning one');
        }
        p = ReflectApply(PromiseResolve, Promise, [p]);
      } catch (e) {
        settle(false, describeThrown(e));
        reject(e);
        return;
      }
      const makeErr = (text, actual) => {
        return failure({
          __proto__: null,
          message: message !== undefined ? String(message) : text,
          actual,
          expected: error,
          operator: name,
        });
      };
      PromisePrototypeThen(
        p,
        (value) => {
          if (wantReject) {
            const text =
              'Missing expected rejection' + (typeof error === 'function' && error.name ? ' (' + String(error.name) + ').' : '.');
            settle(false, message !== undefined ? String(message) : text);
            reject(makeErr(text, value));
          } else {
            settle(true);
            resolve(undefined);
          }
        },
        (actual) => {
          if (!wantReject) {
            const text = 'Got unwanted rejection.\nActual message: "' + describeThrown(actual) + '"';
            settle(false, message !== undefined ? String(message) : text);
            reject(makeErr(text, actual));
            return;
          }
          let why;
          try {
            why = error === undefined ? undefined : mismatch(actual, error);
          } catch (e) {
            settle(false, describeThrown(e));
            reject(e);
            return;
          }
          if (why === undefined) {
            settle(true);
            resolve(undefined);
            return;
          }
          settle(false, message !== undefined ? String(message) : why);
          reject(makeErr(why, actual));
        },
      );
    });
  }
  function rejects(promiseFn, error, message) {
    return asyncAssert('rejects', promiseFn, error, message, true);
  }
  function doesNotReject(promiseFn, error, message) {
    return asyncAssert('doesNotReject', promiseFn, error, message, false);
  }

  function build(strict) {
    const assert = function ok_(...args) {
      return ReflectApply(ok, undefined, args);
    };
    ObjectDefineProperty(assert, 'name', { __proto__: null, value: 'ok', configurable: true });
    const table = {
      __proto__: null,
      ok,
      fail: assertFail,
      ifError,
      match,
      doesNotMatch,
      throws,
      doesNotThrow,
      rejects,
      doesNotReject,
      strictEqual,
      notStrictEqual,
      deepStrictEqual,
      notDeepStrictEqual,
      equal: strict ? strictEqual : strictVerdict ? typedEqual : equal,
      notEqual: strict ? notStrictEqual : strictVerdict ? notTypedEqual : notEqual,
      deepEqual: strict ? deepStrictEqual : strictVerdict ? answerDeepEqual : deepEqual,
      notDeepEqual: strict ? notDeepStrictEqual : strictVerdict ? notAnswerDeepEqual : notDeepEqual,
      AssertionError,
    };
    const names = ObjectKeys(table);
    for (let i = 0; i < names.length; i++) {
      ObjectDefineProperty(assert, names[i], {
        __proto__: null,
        value: table[names[i]],
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    return assert;
  }

  const fns = [
    ok,
    equal,
    notEqual,
    strictEqual,
    notStrictEqual,
    deepEqual,
    notDeepEqual,
    deepStrictEqual,
    notDeepStrictEqual,
    typedEqual,
    notTypedEqual,
    answerDeepEqual,
    notAnswerDeepEqual,
    assertFail,
    ifError,
    match,
    doesNotMatch,
    throws,
    doesNotThrow,
    rejects,
    doesNotReject,
  ];
  for (let i = 0; i < fns.length; i++) ObjectFreeze(fns[i]);
  // The strict variant is built on first use (most tests only need the loose module).
  let strict;
  function getStrict() {
    if (strict === undefined) {
      strict = build(true);
      ObjectDefineProperty(strict, 'strict', {
        __proto__: null,
        value: strict,
        writable: false,
        enumerable: true,
        configurable: false,
      });
      ObjectFreeze(strict);
    }
    return strict;
  }
  ObjectFreeze(getStrict);
  const loose = build(false);
  ObjectDefineProperty(loose, 'strict', { __proto__: null, get: getStrict, enumerable: true, configurable: false });
  ObjectFreeze(loose);
  void ObjectPrototypeHasOwnProperty;
  return { __proto__: null, loose, getStrict };
}
