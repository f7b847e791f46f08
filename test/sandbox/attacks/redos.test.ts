/**
 * Attack class: catastrophic regex backtracking (ReDoS), directly and inside assertions.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStatus, expectStillWorks, runAll, testExecutor } from '../helpers.ts';

describe('attack: ReDoS', () => {
  const ex = testExecutor({ timeoutMs: 400 });
  afterAll(() => ex.close());

  it('times out catastrophic backtracking', async () => {
    const res = await runAll(ex, {
      nested: `/(a+)+$/.test('a'.repeat(40) + 'b');`,
      alternation: `/^(a|a)*$/.test('a'.repeat(40) + 'b');`,
      inAssertMatch: `${ASSERT}assert.match('a'.repeat(40) + '!', /^(a|aa)+$/);`,
      inThrowsRegExp: `${ASSERT}assert.throws(() => { throw new Error('a'.repeat(40) + '!'); }, /^Error: (a|aa)+$/);`,
      replaceAll: `'x'.repeat(50000).replace(/(x+x+)+y/g, '');`,
    });
    for (const [id, r] of Object.entries(res)) {
      expectStatus(r, 'timeout');
      expect(r.error, id).toMatch(/timed out/);
    }
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
