/**
 * Time limits as CPU time, shared by the JavaScript and Python workers: the clock (the CPU time of
 * the thread a program runs on), the meter of one attempt, and the re-run policy. A program's time
 * limit is a budget of CPU time, so the same program with the same seed gets the same status on an
 * idle machine and on a loaded one. isolated-vm can only stop an isolate on a wall-clock timer, so
 * the wall clock decides only when the host looks: an attempt stopped with CPU time to spare was
 * slowed by the load and is run again from the same state with a longer wall limit, up to the
 * wall-clock backstop ({@link wallBackstopMs}), past which the result is not a verdict.
 * Internal to src/sandbox.
 */
import { openSync, readSync } from 'node:fs';
import { wallBackstopMs } from './protocol.ts';

/**
 * The first attempt's wall limit, as a multiple of the CPU budget (plus FIRST_WALL_EXTRA_MS): on an
 * idle machine a program that needs more than its budget has used all of it when this fires, so
 * it is judged at once; a program stopped here with CPU time to spare was slowed by load.
 */
const FIRST_WALL_FACTOR = 1.1;
const FIRST_WALL_EXTRA_MS = 5;
/** Headroom over the observed wall/CPU ratio when a loaded attempt is re-run. */
const RETRY_HEADROOM = 1.5;

/**
 * CPU time of the calling thread, ms. Programs run synchronously on a worker's main thread
 * (isolated-vm executes a synchronous call on the calling thread), so this is the program's own
 * CPU time. Read from /proc/thread-self/schedstat through a descriptor opened once (a few
 * microseconds). The file alone is stale for a running thread: the kernel adds a thread's runtime
 * at scheduler ticks and switches (steps of up to 4 ms measured on this machine), so a start read
 * just before a tick would charge the program the harness's time before it. A `getrusage` of the
 * calling process (`process.cpuUsage()`, result unused) first brings the calling thread's runtime
 * up to date (the kernel does so for the caller before summing its threads), and the read is
 * exact to microseconds. Its sum over every thread is not the program's time (V8's compiler and
 * GC threads), so it is only the fallback where /proc is missing. isolated-vm's
 * `isolate.cpuTime` is not used: its prebuilt Linux binary measures wall time.
 */
const cpuNow: () => number = (() => {
  try {
    const fd = openSync('/proc/thread-self/schedstat', 'r');
    const buf = Buffer.alloc(96);
    const read = () => {
      process.cpuUsage(); // brings this thread's runtime in the file up to date (above)
      const n = readSync(fd, buf, 0, buf.length, 0);
      return Number(buf.toString('latin1', 0, n).split(' ', 1)[0]) / 1e6;
    };
    if (Number.isFinite(read())) return read;
  } catch {
    /* no /proc: below */
  }
  return () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
})();

/** The machine's load kept an attempt from using the program's CPU budget: run it again. */
export class Overloaded {
  constructor(
    /** Wall time the attempt ran before its timer stopped it, ms. */
    readonly wallMs: number,
    /** CPU time charged to the program in that attempt, ms. */
    readonly cpuMs: number,
  ) {}
}

/** The status message of a program that used its CPU budget. */
export function timeoutMessage(budgetMs: number): string {
  return `timed out: used its ${budgetMs} ms of CPU time`;
}

/**
 * The clocks of one attempt at a program: the CPU time charged to it (from {@link startClock},
 * minus work run {@link uncharged}) against its budget, and the attempt's wall limit, which only
 * decides when the host looks.
 */
export class CpuMeter {
  readonly t0 = performance.now();
  /** CPU time when the program started, and CPU time since spent on harness work (ms). */
  private cpu0: number | undefined;
  private excluded = 0;
  /** Wall clock when the program started (ms, `performance.now()`). */
  private wall0 = 0;

  /**
   * @param budgetMs the program's CPU budget, ms
   * @param wallMs this attempt's wall-clock limit, ms
   */
  constructor(
    readonly budgetMs: number,
    readonly wallMs: number,
  ) {}

  /** Start charging CPU time to the program. */
  startClock(): void {
    this.wall0 = performance.now();
    this.cpu0 = cpuNow();
  }

  /** Run harness work (not the program's) without charging its CPU time. */
  uncharged<T>(work: () => T): T {
    const before = cpuNow();
    try {
      return work();
    } finally {
      this.excluded += cpuNow() - before;
    }
  }

  /** CPU time charged to the program so far, ms (0 before it started). */
  cpuMs(): number {
    return this.cpu0 === undefined ? 0 : cpuNow() - this.cpu0 - this.excluded;
  }

  /** The program used more than its CPU budget. */
  overBudget(): boolean {
    // The program runs on this one thread, so its CPU time never exceeds the wall time since it
    // started: while that is within the budget, the CPU clock (a read of /proc) is not needed.
    if (this.cpu0 === undefined || performance.now() - this.wall0 <= this.budgetMs) return false;
    return this.cpuMs() > this.budgetMs;
  }

  /** Wall milliseconds left in this attempt, rounded up so isolated-vm's whole-millisecond timer never fires early. */
  left(): number {
    return Math.max(1, Math.ceil(this.t0 + this.wallMs - performance.now()));
  }

  /** This attempt's wall limit passed (1 ms of slack for the timer's own granularity). */
  timedOut(): boolean {
    return performance.now() - this.t0 >= this.wallMs - 1;
  }

  /**
   * The wall timer stopped the attempt: undefined when the program used its budget (a `timeout`),
   * or the {@link Overloaded} to re-run it with, when the load took the wall time.
   */
  stopped(): Overloaded | undefined {
    const cpu = this.cpuMs();
    return cpu < this.budgetMs ? new Overloaded(performance.now() - this.t0, cpu) : undefined;
  }
}

/**
 * The re-run policy of one program: the wall limit of each attempt, stretched after an attempt
 * the load slowed by the slowdown it saw × 1.5, until the backstop leaves no room for the budget.
 */
export class CpuBudget {
  readonly backstopMs: number;
  /** The next attempt's wall limit, ms. */
  wallMs: number;
  private started = performance.now();

  constructor(readonly budgetMs: number) {
    this.backstopMs = wallBackstopMs(budgetMs);
    this.wallMs = Math.ceil(budgetMs * FIRST_WALL_FACTOR) + FIRST_WALL_EXTRA_MS;
  }

  /** A meter for the next attempt. */
  attempt(): CpuMeter {
    return new CpuMeter(this.budgetMs, this.wallMs);
  }

  /** Leave `ms` of wall time out of the backstop (a runtime's reboot between attempts is not the program's). */
  exclude(ms: number): void {
    this.started += ms;
  }

  /**
   * After an attempt the load slowed (`e`): set the next attempt's wall limit and return true, or
   * return false when the backstop leaves it less than the budget (the host gives up).
   */
  retry(e: Overloaded): boolean {
    const spent = performance.now() - this.started;
    const ratio = e.wallMs / Math.max(1, e.cpuMs);
    this.wallMs = Math.ceil(Math.min(this.backstopMs - spent, this.budgetMs * FIRST_WALL_FACTOR * ratio * RETRY_HEADROOM));
    return this.wallMs >= this.budgetMs;
  }

  /** The error text of a program the host gave up on (status `timeout`, code `host_overloaded`). */
  giveUpMessage(e: Overloaded): string {
    return `not a verdict: the machine was too loaded to give the program its ${this.budgetMs} ms of CPU time within the ${this.backstopMs} ms wall-clock backstop (it used ${Math.round(e.cpuMs)} ms in the last ${Math.round(e.wallMs)} ms)`;
  }
}
