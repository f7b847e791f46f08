/**
 * UTF-8 decoding in both realms matches the Node running this test: `Buffer#toString`,
 * `TextDecoder` (BOM, `fatal`, `ignoreBOM`, `{ stream: true }`) over seeded random byte strings
 * rich in ill-formed sequences. Honest programs and tests that decode bytes must see what Node
 * gives (one U+FFFD per maximal subpart, not one per byte).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, js, testExecutor } from './helpers.ts';

/** Bytes around every boundary of UTF-8's well-formed table. */
const POOL = [
  0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xee, 0xef, 0xbb, 0xf0, 0xf1, 0xf4,
  0xf5, 0xff, 0x82, 0xac,
];

/** The five decodings, as source text: evaluated here by Node and in the sandbox's realms. */
const DECODE_ALL = `function decodeAll(bytes, cut) {
  const u = Uint8Array.from(bytes);
  const buf = Buffer.from(u).toString();
  const td = new TextDecoder().decode(u);
  let fatal;
  try { fatal = new TextDecoder('utf-8', { fatal: true }).decode(u); } catch (e) { fatal = 'THROW ' + e.code + ' ' + (e instanceof TypeError); }
  const d = new TextDecoder();
  const st = d.decode(u.subarray(0, cut), { stream: true }) + '|' + d.decode(u.subarray(cut));
  const ig = new TextDecoder('utf-8', { ignoreBOM: true }).decode(u);
  return [buf, td, fatal, st, ig];
}
`;

function cases(n: number, seed: number): Array<[number[], number]> {
  let s = seed >>> 0;
  const rnd = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  };
  const out: Array<[number[], number]> = [];
  for (let k = 0; k < n; k++) {
    const bytes = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => POOL[Math.floor(rnd() * POOL.length)]!);
    if (k % 10 === 0) bytes.unshift(0xef, 0xbb, 0xbf);
    out.push([bytes, Math.floor(rnd() * (bytes.length + 1))]);
  }
  return out;
}

const decodeHere = new Function(`${DECODE_ALL}return decodeAll;`)() as (b: number[], cut: number) => string[];
const CASES = cases(300, 7);
const EXPECTED = CASES.map(([b, cut]) => [b, cut, ...decodeHere(b, cut)]);
// Counts mismatches instead of asserting per case, so one run reports how many differ.
const CHECK = (decode: string) =>
  `${ASSERT}const C = ${JSON.stringify(EXPECTED)};\nlet bad = 0;\nfor (const [b, cut, ...exp] of C) if (JSON.stringify(${decode}(b, cut)) !== JSON.stringify(exp)) bad++;\nassert.strictEqual(bad, 0);\n`;

describe('UTF-8 decoding matches Node', () => {
  const ex = testExecutor({ timeoutMs: 5_000 });
  afterAll(() => ex.close());

  it('the host decodes some cases with fewer replacements than bytes (the cases are not trivial)', () => {
    const fewer = EXPECTED.filter((e) => (e[2] as string).length < (e[0] as number[]).length);
    expect(fewer.length).toBeGreaterThan(30);
    expect(EXPECTED.filter((e) => String(e[4]).startsWith('THROW')).length).toBeGreaterThan(100);
  });

  it('in the program realm (results cross to the tests) and in the tests realm', async () => {
    const [program, tests] = await ex.run([
      js('program-realm', DECODE_ALL, CHECK('decodeAll')),
      js('tests-realm', 'function unused() {}\n', `${DECODE_ALL}${CHECK('decodeAll')}`),
    ]);
    for (const r of [program, tests]) {
      expect(r?.status, JSON.stringify(r)).toBe('pass');
      expect(r?.passed).toBe(1);
    }
  });
});
