import { describe, expect, it } from 'vitest';
import { dsl6, getWorld, richdsl, type DslTask } from '../../src/tasks/index.ts';
import { AnchorError } from '../../src/util/errors.ts';
import { Rng } from '../../src/util/rng.ts';

describe('DSL-6 semantics', () => {
  it('applies each operation to the register', () => {
    expect(dsl6.run('A', 5)).toBe(6);
    expect(dsl6.run('S', 5)).toBe(4);
    expect(dsl6.run('D', -3)).toBe(-6);
    expect(dsl6.run('T', 4)).toBe(12);
    expect(dsl6.run('N', 4)).toBe(-4);
    expect(dsl6.run('Q', -3)).toBe(9);
    // Left to right: ((2 + 1) * 2)^2 - 1 = 35
    expect(dsl6.run('ADQS', 2)).toBe(35);
  });

  it('never produces negative zero', () => {
    expect(Object.is(dsl6.run('N', 0), 0)).toBe(true);
    expect(Object.is(dsl6.run('SN', 1), 0)).toBe(true);
  });

  it('aborts when |v| exceeds 10^6 after any operation', () => {
    expect(dsl6.run('A', 999_999)).toBe(1_000_000); // exactly the limit is allowed
    expect(dsl6.run('A', 1_000_000)).toBeNull();
    expect(dsl6.run('S', -1_000_000)).toBeNull();
    expect(dsl6.run('QQQ', 4)).toBe(65_536);
    expect(dsl6.run('QQQQ', 4)).toBeNull(); // 4^16
    expect(dsl6.run('QQQQ', -3)).toBeNull(); // 3^16 = 43046721
    // Sticky: the overflowing intermediate is not rescued by later operations.
    expect(dsl6.run('QQQQNQ', 4)).toBeNull();
  });

  it('treats non-programs as invalid on every input', () => {
    expect(dsl6.run('', 1)).toBeNull();
    expect(dsl6.run('AAAAAAA', 1)).toBeNull(); // 7 tokens > max length 6
    expect(dsl6.run('AAAAAA', 1)).toBe(7);
    expect(dsl6.run('H', 1)).toBeNull(); // a RichDSL token, not a DSL-6 one
    expect(dsl6.run('a', 1)).toBeNull();
    expect(dsl6.isProgram('ASDTNQ')).toBe(true);
    expect(dsl6.isProgram('ASDTNQA')).toBe(false);
  });

  it('has the inputs, limits and lengths of the spec', () => {
    expect(dsl6.tokens).toEqual(['A', 'S', 'D', 'T', 'N', 'Q']);
    expect(dsl6.inputs).toEqual([-3, -2, -1, 0, 1, 2, 3, 4]);
    expect(dsl6.limit).toBe(1e6);
    expect(dsl6.targetLength).toBe(4);
    expect(dsl6.maxLength).toBe(6);
  });
});

describe('RichDSL semantics', () => {
  it('shares the DSL-6 operations', () => {
    for (const p of ['A', 'S', 'D', 'T', 'N', 'Q', 'ADQS']) {
      for (const x of [-8, -1, 0, 3, 7]) expect(richdsl.run(p, x)).toBe(dsl6.run(p, x));
    }
  });

  it('H is division by 2 truncating toward zero', () => {
    expect(richdsl.run('H', 7)).toBe(3);
    expect(richdsl.run('H', -7)).toBe(-3); // floor division would give -4
    expect(richdsl.run('H', -3)).toBe(-1);
    expect(richdsl.run('H', 6)).toBe(3);
    expect(Object.is(richdsl.run('H', -1), 0)).toBe(true);
    expect(Object.is(richdsl.run('H', 1), 0)).toBe(true);
  });

  it('M is Python floor modulo 7 (result in 0..6)', () => {
    expect(richdsl.run('M', 13)).toBe(6);
    expect(richdsl.run('M', 7)).toBe(0);
    expect(richdsl.run('M', -1)).toBe(6); // JavaScript's % would give -1
    expect(richdsl.run('M', -8)).toBe(6);
    expect(richdsl.run('M', -13)).toBe(1);
    expect(Object.is(richdsl.run('M', -7), 0)).toBe(true);
    expect(Object.is(richdsl.run('M', -14), 0)).toBe(true);
  });

  it('P adds the original input, G clamps at zero', () => {
    expect(richdsl.run('DP', 3)).toBe(9); // 3*2 + 3
    expect(richdsl.run('PP', -2)).toBe(-6);
    expect(richdsl.run('QP', -3)).toBe(6); // 9 + (-3)
    expect(richdsl.run('G', -5)).toBe(0);
    expect(richdsl.run('G', 4)).toBe(4);
    expect(richdsl.run('NG', 5)).toBe(0);
  });

  it('|v| > 10^9 after any operation is invalid, even if later operations shrink it', () => {
    expect(richdsl.run('Q', 31_622)).toBe(999_950_884);
    expect(richdsl.run('Q', 31_623)).toBeNull(); // 1,000,014,129
    expect(richdsl.run('A', 999_999_999)).toBe(1e9);
    expect(richdsl.run('A', 1e9)).toBeNull();
    expect(richdsl.run('QM', 40_000)).toBeNull();
    expect(richdsl.run('QH', 40_000)).toBeNull();
    expect(richdsl.run('QQQQQQQQQQ', 7)).toBeNull();
  });

  it('has the inputs, limits and lengths of the spec', () => {
    expect(richdsl.tokens).toEqual(['A', 'S', 'D', 'T', 'H', 'N', 'Q', 'P', 'M', 'G']);
    expect(richdsl.inputs).toEqual(Array.from({ length: 16 }, (_, i) => i - 8));
    expect(richdsl.limit).toBe(1e9);
    expect(richdsl.targetLength).toBe(6);
    expect(richdsl.maxLength).toBe(10);
    expect(richdsl.run('AAAAAAAAAA', 0)).toBe(10);
    expect(richdsl.run('AAAAAAAAAAA', 0)).toBeNull();
  });

  it('getWorld resolves names and rejects unknown ones', () => {
    expect(getWorld('dsl6')).toBe(dsl6);
    expect(getWorld('richdsl')).toBe(richdsl);
    expect(() => getWorld('dsl7')).toThrow(AnchorError);
  });
});

describe('gold', () => {
  // Target x^2 + 1 on -3..4: [10, 5, 2, 1, 2, 5, 10, 17].
  const task: DslTask = {
    id: 't',
    world: 'dsl6',
    target: 'QA',
    inputs: dsl6.inputs,
    outputs: [10, 5, 2, 1, 2, 5, 10, 17],
  };

  it('is the fraction of I/O pairs matched', () => {
    expect(dsl6.outputs('QA')).toEqual(task.outputs);
    expect(dsl6.evaluate('QA', task)).toBe(1);
    expect(dsl6.evaluate('NQA', task)).toBe(1); // a different program with the same behaviour
    // x + 1 matches at x = 0 (1) and x = 1 (2) only.
    expect(dsl6.evaluate('A', task)).toBe(2 / 8);
    expect(dsl6.evaluate('Q', task)).toBe(0);
  });

  it('counts invalid outputs as mismatches and non-programs as 0', () => {
    // QQQQ = x^16: 3^16 and 4^16 exceed 10^6, 2^16 = 65536 does not; none match x^2 + 1.
    expect(dsl6.outputs('QQQQ')).toEqual([null, 65536, 1, 0, 1, 65536, null, null]);
    expect(dsl6.evaluate('QQQQ', task)).toBe(0);
    // QQQQA = x^16 + 1: right at x = -1, 0, 1, wrong at +-2, invalid at -3, 3, 4.
    expect(dsl6.outputs('QQQQA')).toEqual([null, 65537, 2, 1, 2, 65537, null, null]);
    expect(dsl6.evaluate('QQQQA', task)).toBe(3 / 8);
    expect(dsl6.evaluate('', task)).toBe(0);
    expect(dsl6.evaluate('QAX', task)).toBe(0);
  });
});

describe('task sampling', () => {
  it('DSL-6 tasks: length-4 targets, all outputs defined, more than two distinct values (1,000 tasks)', () => {
    const rng = new Rng(11);
    const targets = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const t = dsl6.sampleTask(rng);
      expect(t.target).toMatch(/^[ASDTNQ]{4}$/);
      expect(t.inputs).toEqual(dsl6.inputs);
      expect(t.outputs).toEqual(dsl6.outputs(t.target));
      expect(t.outputs.every((o) => typeof o === 'number' && Math.abs(o) <= 1e6)).toBe(true);
      expect(new Set(t.outputs).size).toBeGreaterThan(2);
      targets.add(t.target);
    }
    expect(targets.size).toBeGreaterThan(400); // draws are spread over the 6^4 = 1296 programs
  });

  it('RichDSL tasks: length-6 targets, valid on all inputs, more than three distinct outputs (1,000 tasks)', () => {
    const rng = new Rng(12);
    for (let i = 0; i < 1000; i++) {
      const t = richdsl.sampleTask(rng);
      expect(t.target).toMatch(/^[ASDTHNQPMG]{6}$/);
      expect(t.outputs).toEqual(richdsl.outputs(t.target));
      expect(t.outputs.every((o) => typeof o === 'number' && Math.abs(o) <= 1e9)).toBe(true);
      expect(new Set(t.outputs).size).toBeGreaterThan(3);
    }
  });

  it('rejects targets that break the constraints (checked against exhaustive enumeration)', () => {
    // Every DSL-6 length-4 program that satisfies the constraints must be reachable, and no other.
    const ok = new Set<string>();
    const all = (n: number): string[] => (n === 0 ? [''] : all(n - 1).flatMap((p) => dsl6.tokens.map((t) => p + t)));
    for (const p of all(4)) {
      const outs = dsl6.outputs(p);
      if (outs.every((o) => o !== null) && new Set(outs).size > 2) ok.add(p);
    }
    expect(ok.size).toBeGreaterThan(0);
    expect(ok.size).toBeLessThan(1296);
    const rng = new Rng(13);
    for (let i = 0; i < 2000; i++) expect(ok.has(dsl6.sampleTask(rng).target)).toBe(true);
  });

  it('is deterministic for a seed', () => {
    const a = Array.from(
      { length: 20 },
      (
        (r) => () =>
          richdsl.sampleTask(r).target
      )(new Rng(5)),
    );
    const b = Array.from(
      { length: 20 },
      (
        (r) => () =>
          richdsl.sampleTask(r).target
      )(new Rng(5)),
    );
    const c = Array.from(
      { length: 20 },
      (
        (r) => () =>
          richdsl.sampleTask(r).target
      )(new Rng(6)),
    );
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });
});

describe('random candidate programs', () => {
  for (const world of [dsl6, richdsl]) {
    it(`${world.name}: lengths uniform in 1..${world.maxLength}, tokens uniform`, () => {
      const rng = new Rng(21);
      const n = 20_000;
      const lengthCounts = new Array<number>(world.maxLength + 1).fill(0);
      const tokenCounts = new Map<string, number>();
      let tokensTotal = 0;
      for (let i = 0; i < n; i++) {
        const p = world.randomProgram(rng);
        expect(world.isProgram(p)).toBe(true);
        lengthCounts[p.length]!++;
        for (const ch of p) {
          tokenCounts.set(ch, (tokenCounts.get(ch) ?? 0) + 1);
          tokensTotal++;
        }
      }
      expect(lengthCounts[0]).toBe(0);
      for (let L = 1; L <= world.maxLength; L++) {
        expect(Math.abs(lengthCounts[L]! / n - 1 / world.maxLength)).toBeLessThan(0.015);
      }
      expect([...tokenCounts.keys()].sort()).toEqual([...world.tokens].sort());
      for (const c of tokenCounts.values()) expect(Math.abs(c / tokensTotal - 1 / world.tokens.length)).toBeLessThan(0.01);
    });
  }
});
