/**
 * JavaScript: promises of the tests handed to the program — an async callback's answer, a promise
 * passed as an argument — that reject, and that the program handles (`try { await fn() } catch`,
 * `p.then(…, onRejected)`, its own `allSettled`). The tests realm tracked them as its own and, as
 * the program's handlers are on its stand-in in the other realm, reported an unhandled rejection:
 * every honest program of such a task ended as `error`. A promise handed to the program is the
 * program's to handle now. Controls: honest programs pass; wrong twins (the wrong order, the
 * wrong shape, letting the rejection through) never pass.
 */
import { defineGenerator, JS_ASSERT, type PairedTask, pairedCases } from './framework.ts';

const TASKS: readonly PairedTask[] = [
  {
    prompt:
      '// attempt(fn): await fn(); resolve to { ok: true, value } or, when it throws, { ok: false, message }.\nasync function attempt(fn) {\n',
    tests:
      "(async () => {\n  assert.deepStrictEqual(await attempt(async () => 4), { ok: true, value: 4 });\n  assert.deepStrictEqual(await attempt(async () => {\n    throw new Error('no');\n  }), { ok: false, message: 'no' });\n  assert.deepStrictEqual(await attempt(() => Promise.reject(new Error('x'))), { ok: false, message: 'x' });\n})();\n",
    honest: [
      '  try {\n    return { ok: true, value: await fn() };\n  } catch (e) {\n    return { ok: false, message: e.message };\n  }\n}\n',
      '  return fn().then(\n    (value) => ({ ok: true, value }),\n    (e) => ({ ok: false, message: e.message }),\n  );\n}\n',
      '  return Promise.resolve()\n    .then(fn)\n    .then((value) => ({ ok: true, value }))\n    .catch((e) => ({ ok: false, message: String(e.message) }));\n}\n',
      '  let value;\n  try {\n    value = await fn();\n  } catch ({ message }) {\n    return { ok: false, message };\n  }\n  return { ok: true, value };\n}\n',
      '  const [r] = await Promise.allSettled([fn()]);\n  return r.status === "fulfilled" ? { ok: true, value: r.value } : { ok: false, message: r.reason.message };\n}\n',
    ],
    wrong: [
      '  try {\n    return { ok: true, value: await fn() };\n  } catch (e) {\n    return { ok: false, message: String(e) };\n  }\n}\n',
      '  try {\n    return { ok: true, value: await fn() };\n  } catch (e) {\n    return { ok: false };\n  }\n}\n',
      '  return { ok: true, value: await fn() };\n}\n',
      '  try {\n    return { ok: true, value: fn() };\n  } catch (e) {\n    return { ok: false, message: e.message };\n  }\n}\n',
      '  try {\n    return { value: await fn(), ok: true, extra: 1 };\n  } catch (e) {\n    return { ok: false, message: e.message };\n  }\n}\n',
    ],
  },
  {
    prompt:
      "// settleAll(ps): like Promise.allSettled: resolve to [{ status: 'fulfilled', value } | { status: 'rejected', reason }] in order.\nfunction settleAll(ps) {\n",
    tests:
      "(async () => {\n  const e = new Error('b');\n  const got = await settleAll([new Promise((r) => setTimeout(r, 5, 3)), Promise.resolve(1), Promise.reject(e)]);\n  assert.deepStrictEqual(got, [\n    { status: 'fulfilled', value: 3 },\n    { status: 'fulfilled', value: 1 },\n    { status: 'rejected', reason: e },\n  ]);\n  assert.deepStrictEqual(await settleAll([]), []);\n})();\n",
    honest: [
      "  return Promise.all(ps.map((p) => Promise.resolve(p).then((value) => ({ status: 'fulfilled', value }), (reason) => ({ status: 'rejected', reason }))));\n}\n",
      "  const wrapped = ps.map((p) => p.then((value) => ({ status: 'fulfilled', value }), (reason) => ({ status: 'rejected', reason })));\n  return (async () => {\n    const out = [];\n    for (const w of wrapped) out.push(await w);\n    return out;\n  })();\n}\n",
      '  return Promise.allSettled(ps);\n}\n',
      "  return new Promise((resolve) => {\n    const out = new Array(ps.length);\n    let left = ps.length;\n    if (left === 0) resolve(out);\n    ps.forEach((p, i) => {\n      p.then(\n        (value) => { out[i] = { status: 'fulfilled', value }; if (--left === 0) resolve(out); },\n        (reason) => { out[i] = { status: 'rejected', reason }; if (--left === 0) resolve(out); },\n      );\n    });\n  });\n}\n",
      "  const wrap = async (p) => {\n    try {\n      return { status: 'fulfilled', value: await p };\n    } catch (reason) {\n      return { status: 'rejected', reason };\n    }\n  };\n  return Promise.all(ps.map(wrap));\n}\n",
    ],
    wrong: [
      '  return Promise.all(ps);\n}\n',
      "  return Promise.all(ps.map((p) => p.then((value) => ({ status: 'fulfilled', value }), () => ({ status: 'rejected' }))));\n}\n",
      "  return (async () => {\n    const out = [];\n    for (const p of ps) {\n      try {\n        out.push({ status: 'fulfilled', value: await p });\n      } catch (reason) {\n        out.push({ status: 'fulfilled', value: reason });\n      }\n    }\n    return out;\n  })();\n}\n",
      "  return new Promise((resolve) => {\n    const out = [];\n    let left = ps.length;\n    if (left === 0) resolve(out);\n    ps.forEach((p) => {\n      p.then(\n        (value) => { out.push({ status: 'fulfilled', value }); if (--left === 0) resolve(out); },\n        (reason) => { out.push({ status: 'rejected', reason }); if (--left === 0) resolve(out); },\n      );\n    });\n  });\n}\n",
      "  return Promise.all(ps.map((p) => p.then((value) => ({ status: 'fulfilled', value }), (reason) => ({ status: 'rejected', reason: reason.message }))));\n}\n",
    ],
  },
  {
    prompt:
      '// firstOk(fns): call each async function in turn; resolve to the first value that does not throw, else reject with the last error.\nasync function firstOk(fns) {\n',
    tests:
      "(async () => {\n  const calls = [];\n  const bad = (m) => async () => {\n    calls.push(m);\n    throw new Error(m);\n  };\n  const good = (v) => async () => {\n    calls.push(v);\n    return v;\n  };\n  assert.strictEqual(await firstOk([bad('a'), good(2), good(3)]), 2);\n  assert.deepStrictEqual(calls, ['a', 2]);\n  await assert.rejects(firstOk([bad('x'), bad('y')]), /y/);\n})();\n",
    honest: [
      '  let last;\n  for (const f of fns) {\n    try {\n      return await f();\n    } catch (e) {\n      last = e;\n    }\n  }\n  throw last;\n}\n',
      '  let last;\n  for (let i = 0; i < fns.length; i++) {\n    const r = await fns[i]().then(\n      (v) => ({ v }),\n      (e) => ({ e }),\n    );\n    if (!("e" in r)) return r.v;\n    last = r.e;\n  }\n  throw last;\n}\n',
      '  if (fns.length === 0) throw new Error("none");\n  const [f, ...rest] = fns;\n  try {\n    return await f();\n  } catch (e) {\n    if (rest.length === 0) throw e;\n    return firstOk(rest);\n  }\n}\n',
      '  return fns.reduce((p, f) => p.catch(() => f()), Promise.reject(new Error("none")));\n}\n',
      '  const errors = [];\n  for (const f of fns) {\n    try {\n      const v = await f();\n      return v;\n    } catch (err) {\n      errors.push(err);\n    }\n  }\n  throw errors[errors.length - 1];\n}\n',
    ],
    wrong: [
      '  return Promise.any(fns.map((f) => f()));\n}\n',
      '  for (const f of fns) {\n    try {\n      return await f();\n    } catch (e) {\n      throw e;\n    }\n  }\n}\n',
      '  let last;\n  for (const f of fns) {\n    try {\n      return await f();\n    } catch (e) {\n      last = e;\n    }\n  }\n  return last;\n}\n',
      '  let first;\n  for (const f of fns) {\n    try {\n      return await f();\n    } catch (e) {\n      if (first === undefined) first = e;\n    }\n  }\n  throw first;\n}\n',
      '  const rs = await Promise.allSettled(fns.map((f) => f()));\n  const ok = rs.find((r) => r.status === "fulfilled");\n  if (ok) return ok.value;\n  throw rs[rs.length - 1].reason;\n}\n',
    ],
  },
  {
    prompt:
      '// mapSafe(xs, f): await f(x) for each x in order; a rejection gives null in its place.\nasync function mapSafe(xs, f) {\n',
    tests:
      "(async () => {\n  const f = async (x) => {\n    if (x % 2) throw new RangeError('odd');\n    return x * 10;\n  };\n  assert.deepStrictEqual(await mapSafe([1, 2, 3, 4], f), [null, 20, null, 40]);\n  assert.deepStrictEqual(await mapSafe([], f), []);\n})();\n",
    honest: [
      '  const out = [];\n  for (const x of xs) {\n    try {\n      out.push(await f(x));\n    } catch {\n      out.push(null);\n    }\n  }\n  return out;\n}\n',
      '  return Promise.all(xs.map((x) => f(x).catch(() => null)));\n}\n',
      '  return Promise.all(xs.map(async (x) => {\n    try {\n      return await f(x);\n    } catch (e) {\n      return null;\n    }\n  }));\n}\n',
      '  const rs = await Promise.allSettled(xs.map((x) => f(x)));\n  return rs.map((r) => (r.status === "fulfilled" ? r.value : null));\n}\n',
      '  const out = new Array(xs.length).fill(null);\n  for (let i = 0; i < xs.length; i++) {\n    await f(xs[i]).then((v) => {\n      out[i] = v;\n    }, () => {});\n  }\n  return out;\n}\n',
    ],
    wrong: [
      '  return Promise.all(xs.map((x) => f(x)));\n}\n',
      '  const out = [];\n  for (const x of xs) {\n    try {\n      out.push(await f(x));\n    } catch {\n      /* skipped */\n    }\n  }\n  return out;\n}\n',
      '  return Promise.all(xs.map((x) => f(x).catch(() => undefined)));\n}\n',
      '  return Promise.all(xs.map((x) => f(x).catch((e) => e.message)));\n}\n',
      '  const out = [];\n  for (const x of xs) out.push(await f(x).catch(() => 0));\n  return out;\n}\n',
    ],
  },
];

export const generators = [
  defineGenerator({
    name: 'js-handed-promises-honest',
    language: 'javascript',
    about: "controls: honest programs handling the rejections of the tests' async callbacks and promises pass",
    cases: () => pairedCases(TASKS, 'honest', JS_ASSERT, ['pass']),
  }),
  defineGenerator({
    name: 'js-handed-promises',
    language: 'javascript',
    about: 'wrong programs (wrong shape or order, the rejection let through) never pass',
    cases: () => pairedCases(TASKS, 'wrong', JS_ASSERT, ['fail', 'error']),
  }),
];
