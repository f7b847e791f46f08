/**
 * Attack class: type-loose comparisons as a reward channel. In `sandbox.verdict: strict` (the
 * default for training and settlement) `deepEqual`/`equal` compare like types: '4' is not 4,
 * -6n is not -6, true is not 1. `parity` keeps the published harness's loose semantics. Strict
 * still accepts legitimate answers: NaN for NaN, -0 for 0, typed arrays, Maps, Sets, Dates,
 * nested data.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStillWorks, jsProblem, runTraining, testExecutor } from '../helpers.ts';

const loose = `${ASSERT}function test() {\n  let candidate = f;\n  assert.deepEqual(candidate(), EXPECTED);\n  assert.equal(candidate(), EXPECTED);\n}\ntest();\n`;
const problemFor = (expected: string) => jsProblem('f', 'function f() {\n', loose.replaceAll('EXPECTED', expected));

describe('attack: loose comparisons', () => {
  const strict = testExecutor({ timeoutMs: 2000, workers: 1 });
  const parity = testExecutor({ timeoutMs: 2000, workers: 1, verdict: 'parity' });
  afterAll(async () => {
    await strict.close();
    await parity.close();
  });

  const LIES: Array<[string, string]> = [
    ['4', `'4'`],
    ['-6', `-6n`],
    ['1', `true`],
    ['0', `''`],
    ['[1, 2]', `['1', '2']`],
    ['{ a: 1 }', `{ a: '1' }`],
  ];

  it('strict refuses answers of another type', async () => {
    for (const [expected, answer] of LIES) {
      const res = await runTraining(strict, problemFor(expected), { lie: `  return ${answer};\n}\n` });
      expect(res.lie!.status, `${answer} for ${expected}: ${JSON.stringify(res.lie)}`).toBe('fail');
      expect(res.lie!.gold).toBe(0);
    }
  });

  it('parity keeps the published loose semantics', async () => {
    // assert.equal is `==`: -6n == -6, true == 1, '' == 0 and '4' == 4 all hold; deepEqual is loose.
    for (const [expected, answer] of LIES.slice(0, 4)) {
      const res = await runTraining(parity, problemFor(expected), { lie: `  return ${answer};\n}\n` });
      expect(res.lie!.status, `${answer} for ${expected}: ${JSON.stringify(res.lie)}`).toBe('pass');
    }
  });

  it('strict accepts legitimate answers', async () => {
    const cases: Array<[string, string]> = [
      ['NaN', `0 / 0`],
      ['0', `-0`],
      ['-0', `0`],
      ['new Float64Array([1.5, NaN])', `Float64Array.from([1.5, NaN])`],
      ['new Uint8Array([1, 2])', `new Uint8Array([1, 2])`],
      ['[[1, 2], { k: [3] }]', `[[1, 2], { k: [3] }]`],
      ['new Map([[1, [2]]])', `new Map([[1, [2]]])`],
      ['new Set([1, 2])', `new Set([2, 1])`],
      ['12n', `12n`],
      ['"x"', `'x'`],
      ['null', `null`],
    ];
    for (const [expected, answer] of cases) {
      const t = `${ASSERT}function test() {\n  let candidate = f;\n  assert.deepEqual(candidate(), ${expected});\n}\ntest();\n`;
      const res = await runTraining(strict, jsProblem('f', 'function f() {\n', t), { ok: `  return ${answer};\n}\n` });
      expect(res.ok!.status, `${answer} for ${expected}: ${JSON.stringify(res.ok)}`).toBe('pass');
    }
  });

  it('strict refuses a class instance where a plain object is expected; parity accepts it', async () => {
    const t = `${ASSERT}function test() {\n  let candidate = f;\n  assert.deepEqual(candidate(), { a: 1 });\n}\ntest();\n`;
    const completion = `  return new (class P { constructor() { this.a = 1; } })();\n}\n`;
    const s = await runTraining(strict, jsProblem('f', 'function f() {\n', t), { c: completion });
    const p = await runTraining(parity, jsProblem('f', 'function f() {\n', t), { c: completion });
    expect(s.c!.status).toBe('fail');
    expect(p.c!.status).toBe('pass');
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(strict);
  });
});
