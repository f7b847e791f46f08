import nodeAssert from 'node:assert';
import { describe, expect, it } from 'vitest';
import { assembleProgram, truncateAtStop, type Problem } from '../../src/datasets/problem.ts';
import {
  SYNTHETIC_JS_CHARSET,
  generateProblems,
  getFamily,
  inSyntheticJsCharset,
  listFamilies,
  problemsFromTaskConfig,
  syntheticJsSchema,
  taskFamilyConfigSchema,
} from '../../src/tasks/index.ts';
import { AnchorError } from '../../src/util/errors.ts';
import { Rng } from '../../src/util/rng.ts';
import { looseDeepEqual, runInProcess } from './in-process.ts';

const gold = (p: Problem, completion: string): number => {
  const r = runInProcess(assembleProgram(p, completion));
  return r.total === 0 ? 0 : r.passed / r.total;
};

function expectCode(fn: () => unknown, code: string): void {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AnchorError);
    expect((err as AnchorError).code).toBe(code);
    return;
  }
  throw new Error(`expected AnchorError ${code}`);
}

describe('registry', () => {
  it('lists the built-in families', () => {
    expect(listFamilies()).toEqual(['synthetic-js', 'dsl6', 'richdsl']);
    for (const name of listFamilies()) {
      const f = getFamily(name);
      expect(f.name).toBe(name);
      expect(f.describe.length).toBeGreaterThan(20);
      // Every knob is defaulted: an empty object parses.
      expect(f.schema.safeParse({}).success).toBe(true);
    }
  });

  it('rejects unknown families, unknown knobs and bad values with typed errors', () => {
    expectCode(() => getFamily('nope'), 'NOT_FOUND');
    expectCode(() => generateProblems('nope', { split: 'train', count: 1, seed: 0 }), 'NOT_FOUND');
    expectCode(() => generateProblems('synthetic-js', { split: 'train', count: 1, seed: 0, maxOpz: 2 }), 'BAD_CONFIG');
    expectCode(
      () => generateProblems('synthetic-js', { split: 'train', count: 1, seed: 0, min_ops: 3, max_ops: 2 }),
      'BAD_CONFIG',
    );
    expectCode(() => generateProblems('synthetic-js', { split: 'train', count: 1, seed: 0, int_ops: ['pow'] }), 'BAD_CONFIG');
    expectCode(() => generateProblems('dsl6', { split: 'test' as 'train', count: 1, seed: 0 }), 'BAD_CONFIG');
    expectCode(() => generateProblems('dsl6', { split: 'train', count: -1, seed: 0 }), 'BAD_CONFIG');
    expectCode(() => generateProblems('dsl6', { split: 'train', count: 1, seed: 0.5 }), 'BAD_CONFIG');
  });

  it('reports an impossible request instead of looping', () => {
    expectCode(
      () => generateProblems('synthetic-js', { split: 'train', count: 5, seed: 0, input_max: 3, examples: 4, tests: 4 }),
      'BAD_CONFIG',
    );
    // DSL-6 has at most 1296 distinct targets; far fewer distinct I/O tables fall in eval.
    expectCode(() => generateProblems('dsl6', { split: 'eval', count: 1000, seed: 0 }), 'BAD_CONFIG');
  });

  for (const family of ['synthetic-js', 'dsl6', 'richdsl']) {
    it(`${family}: deterministic per seed and split`, () => {
      const a = generateProblems(family, { split: 'train', count: 40, seed: 7 });
      const b = generateProblems(family, { split: 'train', count: 40, seed: 7 });
      const c = generateProblems(family, { split: 'train', count: 40, seed: 8 });
      expect(a).toEqual(b);
      expect(a.map((p) => p.prompt)).not.toEqual(c.map((p) => p.prompt));
      expect(new Set(a.map((p) => p.id)).size).toBe(40);
      expect(new Set(a.map((p) => p.prompt)).size).toBe(40);
    });

    it(`${family}: train and eval are disjoint (no shared prompt or test block)`, () => {
      const trainCount = family === 'synthetic-js' ? 2000 : 300;
      const evalCount = family === 'synthetic-js' ? 300 : 60;
      const train = generateProblems(family, { split: 'train', count: trainCount, seed: 3 });
      const evalSet = generateProblems(family, { split: 'eval', count: evalCount, seed: 3 });
      const trainPrompts = new Set(train.map((p) => p.prompt));
      const trainTests = new Set(train.map((p) => p.tests));
      expect(evalSet.filter((p) => trainPrompts.has(p.prompt))).toEqual([]);
      expect(evalSet.filter((p) => trainTests.has(p.tests))).toEqual([]);
      expect(evalSet.every((p) => p.id.includes('/eval/'))).toBe(true);
    });
  }
});

describe('synthetic-js', () => {
  const train = generateProblems('synthetic-js', { split: 'train', count: 1500, seed: 1 });
  const evalSet = generateProblems('synthetic-js', { split: 'eval', count: 200, seed: 1 });
  const all = [...train, ...evalSet];

  it('has the MultiPL-E shape', () => {
    for (const p of all) {
      expect(p.language).toBe('javascript');
      expect(p.entryPoint).toBe('f');
      expect(p.source).toBe('synthetic-js');
      expect(p.stopTokens).toEqual(['\nfunction ', '\n/*', '\n//', '\nconsole.log']);
      const lines = p.prompt.split('\n');
      expect(lines.at(-1)).toBe('');
      expect(lines.at(-2)).toBe('function f(x) {');
      for (const l of lines.slice(0, -2)) expect(l).toMatch(/^\/\/ f\(.+\) = .+$/);
      expect(p.reference).toMatch(/^ {2}(return |if )[^\n]*(\n {2}return [^\n]*)?\n}$/);
      expect(p.tests.startsWith("const assert = require('node:assert');\n")).toBe(true);
      expect(p.tests).toContain('function test() {\n  let candidate = f;\n');
      expect(p.tests.endsWith('}\n\ntest();\n')).toBe(true);
      expect((p.tests.match(/^ {2}__check\(\(\) => candidate\(.+\), .+\);$/gm) ?? []).length).toBe(5);
      // A reference followed by more generated text is cut back to itself.
      expect(truncateAtStop(`${p.reference}\n\nfunction g(x) {`, p.stopTokens)).toBe(`${p.reference}\n`);
    }
  });

  it('keeps programs short and inside the fixed character set', () => {
    expect(SYNTHETIC_JS_CHARSET.length).toBe(89);
    expect(new Set(SYNTHETIC_JS_CHARSET).size).toBe(89);
    for (const p of all) {
      expect(inSyntheticJsCharset(p.prompt + p.reference!)).toBe(true);
      expect(p.reference!.length).toBeLessThanOrEqual(44);
      expect(p.prompt.length).toBeLessThanOrEqual(160);
      expect(p.reference!.split('\n').length).toBeLessThanOrEqual(3);
    }
    expect(inSyntheticJsCharset('`x`')).toBe(false);
  });

  it('hidden tests use inputs other than the prompt examples', () => {
    for (const p of all) {
      const meta = p.meta as { examples: { input: unknown }[]; testInputs: unknown[] };
      const shown = new Set(meta.examples.map((e) => JSON.stringify(e.input)));
      for (const x of meta.testInputs) expect(shown.has(JSON.stringify(x))).toBe(false);
      expect(new Set(meta.testInputs.map((x) => JSON.stringify(x))).size).toBe(meta.testInputs.length);
    }
  });

  it('every reference passes every assert; degenerate bodies do not', () => {
    for (const p of all) {
      expect(runInProcess(assembleProgram(p, p.reference!))).toEqual({ passed: 5, total: 5, status: 'pass' });
      // Hidden tests have at least two distinct outputs, so no constant body passes them all.
      for (const body of ['  return 0;\n}', '  return [];\n}', '  return "";\n}', '  return x;\n}']) {
        expect(gold(p, body)).toBeLessThan(1);
      }
    }
    expect(runInProcess(assembleProgram(all[0]!, '  return (;\n}')).status).toBe('syntax_error');
  });

  it('counts every case even when an earlier one fails or throws', () => {
    const p = all.find((q) => (q.meta as { kind: string }).kind === 'int')!;
    // Right on every case but the first: 4 of 5 (a MultiPL-E block would stop at 0 of 1).
    const firstInput = (p.meta as { testInputs: number[] }).testInputs[0]!;
    const body = `  if (x === ${firstInput}) return 123456;\n${p.reference!}`;
    expect(runInProcess(assembleProgram(p, body))).toEqual({ passed: 4, total: 5, status: 'fail' });
    const throwing = `  if (x === ${firstInput}) throw new Error('boom');\n${p.reference!}`;
    expect(runInProcess(assembleProgram(p, throwing))).toEqual({ passed: 4, total: 5, status: 'fail' });

    const [plain] = generateProblems('synthetic-js', {
      split: 'train',
      count: 1,
      seed: 1,
      test_style: 'multipl-e',
      kinds: { int: 1, array: 0, string: 0 },
    });
    expect(plain!.tests).toMatch(
      /^const assert = require\('node:assert'\);\nfunction test\(\) {\n {2}let candidate = f;\n( {2}assert\.deepEqual\(candidate\(-?\d+\), -?\d+\);\n){5}}\n\ntest\(\);\n$/,
    );
    expect(runInProcess(assembleProgram(plain!, plain!.reference!))).toEqual({ passed: 5, total: 5, status: 'pass' });
    expect(runInProcess(assembleProgram(plain!, '  return 123456;\n}'))).toEqual({ passed: 0, total: 1, status: 'fail' });
  });

  it('gives partial credit: other functions of the same kind score strictly between 0 and 1 often', () => {
    const rng = new Rng(9);
    const byKind = new Map<string, string[]>();
    for (const p of train) {
      const kind = (p.meta as { kind: string }).kind;
      byKind.set(kind, [...(byKind.get(kind) ?? []), p.reference!]);
    }
    let partial = 0;
    let sum = 0;
    let n = 0;
    for (const p of evalSet) {
      for (let i = 0; i < 10; i++) {
        const g = gold(p, rng.pick(byKind.get((p.meta as { kind: string }).kind)!));
        if (g > 0 && g < 1) partial++;
        sum += g;
        n++;
      }
    }
    expect(partial / n).toBeGreaterThan(0.08);
    // Guessing from the prior alone must stay well below solving.
    expect(sum / n).toBeLessThan(0.3);
  });

  it('follows the kind weights and the difficulty knobs', () => {
    const kinds = { int: 0, array: 0, string: 0 } as Record<string, number>;
    for (const p of train) kinds[(p.meta as { kind: string }).kind]!++;
    expect(Math.abs(kinds.int! / train.length - 0.5)).toBeLessThan(0.05);
    expect(Math.abs(kinds.array! / train.length - 0.3)).toBeLessThan(0.05);
    expect(Math.abs(kinds.string! / train.length - 0.2)).toBeLessThan(0.05);

    const ints = generateProblems('synthetic-js', {
      split: 'train',
      count: 200,
      seed: 2,
      kinds: { int: 1, array: 0, string: 0 },
      max_ops: 1,
      examples: 4,
      tests: 7,
      int_ops: ['add', 'mul'],
      const_max: 3,
    });
    for (const p of ints) {
      const meta = p.meta as { kind: string; nOps: number; ops: string[] };
      expect(meta.kind).toBe('int');
      expect(meta.nOps).toBe(1);
      expect(['add', 'mul']).toContain(meta.ops[0]);
      expect(p.reference).toMatch(/^ {2}return x [+*] [1-3];\n}$/);
      expect(p.prompt.split('\n').length).toBe(6); // 4 examples + signature + trailing ''
      expect(p.prompt.startsWith('// f(0) = ')).toBe(true); // anchor inputs 0, 1 come first
      expect(runInProcess(assembleProgram(p, p.reference!))).toEqual({ passed: 7, total: 7, status: 'pass' });
    }

    const hard = generateProblems('synthetic-js', {
      split: 'train',
      count: 200,
      seed: 2,
      min_ops: 3,
      max_ops: 3,
      max_body_chars: 80,
    });
    const meanOps = hard.reduce((s, p) => s + (p.meta as { nOps: number }).nOps, 0) / hard.length;
    expect(meanOps).toBeGreaterThan(2.9);
  });

  it('function holdout keeps eval functions out of train', () => {
    const knobs = { holdout: 'function' as const };
    const tr = generateProblems('synthetic-js', { split: 'train', count: 1000, seed: 4, ...knobs });
    const ev = generateProblems('synthetic-js', { split: 'eval', count: 100, seed: 4, ...knobs });
    // `x.slice(1)` is both an array and a string function: functions are (kind, body).
    const key = (p: Problem): string => `${(p.meta as { kind: string }).kind}|${p.reference}`;
    const trainFns = new Set(tr.map(key));
    expect(ev.filter((p) => trainFns.has(key(p)))).toEqual([]);
    // The prompt holdout (default) does let functions recur across the split.
    const trP = generateProblems('synthetic-js', { split: 'train', count: 1000, seed: 4 });
    const evP = generateProblems('synthetic-js', { split: 'eval', count: 100, seed: 4 });
    const trainFnsP = new Set(trP.map(key));
    expect(evP.filter((p) => trainFnsP.has(key(p))).length).toBeGreaterThan(10);
  });

  it('parses knobs strictly with defaults', () => {
    const k = syntheticJsSchema.parse({});
    expect(k).toMatchObject({ min_ops: 1, max_ops: 2, examples: 3, tests: 5, holdout: 'prompt', max_body_chars: 44 });
    expect(syntheticJsSchema.safeParse({ kinds: { int: 1, bool: 1 } }).success).toBe(false);
    expect(syntheticJsSchema.safeParse({ kinds: { int: 0, array: 0, string: 0 } }).success).toBe(false);
  });
});

describe('in-process grader (test helper)', () => {
  it('compares like node assert.deepEqual (legacy loose mode)', () => {
    const pairs: [unknown, unknown][] = [
      [1, 1],
      [1, '1'],
      [0, -0],
      [null, undefined],
      [null, 0],
      [
        [1, 2],
        [1, 2],
      ],
      [
        [1, 2],
        [2, 1],
      ],
      [
        [1, [2]],
        [1, [2]],
      ],
      ['ab', 'ab'],
      ['ab', 'AB'],
      [[], []],
      [[], ''],
      [NaN, NaN],
      [[1], 1],
      [{ a: 1 }, { a: '1' }],
    ];
    for (const [a, b] of pairs) {
      let node = true;
      try {
        nodeAssert.deepEqual(a, b);
      } catch {
        node = false;
      }
      expect(looseDeepEqual(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(node);
    }
  });
});

describe('task config section', () => {
  it('defaults to synthetic-js 2000/200 and generates disjoint splits', () => {
    const cfg = taskFamilyConfigSchema.parse({ train: 50, eval: 10 });
    expect(cfg).toEqual({ family: 'synthetic-js', split_seed: 1, train: 50, eval: 10, options: {} });
    const { train, eval: ev } = problemsFromTaskConfig(cfg);
    expect(train.length).toBe(50);
    expect(ev.length).toBe(10);
    expect(train[0]).toEqual(generateProblems('synthetic-js', { split: 'train', count: 50, seed: 1 })[0]);
    const prompts = new Set(train.map((p) => p.prompt));
    expect(ev.some((p) => prompts.has(p.prompt))).toBe(false);
  });

  it('reports unknown families, unknown keys and bad knobs with paths', () => {
    const r1 = taskFamilyConfigSchema.safeParse({ family: 'nope' });
    expect(r1.success).toBe(false);
    expect(r1.error!.issues[0]!.path).toEqual(['family']);
    expect(taskFamilyConfigSchema.safeParse({ famly: 'dsl6' }).success).toBe(false);
    const r3 = taskFamilyConfigSchema.safeParse({ family: 'synthetic-js', options: { max_ops: 0 } });
    expect(r3.success).toBe(false);
    expect(r3.error!.issues[0]!.path).toEqual(['options', 'max_ops']);
    expect(taskFamilyConfigSchema.safeParse({ family: 'dsl6', options: { eval_fraction: 0.3 } }).success).toBe(true);
  });
});
