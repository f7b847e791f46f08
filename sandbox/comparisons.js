// Runs INSIDE the isolate. Deep equality with Node's exact semantics (legacy loose `deepEqual`
// and `deepStrictEqual`), ported from Node.js v20 lib/internal/util/comparisons.js
// (MIT licence, Copyright Node.js contributors). Differences from the original, all for
// tamper-resistance: every intrinsic comes from the captured primordials `P`; no `for...of`
// over arrays (array iterators are patchable); Map/Set contents are read through captured
// iterator methods instead of the value's own (patchable) methods; brand checks use captured
// getters instead of Node's native `util.types`.

// Brand checks and a safe `push` on the captured primordials: what the snapshot and the bridge
// need (sandbox/snapshot.js). A realm that only snapshots values (the program realm of a program
// with separate tests) builds these alone, without the deep-equality code below.
function createTypeChecks(P) {
  'use strict';
  const {
    ArrayBufferIsView,
    ArrayBufferPrototypeGetByteLength,
    BigIntPrototypeValueOf,
    BooleanPrototypeValueOf,
    DatePrototypeGetTime,
    Error,
    FunctionPrototypeSymbolHasInstance,
    MapPrototypeGetSize,
    NumberPrototypeValueOf,
    ObjectDefineProperty,
    ObjectPrototypeToString,
    RegExpPrototypeGetGlobal,
    SetPrototypeGetSize,
    SharedArrayBufferPrototypeGetByteLength,
    StringPrototypeValueOf,
    SymbolPrototypeValueOf,
    TypedArrayPrototypeGetSymbolToStringTag,
  } = P;
  function push(arr, v) {
    ObjectDefineProperty(arr, arr.length, { __proto__: null, value: v, writable: true, enumerable: true, configurable: true });
  }
  function brand(fn, v) {
    try {
      fn(v);
      return true;
    } catch {
      return false;
    }
  }
  // The builtin an object was made as (its internal slots), found once per object: a failed brand
  // check throws, and an object crossing is checked against every builtin each time it is encoded
  // (a watched copy at every crossing), ~3 µs a throw — a thousand plain objects spent tens of
  // milliseconds a crossing there. An object's slots never change, so its kind is kept.
  const K_NONE = 0;
  const K_DATE = 1;
  const K_REGEXP = 2;
  const K_MAP = 3;
  const K_SET = 4;
  const K_ARRAY_BUFFER = 5;
  const K_SHARED_ARRAY_BUFFER = 6;
  const K_NUMBER = 7;
  const K_STRING = 8;
  const K_BOOLEAN = 9;
  const K_BIGINT = 10;
  const K_SYMBOL = 11;
  const kinds = new P.WeakMap();
  function regExpBrand(v) {
    try {
      return typeof RegExpPrototypeGetGlobal(v) === 'boolean';
    } catch {
      return false;
    }
  }
  // The `Symbol.toStringTag` an object's chain holds as data, '' where it holds none, undefined
  // where it is a getter or not a string (read from descriptors: no getter runs).
  function tagOf(v) {
    let o = v;
    for (let i = 0; i < 64 && o !== null; i++, o = P.ObjectGetPrototypeOf(o)) {
      const d = P.ObjectGetOwnPropertyDescriptor(o, P.SymbolToStringTag);
      if (d !== undefined) return typeof d.value === 'string' ? d.value : undefined;
    }
    return o === null ? '' : undefined;
  }
  function isArray(v) {
    try {
      return P.ArrayIsArray(v);
    } catch {
      return false;
    }
  }
  // The kind of `v`, with as few failed brand checks as can be sound: a check that holds does not
  // throw, so the likely kind is tried first (the class its `Symbol.toStringTag` names: a Map's,
  // a Set's); an array or a typed array has no other slots. A Date, RegExp or boxed number, string
  // or boolean has a builtin tag of its own (`[object Date]`): for an object over Object.prototype
  // or null with no `Symbol.toStringTag` on its chain, `Object.prototype.toString` tells whether it
  // is one of those — only the object itself could answer otherwise than its descriptors (a
  // Proxy, which has no slots at all). Any other object is checked against every builtin.
  function findKind(v) {
    if (ArrayBufferIsView(v) || isArray(v)) return K_NONE;
    const tag = tagOf(v);
    const proto = P.ObjectGetPrototypeOf(v);
    let rest = true;
    if (tag === '' && (proto === P.ObjectPrototype || proto === null)) {
      const builtin = ObjectPrototypeToString(v);
      if (builtin === '[object Object]') rest = false;
      else if (builtin !== '[object Date]' && builtin !== '[object RegExp]' && builtin !== '[object Number]') {
        if (builtin !== '[object String]' && builtin !== '[object Boolean]') return K_NONE;
      }
    } else if (tag === 'Map' && brand(MapPrototypeGetSize, v)) return K_MAP;
    else if (tag === 'Set' && brand(SetPrototypeGetSize, v)) return K_SET;
    if (rest) {
      if (brand(DatePrototypeGetTime, v)) return K_DATE;
      if (regExpBrand(v)) return K_REGEXP;
      if (brand(NumberPrototypeValueOf, v)) return K_NUMBER;
      if (brand(StringPrototypeValueOf, v)) return K_STRING;
      if (brand(BooleanPrototypeValueOf, v)) return K_BOOLEAN;
    }
    if (brand(MapPrototypeGetSize, v)) return K_MAP;
    if (brand(SetPrototypeGetSize, v)) return K_SET;
    if (brand(ArrayBufferPrototypeGetByteLength, v)) return K_ARRAY_BUFFER;
    if (SharedArrayBufferPrototypeGetByteLength !== undefined && brand(SharedArrayBufferPrototypeGetByteLength, v))
      return K_SHARED_ARRAY_BUFFER;
    if (brand(BigIntPrototypeValueOf, v)) return K_BIGINT;
    if (brand(SymbolPrototypeValueOf, v)) return K_SYMBOL;
    return K_NONE;
  }
  function kindOf(v) {
    if (typeof v !== 'object' || v === null) return K_NONE;
    let k = P.WeakMapPrototypeGet(kinds, v);
    if (k === undefined) {
      k = findKind(v);
      P.WeakMapPrototypeSet(kinds, v, k);
    }
    return k;
  }
  // An object made here as a plain object (a decoded copy): no brand check will ever hold for it.
  const madePlain = (v) => P.WeakMapPrototypeSet(kinds, v, K_NONE);
  const isDate = (v) => kindOf(v) === K_DATE;
  const isRegExp = (v) => kindOf(v) === K_REGEXP;
  const isMap = (v) => kindOf(v) === K_MAP;
  const isSet = (v) => kindOf(v) === K_SET;
  const isArrayBufferView = (v) => ArrayBufferIsView(v);
  const typedArrayTag = (v) => TypedArrayPrototypeGetSymbolToStringTag(v);
  function isAnyArrayBuffer(v) {
    const k = kindOf(v);
    return k === K_ARRAY_BUFFER || k === K_SHARED_ARRAY_BUFFER;
  }
  function anyArrayBufferByteLength(v) {
    try {
      return ArrayBufferPrototypeGetByteLength(v);
    } catch {
      return SharedArrayBufferPrototypeGetByteLength(v);
    }
  }
  const isNumberObject = (v) => kindOf(v) === K_NUMBER;
  const isStringObject = (v) => kindOf(v) === K_STRING;
  const isBooleanObject = (v) => kindOf(v) === K_BOOLEAN;
  const isBigIntObject = (v) => kindOf(v) === K_BIGINT;
  const isSymbolObject = (v) => kindOf(v) === K_SYMBOL;
  const isBoxedPrimitive = (v) => {
    const k = kindOf(v);
    return k >= K_NUMBER && k <= K_SYMBOL;
  };
  // No brand check for [[ErrorData]] exists in plain JS; the builtin tag is the closest, and it is
  // the builtin's only while no `Symbol.toStringTag` is on the chain: a plain object tagged
  // 'Error' reads as '[object Error]' too, and crossed as a real Error (red-team rt61 B7). An error
  // someone tagged is taken for an object (it crosses as one, a class instance over its chain).
  // (Checked first: a tag that is a getter is not run.)
  // No `Symbol.toStringTag` on the chain (see tagOf): the builtin tag is the object's own.
  const untagged = (v) => tagOf(v) === '';
  const isNativeError = (v) => untagged(v) && ObjectPrototypeToString(v) === '[object Error]';
  const isErrorInstance = (v) => FunctionPrototypeSymbolHasInstance(Error, v);
  const isFloatArray = (v) => {
    const tag = typedArrayTag(v);
    return tag === 'Float32Array' || tag === 'Float64Array';
  };

  return {
    __proto__: null,
    push,
    madePlain,
    isDate,
    isRegExp,
    isMap,
    isSet,
    isArrayBufferView,
    typedArrayTag,
    isAnyArrayBuffer,
    anyArrayBufferByteLength,
    isNumberObject,
    isStringObject,
    isBooleanObject,
    isBigIntObject,
    isSymbolObject,
    isBoxedPrimitive,
    isNativeError,
    isErrorInstance,
    isFloatArray,
  };
}

function createComparisons(P) {
  'use strict';
  const {
    ArrayIsArray,
    ObjectPrototype,
    ObjectIs,
    ObjectKeys,
    ObjectGetPrototypeOf,
    ObjectGetOwnPropertySymbols,
    ObjectPrototypeHasOwnProperty,
    ObjectPrototypePropertyIsEnumerable,
    ObjectPrototypeToString,
    ReflectOwnKeys,
    NumberIsNaN,
    NumberPrototypeValueOf,
    StringPrototypeValueOf,
    BooleanPrototypeValueOf,
    BigIntPrototypeValueOf,
    SymbolPrototypeValueOf,
    DatePrototypeGetTime,
    Map,
    Set,
    MapPrototypeGet,
    MapPrototypeHas,
    MapPrototypeGetSize,
    MapPrototypeEntries,
    MapIteratorNext,
    SetPrototypeAdd,
    SetPrototypeHas,
    SetPrototypeDelete,
    SetPrototypeGetSize,
    SetPrototypeValues,
    SetIteratorNext,
    TypedArrayPrototypeGetByteLength,
    TypedArrayPrototypeGetByteOffset,
    TypedArrayPrototypeGetBuffer,
    DataViewPrototypeGetByteLength,
    DataViewPrototypeGetByteOffset,
    DataViewPrototypeGetBuffer,
    Uint8Array,
    String,
  } = P;

  const kStrict = true;
  const kLoose = false;
  // The `strict` verdict mode's answer comparison: deepStrictEqual, except that -0 equals 0 (an
  // answer computed as -0 is the number the tests expect; NaN already equals NaN).
  const kAnswer = 2;
  const kNoIterator = 0;
  const kIsArray = 1;
  const kIsSet = 2;
  const kIsMap = 3;

  // --- safe helpers -------------------------------------------------------------------------
  const T = createTypeChecks(P);
  const { push, isDate, isRegExp, isMap, isSet, isArrayBufferView, typedArrayTag, isAnyArrayBuffer } = T;
  const { anyArrayBufferByteLength, isNumberObject, isStringObject, isBooleanObject, isBigIntObject, isSymbolObject } = T;
  const { isBoxedPrimitive, isNativeError, isErrorInstance, isFloatArray } = T;

  function viewBytes(v) {
    if (typedArrayTag(v) !== undefined) {
      return new Uint8Array(
        TypedArrayPrototypeGetBuffer(v),
        TypedArrayPrototypeGetByteOffset(v),
        TypedArrayPrototypeGetByteLength(v),
      );
    }
    return new Uint8Array(DataViewPrototypeGetBuffer(v), DataViewPrototypeGetByteOffset(v), DataViewPrototypeGetByteLength(v));
  }
  function viewByteLength(v) {
    return typedArrayTag(v) !== undefined ? TypedArrayPrototypeGetByteLength(v) : DataViewPrototypeGetByteLength(v);
  }
  function bytesEqual(a, b) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  // Own enumerable non-index keys (Node: getOwnNonIndexProperties(obj, ONLY_ENUMERABLE[|SKIP_SYMBOLS])).
  function isArrayIndex(k) {
    if (typeof k !== 'string' || k.length === 0 || k.length > 10) return false;
    const n = +k;
    return n >>> 0 === n && n !== 4294967295 && String(n) === k;
  }
  function getOwnNonIndexProperties(obj, skipSymbols) {
    const keys = ReflectOwnKeys(obj);
    const out = [];
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (typeof k === 'symbol') {
        if (skipSymbols) continue;
      } else if (isArrayIndex(k)) continue;
      if (ObjectPrototypePropertyIsEnumerable(obj, k)) push(out, k);
    }
    return out;
  }

  // Set/Map iteration through captured iterators: returns a plain array snapshot.
  function setValues(s) {
    const it = SetPrototypeValues(s);
    const out = [];
    for (;;) {
      const r = SetIteratorNext(it);
      if (r.done) return out;
      push(out, r.value);
    }
  }
  function mapEntries(m) {
    const it = MapPrototypeEntries(m);
    const out = [];
    for (;;) {
      const r = MapIteratorNext(it);
      if (r.done) return out;
      push(out, r.value);
    }
  }
  function newSet() {
    return new Set();
  }

  function areSimilarRegExps(a, b) {
    return a.source === b.source && a.flags === b.flags && a.lastIndex === b.lastIndex;
  }
  function areSimilarFloatArrays(a, b) {
    if (viewByteLength(a) !== viewByteLength(b)) return false;
    const len = viewByteLength(a);
    for (let offset = 0; offset < len; offset++) {
      if (a[offset] !== b[offset]) return false;
    }
    return true;
  }
  function areSimilarTypedArrays(a, b) {
    if (viewByteLength(a) !== viewByteLength(b)) return false;
    return bytesEqual(viewBytes(a), viewBytes(b));
  }
  function areEqualArrayBuffers(buf1, buf2) {
    return (
      anyArrayBufferByteLength(buf1) === anyArrayBufferByteLength(buf2) && bytesEqual(new Uint8Array(buf1), new Uint8Array(buf2))
    );
  }
  function isEqualBoxedPrimitive(val1, val2) {
    if (isNumberObject(val1)) {
      return isNumberObject(val2) && ObjectIs(NumberPrototypeValueOf(val1), NumberPrototypeValueOf(val2));
    }
    if (isStringObject(val1)) {
      return isStringObject(val2) && StringPrototypeValueOf(val1) === StringPrototypeValueOf(val2);
    }
    if (isBooleanObject(val1)) {
      return isBooleanObject(val2) && BooleanPrototypeValueOf(val1) === BooleanPrototypeValueOf(val2);
    }
    if (isBigIntObject(val1)) {
      return isBigIntObject(val2) && BigIntPrototypeValueOf(val1) === BigIntPrototypeValueOf(val2);
    }
    if (isSymbolObject(val1)) {
      return isSymbolObject(val2) && SymbolPrototypeValueOf(val1) === SymbolPrototypeValueOf(val2);
    }
    return false;
  }

  // A null-prototype object and a plain object are the same kind of answer (a dictionary of own
  // data): the `strict` verdict's deepEqual accepts one for the other (deepStrictEqual does not).
  function plainPair(a, b) {
    const pa = ObjectGetPrototypeOf(a);
    const pb = ObjectGetPrototypeOf(b);
    return (pa === null && pb === ObjectPrototype) || (pa === ObjectPrototype && pb === null);
  }

  function innerDeepEqual(val1, val2, strict, memos) {
    if (val1 === val2) {
      return val1 !== 0 || ObjectIs(val1, val2) || !strict || strict === kAnswer;
    }
    if (strict) {
      if (typeof val1 === 'number') {
        return NumberIsNaN(val1) && NumberIsNaN(val2);
      }
      if (
        typeof val2 !== 'object' ||
        typeof val1 !== 'object' ||
        val1 === null ||
        val2 === null ||
        (ObjectGetPrototypeOf(val1) !== ObjectGetPrototypeOf(val2) && !(strict === kAnswer && plainPair(val1, val2)))
      ) {
        return false;
      }
    } else {
      if (val1 === null || typeof val1 !== 'object') {
        if (val2 === null || typeof val2 !== 'object') {
          // eslint-disable-next-line eqeqeq
          return val1 == val2 || (NumberIsNaN(val1) && NumberIsNaN(val2));
        }
        return false;
      }
      if (val2 === null || typeof val2 !== 'object') {
        return false;
      }
    }
    const val1Tag = ObjectPrototypeToString(val1);
    const val2Tag = ObjectPrototypeToString(val2);
    if (val1Tag !== val2Tag) {
      return false;
    }

    if (ArrayIsArray(val1)) {
      if (!ArrayIsArray(val2) || val1.length !== val2.length) {
        return false;
      }
      const keys1 = getOwnNonIndexProperties(val1, !strict);
      const keys2 = getOwnNonIndexProperties(val2, !strict);
      if (keys1.length !== keys2.length) {
        return false;
      }
      return keyCheck(val1, val2, strict, memos, kIsArray, keys1);
    } else if (val1Tag === '[object Object]') {
      return keyCheck(val1, val2, strict, memos, kNoIterator);
    } else if (isDate(val1)) {
      if (!isDate(val2) || DatePrototypeGetTime(val1) !== DatePrototypeGetTime(val2)) {
        return false;
      }
    } else if (isRegExp(val1)) {
      if (!isRegExp(val2) || !areSimilarRegExps(val1, val2)) {
        return false;
      }
    } else if (isArrayBufferView(val1)) {
      if (!isArrayBufferView(val2) || typedArrayTag(val1) !== typedArrayTag(val2)) {
        return false;
      }
      if (!strict && isFloatArray(val1)) {
        if (!areSimilarFloatArrays(val1, val2)) {
          return false;
        }
      } else if (!areSimilarTypedArrays(val1, val2)) {
        return false;
      }
      const keys1 = getOwnNonIndexProperties(val1, !strict);
      const keys2 = getOwnNonIndexProperties(val2, !strict);
      if (keys1.length !== keys2.length) {
        return false;
      }
      return keyCheck(val1, val2, strict, memos, kNoIterator, keys1);
    } else if (isSet(val1)) {
      if (!isSet(val2) || SetPrototypeGetSize(val1) !== SetPrototypeGetSize(val2)) {
        return false;
      }
      return keyCheck(val1, val2, strict, memos, kIsSet);
    } else if (isMap(val1)) {
      if (!isMap(val2) || MapPrototypeGetSize(val1) !== MapPrototypeGetSize(val2)) {
        return false;
      }
      return keyCheck(val1, val2, strict, memos, kIsMap);
    } else if (isAnyArrayBuffer(val1)) {
      if (!isAnyArrayBuffer(val2) || !areEqualArrayBuffers(val1, val2)) {
        return false;
      }
    } else if (isNativeError(val1) || isErrorInstance(val1)) {
      if (!isNativeError(val2) && !isErrorInstance(val2)) {
        return false;
      }
      const message1Enumerable = ObjectPrototypePropertyIsEnumerable(val1, 'message');
      const name1Enumerable = ObjectPrototypePropertyIsEnumerable(val1, 'name');
      const cause1Enumerable = ObjectPrototypePropertyIsEnumerable(val1, 'cause');
      const errors1Enumerable = ObjectPrototypePropertyIsEnumerable(val1, 'errors');
      if (
        message1Enumerable !== ObjectPrototypePropertyIsEnumerable(val2, 'message') ||
        (!message1Enumerable && val1.message !== val2.message) ||
        name1Enumerable !== ObjectPrototypePropertyIsEnumerable(val2, 'name') ||
        (!name1Enumerable && val1.name !== val2.name) ||
        cause1Enumerable !== ObjectPrototypePropertyIsEnumerable(val2, 'cause') ||
        (!cause1Enumerable && !innerDeepEqual(val1.cause, val2.cause, strict, memos)) ||
        errors1Enumerable !== ObjectPrototypePropertyIsEnumerable(val2, 'errors') ||
        (!errors1Enumerable && !innerDeepEqual(val1.errors, val2.errors, strict, memos))
      ) {
        return false;
      }
    } else if (isBoxedPrimitive(val1)) {
      if (!isEqualBoxedPrimitive(val1, val2)) {
        return false;
      }
    } else if (
      ArrayIsArray(val2) ||
      isArrayBufferView(val2) ||
      isSet(val2) ||
      isMap(val2) ||
      isDate(val2) ||
      isRegExp(val2) ||
      isAnyArrayBuffer(val2) ||
      isBoxedPrimitive(val2) ||
      isNativeError(val2) ||
      isErrorInstance(val2)
    ) {
      return false;
    }
    return keyCheck(val1, val2, strict, memos, kNoIterator);
  }

  function countEnumerables(val, keys) {
    let n = 0;
    for (let i = 0; i < keys.length; i++) if (ObjectPrototypePropertyIsEnumerable(val, keys[i])) n++;
    return n;
  }

  function keyCheck(val1, val2, strict, memos, iterationType, aKeys) {
    const isArrayLikeObject = aKeys !== undefined;
    if (aKeys === undefined) {
      aKeys = ObjectKeys(val1);
    }
    for (let i = 0; i < aKeys.length; i++) {
      if (!ObjectPrototypePropertyIsEnumerable(val2, aKeys[i])) {
        return false;
      }
    }
    if (!isArrayLikeObject) {
      if (aKeys.length !== ObjectKeys(val2).length) {
        return false;
      }
      if (strict) {
        const symbolKeysA = ObjectGetOwnPropertySymbols(val1);
        if (symbolKeysA.length !== 0) {
          let count = 0;
          for (let i = 0; i < symbolKeysA.length; i++) {
            const key = symbolKeysA[i];
            if (ObjectPrototypePropertyIsEnumerable(val1, key)) {
              if (!ObjectPrototypePropertyIsEnumerable(val2, key)) {
                return false;
              }
              push(aKeys, key);
              count++;
            } else if (ObjectPrototypePropertyIsEnumerable(val2, key)) {
              return false;
            }
          }
          const symbolKeysB = ObjectGetOwnPropertySymbols(val2);
          if (symbolKeysA.length !== symbolKeysB.length && countEnumerables(val2, symbolKeysB) !== count) {
            return false;
          }
        } else {
          const symbolKeysB = ObjectGetOwnPropertySymbols(val2);
          if (symbolKeysB.length !== 0 && countEnumerables(val2, symbolKeysB) !== 0) {
            return false;
          }
        }
      }
    }
    if (
      aKeys.length === 0 &&
      (iterationType === kNoIterator ||
        (iterationType === kIsArray && val1.length === 0) ||
        (iterationType === kIsSet && SetPrototypeGetSize(val1) === 0) ||
        (iterationType === kIsMap && MapPrototypeGetSize(val1) === 0))
    ) {
      return true;
    }

    if (memos === undefined) {
      memos = {
        __proto__: null,
        set: undefined,
        a: val1,
        b: val2,
        c: undefined,
        d: undefined,
        deep: false,
        deleteFailures: false,
      };
      return objEquiv(val1, val2, strict, aKeys, memos, iterationType);
    }
    if (memos.set === undefined) {
      if (memos.deep === false) {
        if (memos.a === val1) {
          if (memos.b === val2) return true;
        }
        memos.c = val1;
        memos.d = val2;
        memos.deep = true;
        const result = objEquiv(val1, val2, strict, aKeys, memos, iterationType);
        memos.deep = false;
        return result;
      }
      memos.set = newSet();
      SetPrototypeAdd(memos.set, memos.a);
      SetPrototypeAdd(memos.set, memos.b);
      SetPrototypeAdd(memos.set, memos.c);
      SetPrototypeAdd(memos.set, memos.d);
    }
    const set = memos.set;
    const originalSize = SetPrototypeGetSize(set);
    SetPrototypeAdd(set, val1);
    SetPrototypeAdd(set, val2);
    if (originalSize === SetPrototypeGetSize(set)) {
      return true;
    }
    const areEq = objEquiv(val1, val2, strict, aKeys, memos, iterationType);
    if (areEq || memos.deleteFailures) {
      SetPrototypeDelete(set, val1);
      SetPrototypeDelete(set, val2);
    }
    return areEq;
  }

  function setHasEqualElement(set, val2, strict, memo) {
    const deleteFailures = memo.deleteFailures;
    memo.deleteFailures = true;
    const vals = setValues(set);
    for (let i = 0; i < vals.length; i++) {
      const val1 = vals[i];
      if (innerDeepEqual(val1, val2, strict, memo)) {
        SetPrototypeDelete(set, val1);
        memo.deleteFailures = deleteFailures;
        return true;
      }
    }
    memo.deleteFailures = deleteFailures;
    return false;
  }

  function findLooseMatchingPrimitives(prim) {
    switch (typeof prim) {
      case 'undefined':
        return null;
      case 'object':
        return undefined;
      case 'symbol':
        return false;
      case 'string':
        prim = +prim;
      // falls through
      case 'number':
        if (NumberIsNaN(prim)) {
          return false;
        }
    }
    return true;
  }

  function setMightHaveLoosePrim(a, b, prim) {
    const altValue = findLooseMatchingPrimitives(prim);
    if (altValue != null) return altValue;
    return SetPrototypeHas(b, altValue) && !SetPrototypeHas(a, altValue);
  }

  function mapMightHaveLoosePrim(a, b, prim, item, memo) {
    const altValue = findLooseMatchingPrimitives(prim);
    if (altValue != null) {
      return altValue;
    }
    const curB = MapPrototypeGet(b, altValue);
    if ((curB === undefined && !MapPrototypeHas(b, altValue)) || !innerDeepEqual(item, curB, false, memo)) {
      return false;
    }
    return !MapPrototypeHas(a, altValue) && innerDeepEqual(item, curB, false, memo);
  }

  function setEquiv(a, b, strict, memo) {
    let set = null;
    const aVals = setValues(a);
    for (let i = 0; i < aVals.length; i++) {
      const val = aVals[i];
      if (!SetPrototypeHas(b, val)) {
        if ((typeof val !== 'object' || val === null) && (strict || !setMightHaveLoosePrim(a, b, val))) {
          return false;
        }
        if (set === null) {
          if (SetPrototypeGetSize(b) === 1) {
            return innerDeepEqual(val, setValues(b)[0], strict, memo);
          }
          set = newSet();
        }
        SetPrototypeAdd(set, val);
      }
    }
    if (set !== null) {
      const bVals = setValues(b);
      for (let i = 0; i < bVals.length; i++) {
        const val = bVals[i];
        if (typeof val === 'object' && val !== null) {
          if (!SetPrototypeHas(a, val) && !setHasEqualElement(set, val, strict, memo)) {
            return false;
          }
        } else if (!strict && !SetPrototypeHas(a, val) && !setHasEqualElement(set, val, strict, memo)) {
          return false;
        }
      }
      return SetPrototypeGetSize(set) === 0;
    }
    return true;
  }

  function mapHasEqualEntry(set, map, key2, item2, strict, memo) {
    const deleteFailures = memo.deleteFailures;
    memo.deleteFailures = true;
    const keys = setValues(set);
    for (let i = 0; i < keys.length; i++) {
      const key1 = keys[i];
      if (innerDeepEqual(key1, key2, strict, memo) && innerDeepEqual(MapPrototypeGet(map, key1), item2, strict, memo)) {
        SetPrototypeDelete(set, key1);
        memo.deleteFailures = deleteFailures;
        return true;
      }
    }
    memo.deleteFailures = deleteFailures;
    return false;
  }

  function mapEquiv(a, b, strict, memo) {
    let set = null;
    const aEntries = mapEntries(a);
    for (let i = 0; i < aEntries.length; i++) {
      const key = aEntries[i][0];
      const item1 = aEntries[i][1];
      if (typeof key === 'object' && key !== null) {
        if (set === null) {
          if (MapPrototypeGetSize(b) === 1) {
            const e = mapEntries(b)[0];
            return innerDeepEqual(key, e[0], strict, memo) && innerDeepEqual(item1, e[1], strict, memo);
          }
          set = newSet();
        }
        SetPrototypeAdd(set, key);
      } else {
        const item2 = MapPrototypeGet(b, key);
        if ((item2 === undefined && !MapPrototypeHas(b, key)) || !innerDeepEqual(item1, item2, strict, memo)) {
          if (strict) return false;
          if (!mapMightHaveLoosePrim(a, b, key, item1, memo)) return false;
          if (set === null) {
            set = newSet();
          }
          SetPrototypeAdd(set, key);
        }
      }
    }
    if (set !== null) {
      const bEntries = mapEntries(b);
      for (let i = 0; i < bEntries.length; i++) {
        const key = bEntries[i][0];
        const item = bEntries[i][1];
        if (typeof key === 'object' && key !== null) {
          if (!mapHasEqualEntry(set, a, key, item, strict, memo)) return false;
        } else if (
          !strict &&
          (!MapPrototypeHas(a, key) || !innerDeepEqual(MapPrototypeGet(a, key), item, strict, memo)) &&
          !mapHasEqualEntry(set, a, key, item, strict, memo)
        ) {
          return false;
        }
      }
      return SetPrototypeGetSize(set) === 0;
    }
    return true;
  }

  function objEquiv(a, b, strict, keys, memos, iterationType) {
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (!innerDeepEqual(a[key], b[key], strict, memos)) {
        return false;
      }
    }
    if (iterationType === kIsArray) {
      for (let i = 0; i < a.length; i++) {
        if (ObjectPrototypeHasOwnProperty(a, i)) {
          if (!ObjectPrototypeHasOwnProperty(b, i) || !innerDeepEqual(a[i], b[i], strict, memos)) {
            return false;
          }
        } else if (ObjectPrototypeHasOwnProperty(b, i)) {
          return false;
        } else {
          const keysA = ObjectKeys(a);
          for (; i < keysA.length; i++) {
            const key = keysA[i];
            if (!ObjectPrototypeHasOwnProperty(b, key) || !innerDeepEqual(a[key], b[key], strict, memos)) {
              return false;
            }
          }
          return keysA.length === ObjectKeys(b).length;
        }
      }
    } else if (iterationType === kIsSet) {
      if (!setEquiv(a, b, strict, memos)) return false;
    } else if (iterationType === kIsMap) {
      if (!mapEquiv(a, b, strict, memos)) return false;
    }
    return true;
  }

  return {
    __proto__: null,
    isDeepEqual: (a, b) => innerDeepEqual(a, b, kLoose),
    isDeepStrictEqual: (a, b) => innerDeepEqual(a, b, kStrict),
    isAnswerEqual: (a, b) => innerDeepEqual(a, b, kAnswer),
    isDate,
    isRegExp,
    isMap,
    isSet,
    isAnyArrayBuffer,
    isBoxedPrimitive,
    isNativeError,
    isErrorInstance,
    typedArrayTag,
    setValues,
    mapEntries,
    push,
    madePlain: T.madePlain,
  };
}
