/**
 * Python: asyncio in programs and tests. Pyodide's event loop runs on the JavaScript side, which
 * neither interpreter reaches, so `asyncio.run` raised ImportError and every program using it, or
 * judged by tests using it, was an `error`; a coroutine answer (an `async def` entry point) was
 * refused as not plain data. The image now has an event loop of its own (timers wait on the
 * virtual clock), and a coroutine of the program runs to its end in P and crosses as its outcome:
 * the tests' coroutine gives it when awaited, and what the program raised comes in there, so the
 * rules for errors the tests catch hold as for a call. Controls: honest programs pass; wrong twins
 * fail. Attacks: an `async def` raising on the hard cases, under tests that swallow or skip what
 * they await: fail.
 */
import { defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines. */
const TIMEOUT_MS = 8000;

/** Programs using asyncio inside a synchronous entry point `f(n)` (n * 2). */
const SYNC_ENTRY: readonly string[] = [
  'import asyncio\n\n\nasync def g(n):\n    await asyncio.sleep(0.5)\n    return n * 2\n\n\ndef f(n):\n    return asyncio.run(g(n))\n',
  'import asyncio\n\n\ndef f(n):\n    async def part(k, d):\n        await asyncio.sleep(d)\n        return k\n\n    async def main():\n        a, b = await asyncio.gather(part(n, 0.2), part(n, 0.1))\n        return a + b\n\n    return asyncio.run(main())\n',
  'import asyncio\n\n\ndef f(n):\n    async def slow():\n        await asyncio.sleep(10)\n\n    async def main():\n        try:\n            await asyncio.wait_for(slow(), 0.1)\n        except TimeoutError:\n            return n * 2\n\n    return asyncio.run(main())\n',
  'import asyncio\n\n\ndef f(n):\n    async def main():\n        q = asyncio.Queue()\n        for _ in range(2):\n            await q.put(n)\n        return (await q.get()) + (await q.get())\n\n    return asyncio.run(main())\n',
  'import asyncio\n\n\ndef f(n):\n    async def main():\n        t = asyncio.create_task(asyncio.sleep(0.01, result=n))\n        return 2 * await t\n\n    return asyncio.run(main())\n',
];

/** `async def f(n)` entry points (n * 2). */
const ASYNC_ENTRY: readonly string[] = [
  'async def f(n):\n    return n * 2\n',
  'import asyncio\n\n\nasync def f(n):\n    await asyncio.sleep(1)\n    return n * 2\n',
  'import asyncio\n\n\nasync def f(n):\n    return sum(await asyncio.gather(*(asyncio.sleep(0, result=n) for _ in range(2))))\n',
  'class Doubler:\n    async def run(self, n):\n        return n * 2\n\n\nasync def f(n):\n    return await Doubler().run(n)\n',
];

/** Tests for a synchronous f, some of them asyncio-driven themselves. */
const SYNC_TESTS: readonly string[] = [
  'assert f(2) == 4\nassert f(5) == 10\n',
  'import asyncio\n\n\nasync def main():\n    await asyncio.sleep(1)\n    assert f(2) == 4\n    assert f(5) == 10\n\n\nasyncio.run(main())\n',
];

/** Tests for an async f. */
const ASYNC_TESTS: readonly string[] = [
  'import asyncio\n\nassert asyncio.run(f(2)) == 4\nassert asyncio.run(f(5)) == 10\n',
  'import asyncio\n\n\nasync def main():\n    assert await f(2) == 4\n    assert await asyncio.gather(f(5), f(1)) == [10, 2]\n\n\nasyncio.run(main())\n',
  'import asyncio\n\n\nasync def main():\n    for n, w in [(2, 4), (5, 10)]:\n        assert await asyncio.wait_for(f(n), 5) == w\n\n\nasyncio.run(main())\n',
];

/** Wrong twins: the same program, its answer for 5 off by one (for an async entry point, awaited). */
const wrongSync = (program: string) => `${program}\n\n_f = f\n\n\ndef f(n):\n    r = _f(n)\n    return r + 1 if n == 5 else r\n`;
const wrongAsync = (program: string) =>
  `${program}\n\n_f = f\n\n\nasync def f(n):\n    r = await _f(n)\n    return r + 1 if n == 5 else r\n`;

const entryCases = (wrong: boolean) => [
  ...grid(10, SYNC_ENTRY, SYNC_TESTS, (program, tests) => ({
    prompt: '',
    completion: wrong ? wrongSync(program) : program,
    tests,
    expect: [wrong ? 'fail' : 'pass'],
    timeoutMs: TIMEOUT_MS,
  })),
  ...grid(12, ASYNC_ENTRY, ASYNC_TESTS, (program, tests) => ({
    prompt: '',
    completion: wrong ? wrongAsync(program) : program,
    tests,
    expect: [wrong ? 'fail' : 'pass'],
    timeoutMs: TIMEOUT_MS,
  })),
];

/** Tests that await an async f over cases and swallow or skip what it raises. */
const SWALLOWING: readonly string[] = [
  'import asyncio\n\ncases = [(2, 4), (3, 9), (7, 49), (9, 81)]\n\n\nasync def main():\n    got = []\n    for n, w in cases:\n        try:\n            got.append((await f(n), w))\n        except ValueError:\n            pass\n    for v, w in got:\n        assert v == w\n\n\nasyncio.run(main())\n',
  'import asyncio\n\ncases = [(2, 4), (3, 9), (7, 49), (9, 81)]\n\n\nasync def main():\n    for n, w in cases:\n        try:\n            v = await f(n)\n        except ValueError:\n            continue\n        assert v == w\n\n\nasyncio.run(main())\n',
  'import asyncio\n\ncases = [(2, 4), (3, 9), (7, 49), (9, 81)]\n\n\nasync def main():\n    for n, w in cases:\n        c = f(n)\n        try:\n            assert await c == w\n        except ValueError:\n            print("skipped", n)\n\n\nasyncio.run(main())\n',
  'import asyncio\n\ncases = [(2, 4), (3, 9), (7, 49), (9, 81)]\ngot = []\nfor n, w in cases:\n    try:\n        got.append((asyncio.run(f(n)), w))\n    except Exception:\n        continue\nfor v, w in got:\n    assert v == w\n',
  'import asyncio\n\ncases = [(2, 4), (3, 9), (7, 49), (9, 81)]\n\n\nasync def main():\n    rs = await asyncio.gather(*(f(n) for n, _ in cases), return_exceptions=True)\n    for r, (n, w) in zip(rs, cases):\n        if isinstance(r, Exception):\n            continue\n        assert r == w\n\n\nasyncio.run(main())\n',
];

/** Honest tests that expect some awaited calls to raise, and check what they raised. */
const EXPECTING: readonly string[] = [
  'import asyncio\n\ncases = [(2, 4), (-1, None), (3, 9)]\n\n\nasync def main():\n    rs = await asyncio.gather(*(f(n) for n, _ in cases), return_exceptions=True)\n    for r, (n, w) in zip(rs, cases):\n        if w is None:\n            assert isinstance(r, ValueError)\n            continue\n        assert r == w\n\n\nasyncio.run(main())\n',
  'import asyncio\n\n\nasync def main():\n    for n in [-1, -2]:\n        try:\n            await f(n)\n        except ValueError:\n            continue\n        assert False, n\n    assert await f(3) == 9\n\n\nasyncio.run(main())\n',
  'import asyncio\n\n\nasync def main():\n    got = []\n    for n in [2, -1, 3]:\n        try:\n            got.append(await f(n))\n        except ValueError:\n            got.append(None)\n    assert got == [4, None, 9]\n\n\nasyncio.run(main())\n',
  'import asyncio\n\n\nasync def main():\n    return await asyncio.gather(f(2), f(-1), return_exceptions=True)\n\n\nrs = asyncio.run(main())\nassert rs[0] == 4\nassert isinstance(rs[1], ValueError)\n',
];
const RAISING = "async def f(n):\n    if n < 0:\n        raise ValueError('negative')\n    return n * n\n";

const RAISES = [
  "raise ValueError('too hard')",
  'raise ValueError',
  "raise ValueError({'n': n})",
  'return int("x")',
  'raise ValueError(n)',
];

export const generators = [
  defineGenerator({
    name: 'py-asyncio-honest',
    language: 'python',
    about:
      'controls: honest programs using asyncio (asyncio.run, gather, wait_for, queues, tasks, async entry points and methods) under plain and asyncio tests pass',
    cases: () => [
      ...entryCases(false),
      ...grid(20, EXPECTING, [0, 1, 2, 3, 4], (tests, i) => ({
        prompt: '',
        completion: `${RAISING}# ${i}\n`,
        tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
    ],
  }),
  defineGenerator({
    name: 'py-asyncio-wrong',
    language: 'python',
    about: 'wrong twins of the asyncio controls: fail',
    cases: () => entryCases(true),
  }),
  defineGenerator({
    name: 'py-asyncio-swallowed',
    language: 'python',
    about: 'an async def raising on the hard cases, under tests that swallow or skip what they await: fail',
    cases: () =>
      grid(25, SWALLOWING, RAISES, (tests, how) => ({
        prompt: '',
        completion: `async def f(n):\n    if n > 5:\n        ${how}\n    return n * n\n`,
        tests,
        expect: ['fail'],
        maxPassed: 0,
        timeoutMs: TIMEOUT_MS,
      })),
  }),
];
