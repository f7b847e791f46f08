/**
 * The gate validation's options and defaults, apart from the simulation (./gate-validation.ts)
 * so `anchor-rl validate-loop --help` can show the defaults without loading the gate.
 */

/** Simulation parameters; defaults are the design's (docs/design.md) where it gives them. */
export interface ValidationOptions {
  seed: number;
  /** T (design: 40,000). */
  rounds: number;
  /** N failure modes (design: 300). */
  modes: number;
  /** Zipf exponent (design: 1.1). */
  alpha: number;
  /** Risk budget ε (design: 0.05). */
  epsilon: number;
  /** Hard-invariant-violating actions injected per round (design: 0.05). */
  violationRate: number;
  /** Probability a non-violating update carries a latent failure mode (our choice: 0.3). */
  failureRate: number;
  /** Forged claims the simulator puts forward per round (our choice: 0.02). */
  fabricationRate: number;
  /** Probability authorisation is missing (our choice: 0.01). */
  authMissingRate: number;
  /** Completions per update window (our choice: 8). */
  windowSize: number;
  /** Exploiting completions in a failing update's window (our choice: 2). */
  exploitItems: number;
  /** Checkpoints at which missing mass and Good–Turing are recorded. */
  checkpoints: number;
  /**
   * Simulator probe depth (default: the gate config's, 4). An ablation knob: at 0 the simulator
   * finds nothing before commit, known modes are committed again and again, and the rate check
   * must fail — the test suite uses this to show the checks can fail.
   */
  simulatorDepth?: number;
  /** Called every 1000 rounds. */
  onProgress?: (done: number, total: number) => void;
}

/** Defaults. */
export const VALIDATION_DEFAULTS: Omit<ValidationOptions, 'onProgress'> = {
  seed: 0,
  rounds: 40_000,
  modes: 300,
  alpha: 1.1,
  epsilon: 0.05,
  violationRate: 0.05,
  failureRate: 0.3,
  fabricationRate: 0.02,
  authMissingRate: 0.01,
  windowSize: 8,
  exploitItems: 2,
  checkpoints: 40,
};
