// Runs INSIDE the isolate. A small, bounded approximation of Node's util.inspect/util.format,
// used for console capture and assertion messages. It never invokes getters (it reads property
// descriptors), bounds depth, item count and output length, and only uses captured intrinsics.

function createInspect(P, C) {
  'use strict';
  const {
    ObjectGetPrototypeOf,
    ObjectGetOwnPropertyDescriptor,
    ObjectPrototypeToString,
    ObjectPrototypePropertyIsEnumerable,
    ReflectOwnKeys,
    ArrayIsArray,
    String,
    StringPrototypeSlice,
    StringPrototypeCharCodeAt,
    StringPrototypeIndexOf,
    StringPrototypeRepeat,
    SymbolPrototypeToString,
    FunctionPrototypeToString,
    DatePrototypeToISOString,
    DatePrototypeGetTime,
    RegExpPrototypeGetSource,
    RegExpPrototypeGetFlags,
    MapPrototypeGetSize,
    SetPrototypeGetSize,
    NumberPrototypeValueOf,
    StringPrototypeValueOf,
    BooleanPrototypeValueOf,
    BigIntPrototypeValueOf,
    SymbolPrototypeValueOf,
    TypedArrayPrototypeGetLength,
    ObjectIs,
    JSONStringify,
    Number,
    NumberIsNaN,
    MathFloor,
    MathMin,
    MathMax,
    MathRound,
    MathSqrt,
    ObjectPrototypeHasOwnProperty,
  } = P;
  const {
    isDate,
    isRegExp,
    isMap,
    isSet,
    isAnyArrayBuffer,
    isNativeError,
    isErrorInstance,
    typedArrayTag,
    setValues,
    mapEntries,
  } = C;

  const kMaxArrayItems = 100;
  const kMaxStringInner = 10000;
  const kBreakLength = 80;
  const HEX = '0123456789ABCDEF';
  const HEX_LOWER = '0123456789abcdef';

  // Node's quote choice: single quotes, unless the string holds ' (then ", then `).
  function quote(s) {
    let q = 39;
    if (StringPrototypeIndexOf(s, "'") !== -1) {
      if (StringPrototypeIndexOf(s, '"') === -1) q = 34;
      else if (StringPrototypeIndexOf(s, '`') === -1 && StringPrototypeIndexOf(s, '${') === -1) q = 96;
    }
    const Q = q === 39 ? "'" : q === 34 ? '"' : '`';
    let out = Q;
    const n = s.length > kMaxStringInner ? kMaxStringInner : s.length;
    for (let i = 0; i < n; i++) {
      const c = StringPrototypeCharCodeAt(s, i);
      if (c === q) out += '\\' + Q;
      else if (c === 92) out += '\\\\';
      else if (c === 10) out += '\\n';
      else if (c === 13) out += '\\r';
      else if (c === 9) out += '\\t';
      else if (c < 32 || c === 127) out += '\\x' + HEX[c >> 4] + HEX[c & 15];
      else out += StringPrototypeSlice(s, i, i + 1);
    }
    if (s.length > n) out += Q + '... ' + (s.length - n) + ' more characters';
    else out += Q;
    return out;
  }

  function isIdentifier(k) {
    if (k.length === 0) return false;
    for (let i = 0; i < k.length; i++) {
      const c = StringPrototypeCharCodeAt(k, i);
      const ok = c === 36 || c === 95 || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (i > 0 && c >= 48 && c <= 57);
      if (!ok) return false;
    }
    return true;
  }

  function formatPrimitive(v, top) {
    switch (typeof v) {
      case 'string':
        return top ? v : quote(v);
      case 'number':
        return ObjectIs(v, -0) ? '-0' : String(v);
      case 'bigint':
        return String(v) + 'n';
      case 'boolean':
        return v ? 'true' : 'false';
      case 'undefined':
        return 'undefined';
      case 'symbol':
        return SymbolPrototypeToString(v);
      default:
        return 'null';
    }
  }

  function safeString(v) {
    return typeof v === 'string' ? v : undefined;
  }

  function functionLabel(fn) {
    let src = '';
    try {
      src = FunctionPrototypeToString(fn);
    } catch {
      /* revoked proxy */
    }
    const d = ObjectGetOwnPropertyDescriptor(fn, 'name');
    const name = d && typeof d.value === 'string' ? d.value : '';
    if (StringPrototypeSlice(src, 0, 6) === 'class ' || StringPrototypeSlice(src, 0, 6) === 'class{') {
      return name ? '[class ' + name + ']' : '[class (anonymous)]';
    }
    return name ? '[Function: ' + name + ']' : '[Function (anonymous)]';
  }

  function constructorName(obj) {
    let proto = obj;
    for (let depth = 0; depth < 100; depth++) {
      proto = ObjectGetPrototypeOf(proto);
      if (proto === null) return null;
      const d = ObjectGetOwnPropertyDescriptor(proto, 'constructor');
      if (d && typeof d.value === 'function') {
        const nd = ObjectGetOwnPropertyDescriptor(d.value, 'name');
        if (nd && typeof nd.value === 'string' && nd.value !== '') return nd.value;
      }
    }
    return null;
  }

  function errorText(e) {
    const sd = ObjectGetOwnPropertyDescriptor(e, 'stack');
    const st = sd && safeString(sd.value);
    if (st) return st;
    let name = 'Error';
    let message = '';
    let p = e;
    for (let i = 0; i < 50 && p !== null; i++) {
      const nd = ObjectGetOwnPropertyDescriptor(p, 'name');
      if (nd) {
        name = safeString(nd.value) || name;
        break;
      }
      p = ObjectGetPrototypeOf(p);
    }
    const md = ObjectGetOwnPropertyDescriptor(e, 'message');
    if (md) message = safeString(md.value) || '';
    return message ? name + ': ' + message : name;
  }

  // ctx: { budget, seen: [] }
  function formatValue(v, depth, ctx, top) {
    if (ctx.budget <= 0) return '…';
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) {
      const s = formatPrimitive(v, top);
      ctx.budget -= s.length;
      return s;
    }
    for (let i = 0; i < ctx.seen.length; i++) if (ctx.seen[i] === v) return '[Circular *1]';
    if (typeof v === 'function') {
      const label = functionLabel(v);
      const keys = ownEnumerableKeys(v);
      if (keys.length === 0) {
        ctx.budget -= label.length;
        return label;
      }
      return formatObjectBody(v, depth, ctx, label + ' ', keys, true, '{', '}');
    }
    const tagStr = ObjectPrototypeToString(v);
    // (Past the depth limit Node still prints an empty container in full: it returns early for
    // one before it checks the depth.)
    if (ArrayIsArray(v)) {
      if (depth > 2 && (v.length > 0 || ownEnumerableKeys(v).length > 0)) return '[Array]';
      return formatList(v, depth, ctx, '', v.length, (i) => v[i], '[', ']', true, undefined, true);
    }
    const ta = typedArrayTag(v);
    if (ta !== undefined) {
      const len = TypedArrayPrototypeGetLength(v);
      // Node's Buffer prints its bytes in hex, the first 50 of them (sandbox/node-globals.js makes
      // the realm's Buffer a Uint8Array subclass of that name).
      if (ta === 'Uint8Array' && constructorName(v) === 'Buffer') {
        let s = '<Buffer';
        const n = len > 50 ? 50 : len;
        for (let i = 0; i < n; i++) s += ' ' + HEX_LOWER[v[i] >> 4] + HEX_LOWER[v[i] & 15];
        s += (len > 50 ? ' ... ' + (len - 50) + ' more byte' + (len - 50 > 1 ? 's' : '') : len === 0 ? ' ' : '') + '>';
        ctx.budget -= s.length;
        return s;
      }
      if (depth > 2 && len > 0) return '[' + ta + ']';
      return formatList(v, depth, ctx, ta + '(' + len + ') ', len, (i) => v[i], '[', ']', false, undefined, true);
    }
    if (isMap(v)) {
      const size = MapPrototypeGetSize(v);
      if (depth > 2 && size > 0) return '[Map]';
      const entries = mapEntries(v);
      return formatList(
        v,
        depth,
        ctx,
        'Map(' + size + ') ',
        entries.length,
        (i) => entries[i],
        '{',
        '}',
        false,
        (e) => sub(e[0], depth, ctx) + ' => ' + sub(e[1], depth, ctx),
      );
    }
    if (isSet(v)) {
      const size = SetPrototypeGetSize(v);
      if (depth > 2 && size > 0) return '[Set]';
      const vals = setValues(v);
      return formatList(v, depth, ctx, 'Set(' + size + ') ', vals.length, (i) => vals[i], '{', '}', false);
    }
    if (isDate(v)) {
      const t = DatePrototypeGetTime(v);
      const s = NumberIsNaN(t) ? 'Invalid Date' : DatePrototypeToISOString(v);
      ctx.budget -= s.length;
      return s;
    }
    if (isRegExp(v)) {
      const s = '/' + RegExpPrototypeGetSource(v) + '/' + RegExpPrototypeGetFlags(v);
      ctx.budget -= s.length;
      return s;
    }
    if (isNativeError(v) || isErrorInstance(v)) {
      const s = errorText(v);
      ctx.budget -= s.length;
      return s;
    }
    if (isAnyArrayBuffer(v)) return 'ArrayBuffer { [Uint8Contents] }';
    const boxed = boxedLabel(v);
    if (boxed !== undefined) return boxed;
    if (tagStr === '[object Promise]') return 'Promise { <unknown> }';
    const keys = ownEnumerableKeys(v);
    if (depth > 2 && keys.length > 0) {
      const n = constructorName(v);
      return '[' + (n || 'Object') + ']';
    }
    const name = constructorName(v);
    let prefix = '';
    if (name === null) prefix = '[Object: null prototype] ';
    else if (name !== 'Object') prefix = name + ' ';
    return formatObjectBody(v, depth, ctx, prefix, keys, null, '{', '}');
  }

  function boxedLabel(v) {
    try {
      return '[Number: ' + formatPrimitive(NumberPrototypeValueOf(v)) + ']';
    } catch {
      /* not boxed */
    }
    try {
      return '[String: ' + quote(StringPrototypeValueOf(v)) + ']';
    } catch {
      /* not boxed */
    }
    try {
      return '[Boolean: ' + formatPrimitive(BooleanPrototypeValueOf(v)) + ']';
    } catch {
      /* not boxed */
    }
    try {
      return '[BigInt: ' + formatPrimitive(BigIntPrototypeValueOf(v)) + ']';
    } catch {
      /* not boxed */
    }
    try {
      return '[Symbol: ' + formatPrimitive(SymbolPrototypeValueOf(v)) + ']';
    } catch {
      /* not boxed */
    }
    return undefined;
  }

  function ownEnumerableKeys(v) {
    const keys = ReflectOwnKeys(v);
    const out = [];
    for (let i = 0; i < keys.length; i++) {
      if (ObjectPrototypePropertyIsEnumerable(v, keys[i])) C.push(out, keys[i]);
    }
    return out;
  }

  function sub(v, depth, ctx) {
    return formatValue(v, depth + 1, ctx, false);
  }

  function keyLabel(k) {
    if (typeof k === 'symbol') return '[' + SymbolPrototypeToString(k) + ']';
    return isIdentifier(k) ? k : quote(k);
  }

  function propValue(v, k, depth, ctx) {
    const d = ObjectGetOwnPropertyDescriptor(v, k);
    if (d === undefined) return 'undefined';
    if (ObjectPrototypeHasOwnProperty(d, 'value')) return sub(d.value, depth, ctx);
    if (d.get && d.set) return '[Getter/Setter]';
    return d.get ? '[Getter]' : '[Setter]';
  }

  // Node's layout of an object's entries (util.inspect's reduceToSingleString with its defaults:
  // breakLength 80, compact 3): more than six entries of an array are grouped into aligned
  // columns (groupArrayElements); the entries go on one line when the object is among the three
  // innermost levels of what was formatted last (ctx.currentDepth) and they fit in the line
  // (isBelowBreakLength); otherwise one entry per line. `base` is text before the brace (a
  // function's label), `depth` the object's nesting (Node's indentation is two spaces a level).
  // Tests that compare printed output with Node's (a logged array of seven numbers is three
  // lines there) failed honest programs (red-team rt60 K6).
  function join(parts, prefix, open, close, depth, ctx, numbers, isBase) {
    if (parts.length === 0) return prefix + open + close;
    // Node's braces[0] holds a class's prefix ('Foo {'); a function's label is its base, before
    // the brace and a space.
    const base = isBase ? StringPrototypeSlice(prefix, 0, -1) : '';
    const braceLength = isBase ? open.length : prefix.length + open.length;
    const indentation = 2 * depth;
    const entries = parts.length;
    let output = parts;
    if (numbers !== undefined && entries > 6) output = groupArrayElements(parts, indentation, numbers);
    if (ctx.currentDepth - (depth + 1) < 3 && entries === output.length) {
      const start = output.length + indentation + braceLength + base.length + 10;
      if (isBelowBreakLength(output, start, base)) {
        let joined = '';
        for (let i = 0; i < output.length; i++) joined += (i ? ', ' : '') + output[i];
        if (StringPrototypeIndexOf(joined, '\n') === -1) return prefix + open + ' ' + joined + ' ' + close;
      }
    }
    const pad = '\n' + StringPrototypeRepeat(' ', indentation);
    let s = prefix + open + pad + '  ';
    for (let i = 0; i < output.length; i++) s += (i ? ',' + pad + '  ' : '') + output[i];
    return s + pad + close;
  }

  function isBelowBreakLength(output, start, base) {
    let total = output.length + start;
    if (total + output.length > kBreakLength) return false;
    for (let i = 0; i < output.length; i++) {
      total += output[i].length;
      if (total > kBreakLength) return false;
    }
    return base === '' || StringPrototypeIndexOf(base, '\n') === -1;
  }

  function padTo(s, n, start) {
    if (s.length >= n) return s;
    const fill = StringPrototypeRepeat(' ', n - s.length);
    return start ? fill + s : s + fill;
  }

  // Node's groupArrayElements (defaults: breakLength 80, compact 3, maxArrayLength 100; widths are
  // string lengths, where Node counts display width: wide and combining characters differ).
  // `numbers(i)`: whether element i is a number or bigint (then the columns align right).
  function groupArrayElements(output, indentation, numbers) {
    let totalLength = 0;
    let maxLength = 0;
    let outputLength = output.length;
    // The "... more items" entry is not grouped.
    if (kMaxArrayItems < output.length) outputLength--;
    const separatorSpace = 2;
    const dataLen = [];
    for (let i = 0; i < outputLength; i++) {
      const len = output[i].length;
      dataLen[i] = len;
      totalLength += len + separatorSpace;
      if (maxLength < len) maxLength = len;
    }
    const actualMax = maxLength + separatorSpace;
    if (actualMax * 3 + indentation < kBreakLength && (totalLength / actualMax > 5 || maxLength <= 6)) {
      const averageBias = MathSqrt(actualMax - totalLength / output.length);
      const biasedMax = MathMax(actualMax - 3 - averageBias, 1);
      const columns = MathMin(
        MathRound(MathSqrt(2.5 * biasedMax * outputLength) / biasedMax),
        MathFloor((kBreakLength - indentation) / actualMax),
        12,
        15,
      );
      if (columns <= 1) return output;
      const maxLineLength = [];
      for (let i = 0; i < columns; i++) {
        let lineMax = 0;
        for (let j = i; j < output.length; j += columns) if (dataLen[j] > lineMax) lineMax = dataLen[j];
        maxLineLength[i] = lineMax + separatorSpace;
      }
      let right = true;
      for (let i = 0; i < output.length && right; i++) if (!numbers(i)) right = false;
      const tmp = [];
      for (let i = 0; i < outputLength; i += columns) {
        const max = MathMin(i + columns, outputLength);
        let str = '';
        let j = i;
        for (; j < max - 1; j++) str += padTo(output[j] + ', ', maxLineLength[j - i], right);
        str += right ? padTo(output[j], maxLineLength[j - i] - separatorSpace, true) : output[j];
        C.push(tmp, str);
      }
      if (kMaxArrayItems < output.length) C.push(tmp, output[outputLength]);
      return tmp;
    }
    return output;
  }

  function formatList(v, depth, ctx, prefix, len, get, open, close, isArray, fmt, grouped) {
    C.push(ctx.seen, v);
    // (Node marks the depth it is formatting at before the entries; an empty one returns early.)
    if (len > 0 || (isArray && ownEnumerableKeys(v).length > 0)) ctx.currentDepth = depth + 1;
    const parts = [];
    const n = len > kMaxArrayItems ? kMaxArrayItems : len;
    let holes = 0;
    for (let i = 0; i < n && ctx.budget > 0; i++) {
      if (isArray && !ObjectPrototypeHasOwnProperty(v, i)) {
        holes++;
        continue;
      }
      if (holes) {
        C.push(parts, '<' + holes + ' empty item' + (holes > 1 ? 's' : '') + '>');
        holes = 0;
      }
      const item = get(i);
      C.push(parts, fmt ? fmt(item) : isArray ? propValue(v, String(i), depth, ctx) : sub(item, depth, ctx));
    }
    if (holes) C.push(parts, '<' + holes + ' empty item' + (holes > 1 ? 's' : '') + '>');
    if (len > n) C.push(parts, '... ' + (len - n) + ' more item' + (len - n > 1 ? 's' : ''));
    if (isArray) {
      const extra = ownEnumerableKeys(v);
      for (let i = 0; i < extra.length && ctx.budget > 0; i++) {
        const k = extra[i];
        if (typeof k === 'string' && String(Number(k) >>> 0) === k) continue;
        C.push(parts, keyLabel(k) + ': ' + propValue(v, k, depth, ctx));
      }
    }
    ctx.seen.length--;
    const s = join(parts, prefix, open, close, depth, ctx, grouped ? (i) => isNumberAt(v, i, isArray) : undefined, false);
    ctx.budget -= s.length;
    return s;
  }

  // Element i of an array (its own data property, never a getter) or typed array is a number or
  // a bigint.
  function isNumberAt(v, i, isArray) {
    if (!isArray) return true;
    const d = ObjectGetOwnPropertyDescriptor(v, String(i));
    if (d === undefined || !ObjectPrototypeHasOwnProperty(d, 'value')) return false;
    return typeof d.value === 'number' || typeof d.value === 'bigint';
  }

  function formatObjectBody(v, depth, ctx, prefix, keys, isBase, open, close) {
    C.push(ctx.seen, v);
    if (keys.length > 0) ctx.currentDepth = depth + 1;
    const parts = [];
    const n = keys.length > kMaxArrayItems ? kMaxArrayItems : keys.length;
    for (let i = 0; i < n && ctx.budget > 0; i++) {
      C.push(parts, keyLabel(keys[i]) + ': ' + propValue(v, keys[i], depth, ctx));
    }
    if (keys.length > n) C.push(parts, '... ' + (keys.length - n) + ' more items');
    ctx.seen.length--;
    const s = join(parts, prefix, open, close, depth, ctx, undefined, isBase === true);
    ctx.budget -= s.length;
    return s;
  }

  /** Format one value (never throws; user code may only run through Proxy traps). */
  function inspect(v, budget) {
    try {
      return formatValue(
        v,
        0,
        { __proto__: null, budget: budget === undefined ? 20000 : budget, seen: [], currentDepth: 0 },
        false,
      );
    } catch (_e) {
      return '[uninspectable value]';
    }
  }

  /** util.format-like: printf-style first argument, the rest inspected and space-joined. */
  function format(args, budget) {
    let out = '';
    let i = 0;
    if (args.length > 0 && typeof args[0] === 'string') {
      const f = args[0];
      i = 1;
      let last = 0;
      for (let j = 0; j < f.length - 1; j++) {
        if (StringPrototypeCharCodeAt(f, j) !== 37) continue;
        const c = StringPrototypeCharCodeAt(f, j + 1);
        let rep;
        if (c === 37) rep = '%';
        else if (i < args.length) {
          const a = args[i];
          if (c === 115)
            rep = typeof a === 'string' ? a : typeof a === 'object' && a !== null ? inspect(a, budget) : formatPrimitive(a, true);
          else if (c === 100 || c === 105)
            rep =
              typeof a === 'bigint'
                ? String(a) + 'n'
                : typeof a === 'symbol'
                  ? 'NaN'
                  : String(c === 105 ? MathFloor(Number(a)) : Number(a));
          else if (c === 102) rep = typeof a === 'symbol' ? 'NaN' : String(Number(a));
          else if (c === 106) {
            try {
              rep = String(JSONStringify(a));
            } catch {
              rep = '[Circular]';
            }
          } else if (c === 111 || c === 79) rep = inspect(a, budget);
          else if (c === 99) rep = '';
          else continue;
          i++;
        } else continue;
        out += StringPrototypeSlice(f, last, j) + rep;
        last = j + 2;
        j++;
        if (out.length > budget) return out;
      }
      out += StringPrototypeSlice(f, last);
    }
    for (; i < args.length; i++) {
      if (out.length > budget) break;
      const a = args[i];
      out += (out.length || i > 0 ? ' ' : '') + (typeof a === 'string' ? a : inspect(a, budget));
    }
    return out;
  }

  return { __proto__: null, inspect, format, errorText };
}
