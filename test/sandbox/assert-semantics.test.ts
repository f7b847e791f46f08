/**
 * The in-isolate assert must decide exactly like Node's node:assert. Every (actual, expected,
 * operator) case below is judged by the real node:assert in this process and by the sandbox.
 */
import assert from 'node:assert';
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, js, testExecutor } from './helpers.ts';

const PAIRS: Array<[string, string]> = [
  ['1', "'1'"],
  ['[1, 2]', "['1', '2']"],
  ['{ a: 1 }', "{ a: '1' }"],
  ['null', 'undefined'],
  ['NaN', 'NaN'],
  ['0', '-0'],
  ['[0]', '[-0]'],
  ['true', '1'],
  ['false', "''"],
  ["'1.0'", '1'],
  ["' '", '0'],
  ['1n', '1'],
  ['1n', "'1'"],
  ['[]', '{}'],
  ['[1, , 3]', '[1, undefined, 3]'],
  ['[1]', '{ 0: 1, length: 1 }'],
  ['Object.create(null)', '{}'],
  ['new (class A {})()', '{}'],
  ['{ a: undefined }', '{}'],
  ['{ a: undefined }', '{ b: undefined }'],
  ['{ a: 1, b: 2 }', '{ b: 2, a: 1 }'],
  ['[1, 2, 3]', '[1, 2]'],
  ['[[1]]', "[['1']]"],
  ['{ a: [{ b: 1 }] }', "{ a: [{ b: '1' }] }"],
  ['Object.assign([1], { x: 1 })', '[1]'],
  ['new Set([1])', "new Set(['1'])"],
  ["new Set([1, '1'])", "new Set(['1', 1])"],
  ['new Set([null])', 'new Set([undefined])'],
  ['new Set([{ a: 1 }])', 'new Set([{ a: 1 }])'],
  ['new Set([{ a: 1 }])', "new Set([{ a: '1' }])"],
  ['new Set([{ a: 1 }])', 'new Set([{ a: 2 }])'],
  ['new Map([[1, 1]])', "new Map([['1', '1']])"],
  ['new Map([[null, 1]])', 'new Map([[undefined, 1]])'],
  ['new Map([[{ a: 1 }, 1]])', 'new Map([[{ a: 1 }, 1]])'],
  ['new Map([[1, { x: 1 }]])', "new Map([[1, { x: '1' }]])"],
  ['new Date(0)', 'new Date(0)'],
  ['new Date(0)', 'new Date(1)'],
  ['/a/g', '/a/g'],
  ['/a/g', '/a/i'],
  ['new Number(1)', 'new Number(1)'],
  ['new Number(1)', '1'],
  ["new String('a')", "new String('a')"],
  ['new Boolean(true)', 'new Boolean(false)'],
  ["new Error('x')", "new Error('x')"],
  ["new Error('x')", "new TypeError('x')"],
  ["new Error('x')", "new Error('y')"],
  ['new Uint8Array([1, 2])', 'new Uint8Array([1, 2])'],
  ['new Uint8Array([1, 2])', 'new Int8Array([1, 2])'],
  ['new Float64Array([0])', 'new Float64Array([-0])'],
  ['new Float64Array([NaN])', 'new Float64Array([NaN])'],
  ['new ArrayBuffer(2)', 'new ArrayBuffer(2)'],
  ["Symbol.for('s')", "Symbol.for('s')"],
  ["({ [Symbol.for('k')]: 1 })", '({})'],
  ['(() => { const a = {}; a.self = a; return a; })()', '(() => { const b = {}; b.self = b; return b; })()'],
  ['(() => { const a = [1]; a.push(a); return a; })()', '(() => { const b = [1]; b.push([1, b]); return b; })()'],
  ["'abc'", "'abc'"],
  ['undefined', 'undefined'],
  ['[undefined]', '[null]'],
  ['{ a: NaN }', '{ a: NaN }'],
  ['[1, 2, [3, [4, 5]]]', "[1, 2, [3, [4, '5']]]"],
  ['{ x: { y: { z: [1, { w: 2 }] } } }', '{ x: { y: { z: [1, { w: 2 }] } } }'],
];

const OPS = [
  'deepEqual',
  'notDeepEqual',
  'deepStrictEqual',
  'notDeepStrictEqual',
  'equal',
  'notEqual',
  'strictEqual',
  'notStrictEqual',
] as const;

function nodeVerdict(op: (typeof OPS)[number], a: string, b: string): boolean {
  // Both values are built in this realm, as the sandbox builds both in one context.
  const [x, y] = new Function(`return [${a}, ${b}];`)() as [unknown, unknown];
  try {
    (assert[op] as (p: unknown, q: unknown) => void)(x, y);
    return true;
  } catch (e) {
    if (e instanceof assert.AssertionError) return false;
    throw e;
  }
}

describe('assert semantics match node:assert', () => {
  const ex = testExecutor({ timeoutMs: 5000 });
  afterAll(() => ex.close());

  it(`agrees with node:assert on ${PAIRS.length * OPS.length} (value, value, operator) cases`, async () => {
    const cases = PAIRS.flatMap(([a, b]) => OPS.map((op) => ({ a, b, op, node: nodeVerdict(op, a, b) })));
    // Sanity: the table exercises both outcomes for each operator.
    for (const op of OPS) {
      const v = cases.filter((c) => c.op === op).map((c) => c.node);
      expect(v).toContain(true);
      expect(v).toContain(false);
    }
    const results = await ex.run(cases.map((c, i) => js(`c${i}`, `${ASSERT}assert.${c.op}(${c.a}, ${c.b});\n`)));
    const disagreements = cases
      .map((c, i) => ({ ...c, sandbox: results[i]!.status, error: results[i]!.error }))
      .filter((c) => (c.node ? 'pass' : 'fail') !== c.sandbox);
    expect(disagreements).toEqual([]);
  });

  it('assert/strict and assert.strict map loose names to strict comparisons', async () => {
    const results = await ex.run([
      js('strictModule', `const assert = require('assert/strict');\nassert.deepEqual([1], ['1']);`),
      js('nodeStrictModule', `const assert = require('node:assert/strict');\nassert.equal(1, '1');`),
      js('strictProp', `const assert = require('assert').strict;\nassert.notEqual(1, '1');`),
      js(
        'strictIdentity',
        `${ASSERT}assert.strictEqual(assert.strict, require('node:assert/strict'));\nassert.strictEqual(assert.strict.strict, assert.strict);`,
      ),
      js('callable', `${ASSERT}assert(1);\nassert.ok('x');\nassert(0, 'zero is falsy');`),
      js('noArgs', `${ASSERT}assert.ok();`),
      js('missingExpected', `${ASSERT}assert.deepEqual(1);`),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fail', 'fail', 'pass', 'pass', 'fail', 'fail', 'fail']);
    expect(results[4]!.passed).toBe(2);
    expect(results[4]!.error).toBe('zero is falsy');
    expect(results[5]!.error).toMatch(/No value argument passed to `assert.ok\(\)`/);
    expect(results[6]!.error).toMatch(/"actual" and "expected" arguments must be specified/);
  });

  it('throws, doesNotThrow, rejects, doesNotReject, match, fail, ifError follow Node', async () => {
    const progs: Record<string, [string, 'pass' | 'fail']> = {
      throwsClass: [`assert.throws(() => { throw new TypeError('bad'); }, TypeError);`, 'pass'],
      throwsWrongClass: [`assert.throws(() => { throw new TypeError('bad'); }, RangeError);`, 'fail'],
      throwsRegExp: [`assert.throws(() => { throw new Error('boom 42'); }, /boom \\d+/);`, 'pass'],
      throwsObject: [`assert.throws(() => { throw new Error('x'); }, { name: 'Error', message: 'x' });`, 'pass'],
      throwsObjectMismatch: [`assert.throws(() => { throw new Error('x'); }, { message: 'y' });`, 'fail'],
      throwsValidator: [`assert.throws(() => { throw new Error('x'); }, (e) => e.message === 'x');`, 'pass'],
      throwsNothing: [`assert.throws(() => {});`, 'fail'],
      doesNotThrow: [`assert.doesNotThrow(() => 1);`, 'pass'],
      doesNotThrowThrows: [`assert.doesNotThrow(() => { throw new Error('x'); });`, 'fail'],
      rejects: [`assert.rejects(Promise.reject(new Error('x')), /x/).then(() => assert.ok(true));`, 'pass'],
      rejectsAwaited: [
        `(async () => { await assert.rejects(async () => { throw new TypeError('t'); }, TypeError); })();`,
        'pass',
      ],
      rejectsResolves: [`(async () => { await assert.rejects(Promise.resolve(1)); })();`, 'fail'],
      rejectsNotAwaited: [`assert.rejects(Promise.resolve(1)).catch(() => {});`, 'fail'],
      doesNotReject: [`(async () => { await assert.doesNotReject(async () => 1); })();`, 'pass'],
      doesNotRejectRejects: [`(async () => { await assert.doesNotReject(Promise.reject(new Error('x'))); })();`, 'fail'],
      match: [`assert.match('abc', /b/);`, 'pass'],
      noMatch: [`assert.match('abc', /z/);`, 'fail'],
      doesNotMatch: [`assert.doesNotMatch('abc', /z/);`, 'pass'],
      fail: [`assert.fail('nope');`, 'fail'],
      ifErrorNull: [`assert.ifError(null);`, 'pass'],
      ifErrorSet: [`assert.ifError(new Error('e'));`, 'fail'],
      assertionErrorShape: [
        `try { assert.strictEqual(1, 2); } catch (e) { var err = e; }\nconst s = require('assert/strict');\ns.ok(err instanceof assert.AssertionError);\ns.ok(err instanceof Error);\ns.equal(err.code, 'ERR_ASSERTION');\ns.equal(err.operator, 'strictEqual');\ns.equal(err.actual, 1);\ns.equal(err.expected, 2);\ns.equal(err.name, 'AssertionError');\ns.equal(err.generatedMessage, true);`,
        'fail',
      ],
    };
    const ids = Object.keys(progs);
    const results = await ex.run(ids.map((id) => js(id, ASSERT + progs[id]![0])));
    const got = Object.fromEntries(results.map((r) => [r.id, r.status]));
    const want = Object.fromEntries(ids.map((id) => [id, progs[id]![1]]));
    expect(got).toEqual(want);
    // The caught strictEqual failure counts; the 8 checks on the error object all passed.
    const shape = results.find((r) => r.id === 'assertionErrorShape')!;
    expect(shape.passed).toBe(8);
    expect(shape.total).toBe(9);
  });
});
