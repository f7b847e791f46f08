/**
 * Where a program's virtual clock starts (JavaScript: both realms' `Date`, `performance`,
 * `process.hrtime`, `Intl` formatting; Python: `time`, `datetime`, …).
 *
 * A fixed instant let a constant answer every "now" question: `today()` returning the instant's
 * date, `weekday()` its day, an expiry one second after it (red-team rt7-js V05–V13). The origin
 * is drawn from the program's own seed (the run seed and the program's text), so it is the same
 * on every run of the program — a verdict stays a pure function of program and seed — but no
 * constant is right across programs, rollouts or runs: a hard-coded weekday is right about one
 * time in seven, as by chance. The tests see the same clock as the program, so tests computing
 * "now" themselves agree with an honest program.
 */

/** 2001-01-01T00:00:00Z, ms: the earliest origin. */
const FIRST = Date.UTC(2001, 0, 1);
/** 2037-12-31T00:00:00Z, ms: no origin at or after it (32-bit `time_t` code stays right). */
const LAST = Date.UTC(2037, 11, 31);

/**
 * The virtual clock's origin (ms since the Unix epoch, an integer in [2001-01-01, 2037-12-31))
 * for a program's 32-bit seed: a bijective mix of the seed (so it is not the seed's own random
 * stream) scaled onto the range.
 */
export function clockOrigin(seed: number): number {
  let h = (seed ^ 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  return FIRST + Math.floor((h / 2 ** 32) * (LAST - FIRST));
}
