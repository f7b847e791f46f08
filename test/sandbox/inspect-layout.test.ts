/**
 * What `console.log` prints for objects, in both realms, matches the Node running this test:
 * seeded random values (arrays of up to 40 numbers or strings, nested objects, Maps, Sets, typed
 * arrays) laid out as util.inspect lays them out — more than six array entries grouped into
 * aligned columns, an object on one line only among the three innermost levels and within 80
 * columns. Tests that compare printed output with Node's failed honest programs (red-team rt60
 * K6: a logged array of seven numbers is three lines under Node).
 */
import { format } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, js, testExecutor } from './helpers.ts';

/** Builds value k (deterministic): evaluated here and in the sandbox's realms. */
const BUILD = `function build(k) {
  let s = (k * 2654435761 + 1) >>> 0;
  const r = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296);
  const word = () => ['a', 'bb', 'ccc', 'dddd', 'eeeeeeeee', 'x y', 'long-word-here', ''][Math.floor(r() * 8)];
  const num = () => [0, 1, -1, 7, 42, -300, 1.5, 123456, 1e21, 0.1, 99999999][Math.floor(r() * 11)];
  const value = (d) => {
    const t = Math.floor(r() * (d > 3 ? 3 : 9));
    if (t === 0) return num();
    if (t === 1) return word();
    if (t === 2) return r() < 0.5 ? null : r() < 0.5;
    if (t === 3) return Array.from({ length: Math.floor(r() * 40) }, () => (r() < 0.8 ? num() : word()));
    if (t === 4) return Array.from({ length: Math.floor(r() * 10) }, () => value(d + 1));
    if (t === 5) {
      const o = {};
      for (let i = Math.floor(r() * 7); i > 0; i--) o[word() || 'k' + i] = value(d + 1);
      return o;
    }
    if (t === 6) return new Map(Array.from({ length: Math.floor(r() * 5) }, () => [word(), value(d + 1)]));
    if (t === 7) return new Set(Array.from({ length: Math.floor(r() * 9) }, () => num()));
    return Int16Array.from({ length: Math.floor(r() * 30) }, () => Math.floor(r() * 2000) - 1000);
  };
  return value(0);
}
`;

const N = 400;
const build = new Function(`${BUILD}return build;`)() as (k: number) => unknown;
const EXPECTED = Array.from({ length: N }, (_, k) => `${format(build(k))}\n`);

// The tests capture what each console.log writes (process.stdout.write) and count mismatches.
const CHECK = (print: string) => `${ASSERT}const want = ${JSON.stringify(EXPECTED)};
let bad = 0;
let first = '';
for (let k = 0; k < want.length; k++) {
  let got = '';
  const write = process.stdout.write;
  process.stdout.write = (s) => ((got += s), true);
  ${print}(k);
  process.stdout.write = write;
  if (got !== want[k]) {
    bad++;
    if (first === '') first = k + ': ' + JSON.stringify(got) + ' vs ' + JSON.stringify(want[k]);
  }
}
assert.strictEqual(bad, 0, bad + ' differ; first ' + first);
`;

describe('console.log layout matches Node', () => {
  const ex = testExecutor({ timeoutMs: 20_000 });
  afterAll(() => ex.close());

  it('the cases are not trivial: many are grouped or broken over lines under Node', () => {
    expect(EXPECTED.filter((e) => /\n {2}\S.*, .*\n/.test(e)).length).toBeGreaterThan(20);
    expect(EXPECTED.filter((e) => e.split('\n').length > 3).length).toBeGreaterThan(60);
  });

  it('in the program realm and in the tests realm', async () => {
    const [program, tests] = await ex.run([
      js('program-realm', `${BUILD}function show(k) {\n  console.log(build(k));\n}\n`, CHECK('show')),
      js('tests-realm', 'function unused() {}\n', `${BUILD}${CHECK('((k) => console.log(build(k)))')}`),
    ]);
    for (const r of [program, tests]) {
      expect(r?.status, JSON.stringify(r).slice(0, 2000)).toBe('pass');
      expect(r?.passed).toBe(1);
    }
  });
});
