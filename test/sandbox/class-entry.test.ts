/**
 * Honest controls (issue 25): a class as the entry point of a program with separate tests. `new`
 * of it constructs in the program realm; the tests hold a handle whose reads and calls forward
 * and whose answers are snapshots (docs/sandbox.md, "What crosses"). Each of these failed before
 * with "Class constructor … cannot be invoked without 'new'".
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ExecResult } from '../../src/sandbox/index.ts';
import { ASSERT, js, testExecutor } from './helpers.ts';

const COUNTER = `class Counter {
  constructor(start = 0) { this.n = start; }
  inc(by = 1) { this.n += by; return this.n; }
  get value() { return this.n; }
  static of(n) { return new Counter(n); }
  clone() { return new Counter(this.n); }
  self() { return this; }
  same(o) { return o instanceof Counter && o.n === this.n; }
}
`;

const TESTS: Record<string, string> = {
  getter: `const c = new Counter(5);\nassert.strictEqual(c.inc(), 6);\nassert.strictEqual(c.value, 6);\nassert.strictEqual(c.n, 6);`,
  staticFactory: `const c = Counter.of(3);\nc.inc(2);\nassert.strictEqual(c.value, 5);`,
  instanceofAndIdentity: `const c = new Counter();\nassert.ok(c instanceof Counter);\nassert.ok(Counter.of(1) instanceof Counter);\nassert.strictEqual(c.self(), c);\nassert.strictEqual(c.constructor, Counter);\nassert.ok(!({} instanceof Counter));`,
  dataComparison: `const c = new Counter(2);\nassert.deepStrictEqual(c.clone(), new Counter(2));\nassert.notDeepStrictEqual(c.clone(), new Counter(3));\nassert.deepStrictEqual(Object.keys(c), ['n']);`,
  instanceAsArgument: `const c = new Counter(2);\nassert.ok(c.same(new Counter(2)));\nassert.ok(!c.same(new Counter(3)));\nassert.deepStrictEqual([c.self(), Counter.of(4)].map((x) => x.value), [2, 4]);`,
  argumentsCross: `const c = new Counter(1);\nassert.strictEqual(c.inc(10), 11);\nassert.throws(() => c.missing(), TypeError);`,
};

describe('a class as the entry point (separate tests, strict)', () => {
  const ex = testExecutor({ timeoutMs: 5000, verdict: 'strict' });
  afterAll(() => ex.close());

  it('constructs, reads, calls and compares through handles', async () => {
    const specs = Object.entries(TESTS).map(([id, t]) => js(id, COUNTER, `${ASSERT}${t}\n`));
    const results: ExecResult[] = await ex.run(specs);
    const summary = Object.fromEntries(results.map((r) => [r.id, `${r.status} ${r.error ?? ''}`.trim().slice(0, 300)]));
    expect(summary).toEqual(Object.fromEntries(Object.keys(TESTS).map((k) => [k, 'pass'])));
  }, 60_000);

  it('still fails a wrong class (the checks see the data)', async () => {
    const wrong = COUNTER.replace('this.n += by;', 'this.n += by + 1;');
    const [r] = await ex.run([js('wrong', wrong, `${ASSERT}${TESTS.getter}\n`)]);
    expect(r?.status).toBe('fail');
  }, 60_000);
});
