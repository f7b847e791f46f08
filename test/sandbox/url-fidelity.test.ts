/**
 * `URL` and `URLSearchParams` in both realms match the Node running this test: seeded random URLs
 * (special schemes, ports, dot segments, backslashes, spaces, quotes, '%', non-ASCII, empty
 * queries and fragments) read through every getter, then changed through `searchParams`
 * (append, sort, delete), the `pathname`, `search` and `hash` setters, and `URLSearchParams`
 * built from strings, records and Maps. Where the tests build what they expect with their own
 * URLSearchParams, a difference from Node was a door: a wrong program writing unencoded query
 * strings matched the tests' unencoded expectation (red-team rt60 K9).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, js, testExecutor } from './helpers.ts';

/** Case k, evaluated here and in the sandbox's realms: what each step reads. */
const RUN = `function run(k) {
  let s = (k * 2654435761 + 7) >>> 0;
  const r = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296);
  const pick = (a) => a[Math.floor(r() * a.length)];
  const chars = ['a', 'Z', '0', ' ', '"', '#', '<', '>', '\`', '{', '}', '^', '|', "'", '!', '(', ')', '~', '*', '%', '%41', '%zz', '+', '&', '=', 'é', '€', '😀', '\\\\', '/', '.', '..', ';', ':', '@', '$', ','];
  const word = () => Array.from({ length: Math.floor(r() * 6) }, () => pick(chars)).join('');
  const text = pick(['http://', 'https://', 'ws://', 'HTTP://']) + pick(['ex.com', 'EX.com', 'a.b.c']) + pick(['', ':80', ':8080', ':443']) +
    pick(['', '/', '/a/b', '/a/./b/../c']) + '/' + word() + (r() < 0.6 ? '?' + word() + '=' + word() + '&' + word() : '') + (r() < 0.4 ? '#' + word() : '');
  const out = [];
  try {
    const u = new URL(text);
    out.push(u.href, u.protocol, u.host, u.port, u.pathname, u.search, u.hash, u.origin, JSON.stringify([...u.searchParams]), String(u.searchParams));
    const w = pick(['x y', "a'b!(c)~*", 'é/€', '', 'k=v&z', '%41+b', '?q', '#h']);
    u.searchParams.append(w, w + '1');
    out.push(u.href, u.searchParams.has(w), u.searchParams.has(w, 'no'), u.searchParams.size);
    u.searchParams.sort();
    out.push(u.search);
    u.pathname = w;
    out.push(u.href);
    u.search = w;
    out.push(u.href, JSON.stringify([...u.searchParams]));
    u.hash = w;
    out.push(u.href);
    u.searchParams.delete('x y');
    out.push(u.href, URL.canParse(word(), 'http://b.com/x/y'), new URL(pick(['../z', '/q?x=1', '?y', '#f', 'w']), u).href);
    out.push(String(new URLSearchParams({ [w]: word(), b: 'c d' })), String(new URLSearchParams(new Map([[word(), w]]))));
  } catch (e) {
    out.push('THROW ' + e.code);
  }
  return out;
}
`;

const N = 500;
const run = new Function(`${RUN}return run;`)() as (k: number) => unknown[];
const EXPECTED = Array.from({ length: N }, (_, k) => run(k));
const CHECK = `${ASSERT}const want = ${JSON.stringify(EXPECTED)};
let bad = 0;
let first = '';
for (let k = 0; k < want.length; k++) {
  const got = JSON.stringify(run(k));
  if (got !== JSON.stringify(want[k])) {
    bad++;
    if (first === '') first = k + ': ' + got + ' vs ' + JSON.stringify(want[k]);
  }
}
assert.strictEqual(bad, 0, bad + ' differ; first ' + first);
`;

describe('URL and URLSearchParams match Node', () => {
  const ex = testExecutor({ timeoutMs: 20_000 });
  afterAll(() => ex.close());

  it('the cases are not trivial: Node encodes, resolves and keeps empty parts in many', () => {
    expect(EXPECTED.filter((e) => /%[0-9A-F]{2}/.test(String(e[0]))).length).toBeGreaterThan(100);
    expect(EXPECTED.filter((e) => /[?#]$/.test(String(e[0]))).length).toBeGreaterThan(10);
  });

  it('in the program realm (results cross to the tests) and in the tests realm', async () => {
    const [program, tests] = await ex.run([
      js('program-realm', RUN, CHECK),
      js('tests-realm', 'function unused() {}\n', `${RUN}${CHECK}`),
    ]);
    for (const r of [program, tests]) {
      expect(r?.status, JSON.stringify(r).slice(0, 3000)).toBe('pass');
      expect(r?.passed).toBe(1);
    }
  });
});
