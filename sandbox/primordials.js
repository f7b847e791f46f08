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
function _createPrimordials(g) {
  'use strict';
  const FunctionPrototype = g.Function.prototype;
  const uncurryThis = FunctionPrototype.bind.bind(FunctionPrototype.call);
  const getOwn = g.Object.getOwnPropertyDescriptor;
  const getter = (proto, name) => uncurryThis(getOwn(proto, name).get);
  const TypedArrayPrototype = g.Object.getPrototypeOf(g.Uint8Array.prototype);
  const MapIteratorPrototype = g.Object.getPrototypeOf(new g.Map().entries());
  const SetIteratorPrototype = g.Object.getPrototypeOf(new g.Set().values());
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
    ArrayIsArray: g.Array.isArray,
    ArrayPrototype: g.Array.prototype,
    Number: g.Number,
    NumberIsNaN: g.Number.isNaN,
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
    SymbolIterator: g.Symbol.iterator,
    SymbolToStringTag: g.Symbol.toStringTag,
    SymbolHasInstance: g.Symbol.hasInstance,
    DatePrototypeGetTime: uncurryThis(g.Date.prototype.getTime),
    DatePrototypeToISOString: uncurryThis(g.Date.prototype.toISOString),
    DatePrototypeToString: uncurryThis(g.Date.prototype.toString),
    RegExpPrototypeExec: uncurryThis(g.RegExp.prototype.exec),
    RegExpPrototypeGetSource: getter(g.RegExp.prototype, 'source'),
    RegExpPrototypeGetFlags: getter(g.RegExp.prototype, 'flags'),
    RegExpPrototypeGetGlobal: getter(g.RegExp.prototype, 'global'),
    Map: g.Map,
    MapPrototypeGet: uncurryThis(g.Map.prototype.get),
    MapPrototypeSet: uncurryThis(g.Map.prototype.set),
    MapPrototypeHas: uncurryThis(g.Map.prototype.has),
    MapPrototypeDelete: uncurryThis(g.Map.prototype.delete),
    MapPrototypeGetSize: getter(g.Map.prototype, 'size'),
    MapPrototypeEntries: uncurryThis(g.Map.prototype.entries),
    MapIteratorNext: uncurryThis(MapIteratorPrototype.next),
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
    SharedArrayBufferPrototypeGetByteLength:
      typeof g.SharedArrayBuffer === 'function' ? getter(g.SharedArrayBuffer.prototype, 'byteLength') : undefined,
    Error: g.Error,
    TypeError: g.TypeError,
    FunctionPrototypeToString: uncurryThis(FunctionPrototype.toString),
    FunctionPrototypeSymbolHasInstance: uncurryThis(FunctionPrototype[g.Symbol.hasInstance]),
    Promise: g.Promise,
    PromiseResolve: g.Promise.resolve,
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
    Boolean: g.Boolean,
    Symbol: g.Symbol,
    ArrayBuffer: g.ArrayBuffer,
    ArrayBufferPrototypeSlice: uncurryThis(g.ArrayBuffer.prototype.slice),
    DataView: g.DataView,
    TypedArrayPrototype,
    TypedArrays: g.Object.freeze({
      __proto__: null,
      Int8Array: g.Int8Array, Uint8Array: g.Uint8Array, Uint8ClampedArray: g.Uint8ClampedArray,
      Int16Array: g.Int16Array, Uint16Array: g.Uint16Array, Int32Array: g.Int32Array, Uint32Array: g.Uint32Array,
      Float32Array: g.Float32Array, Float64Array: g.Float64Array,
      BigInt64Array: g.BigInt64Array, BigUint64Array: g.BigUint64Array,
    }),
    ObjectPrototypeIsPrototypeOf: uncurryThis(g.Object.prototype.isPrototypeOf),
    FunctionPrototype,
    PromisePrototype: g.Promise.prototype,
    MathImul: g.Math.imul,
    Errors: g.Object.freeze({
      __proto__: null,
      Error: g.Error, TypeError: g.TypeError, RangeError: g.RangeError, SyntaxError: g.SyntaxError,
      ReferenceError: g.ReferenceError, EvalError: g.EvalError, URIError: g.URIError,
    }),
    Math: g.Math,
    MathFloor: g.Math.floor,
    MathMin: g.Math.min,
    MathMax: g.Math.max,
  };
  return g.Object.freeze(P);
}
