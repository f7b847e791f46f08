import { describe, expect, it } from 'vitest';
import { type AlarmState, nextAlarm } from '../../src/train/early-warning.ts';

/** The raised flag after each refit of a sequence of readings (true = the signal fired). */
function raisedAfter(readings: boolean[], release: number | null): boolean[] {
  let a: AlarmState = { raised: false, quiet: 0 };
  return readings.map((fired) => (a = nextAlarm(a, fired, release)).raised);
}

describe("adaptive settlement's alarm hysteresis", () => {
  const readings = [false, true, false, false, true, false, false, false, false];
  it('release 1: the alarm follows the readings (the first quiet refit releases it)', () => {
    expect(raisedAfter(readings, 1)).toEqual(readings);
  });
  it('release 3: a raised alarm holds through two quiet refits and falls at the third', () => {
    expect(raisedAfter(readings, 3)).toEqual([false, true, true, true, true, true, true, false, false]);
  });
  it('release null: once raised, the alarm latches', () => {
    expect(raisedAfter(readings, null)).toEqual([false, true, true, true, true, true, true, true, true]);
  });
  it('quiet refits before any alarm raise nothing', () => {
    expect(raisedAfter([false, false, false], null)).toEqual([false, false, false]);
  });
});
