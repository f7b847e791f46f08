/**
 * Attack class: answers that are not plain data — Proxies and getters that answer each read
 * differently, objects that lie through valueOf/toString. The answer is read once, into a
 * snapshot, and only the snapshot is compared; getters are refused with a stated reason.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStillWorks, jsProblem, runTraining, testExecutor } from '../helpers.ts';

const PROMPT = 'function pair(x) {\n';
const TESTS = `${ASSERT}function test() {\n  let candidate = pair;\n  assert.deepEqual(candidate(1), [1, 1]);\n  assert.deepEqual(candidate(2), [2, 2]);\n}\ntest();\n`;
const OBJ_PROMPT = 'function point(x) {\n';
const OBJ_TESTS = `${ASSERT}function test() {\n  let candidate = point;\n  assert.deepEqual(candidate(1), { x: 1, y: 2 });\n  assert.deepEqual(candidate(3), { x: 3, y: 6 });\n}\ntest();\n`;

describe('attack: answers that change between reads', () => {
  const ex = testExecutor({ timeoutMs: 3000 });
  afterAll(() => ex.close());

  it('compares one snapshot of an array answer', async () => {
    const res = await runTraining(ex, jsProblem('pair', PROMPT, TESTS), {
      // length flips between reads: a comparison that reads it twice sees two arrays.
      flippingLength: `  let n = 0;\n  return new Proxy([], { get(t, k) { if (k === 'length') return n++ % 2 ? 2 : 0; if (k === '0' || k === '1') return x; return Reflect.get(t, k); }, getOwnPropertyDescriptor(t, k) { if (k === 'length') return { value: n++ % 2 ? 2 : 0, writable: true, enumerable: false, configurable: false }; return Reflect.getOwnPropertyDescriptor(t, k); } });\n}\n`,
      proxyAnswersAnything: `  return new Proxy([], { get: () => 1, has: () => true, ownKeys: () => ['length'], getOwnPropertyDescriptor: (t, k) => k === 'length' ? { value: 0, writable: true, enumerable: false, configurable: false } : undefined });\n}\n`,
      indexGetter: `  const a = [0, 0];\n  let k = 0;\n  Object.defineProperty(a, 0, { get() { return k++ ? x : 0; }, enumerable: true });\n  return a;\n}\n`,
      prototypeIndex: `  Object.defineProperty(Array.prototype, 1, { get() { return x; }, configurable: true });\n  const a = [x];\n  a.length = 2;\n  return a;\n}\n`,
    });
    for (const [id, r] of Object.entries(res)) {
      expect(r.status, `${id}: ${JSON.stringify(r)}`).not.toBe('pass');
      expect(r.gold, id).toBe(0);
    }
    expect(res.indexGetter!.error).toMatch(/accessor property/);
    expect(res.flippingLength!.error).toMatch(/Proxy/);
  });

  it('refuses getters and compares object answers as data', async () => {
    const res = await runTraining(ex, jsProblem('point', OBJ_PROMPT, OBJ_TESTS), {
      getterY: `  return { x, get y() { return 2 * x; } };\n}\n`,
      proxyObject: `  return new Proxy({}, { ownKeys: () => ['x', 'y'], getOwnPropertyDescriptor: (t, k) => ({ value: k === 'x' ? x : 2 * x, writable: true, enumerable: true, configurable: true }), get: (t, k) => k === 'x' ? x : 2 * x });\n}\n`,
      right: `  return { x, y: 2 * x };\n}\n`,
    });
    expect(res.getterY!.status).not.toBe('pass');
    expect(res.getterY!.error).toMatch(/could not be snapshotted.*accessor property "y"/);
    expect(res.proxyObject!.status).not.toBe('pass');
    expect(res.proxyObject!.error).toMatch(/could not be snapshotted: the value is a Proxy/);
    expect(res.right!.status, JSON.stringify(res.right)).toBe('pass');
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
