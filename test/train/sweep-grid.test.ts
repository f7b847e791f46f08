/**
 * The sweep's grid: `--grid` parsing and typing, rejected keys, cell names and the inline arms
 * they become, `--reference`, and the plan (every seed's run config) built before anything runs.
 */
import { describe, expect, it } from 'vitest';
import { resolveArms } from '../../src/train/arms.ts';
import { armMajor, planSweep } from '../../src/train/sweep.ts';
import {
  cellArm,
  gridCells,
  parseGrid,
  parseReferences,
  splitValues,
  valueLabel,
  type GridAxis,
} from '../../src/train/sweep-grid.ts';
import { errorOf } from '../helpers/errors.ts';

describe('--grid parsing', () => {
  it('types values like --set: numbers, enum strings, booleans, flow collections', () => {
    const axes = parseGrid([
      'settlement.rate=0,0.025,0.05,0.1,0.2',
      'settlement.strategy=random,top-proxy',
      'settlement.adaptive.enabled=true,false',
      'grpo.clip={low: 0.2, high: 0.28},{low: 0.1, high: 0.1}',
    ]);
    expect(axes.map((a) => a.key)).toEqual([
      'settlement.rate',
      'settlement.strategy',
      'settlement.adaptive.enabled',
      'grpo.clip',
    ]);
    expect(axes[0]!.values).toEqual([0, 0.025, 0.05, 0.1, 0.2]);
    expect(axes[1]!.values).toEqual(['random', 'top-proxy']);
    expect(axes[2]!.values).toEqual([true, false]);
    expect(axes[3]!.values).toEqual([
      { low: 0.2, high: 0.28 },
      { low: 0.1, high: 0.1 },
    ]);
    expect(axes.map((a) => a.label)).toEqual(['rate', 'strategy', 'enabled', 'clip']);
  });

  it('splits at commas outside brackets and quotes', () => {
    expect(splitValues('a, b,[1, 2],{x: 1, y: "p,q"},\'r,s\'')).toEqual(['a', 'b', '[1, 2]', '{x: 1, y: "p,q"}', "'r,s'"]);
  });

  it('rejects keys outside grpo, settlement, proxy, gate, eval, naming the key', () => {
    for (const key of [
      'task.train',
      'policy.model.layers',
      'reward_model.initial_samples',
      'seed',
      'arms',
      'name',
      'concurrency',
      'sandbox.workers',
    ]) {
      const e = errorOf(() => parseGrid([`${key}=1,2`]));
      expect(e.code, key).toBe('BAD_ARGUMENT');
      expect(e.message, key).toContain(`--grid ${key}:`);
      expect(e.message, key).toMatch(/sections grpo, settlement, proxy, gate, eval/);
    }
  });

  it("rejects unknown keys (listing the section's keys), bare sections, bad syntax, empty and repeated values", () => {
    const unknown = errorOf(() => parseGrid(['settlement.bogus=1,2']));
    expect(unknown.message).toMatch(/--grid settlement\.bogus: unknown key; settlement has: every, rate, strategy/);
    expect(errorOf(() => parseGrid(['settlement=1'])).message).toMatch(
      /give a key inside the section, e\.g\. --grid settlement\.every=/,
    );
    expect(errorOf(() => parseGrid(['settlement.rate'])).message).toMatch(/expected KEY\.PATH=V1,V2/);
    expect(errorOf(() => parseGrid(['settlement.rate=0.1,,0.2'])).message).toMatch(/empty value/);
    expect(errorOf(() => parseGrid(['settlement.rate=0.1,0.10'])).message).toMatch(/value 0\.1 given twice/);
    expect(errorOf(() => parseGrid(['settlement.rate=0.1', 'settlement.rate=0.2'])).message).toMatch(
      /given twice; list all its values in one --grid/,
    );
    expect(errorOf(() => parseGrid(['settlement.adaptive={enabled: true}', 'settlement.adaptive.tau=0.1'])).message).toMatch(
      /overlap/,
    );
    expect(errorOf(() => parseGrid(['grpo.clip={low: 0.2'])).message).toMatch(/--grid grpo\.clip=\{low: 0\.2: cannot read value/);
  });

  it('no axes: no cells (a sweep of the reference arms alone)', () => {
    expect(parseGrid([])).toEqual([]);
    expect(gridCells([])).toEqual([]);
  });
});

describe('cells', () => {
  it('are the cartesian product, first axis outermost, with readable deterministic names', () => {
    const cells = gridCells(parseGrid(['settlement.rate=0,0.1', 'settlement.strategy=random,top-proxy']));
    expect(cells.map((c) => c.name)).toEqual([
      'rate-0_strategy-random',
      'rate-0_strategy-top-proxy',
      'rate-0.1_strategy-random',
      'rate-0.1_strategy-top-proxy',
    ]);
    expect(cells[3]!.values).toEqual({ 'settlement.rate': 0.1, 'settlement.strategy': 'top-proxy' });
    for (const c of cells) expect(c.name).toMatch(/^[\w.-]+$/);
  });

  it('use the whole key where the last segments collide, and flatten collections', () => {
    const cells = gridCells(parseGrid(['settlement.every=5', 'eval.every=0,10', 'grpo.clip={low: 0.2, high: 0.28}']));
    expect(cells.map((c) => c.name)).toEqual([
      'settlement.every-5_eval.every-0_clip-low-0.2-high-0.28',
      'settlement.every-5_eval.every-10_clip-low-0.2-high-0.28',
    ]);
    expect(valueLabel(1e21)).toBe('1e21');
    expect(valueLabel(-0.5)).toBe('-0.5');
  });

  it('two values that would share a name are an error', () => {
    const axis: GridAxis = { key: 'x.y', path: ['x', 'y'], values: ['a b', 'a-b'], label: 'y' };
    expect(errorOf(() => gridCells([axis])).message).toMatch(/would both be named y-a-b/);
  });

  it('become inline arms extending the base arm with a nested overlay', () => {
    const [cell] = gridCells(parseGrid(['settlement.rate=0.2', 'settlement.strategy=top-proxy', 'grpo.beta=0']));
    const def = cellArm(cell!, 'anchored');
    expect(def).toMatchObject({
      name: 'rate-0.2_strategy-top-proxy_beta-0',
      extends: 'anchored',
      overlay: { settlement: { rate: 0.2, strategy: 'top-proxy' }, grpo: { beta: 0 } },
    });
    const [frozen, arm] = resolveArms(['frozen', def as never]);
    expect(frozen!.name).toBe('frozen');
    expect(arm).toMatchObject({
      reward: 'rm',
      labels: 'execution',
      overlay: { settlement: { rate: 0.2, strategy: 'top-proxy' }, grpo: { beta: 0 } },
    });
  });
});

describe('--reference', () => {
  it('takes registry arms or none', () => {
    expect(parseReferences('frozen,execution')).toEqual(['frozen', 'execution']);
    expect(parseReferences('none')).toEqual([]);
    expect(errorOf(() => parseReferences('frozen,bogus')).message).toMatch(/--reference "bogus": not a built-in arm/);
    expect(errorOf(() => parseReferences('frozen,frozen')).message).toMatch(/frozen listed twice/);
    expect(errorOf(() => parseReferences('frozen,')).message).toMatch(/expected ARM,ARM/);
  });
});

describe('planSweep', () => {
  const base = { configPath: 'configs/smoke.yaml', grids: ['settlement.rate=0.25,0.5', 'settlement.strategy=random,top-proxy'] };

  it('builds one run config per seed: references + cells, seeds counted from config.seed', () => {
    const plan = planSweep({ ...base, sets: ['seed=4'], seeds: 2, references: 'frozen', out: '/tmp/x-sweep' });
    expect(plan.out).toBe('/tmp/x-sweep');
    expect(plan.runs.map((r) => [r.seed, r.dir, r.config.name, r.config.seed])).toEqual([
      [4, '/tmp/x-sweep/seed-4', 'smoke-seed4', 4],
      [5, '/tmp/x-sweep/seed-5', 'smoke-seed5', 5],
    ]);
    const arms = resolveArms(plan.runs[0]!.config.arms);
    expect(arms.map((a) => a.name)).toEqual([
      'frozen',
      'rate-0.25_strategy-random',
      'rate-0.25_strategy-top-proxy',
      'rate-0.5_strategy-random',
      'rate-0.5_strategy-top-proxy',
    ]);
    expect(arms[4]!.overlay).toEqual({ settlement: { rate: 0.5, strategy: 'top-proxy' } });
    expect(plan.record).toMatchObject({
      name: 'smoke',
      seeds: [4, 5],
      armBase: 'anchored',
      references: ['frozen'],
      grid: [
        { key: 'settlement.rate', values: [0.25, 0.5] },
        { key: 'settlement.strategy', values: ['random', 'top-proxy'] },
      ],
    });
    expect(plan.record.cells['rate-0.5_strategy-random']).toEqual({ 'settlement.rate': 0.5, 'settlement.strategy': 'random' });
    // The base config is recorded as resolved (file + --set + defaults), arms as the file gave them.
    expect((plan.record.config as { seed: number }).seed).toBe(4);
  });

  it('defaults: runs/<name>-sweep, 3 seeds, anchored cells, frozen + execution references', () => {
    const plan = planSweep({ configPath: 'configs/smoke.yaml', grids: ['settlement.rate=0.1'] });
    expect(plan.out).toMatch(/\/runs\/smoke-sweep$/);
    expect(plan.runs.map((r) => r.seed)).toEqual([0, 1, 2]);
    expect(resolveArms(plan.runs[0]!.config.arms).map((a) => a.name)).toEqual(['frozen', 'execution', 'rate-0.1']);
  });

  it('without --grid it trains the reference arms alone; with neither it is an error', () => {
    const plan = planSweep({
      configPath: 'configs/smoke.yaml',
      grids: [],
      seeds: 3,
      references: 'frozen,anchored,execution,settled-gao',
      out: '/tmp/x-sweep',
    });
    expect(plan.runs.map((r) => r.seed)).toEqual([0, 1, 2]);
    for (const r of plan.runs)
      expect(resolveArms(r.config.arms).map((a) => a.name)).toEqual(['frozen', 'anchored', 'execution', 'settled-gao']);
    expect(plan.record.cells).toEqual({});
    expect(plan.record.grid).toEqual([]);
    const e = errorOf(() => planSweep({ configPath: 'configs/smoke.yaml', grids: [], references: 'none' }));
    expect(e.code).toBe('BAD_ARGUMENT');
    expect(e.message).toMatch(/nothing to train: give at least one --grid/);
  });

  it('queues arm by arm: every seed of an arm before the next arm; done pairs are skipped', () => {
    // Seed 0 has finished frozen; seed 2 has finished frozen and anchored.
    const order = armMajor(
      ['frozen', 'execution', 'anchored'],
      [
        { item: 0, arms: ['execution', 'anchored'] },
        { item: 1, arms: ['frozen', 'execution', 'anchored'] },
        { item: 2, arms: ['execution'] },
      ],
    );
    expect(order.map((o) => `${o.arm}/${o.item}`)).toEqual([
      'frozen/1',
      'execution/0',
      'execution/1',
      'execution/2',
      'anchored/0',
      'anchored/1',
    ]);
  });

  it('a grid value out of range is a config error naming the key, the value and the cell', () => {
    const e = errorOf(() => planSweep({ configPath: 'configs/smoke.yaml', grids: ['settlement.rate=0.1,2'] }));
    expect(e.code).toBe('BAD_CONFIG');
    expect(e.message).toContain('--grid cell rate-2');
    expect(e.message).toContain('settlement.rate: got 2, expected at most 1');
    const s = errorOf(() => planSweep({ configPath: 'configs/smoke.yaml', grids: ['settlement.strategy=random,best'] }));
    expect(s.message).toMatch(/settlement\.strategy: got "best", expected one of "random", "top-proxy"/);
  });

  it('--seeds: a count from config.seed, an explicit list, or a range', () => {
    expect(planSweep({ ...base, sets: ['seed=4'], seeds: '2' }).record.seeds).toEqual([4, 5]);
    expect(planSweep({ ...base, seeds: '7,3,11' }).record.seeds).toEqual([7, 3, 11]);
    expect(planSweep({ ...base, seeds: [2] }).runs.map((r) => r.seed)).toEqual([2]);
    expect(planSweep({ ...base, seeds: '10..13' }).runs.map((r) => r.dir.split('/').at(-1))).toEqual([
      'seed-10',
      'seed-11',
      'seed-12',
      'seed-13',
    ]);
    expect(errorOf(() => planSweep({ ...base, seeds: '1,1' })).message).toMatch(/a seed is repeated/);
    expect(errorOf(() => planSweep({ ...base, seeds: '5..2' })).message).toMatch(/the range is empty/);
    expect(errorOf(() => planSweep({ ...base, seeds: '1,x' })).message).toMatch(/not a list of non-negative integers/);
  });

  it('rejects bad --seeds and --arm', () => {
    expect(errorOf(() => planSweep({ ...base, seeds: 0 })).message).toMatch(/--seeds must be a positive integer, got 0/);
    expect(errorOf(() => planSweep({ ...base, arm: 'nope' })).message).toMatch(/--arm "nope": not a built-in arm/);
  });
});
