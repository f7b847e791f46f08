/**
 * The CPU-time limit's re-run policy (src/sandbox/cpu-budget.ts), shared by the JavaScript and
 * Python workers: when the host looks (the wall limits of the attempts), when it gives up (the
 * backstop: not a verdict), and how a stopped attempt is read (budget used, or the load).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CpuBudget, CpuMeter, Overloaded } from '../../src/sandbox/cpu-budget.ts';
import { wallBackstopMs } from '../../src/sandbox/protocol.ts';

describe('CPU-time budget', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // First: the tests below fake `performance`, which this one must read for real.
  it('reads a stopped attempt from CPU time: budget used is a timeout, CPU to spare is the load', () => {
    const idle = new CpuMeter(50, 55);
    idle.startClock();
    // Never ran: all of its budget is left.
    expect(idle.stopped()).toBeInstanceOf(Overloaded);
    const busy = new CpuMeter(2, 55);
    busy.startClock();
    let x = 0;
    while (busy.cpuMs() <= 3) x++;
    expect(x).toBeGreaterThan(0);
    expect(busy.stopped()).toBeUndefined();
    expect(busy.overBudget()).toBe(true);
    // Harness work run uncharged does not count against the program.
    const meter = new CpuMeter(2, 55);
    meter.startClock();
    meter.uncharged(() => {
      const t = new CpuMeter(0, 0);
      t.startClock();
      while (t.cpuMs() <= 3) x++;
    });
    expect(meter.cpuMs()).toBeLessThan(2);
  });

  it('reads the thread CPU clock fresh, not at scheduler-tick steps', () => {
    // Busy reads of a running thread's clock: each one costs CPU, so an exact clock differs from
    // one read to the next. The schedstat file alone moves in steps of up to a tick (4 ms here),
    // so most consecutive reads would be equal and a start read could be up to a tick stale.
    const meter = new CpuMeter(1_000, 1_000);
    meter.startClock();
    let changed = 0;
    let last = meter.cpuMs();
    for (let i = 0; i < 2_000; i++) {
      const now = meter.cpuMs();
      if (now !== last) changed++;
      last = now;
    }
    expect(changed).toBeGreaterThan(1_000);
  });

  it('looks first at 1.1 x the budget + 5 ms, then stretches by the slowdown seen x 1.5', () => {
    const b = new CpuBudget(400);
    expect(b.wallMs).toBeGreaterThanOrEqual(445);
    expect(b.wallMs).toBeLessThanOrEqual(446);
    expect(b.backstopMs).toBe(wallBackstopMs(400));
    // The attempt ran 445 ms of wall time for 100 ms of CPU: a slowdown of 4.45.
    expect(b.retry(new Overloaded(445, 100))).toBe(true);
    expect(b.wallMs).toBe(Math.ceil(400 * 1.1 * 4.45 * 1.5));
  });

  it('gives up (not a verdict) once the backstop leaves less than the budget', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const b = new CpuBudget(400);
    vi.advanceTimersByTime(b.backstopMs - 399);
    const e = new Overloaded(445, 100);
    expect(b.retry(e)).toBe(false);
    expect(b.giveUpMessage(e)).toMatch(/^not a verdict: /);
  });

  it('leaves excluded wall time (a runtime boot) out of the backstop', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const b = new CpuBudget(400);
    vi.advanceTimersByTime(b.backstopMs);
    b.exclude(b.backstopMs);
    expect(b.retry(new Overloaded(445, 100))).toBe(true);
  });
});
