import { describe, expect, it } from 'vitest';
import { migrateTrainerState, type TrainerStateV1 } from '../../src/train/arm-trainer.ts';
import type { SettlementState } from '../../src/train/settlement-window.ts';

const fresh: SettlementState = {
  rng: [1, 2, 3, 4],
  window: [],
  rate: 0.1,
  rmWeight: 1,
  refits: 0,
  instantCarry: 0,
  baseMean: 0.25,
  windowD: [],
  gao: { base: 0.25, points: [] },
  gaoReading: { fired: null, dStar: null },
  alarm: { raised: false, quiet: 0 },
};

/** A checkpoint from before instant settlement, the early warning and the thermostat's alarm existed. */
const oldest = {
  step: 2,
  data: {},
  sampleRng: [1, 1, 1, 1],
  settleRng: [2, 2, 2, 2],
  window: [],
  budget: 0,
  goldBudget: 0,
  settleRate: 0.1,
  rmWeight: 1,
  refits: 0,
} as unknown as TrainerStateV1;

describe('trainer checkpoint state', () => {
  it('reads a version-1 (flat) checkpoint into the settlement window’s one object', () => {
    const claim = { step: 3, index: 1, problem: 7, text: 'x', proxy: 0.5, gold: null, label: 1 };
    const v1: TrainerStateV1 = {
      step: 4,
      data: { epoch: 0, pos: 8, perm: [0, 1] } as unknown as TrainerStateV1['data'],
      sampleRng: [5, 6, 7, 8],
      settleRng: [9, 10, 11, 12],
      window: [claim],
      budget: 30,
      goldBudget: 120,
      settleRate: 0.2,
      rmWeight: 0,
      refits: 2,
      sndRecent: [0.5, null],
      instantCarry: 0.4,
      baseMean: 0.3,
      windowD: [0.01],
      gao: { base: 0.3, points: [[0.1, 0.2]] },
      gaoReading: { fired: false, dStar: null },
      alarm: { raised: true, quiet: 1 },
    };
    const s = migrateTrainerState(v1, fresh);
    expect(s).toMatchObject({ version: 2, step: 4, budget: 30, goldBudget: 120, sndRecent: [0.5, null] });
    expect(s.settlement).toEqual({
      rng: [9, 10, 11, 12],
      window: [claim],
      rate: 0.2,
      rmWeight: 0,
      refits: 2,
      instantCarry: 0.4,
      baseMean: 0.3,
      windowD: [0.01],
      gao: { base: 0.3, points: [[0.1, 0.2]] },
      gaoReading: { fired: false, dStar: null },
      alarm: { raised: true, quiet: 1 },
    });
    expect(s).not.toHaveProperty('gate');
  });

  it('fields older checkpoints lack take a fresh start’s values (the early warning based on the base mean)', () => {
    const s = migrateTrainerState(oldest, fresh);
    expect(s.sndRecent).toEqual([]);
    expect(s.settlement).toMatchObject({ instantCarry: 0, baseMean: 0.25, windowD: [], gao: { base: 0.25, points: [] } });
    expect(s.settlement.alarm).toEqual({ raised: false, quiet: 0 });
  });

  it('a version-2 state passes through unchanged', () => {
    const v2 = migrateTrainerState(oldest, fresh);
    expect(migrateTrainerState(v2, fresh)).toBe(v2);
  });
});
