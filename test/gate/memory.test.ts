import { describe, expect, it } from 'vitest';
import { defaultGateConfig } from '../../src/gate/config.ts';
import { SalienceMemory } from '../../src/gate/memory.ts';

const opts = defaultGateConfig().memory;
const routine = (round: number) => ({ round, decision: 'AUTHORIZE', surprise: false, severity: 0, modes: [], failure: false });
const failure = (round: number, severity = 0.7, surprise = false) => ({
  round,
  decision: surprise ? 'AUTHORIZE' : 'MODIFY',
  surprise,
  severity,
  modes: [`m${round}`],
  failure: true,
});

describe('salience-gated memory', () => {
  it('salience grows with surprise and severity', () => {
    const m = new SalienceMemory(opts);
    expect(m.salienceOf({ surprise: false, severity: 0 })).toBeCloseTo(opts.base);
    expect(m.salienceOf({ surprise: false, severity: 0.5 })).toBeCloseTo(opts.base + 0.5 * opts.severity_weight);
    expect(m.salienceOf({ surprise: true, severity: 0.5 })).toBeCloseTo(
      opts.base + opts.surprise_weight + 0.5 * opts.severity_weight,
    );
  });

  it('routine episodes decay and are forgotten; salient ones are retained', () => {
    const m = new SalienceMemory(opts);
    m.add(failure(0, 0.7, true));
    m.add(failure(1, 0.6));
    m.add(routine(2));
    expect(m.size).toBe(3);
    // base 0.02 × 0.9^k < floor 0.01 after 7 rounds.
    for (let i = 0; i < 7; i++) m.tick();
    expect(m.retained().map((e) => e.round)).toEqual([0, 1]);
    const s = m.retained()[0]!.salience;
    expect(s).toBeCloseTo((opts.base + opts.surprise_weight + 0.7) * opts.consolidated_decay ** 7, 10);
  });

  it('stays bounded, evicting the least salient first', () => {
    const m = new SalienceMemory({ ...opts, capacity: 5 });
    for (let r = 0; r < 5; r++) m.add(routine(r));
    m.add(failure(5));
    m.add(failure(6, 0.9, true));
    expect(m.size).toBe(5);
    const kinds = m.retained().map((e) => e.failure);
    expect(kinds.filter(Boolean)).toHaveLength(2);
    // The oldest routine episodes went first.
    expect(
      m
        .retained()
        .filter((e) => !e.failure)
        .map((e) => e.round),
    ).toEqual([2, 3, 4]);
  });

  it('does not fill with uneventful rounds: a mostly-routine stream leaves failure-derived memory', () => {
    const m = new SalienceMemory({ ...opts, capacity: 64 });
    for (let r = 0; r < 5000; r++) {
      m.add(r % 20 === 0 ? failure(r, 0.6, r % 100 === 0) : routine(r));
      m.tick();
    }
    // 5% of the offered episodes are failures. Routine ones (salience 0.02, decay 0.9) last ~7
    // rounds, so ~7 are held at any time; a failure (0.62, consolidated, decay 0.999) stays above
    // the consolidation threshold for ~215 rounds, then fades in ~37, so ~12 are held: ~80% of
    // what is retained is failure-derived against 5% of what was offered.
    expect(m.offered.routine).toBeGreaterThan(10 * m.offered.failure);
    expect(m.retention().failureShare).toBeGreaterThan(0.75);
    expect(m.retention().failure).toBeGreaterThan(m.retention().routine);
    expect(m.size).toBeLessThanOrEqual(64);
  });

  it('round-trips through JSON', () => {
    const m = new SalienceMemory(opts);
    m.add(failure(0));
    m.add(routine(1));
    m.tick();
    const back = SalienceMemory.fromJSON(JSON.parse(JSON.stringify(m.toJSON())));
    expect(back.toJSON()).toEqual(m.toJSON());
  });
});
