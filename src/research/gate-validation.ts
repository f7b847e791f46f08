/**
 * The design's numerical validation of the gate ("Verified before acting", docs/design.md), run on the
 * real gate modules through {@link GateLoop}: only the world — what actions carry and what
 * reality reports — is simulated here.
 *
 * World model (one round = one proposed policy update and the window of W completions it was
 * computed from):
 * - With probability `violationRate` the update breaks a hard invariant (non-finite loss or
 *   gradients, KL over the cap, degenerate completion length, or a sandbox-integrity signal —
 *   rotating). Such updates carry no soft failure; the oracle must DENY them.
 * - Otherwise, with probability `failureRate`, the update has a latent failure mode m drawn from
 *   Zipf(α) over N modes: `exploitItems` of its W completions exploit the RM (proxy 0.85–1.0,
 *   executed gold 0–0.2, RM feature `mode-m` set). Honest completions have gold 0.2–0.8 and
 *   proxy = gold + N(0, 0.03).
 * - Before commit nothing is executed. The simulator (the real {@link WindowMiningSimulator})
 *   probes the highest-proxy completions, but its probe can only reproduce failure modes already
 *   in the library (it returns gold for a completion of a known mode, null otherwise), so it
 *   catches exactly the modes in L. With probability `fabricationRate` it also puts forward a
 *   forged claim: an honest completion presented as a known failure (feature of a random mode,
 *   gold 0). `verify` (ground truth, standing in for the sandbox) rejects forgeries.
 * - MODIFY refits the RM with the verified failures; the re-proposed update no longer pays the
 *   exploit (its completions are re-priced at gold + noise and the latent mode is gone) and goes
 *   through the gate again in the same round.
 * - Settlement: each completion is executed with the loop's current settlement rate (raised by
 *   ESCALATE and surprises); a committed update's outcome is always observed (reality settles
 *   it), so a committed exploit is always seen. Settled completions are re-priced by the current
 *   RM: a mode already in L was refitted on, so its gap is only RM noise; an unknown mode keeps
 *   its full gap. u is the UCB on these settled gaps.
 * - Authorisation is missing with probability `authMissingRate` (WAIT).
 */
import { defaultGateConfig, type GateConfig } from '../gate/config.ts';
import type { LinearRm } from '../gate/critic.ts';
import { GateLoop } from '../gate/loop.ts';
import { createUpdateOracle, type ProposedUpdate } from '../gate/oracle.ts';
import { WindowMiningSimulator, type Simulator, type SimulatorOptions } from '../gate/simulator.ts';
import type { Claim, Decision, WindowItem } from '../gate/types.ts';
import { Rng } from '../util/rng.ts';
import { AnchorError } from '../util/errors.ts';
import { VALIDATION_DEFAULTS, type ValidationOptions } from './gate-validation-options.ts';

/** One check with its figures. */
interface ValidationCheck {
  readonly name: string;
  readonly pass: boolean;
  readonly detail: string;
  readonly figures: Record<string, number | boolean | number[] | null>;
}

/** The validation result (the `--json` object). */
export interface ValidationReport {
  readonly ok: boolean;
  readonly params: Omit<ValidationOptions, 'onProgress'>;
  readonly decisions: Record<Decision, number>;
  readonly checkpoints: { round: number; missingMass: number; goodTuring: number; librarySize: number; surprises: number }[];
  readonly checks: readonly ValidationCheck[];
  /** How u/ε drove ESCALATE: gate passes escalated, when, and the highest settlement rate used. */
  readonly escalation: {
    count: number;
    firstRound: number | null;
    lastRound: number | null;
    inFirstTenth: number;
    maxSettlementRate: number;
    maxDepth: number;
  };
}

interface Payload {
  /** Latent failure mode index, or null for an honest completion. */
  readonly mode: number | null;
}

const ORDER_OF_MAGNITUDE = 10;

/** Run the validation simulation. Deterministic: the same options give the same report. */
export async function runValidation(partial: Partial<ValidationOptions> = {}): Promise<ValidationReport> {
  const opts: ValidationOptions = { ...VALIDATION_DEFAULTS, ...partial };
  validate(opts);
  const rng = new Rng(opts.seed);
  const worldRng = rng.fork('world');
  const simRng = rng.fork('simulator');
  const settleRng = rng.fork('settlement');

  // Zipf(α) over N modes.
  const weights = Array.from({ length: opts.modes }, (_, i) => (i + 1) ** -opts.alpha);
  const total = weights.reduce((a, b) => a + b, 0);
  const probs = weights.map((w) => w / total);
  const cumulative: number[] = [];
  let acc = 0;
  for (const p of probs) cumulative.push((acc += p));
  const featureNames = Array.from({ length: opts.modes }, (_, i) => `mode-${i}`);
  const trueProbabilities = new Map(probs.map((p, i) => [featureNames[i]!, p] as const));
  const drawMode = (): number => {
    const u = worldRng.next() * acc;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! >= u) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };

  const config: GateConfig = { ...defaultGateConfig(), epsilon: opts.epsilon };
  if (opts.simulatorDepth !== undefined) config.simulator = { ...config.simulator, depth: opts.simulatorDepth };
  const maxKl = 0.5;
  const lengthBounds = { min: 2, max: 4096 };
  config.invariants = [
    { kind: 'finite' },
    { kind: 'kl_cap', max_kl: maxKl },
    { kind: 'length_bounds', min_mean: lengthBounds.min, max_mean: lengthBounds.max },
    { kind: 'sandbox_integrity', max_signals: 0 },
  ];
  // The RM pays for every mode feature: that is what the policy exploits.
  const rm: LinearRm = { weights: featureNames.map(() => 0.8), featureNames };

  // Ground truth of the current round's completions, for `verify` (reality) and the probe.
  const truth = new Map<string, { gold: number; mode: number | null }>();
  const forged = new Set<string>();
  let loop!: GateLoop<ProposedUpdate, Payload>;
  const margin = config.simulator.margin;
  const probe = (item: WindowItem<Payload>): number | null => {
    const t = truth.get(item.id);
    if (!t || t.mode === null) return null;
    return loop.library.has(featureNames[t.mode]!) ? t.gold : null;
  };
  const inner = new WindowMiningSimulator<Payload>(probe);
  const simulator: Simulator<Payload> = {
    async find(window: readonly WindowItem<Payload>[], so: SimulatorOptions): Promise<Claim<Payload>[]> {
      const claims = await inner.find(window, so);
      if (simRng.next() < opts.fabricationRate) {
        const honest = window.filter((w) => truth.get(w.id)?.mode === null);
        if (honest.length > 0) {
          const victim = simRng.pick(honest);
          const fakeMode = simRng.int(opts.modes);
          forged.add(victim.id);
          claims.push({
            item: { ...victim, features: { indices: [fakeMode], values: [1] } },
            gold: 0,
            gap: victim.proxy,
            source: 'probe',
          });
        }
      }
      return claims;
    },
  };
  const verify = (claim: Claim<Payload>): boolean => {
    const t = truth.get(claim.item.id);
    return t !== undefined && claim.item.proxy - t.gold > margin;
  };
  loop = new GateLoop<ProposedUpdate, Payload>({ config, oracle: createUpdateOracle(config.invariants), simulator, verify, rm });

  const early = Math.max(1, Math.floor(opts.rounds / 10));
  const lateStart = opts.rounds - early;
  let injected = 0;
  let deniedInjected = 0;
  let committedViolations = 0;
  let falseDenies = 0;
  let committedFailures = 0;
  const phase = {
    early: { surprises: 0, committedFailures: 0, additions: 0 },
    late: { surprises: 0, committedFailures: 0, additions: 0 },
  };
  let genuineClaims = 0;
  let genuineReward = 0;
  let fabricatedClaims = 0;
  let fabricatedReward = 0;
  let fabricatedStored = 0;
  let surprisesTotal = 0;
  let escalations = 0;
  let escalationsEarly = 0;
  let firstEscalation: number | null = null;
  let lastEscalation: number | null = null;
  let maxRate = 0;
  let maxDepth = 0;
  const checkpoints: ValidationReport['checkpoints'] = [];
  const every = Math.max(1, Math.floor(opts.rounds / opts.checkpoints));

  for (let t = 0; t < opts.rounds; t++) {
    truth.clear();
    const sizeBefore = loop.library.size;
    const esc = loop.escalation();
    const settlementRate = esc.settlementRate;
    maxRate = Math.max(maxRate, settlementRate);
    maxDepth = Math.max(maxDepth, esc.depth);
    const violation = worldRng.next() < opts.violationRate;
    let mode = !violation && worldRng.next() < opts.failureRate ? drawMode() : null;
    const evidence = makeEvidence(worldRng, t, violation ? injected % 4 : -1, maxKl, lengthBounds);
    if (violation) injected++;
    const window = makeWindow(worldRng, t, opts.windowSize, mode, opts.exploitItems, truth);
    const authorized = worldRng.next() >= opts.authMissingRate;

    let res = await loop.decide({ round: t, evidence, window, authorized });
    tallyClaims(res.claims);
    if (res.decision === 'MODIFY') {
      // The RM was refitted on the verified failures; the recomputed update no longer pays them.
      mode = null;
      const repriced = window.map((w) => ({ ...w, proxy: clamp01(truth.get(w.id)!.gold + 0.03 * worldRng.normal()) }));
      for (const w of repriced) truth.set(w.id, { gold: truth.get(w.id)!.gold, mode: null });
      res = await loop.decide({ round: t, evidence, window: repriced, authorized });
      tallyClaims(res.claims);
    }
    if (res.decision === 'ESCALATE') {
      escalations++;
      if (t < early) escalationsEarly++;
      firstEscalation ??= t;
      lastEscalation = t;
    }
    if (res.decision === 'DENY') {
      if (violation) deniedInjected++;
      else falseDenies++;
    }
    const committed = res.commit;
    if (committed && violation) committedViolations++;
    const committedFailure = committed && mode !== null;
    if (committedFailure) committedFailures++;

    // Reality settles: a sample of the window at the current rate, plus the committed outcome.
    const settled: WindowItem<Payload>[] = [];
    let sawExploit = false;
    for (const w of window) {
      const tr = truth.get(w.id)!;
      if (settleRng.next() < settlementRate || (committedFailure && tr.mode !== null && !sawExploit)) {
        if (tr.mode !== null) sawExploit = true;
        const known = tr.mode !== null && loop.library.has(featureNames[tr.mode]!);
        const proxy = tr.mode !== null && !known ? w.proxy : clamp01(tr.gold + 0.03 * settleRng.normal());
        settled.push({ ...w, proxy, gold: tr.gold });
      }
    }
    const st = await loop.settle({ round: t, committed, items: settled });
    const surprised = st.surprises.length;
    surprisesTotal += surprised;
    for (const f of st.verified) if (forged.has(f.claim.item.id)) fabricatedStored++;
    const added = loop.library.size - sizeBefore;
    if (t < early) {
      phase.early.surprises += surprised;
      phase.early.committedFailures += committedFailure ? 1 : 0;
      phase.early.additions += added;
    } else if (t >= lateStart) {
      phase.late.surprises += surprised;
      phase.late.committedFailures += committedFailure ? 1 : 0;
      phase.late.additions += added;
    }
    if ((t + 1) % every === 0 || t === opts.rounds - 1) {
      checkpoints.push({
        round: t + 1,
        missingMass: loop.library.missingMass(trueProbabilities),
        goodTuring: loop.library.goodTuring(),
        librarySize: loop.library.size,
        surprises: surprisesTotal,
      });
    }
    if (opts.onProgress && (t + 1) % 1000 === 0) opts.onProgress(t + 1, opts.rounds);
    forged.clear();
  }

  function tallyClaims(claims: readonly { finding: { claim: Claim<Payload> }; reproduced: boolean; reward: number }[]): void {
    for (const c of claims) {
      if (forged.has(c.finding.claim.item.id)) {
        fabricatedClaims++;
        fabricatedReward += c.reward;
        if (c.reproduced) fabricatedStored++;
      } else {
        genuineClaims++;
        genuineReward += c.reward;
      }
    }
  }

  // ---- checks ----
  const checks: ValidationCheck[] = [];
  checks.push({
    name: 'hard-invariant violations never committed',
    pass: injected > 0 && committedViolations === 0 && deniedInjected === injected && falseDenies === 0,
    detail: `injected ${injected}, denied ${deniedInjected}, committed ${committedViolations}; denials of valid updates ${falseDenies}`,
    figures: { injected, denied: deniedInjected, committed: committedViolations, falseDenies },
  });

  const N = opts.modes;
  const L = loop.library.size;
  const saturating = phase.late.additions * ORDER_OF_MAGNITUDE <= phase.early.additions;
  checks.push({
    name: 'surprises bounded by N, library saturating',
    pass: surprisesTotal <= N && L <= N && saturating,
    detail: `surprises ${surprisesTotal} <= N = ${N}; library ${L}/${N} modes; modes added in first 10% of rounds ${phase.early.additions}, in last 10% ${phase.late.additions} (need >= ${ORDER_OF_MAGNITUDE}x fewer)`,
    figures: { surprises: surprisesTotal, N, librarySize: L, addedEarly: phase.early.additions, addedLate: phase.late.additions },
  });

  const mm = checkpoints.map((c) => c.missingMass);
  let monotone = true;
  for (let i = 1; i < mm.length; i++) if (mm[i]! > mm[i - 1]! + 1e-12) monotone = false;
  const finalMm = mm[mm.length - 1] ?? 1;
  const gtDiffs = checkpoints.map((c) => Math.abs(c.goodTuring - c.missingMass));
  const gtMae = gtDiffs.reduce((a, b) => a + b, 0) / Math.max(1, gtDiffs.length);
  const finalGt = checkpoints[checkpoints.length - 1]?.goodTuring ?? 1;
  const MM_FINAL_MAX = 0.01;
  const GT_MAE_MAX = 0.02;
  checks.push({
    name: 'missing mass non-increasing to ~0, tracked by Good–Turing',
    pass: monotone && finalMm <= MM_FINAL_MAX && gtMae <= GT_MAE_MAX,
    detail: `monotone ${monotone} over ${mm.length} checkpoints; first ${fmt(mm[0] ?? 1)}, final ${fmt(finalMm)} (need <= ${MM_FINAL_MAX}); Good–Turing final ${fmt(finalGt)}, mean |GT − exact| ${fmt(gtMae)} (need <= ${GT_MAE_MAX})`,
    figures: {
      monotone,
      firstMissingMass: mm[0] ?? 1,
      finalMissingMass: finalMm,
      finalGoodTuring: finalGt,
      meanAbsGtError: gtMae,
    },
  });

  checks.push({
    name: 'grounded claims: fabricated claims earn exactly 0',
    pass: fabricatedClaims > 0 && fabricatedReward === 0 && fabricatedStored === 0 && genuineClaims > 0 && genuineReward > 0,
    detail: `genuine claims ${genuineClaims} earned ${genuineReward}; fabricated claims ${fabricatedClaims} earned ${fabricatedReward}, stored ${fabricatedStored}`,
    figures: { genuineClaims, genuineReward, fabricatedClaims, fabricatedReward, fabricatedStored },
  });

  const ret = loop.memory.retention();
  const offered = loop.memory.offered;
  const RETAIN_MIN = 0.9;
  checks.push({
    name: 'retained memory is failure-derived',
    pass: ret.failure + ret.routine > 0 && ret.failureShare >= RETAIN_MIN && loop.memory.size <= config.memory.capacity,
    detail: `offered ${offered.failure} failure / ${offered.routine} routine episodes; retained ${ret.failure} failure / ${ret.routine} routine (failure share ${fmt(ret.failureShare)}, need >= ${RETAIN_MIN}; capacity ${config.memory.capacity})`,
    figures: {
      offeredFailure: offered.failure,
      offeredRoutine: offered.routine,
      retainedFailure: ret.failure,
      retainedRoutine: ret.routine,
      failureShare: ret.failureShare,
    },
  });

  const rate = (x: number): number => x / early;
  const sEarly = rate(phase.early.surprises);
  const sLate = rate(phase.late.surprises);
  const cEarly = rate(phase.early.committedFailures);
  const cLate = rate(phase.late.committedFailures);
  const falls = (a: number, b: number): boolean => a > 0 && b * ORDER_OF_MAGNITUDE <= a;
  checks.push({
    name: 'surprise and committed-failure rates fall by >= 10x',
    pass: falls(sEarly, sLate) && falls(cEarly, cLate),
    detail: `per round, first vs last ${early} rounds: surprises ${fmt(sEarly)} -> ${fmt(sLate)} (${ratio(sEarly, sLate)}), committed failures ${fmt(cEarly)} -> ${fmt(cLate)} (${ratio(cEarly, cLate)})`,
    figures: {
      surpriseRateEarly: sEarly,
      surpriseRateLate: sLate,
      committedFailureRateEarly: cEarly,
      committedFailureRateLate: cLate,
      totalCommittedFailures: committedFailures,
      escalations,
    },
  });

  return {
    ok: checks.every((c) => c.pass),
    params: stripProgress(opts),
    decisions: { ...loop.counters.decisions },
    checkpoints,
    checks,
    escalation: {
      count: escalations,
      firstRound: firstEscalation,
      lastRound: lastEscalation,
      inFirstTenth: escalationsEarly,
      maxSettlementRate: maxRate,
      maxDepth,
    },
  };
}

function makeEvidence(
  rng: Rng,
  step: number,
  violationKind: number,
  maxKl: number,
  len: { min: number; max: number },
): ProposedUpdate {
  const ev = {
    kind: 'policy_update' as const,
    step,
    loss: 0.5 + 0.1 * rng.normal(),
    gradNorm: Math.abs(1 + 0.2 * rng.normal()),
    nonFinite: { loss: 0, grads: 0, weights: 0 },
    klToRef: maxKl * 0.6 * rng.next(),
    completionLength: { mean: 20 + 20 * rng.next(), min: 4, max: 60 },
    sandboxIntegritySignals: 0,
  };
  switch (violationKind) {
    case 0:
      return { ...ev, loss: Number.NaN, nonFinite: { loss: 1, grads: 1 + rng.int(100), weights: 0 } };
    case 1:
      return { ...ev, klToRef: maxKl * (1.05 + 2 * rng.next()) };
    case 2:
      return { ...ev, completionLength: { mean: len.min * rng.next() * 0.9, min: 0, max: 2 } };
    case 3:
      return { ...ev, sandboxIntegritySignals: 1 + rng.int(3) };
    default:
      return ev;
  }
}

function makeWindow(
  rng: Rng,
  round: number,
  size: number,
  mode: number | null,
  exploitItems: number,
  truth: Map<string, { gold: number; mode: number | null }>,
): WindowItem<Payload>[] {
  const out: WindowItem<Payload>[] = [];
  for (let i = 0; i < size; i++) {
    const id = `${round}:${i}`;
    const exploit = mode !== null && i < exploitItems;
    if (exploit) {
      const gold = 0.2 * rng.next();
      truth.set(id, { gold, mode });
      out.push({
        id,
        proxy: 0.85 + 0.15 * rng.next(),
        gold: null,
        features: { indices: [mode], values: [1] },
        payload: { mode },
      });
    } else {
      const gold = 0.2 + 0.6 * rng.next();
      truth.set(id, { gold, mode: null });
      out.push({
        id,
        proxy: clamp01(gold + 0.03 * rng.normal()),
        gold: null,
        features: { indices: [], values: [] },
        payload: { mode: null },
      });
    }
  }
  return out;
}

function validate(o: ValidationOptions): void {
  const bad = (msg: string): never => {
    throw new AnchorError('BAD_ARGUMENT', msg);
  };
  if (!Number.isInteger(o.rounds) || o.rounds < 100) bad(`--rounds must be an integer >= 100, got ${o.rounds}`);
  if (!Number.isInteger(o.modes) || o.modes < 1) bad(`--modes must be a positive integer, got ${o.modes}`);
  if (!Number.isInteger(o.seed)) bad(`--seed must be an integer, got ${o.seed}`);
  for (const [k, v] of [
    ['violationRate', o.violationRate],
    ['failureRate', o.failureRate],
    ['fabricationRate', o.fabricationRate],
    ['authMissingRate', o.authMissingRate],
  ] as const) {
    if (!(v >= 0 && v <= 1)) bad(`${k} must be in [0, 1], got ${v}`);
  }
  if (!(o.alpha > 0)) bad(`alpha must be > 0, got ${o.alpha}`);
  if (!(o.epsilon > 0)) bad(`epsilon must be > 0, got ${o.epsilon}`);
  if (!(o.exploitItems >= 1 && o.exploitItems <= o.windowSize)) bad('exploitItems must be in [1, windowSize]');
}

function stripProgress(o: ValidationOptions): Omit<ValidationOptions, 'onProgress'> {
  const { onProgress: _p, ...rest } = o;
  return rest;
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  return Math.abs(x) >= 0.001 ? x.toFixed(4) : x.toExponential(2);
}

function ratio(a: number, b: number): string {
  if (b === 0) return a > 0 ? 'fell to 0' : 'both 0';
  return `${(a / b).toFixed(1)}x lower`;
}
