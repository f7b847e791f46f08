// Runs INSIDE the isolate (see src/sandbox/worker.ts, which concatenates the files of this
// directory into one strict-mode script compiled once per isolate and run in every fresh context).
//
// Captures every intrinsic the harness needs *before* the untrusted program runs, so that a
// program that patches Object/Array/JSON/Map/Function.prototype.call/... cannot change how the
// harness compares values, records assertions or formats output. Methods are "uncurried"
// (fn(receiver, ...args)) through a bound Function.prototype.call, which later patches of
// `call`/`apply`/`bind` cannot reach.
//
// Ported idea: Node.js "primordials" (lib/internal/per_context/primordials.js, MIT licence).

/** @returns {Record<string, any>} a frozen null-prototype bag of captured intrinsics. */
function createPrimordials(g) {
  'use strict';
  const FunctionPrototype = g.Function.prototype;
  const uncurryThis = FunctionPrototype.bind.bind(FunctionPrototype.call);
  const getOwn = g.Object.getOwnPropertyDescriptor;
  const getter = (proto, name) => uncurryThis(getOwn(proto, name).get);
  const TypedArrayPrototype = g.Object.getPrototypeOf(g.Uint8Array.prototype);
  const MapIteratorPrototype = g.Object.getPrototypeOf(new g.Map().entries());
  const SetIteratorPrototype = g.Object.getPrototypeOf(new g.Set().values());
  // The engine's own iterator kinds, by prototype: what an answer that is an iterator may be.
  const GeneratorPrototype = g.Object.getPrototypeOf(function* () {}).prototype;
  const AsyncGeneratorPrototype = g.Object.getPrototypeOf(async function* () {}).prototype;
  const IteratorKinds = [
    GeneratorPrototype,
    g.Object.getPrototypeOf([][g.Symbol.iterator]()),
    MapIteratorPrototype,
    SetIteratorPrototype,
    g.Object.getPrototypeOf(''[g.Symbol.iterator]()),
    g.Object.getPrototypeOf(/a/g[g.Symbol.matchAll]('')),
    AsyncGeneratorPrototype,
  ];
  // A RegExp's flags from its own internal slots, each read by the builtin getter of its flag:
  // `flags` itself reads them through the object (`Get(R, 'global')`…), where a subclass's or a
  // patched prototype's getter runs program code and may lie (red-team rt73 M01-M37).
  const flagReaders = [];
  const FLAG_NAMES = [
    'hasIndices',
    'd',
    'global',
    'g',
    'ignoreCase',
    'i',
    'multiline',
    'm',
    'dotAll',
    's',
    'unicode',
    'u',
    'unicodeSets',
    'v',
    'sticky',
    'y',
  ];
  for (let i = 0; i < FLAG_NAMES.length; i += 2) {
    const d = getOwn(g.RegExp.prototype, FLAG_NAMES[i]);
    if (d !== undefined && typeof d.get === 'function') flagReaders[flagReaders.length] = [uncurryThis(d.get), FLAG_NAMES[i + 1]];
  }
  const regExpFlags = (r) => {
    let out = '';
    for (let i = 0; i < flagReaders.length; i++) if (flagReaders[i][0](r)) out += flagReaders[i][1];
    return out;
  };
  const P = {
    __proto__: null,
    globalThis: g,
    uncurryThis,
    Object: g.Object,
    ObjectKeys: g.Object.keys,
    ObjectIs: g.Object.is,
    ObjectGetPrototypeOf: g.Object.getPrototypeOf,
    ObjectSetPrototypeOf: g.Object.setPrototypeOf,
    ObjectGetOwnPropertySymbols: g.Object.getOwnPropertySymbols,
    ObjectGetOwnPropertyNames: g.Object.getOwnPropertyNames,
    ObjectGetOwnPropertyDescriptor: getOwn,
    ObjectDefineProperty: g.Object.defineProperty,
    ObjectFreeze: g.Object.freeze,
    ObjectCreate: g.Object.create,
    ObjectPrototype: g.Object.prototype,
    ObjectPrototypeHasOwnProperty: uncurryThis(g.Object.prototype.hasOwnProperty),
    ObjectPrototypePropertyIsEnumerable: uncurryThis(g.Object.prototype.propertyIsEnumerable),
    ObjectPrototypeToString: uncurryThis(g.Object.prototype.toString),
    ReflectApply: g.Reflect.apply,
    ReflectConstruct: g.Reflect.construct,
    ReflectOwnKeys: g.Reflect.ownKeys,
    ReflectGet: g.Reflect.get,
    ReflectHas: g.Reflect.has,
    ReflectDefineProperty: g.Reflect.defineProperty,
    ReflectSet: g.Reflect.set,
    Proxy: g.Proxy,
    ArrayIsArray: g.Array.isArray,
    ArrayPrototype: g.Array.prototype,
    Number: g.Number,
    NumberIsNaN: g.Number.isNaN,
    NumberIsFinite: g.Number.isFinite,
    NumberPrototypeValueOf: uncurryThis(g.Number.prototype.valueOf),
    String: g.String,
    StringPrototypeValueOf: uncurryThis(g.String.prototype.valueOf),
    StringPrototypeSlice: uncurryThis(g.String.prototype.slice),
    StringPrototypeCharCodeAt: uncurryThis(g.String.prototype.charCodeAt),
    StringPrototypeIndexOf: uncurryThis(g.String.prototype.indexOf),
    StringPrototypeRepeat: uncurryThis(g.String.prototype.repeat),
    BooleanPrototypeValueOf: uncurryThis(g.Boolean.prototype.valueOf),
    BigIntPrototypeValueOf: uncurryThis(g.BigInt.prototype.valueOf),
    SymbolPrototypeValueOf: uncurryThis(g.Symbol.prototype.valueOf),
    SymbolPrototypeToString: uncurryThis(g.Symbol.prototype.toString),
    SymbolPrototypeGetDescription: getter(g.Symbol.prototype, 'description'),
    SymbolFor: g.Symbol.for,
    SymbolKeyFor: g.Symbol.keyFor,
    SymbolIterator: g.Symbol.iterator,
    SymbolAsyncIterator: g.Symbol.asyncIterator,
    SymbolToStringTag: g.Symbol.toStringTag,
    SymbolHasInstance: g.Symbol.hasInstance,
    DatePrototypeGetTime: uncurryThis(g.Date.prototype.getTime),
    DatePrototypeSetTime: uncurryThis(g.Date.prototype.setTime),
    DatePrototypeToISOString: uncurryThis(g.Date.prototype.toISOString),
    DatePrototypeToString: uncurryThis(g.Date.prototype.toString),
    RegExpPrototypeExec: uncurryThis(g.RegExp.prototype.exec),
    RegExpPrototypeGetSource: getter(g.RegExp.prototype, 'source'),
    RegExpPrototypeGetFlags: regExpFlags,
    RegExpPrototypeGetGlobal: getter(g.RegExp.prototype, 'global'),
    Map: g.Map,
    MapPrototypeGet: uncurryThis(g.Map.prototype.get),
    WeakMap: g.WeakMap,
    WeakMapPrototypeGet: uncurryThis(g.WeakMap.prototype.get),
    WeakMapPrototypeSet: uncurryThis(g.WeakMap.prototype.set),
    WeakMapPrototypeDelete: uncurryThis(g.WeakMap.prototype.delete),
    MapPrototypeSet: uncurryThis(g.Map.prototype.set),
    MapPrototypeHas: uncurryThis(g.Map.prototype.has),
    MapPrototypeDelete: uncurryThis(g.Map.prototype.delete),
    MapPrototypeClear: uncurryThis(g.Map.prototype.clear),
    SetPrototypeClear: uncurryThis(g.Set.prototype.clear),
    ObjectIsExtensible: g.Object.isExtensible,
    ObjectIsFrozen: g.Object.isFrozen,
    ObjectIsSealed: g.Object.isSealed,
    ObjectSeal: g.Object.seal,
    ObjectPreventExtensions: g.Object.preventExtensions,
    ReflectDeleteProperty: g.Reflect.deleteProperty,
    MapPrototypeGetSize: getter(g.Map.prototype, 'size'),
    MapPrototypeEntries: uncurryThis(g.Map.prototype.entries),
    MapPrototypeValues: uncurryThis(g.Map.prototype.values),
    MapIteratorNext: uncurryThis(MapIteratorPrototype.next),
    IteratorPrototype: g.Object.getPrototypeOf(GeneratorPrototype),
    AsyncIteratorPrototype: g.Object.getPrototypeOf(AsyncGeneratorPrototype),
    IteratorKinds: g.Object.freeze(
      IteratorKinds.map((p) =>
        g.Object.freeze({
          __proto__: null,
          proto: p,
          next: p.next,
          return: p.return,
          throw: p.throw,
          // An async generator's steps answer promises (they cross as promises).
          async: p === AsyncGeneratorPrototype,
        }),
      ),
    ),
    Set: g.Set,
    SetPrototypeAdd: uncurryThis(g.Set.prototype.add),
    SetPrototypeHas: uncurryThis(g.Set.prototype.has),
    SetPrototypeDelete: uncurryThis(g.Set.prototype.delete),
    SetPrototypeGetSize: getter(g.Set.prototype, 'size'),
    SetPrototypeValues: uncurryThis(g.Set.prototype.values),
    SetIteratorNext: uncurryThis(SetIteratorPrototype.next),
    TypedArrayPrototypeGetSymbolToStringTag: getter(TypedArrayPrototype, g.Symbol.toStringTag),
    TypedArrayPrototypeGetByteLength: getter(TypedArrayPrototype, 'byteLength'),
    TypedArrayPrototypeGetByteOffset: getter(TypedArrayPrototype, 'byteOffset'),
    TypedArrayPrototypeGetLength: getter(TypedArrayPrototype, 'length'),
    TypedArrayPrototypeGetBuffer: getter(TypedArrayPrototype, 'buffer'),
    DataViewPrototypeGetByteLength: getter(g.DataView.prototype, 'byteLength'),
    DataViewPrototypeGetByteOffset: getter(g.DataView.prototype, 'byteOffset'),
    DataViewPrototypeGetBuffer: getter(g.DataView.prototype, 'buffer'),
    Uint8Array: g.Uint8Array,
    ArrayBufferIsView: g.ArrayBuffer.isView,
    ArrayBufferPrototypeGetByteLength: getter(g.ArrayBuffer.prototype, 'byteLength'),
    // (Absent where the engine has no resizable buffers.)
    ArrayBufferPrototypeGetResizable:
      getOwn(g.ArrayBuffer.prototype, 'resizable') !== undefined ? getter(g.ArrayBuffer.prototype, 'resizable') : undefined,
    SharedArrayBufferPrototypeGetByteLength:
      typeof g.SharedArrayBuffer === 'function' ? getter(g.SharedArrayBuffer.prototype, 'byteLength') : undefined,
    Error: g.Error,
    TypeError: g.TypeError,
    FunctionPrototypeToString: uncurryThis(FunctionPrototype.toString),
    FunctionPrototypeSymbolHasInstance: uncurryThis(FunctionPrototype[g.Symbol.hasInstance]),
    Promise: g.Promise,
    PromiseResolve: g.Promise.resolve,
    // (Called through ReflectApply.)
    ArrayPrototypeSlice: g.Array.prototype.slice,
    ArrayPrototypeSplice: g.Array.prototype.splice,
    PromisePrototypeThen: uncurryThis(g.Promise.prototype.then),
    JSONStringify: g.JSON.stringify,
    JSONParse: g.JSON.parse,
    Array: g.Array,
    Date: g.Date,
    DateUTC: g.Date.UTC,
    DateParse: g.Date.parse,
    DatePrototype: g.Date.prototype,
    RegExp: g.RegExp,
    BigInt: g.BigInt,
    Symbol: g.Symbol,
    ArrayBuffer: g.ArrayBuffer,
    DataView: g.DataView,
    SharedArrayBuffer: g.SharedArrayBuffer,
    TypedArrays: g.Object.freeze({
      __proto__: null,
      Int8Array: g.Int8Array,
      Uint8Array: g.Uint8Array,
      Uint8ClampedArray: g.Uint8ClampedArray,
      Int16Array: g.Int16Array,
      Uint16Array: g.Uint16Array,
      Int32Array: g.Int32Array,
      Uint32Array: g.Uint32Array,
      Float32Array: g.Float32Array,
      Float64Array: g.Float64Array,
      BigInt64Array: g.BigInt64Array,
      BigUint64Array: g.BigUint64Array,
    }),
    PromisePrototype: g.Promise.prototype,
    Errors: g.Object.freeze({
      __proto__: null,
      Error: g.Error,
      TypeError: g.TypeError,
      RangeError: g.RangeError,
      SyntaxError: g.SyntaxError,
      ReferenceError: g.ReferenceError,
      EvalError: g.EvalError,
      URIError: g.URIError,
    }),
    AggregateError: g.AggregateError,
    MathFloor: g.Math.floor,
    MathRound: g.Math.round,
    MathSqrt: g.Math.sqrt,
    MathMin: g.Math.min,
    MathMax: g.Math.max,
  };
  return g.Object.freeze(P);
}
