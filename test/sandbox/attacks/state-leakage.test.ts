/**
 * Attack class: state leaking from one program to the next. A program pollutes everything it can
 * reach; the next program on the same worker (same isolate) must see a pristine world.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'acorn';
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStatus, expectStillWorks, js, testExecutor } from '../helpers.ts';

const POLLUTE = `
globalThis.leak = 42; var leakedVar = 1; function leakedFn() {} let leakedLet = 1;
Object.prototype.polluted = 'yes'; Array.prototype.includes = () => true; String.prototype.trim = () => 'x';
Math.random = () => 4; Date.now = () => 0; JSON.parse = () => 'hacked'; Object.keys = () => ['hacked'];
Error.prepareStackTrace = () => 'hacked'; Error.stackTraceLimit = 0;
RegExp.prototype.test = () => true; /(secret)/.exec('my secret');
console.log = () => {}; module.exports = 'hacked'; exports.x = 1;
Symbol.for('anchor-rl-shared');
delete globalThis.Array; delete globalThis.Map;
Object.freeze(Object.prototype); Object.freeze(globalThis);
`;

const CHECK = `${ASSERT}
assert.strictEqual(typeof leak, 'undefined');
assert.strictEqual(typeof leakedVar, 'undefined');
assert.strictEqual(typeof leakedFn, 'undefined');
assert.strictEqual(typeof leakedLet, 'undefined');
assert.strictEqual(({}).polluted, undefined);
assert.strictEqual([1].includes(2), false);
assert.strictEqual(' a '.trim(), 'a');
assert.ok(Math.random() < 1);
assert.ok(Date.now() > 1e12);
assert.deepStrictEqual(JSON.parse('[1]'), [1]);
assert.deepStrictEqual(Object.keys({ a: 1 }), ['a']);
assert.strictEqual(Error.stackTraceLimit, 10);
assert.strictEqual(typeof Error.prepareStackTrace, 'undefined');
assert.strictEqual(/a/.test('b'), false);
assert.strictEqual(RegExp.$1, '');
assert.strictEqual(typeof Array, 'function');
assert.strictEqual(typeof Map, 'function');
assert.ok(!Object.isFrozen(Object.prototype));
assert.ok(!Object.isFrozen(globalThis));
assert.deepStrictEqual(module.exports, {});
globalThis.fresh = 1;
console.log('clean');
`;

describe('attack: state leakage between programs', () => {
  const ex = testExecutor({ workers: 1, timeoutMs: 3000 });
  afterAll(() => ex.close());

  it('each program sees a pristine context (same worker, same isolate)', async () => {
    for (let round = 0; round < 3; round++) {
      const [polluter] = await ex.run([js('pollute', POLLUTE)]);
      expectStatus(polluter, 'fail'); // no assertion ran
      const [checker] = await ex.run([js('check', CHECK)]);
      expectStatus(checker, 'pass');
      expect(checker!.stdout).toBe('clean\n');
    }
    // Interleaved in one batch as well.
    const mixed = await ex.run(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? js(`check-${i}`, CHECK) : js(`pollute-${i}`, POLLUTE))),
    );
    for (const r of mixed) if (r.id.startsWith('check')) expectStatus(r, 'pass');
  });

  it('assertion counts and output never carry over', async () => {
    const results = await ex.run([
      js(
        'a',
        `${ASSERT}for (let i = 0; i < 5; i++) assert.ok(true);\ntry { assert.ok(false); } catch {}\nconsole.log('from a');`,
      ),
      js('b', `${ASSERT}assert.ok(true);`),
    ]);
    expectStatus(results[0], 'fail');
    // Two assertion sites: the one in the loop (passed every time) and the failing one.
    expect(results[0]!.total).toBe(2);
    expect(results[0]!.passed).toBe(1);
    expectStatus(results[1], 'pass');
    expect(results[1]!.passed).toBe(1);
    expect(results[1]!.total).toBe(1);
    expect(results[1]!.stdout).toBe('');
  });

  it("the tests realm's run state never carries over: a run that ended inside a check's arguments", async () => {
    // One worker, so both programs meet the same long-lived tests realm. The first run ends on an
    // error thrown while the arguments of a check that never ran before were evaluated (the check
    // is left open); the second ends on an error before any check of its own. Its verdict must be
    // the one it gets alone (it was "the tests realm did not report a verdict", output lost, the
    // isolate replaced), whatever ran before it.
    const one = testExecutor({ workers: 1, timeoutMs: 2000 });
    try {
      const ends = (i: number) =>
        js(
          `ends-${i}`,
          `function f() {\n  return ${i};\n}\n`,
          `${ASSERT}const x = f();\nassert.ok(true);\nassert.ok(true);\nassert.deepStrictEqual([...x], [5]);\n`,
        );
      const later = (i: number) =>
        js(
          `after-${i}`,
          `function g(n) {\n  return n + ${i};\n}\n`,
          `${ASSERT}console.log('start');\nconst v = g(1);\nnull.x;\nassert.ok(v === 2);\n`,
        );
      const [alone] = await one.run([later(1)]);
      expectStatus(alone, 'error');
      expect(alone!.stdout).toBe('start\n');
      const [first, second] = await one.run([ends(5), later(1)]);
      expectStatus(first, 'error');
      expect({ ...second, ms: 0 }, JSON.stringify(second)).toEqual({ ...alone, ms: 0 });
    } finally {
      await one.close();
    }
  });

  it("a symbol numbered for one run is never another run's (red-team rt71 JL02)", async () => {
    // Symbols that are neither registered nor well-known cross under a number naming them for the
    // run; the tests realm lives on, and its table of the program's symbols reused the first run's
    // `Symbol('alpha')` for every later run's symbol 0 (a wrong pass and two honest fails).
    const one = testExecutor({ workers: 1, timeoutMs: 2000 });
    try {
      const token = (i: number, made: string, want: string) =>
        js(
          `token-${i}`,
          `function token${i}() {\n  return Symbol('${made}');\n}\n`,
          `${ASSERT}assert.strictEqual(token${i}().description, '${want}');\n`,
        );
      const [a, b, c] = await one.run([token(1, 'alpha', 'alpha'), token(2, 'beta', 'alpha'), token(3, 'gamma', 'gamma')]);
      expectStatus(a, 'pass');
      expectStatus(b, 'fail');
      expectStatus(c, 'pass');
    } finally {
      await one.close();
    }
  });

  it("every run-scoped variable of the harness is set again when the tests realm's run starts", () => {
    // The tests realm lives for many programs (one per isolate): each `let` of setupHarness is
    // either set at the top of runTests or named here with why it may outlive a run. A variable
    // added without either fails here (openCheck did: the run above).
    const kept: Record<string, string> = {
      comparisons: 'built once per realm',
      inspector: 'built once per realm',
      typeChecks: 'built once per realm',
      modules: "the realm's assert module, built once",
      NodeBuffer: "the realm's Buffer, built once",
      NodeCrypto: "the realm's crypto global, built once",
      NodeDOMException: "the realm's DOMException brand check, built once",
      ownProcess: "the tests realm's own process, read once; restoreConsole puts it back each run",
      ownWrites: "the tests realm's own stdout/stderr writes, read once; restoreConsole puts them back each run",
      ExternalCopy: 'the host class, given once',
      guardText: 'the host callback, given once',
      bridge: 'built once; runTests calls its reset()',
      snapshot: 'built once; runTests clears its class table',
      assertFunctions: "the realm's assert functions, found once",
      tracking: 'promise tracking is installed once per realm',
      ra: 'runTests reseeds (reseed)',
      rb: 'runTests reseeds (reseed)',
      rc: 'runTests reseeds (reseed)',
      rd: 'runTests reseeds (reseed)',
      epoch: "runTests sets the program's origin (setOrigin)",
      clock: "runTests sets the program's origin (setOrigin)",
      started: "runTests sets the program's origin (setOrigin)",
      sleepsUntil: 'program realm only (a fresh context per program)',
      allocationRefusals: 'program realm only (a fresh context per program)',
      consoleTo: 'program realm only (a fresh context per program); set back after every call',
      consoleLast: 'program realm only (a fresh context per program)',
      timerRemote: 'program realm only (a fresh context per program)',
    };
    const ast = parse(readFileSync(new URL('../../../sandbox/harness.js', import.meta.url), 'utf8'), {
      ecmaVersion: 'latest',
    }) as unknown as AstNode;
    const fn = (name: string) => (n: AstNode) => n.type === 'FunctionDeclaration' && n.id?.name === name;
    const setup = statements(ast).find(fn('setupHarness'))!;
    const lets = statements(setup)
      .filter((n) => n.type === 'VariableDeclaration' && n.kind === 'let')
      .flatMap((n) => (n.declarations ?? []).map((d) => d.id?.name ?? ''));
    const set = new Set(
      statements(statements(setup).find(fn('runTests'))!)
        .map((n) =>
          n.type === 'ExpressionStatement' && n.expression?.type === 'AssignmentExpression' ? n.expression.left : undefined,
        )
        .filter((left) => left?.type === 'Identifier')
        .map((left) => left!.name),
    );
    expect(lets.length).toBeGreaterThan(40);
    expect(lets.filter((name) => !set.has(name) && !(name in kept))).toEqual([]);
  });

  it('cannot schedule work into a later program', async () => {
    const [r1] = await ex.run([
      js(
        'sched',
        `${ASSERT}assert.strictEqual(typeof FinalizationRegistry, 'undefined');\nassert.strictEqual(typeof Atomics.waitAsync, 'undefined');\n` +
          `const p = Promise.resolve(); for (let i = 0; i < 1000; i++) p.then(() => { globalThis.late = i; });`,
      ),
    ]);
    expectStatus(r1, 'pass');
    const [r2] = await ex.run([js('after', `${ASSERT}assert.strictEqual(typeof late, 'undefined');`)]);
    expectStatus(r2, 'pass');
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});

/** The parts of an acorn node this file reads. */
interface AstNode {
  type: string;
  kind?: string;
  name?: string;
  id?: AstNode | null;
  body?: AstNode | AstNode[];
  declarations?: AstNode[];
  expression?: AstNode;
  left?: AstNode;
}

/** The statements of a program or of a function's body. */
function statements(n: AstNode): AstNode[] {
  const b = n.body;
  if (Array.isArray(b)) return b;
  return b !== undefined && Array.isArray(b.body) ? b.body : [];
}
