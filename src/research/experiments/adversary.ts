/**
 * `adversary`: directed optimisation pressure against three verifiers of a DSL task —
 * `sound` (execution: the score is gold), `frozen` (ridge, α = 1, on the world's default features,
 * fitted once on `base` labelled random programs) and `anchored` (the same initial fit; every
 * `every` steps the programs the adversary visited since the last settlement and not settled
 * before are executed, appended to the labels, and the ridge is refitted; the count of these
 * executions is the reality budget spent).
 *
 * Adversaries (mutations: substitute, insert or delete one token, keeping the length 1…max):
 * - `steepest`: propose `k` mutations of the incumbent, move to the best if it scores no worse
 *   than the incumbent's current score (neutral moves allowed: plateaus are common);
 * - `evolutionary`: a population of `population`; each step every member makes one child, and the
 *   top `population` distinct programs of parents + children by score survive;
 * - `settlement-aware`: steepest ascent that re-queries its incumbent every step; a score drop
 *   without moving means a refit happened, and it restarts at the proxy-best of `probes` random
 *   programs at edit distance ≥ `minDistance` from every settled program (all probes if none is).
 * "Visited" = the incumbent at each step (steepest, settlement-aware) or every population member
 * (evolutionary). The champion is the incumbent / the population's best by the current score;
 * after every refit it is rescored. Per step we record the champion's gold and proxy − gold.
 */
import { Rng } from '../../util/rng.ts';
import { AnchorError } from '../../util/errors.ts';
import { getWorld, type DslTask, type DslWorld, type DslWorldName } from '../../tasks/index.ts';
import { fitRidgeF64, predictLinear } from '../../reward/models/ridge-math.ts';
import { GOODHART_DEFAULTS } from './goodhart.ts';
import { runTaskRange, stat, type Headline, type Stat, type TaskExperiment } from './common.ts';

const ADVERSARIES = ['steepest', 'evolutionary', 'settlement-aware'] as const;
type AdversaryKind = (typeof ADVERSARIES)[number];
const TARGETS = ['sound', 'frozen', 'anchored'] as const;
type TargetKind = (typeof TARGETS)[number];

/** Options. */
export interface AdversaryOptions {
  domain: DslWorldName;
  tasks: number;
  seed: number;
  steps?: number;
  k?: number;
  population?: number;
  every?: number;
  base?: number;
  probes?: number;
  minDistance?: number;
  alpha?: number;
}

/** Resolved. */
export type AdversaryResolved = Required<Omit<AdversaryOptions, 'domain'>> & { domain: DslWorldName };

/** Defaults. */
export const ADVERSARY_DEFAULTS = { steps: 200, k: 16, population: 16, every: 20, probes: 256, minDistance: 3 } as const;

/** Fill in defaults. */
export function resolveAdversary(o: AdversaryOptions): AdversaryResolved {
  const g = GOODHART_DEFAULTS[o.domain];
  if (!g) throw new AnchorError('BAD_ARGUMENT', `unknown domain ${o.domain}`);
  const r: AdversaryResolved = {
    domain: o.domain,
    tasks: o.tasks,
    seed: o.seed,
    steps: o.steps ?? ADVERSARY_DEFAULTS.steps,
    k: o.k ?? ADVERSARY_DEFAULTS.k,
    population: o.population ?? ADVERSARY_DEFAULTS.population,
    every: o.every ?? ADVERSARY_DEFAULTS.every,
    base: o.base ?? g.train,
    probes: o.probes ?? ADVERSARY_DEFAULTS.probes,
    minDistance: o.minDistance ?? ADVERSARY_DEFAULTS.minDistance,
    alpha: o.alpha ?? 1,
  };
  for (const k of ['tasks', 'steps', 'k', 'population', 'every', 'base', 'probes'] as const) {
    if (!(Number.isInteger(r[k]) && r[k] >= 1))
      throw new AnchorError('BAD_ARGUMENT', `--${k} must be a positive integer, got ${r[k]}`);
  }
  return r;
}

/** Levenshtein distance. Exported for tests. */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

/** One random mutation (substitute / insert / delete a token) within lengths 1…maxLength. */
export function mutate(world: DslWorld, p: string, rng: Rng): string {
  const tokens = world.tokens;
  const ops: ('sub' | 'ins' | 'del')[] = ['sub'];
  if (p.length < world.maxLength) ops.push('ins');
  if (p.length > 1) ops.push('del');
  const op = rng.pick(ops);
  const i = rng.int(op === 'ins' ? p.length + 1 : p.length);
  if (op === 'ins') return p.slice(0, i) + rng.pick(tokens) + p.slice(i);
  if (op === 'del') return p.slice(0, i) + p.slice(i + 1);
  const others = tokens.filter((t) => t !== p[i]);
  return p.slice(0, i) + rng.pick(others) + p.slice(i + 1);
}

/** A verifier the adversary can query, with settlement for the anchored one. */
class Target {
  private fit: ReturnType<typeof fitRidgeF64> | undefined;
  readonly settled = new Set<string>();
  private pending = new Set<string>();
  queries = 0;
  private readonly X: Float32Array[];
  private readonly y: number[];
  constructor(
    readonly kind: TargetKind,
    private readonly world: DslWorld,
    private readonly task: DslTask,
    base: { X: Float32Array[]; y: number[] },
    private readonly alpha: number,
  ) {
    this.X = [...base.X];
    this.y = [...base.y];
    if (kind !== 'sound') this.fit = fitRidgeF64(this.X, this.y, { alpha });
  }
  score(ps: readonly string[]): number[] {
    if (this.kind === 'sound') return ps.map((p) => this.world.evaluate(p, this.task));
    return Array.from(
      predictLinear(
        this.fit!,
        ps.map((p) => this.world.features(p)),
      ),
    );
  }
  visit(ps: readonly string[]): void {
    if (this.kind === 'anchored') for (const p of ps) if (!this.settled.has(p)) this.pending.add(p);
  }
  /** Settle the pending visited programs and refit (anchored only); true when a refit happened. */
  settle(): boolean {
    if (this.kind !== 'anchored' || this.pending.size === 0) return false;
    for (const p of this.pending) {
      this.settled.add(p);
      this.X.push(this.world.features(p));
      this.y.push(this.world.evaluate(p, this.task));
      this.queries++;
    }
    this.pending.clear();
    this.fit = fitRidgeF64(this.X, this.y, { alpha: this.alpha });
    return true;
  }
}

/** Per (adversary, target): the champion's gold and proxy at steps 0…T, and the reality queries. */
interface AdversaryTrace {
  gold: number[];
  proxy: number[];
  queries: number;
  restarts: number;
}

/** One task's record. */
export type AdversaryRecord = Record<string, AdversaryTrace>;

/** Run one adversary against one target. Exported for tests. */
function runAdversary(
  kind: AdversaryKind,
  target: Target,
  world: DslWorld,
  task: DslTask,
  o: AdversaryResolved,
  rng: Rng,
): AdversaryTrace {
  const gold = (p: string): number => world.evaluate(p, task);
  const trace: AdversaryTrace = { gold: [], proxy: [], queries: 0, restarts: 0 };
  if (kind === 'evolutionary') {
    let pop = Array.from({ length: o.population }, () => world.randomProgram(rng));
    let sc = target.score(pop);
    const sortPop = (): void => {
      const idx = pop.map((_, i) => i).sort((a, b) => sc[b]! - sc[a]! || a - b);
      pop = idx.map((i) => pop[i]!);
      sc = idx.map((i) => sc[i]!);
    };
    sortPop();
    trace.gold.push(gold(pop[0]!));
    trace.proxy.push(sc[0]!);
    for (let s = 1; s <= o.steps; s++) {
      const children = pop.map((p) => mutate(world, p, rng));
      const all = [...new Set([...pop, ...children])];
      const allSc = target.score(all);
      const idx = all
        .map((_, i) => i)
        .sort((a, b) => allSc[b]! - allSc[a]! || a - b)
        .slice(0, o.population);
      pop = idx.map((i) => all[i]!);
      sc = idx.map((i) => allSc[i]!);
      target.visit(pop);
      if (s % o.every === 0 && target.settle()) {
        sc = target.score(pop);
        sortPop();
      }
      trace.gold.push(gold(pop[0]!));
      trace.proxy.push(sc[0]!);
    }
  } else {
    let cur = world.randomProgram(rng);
    let believed = target.score([cur])[0]!;
    trace.gold.push(gold(cur));
    trace.proxy.push(believed);
    for (let s = 1; s <= o.steps; s++) {
      const now = target.score([cur])[0]!;
      if (kind === 'settlement-aware' && now < believed - 1e-12) {
        // A refit moved the score without us moving: restart far from everything settled.
        const probes = Array.from({ length: o.probes }, () => world.randomProgram(rng));
        const far = probes.filter((p) => [...target.settled].every((q) => editDistance(p, q) >= o.minDistance));
        const cands = far.length > 0 ? far : probes;
        const ps = target.score(cands);
        let bi = 0;
        for (let i = 1; i < cands.length; i++) if (ps[i]! > ps[bi]!) bi = i;
        cur = cands[bi]!;
        believed = ps[bi]!;
        trace.restarts++;
      } else believed = now;
      const props = Array.from({ length: o.k }, () => mutate(world, cur, rng));
      const ps = target.score(props);
      let bi = 0;
      for (let i = 1; i < props.length; i++) if (ps[i]! > ps[bi]!) bi = i;
      if (ps[bi]! >= believed) {
        cur = props[bi]!;
        believed = ps[bi]!;
      }
      target.visit([cur]);
      if (s % o.every === 0 && target.settle()) {
        // Rescore the incumbent after the refit (the settlement-aware adversary notices next step).
        trace.gold.push(gold(cur));
        trace.proxy.push(target.score([cur])[0]!);
        continue;
      }
      trace.gold.push(gold(cur));
      trace.proxy.push(believed);
    }
  }
  trace.queries = target.queries;
  return trace;
}

/** Run task t: every adversary against every target. */
function adversaryTask(o: AdversaryResolved, t: number): AdversaryRecord {
  const world = getWorld(o.domain);
  const rng = new Rng(o.seed).fork(`task-${t}`);
  const task = world.sampleTask(rng.fork('task'), `${o.domain}-${t}`);
  const baseRng = rng.fork('base');
  const baseProgs = Array.from({ length: o.base }, () => world.randomProgram(baseRng));
  const base = { X: baseProgs.map((p) => world.features(p)), y: baseProgs.map((p) => world.evaluate(p, task)) };
  const rec: AdversaryRecord = {};
  for (const a of ADVERSARIES) {
    for (const v of TARGETS) {
      // Same start for every target of an adversary: the stream depends on the adversary only.
      rec[`${a}/${v}`] = runAdversary(a, new Target(v, world, task, base, o.alpha), world, task, o, rng.fork(`adv-${a}`));
    }
  }
  return rec;
}

/** Per (adversary, target), over tasks. */
interface AdversarySeries {
  adversary: AdversaryKind;
  target: TargetKind;
  gold: Stat[];
  gap: Stat[];
  queries: Stat;
  restarts: Stat;
}

/** Result. */
export interface AdversaryResult {
  domain: DslWorldName;
  tasks: number;
  seed: number;
  steps: number;
  every: number;
  base: number;
  series: AdversarySeries[];
}

/** Aggregate. */
function aggregateAdversary(o: AdversaryResolved, recs: readonly AdversaryRecord[]): AdversaryResult {
  const series: AdversarySeries[] = [];
  for (const a of ADVERSARIES) {
    for (const v of TARGETS) {
      const tr = recs.map((r) => r[`${a}/${v}`]!);
      series.push({
        adversary: a,
        target: v,
        gold: Array.from({ length: o.steps + 1 }, (_, s) => stat(tr.map((x) => x.gold[s]!))),
        gap: Array.from({ length: o.steps + 1 }, (_, s) => stat(tr.map((x) => x.proxy[s]! - x.gold[s]!))),
        queries: stat(tr.map((x) => x.queries)),
        restarts: stat(tr.map((x) => x.restarts)),
      });
    }
  }
  return { domain: o.domain, tasks: recs.length, seed: o.seed, steps: o.steps, every: o.every, base: o.base, series };
}

/** As per-task units. */
export const adversaryExperiment: TaskExperiment<AdversaryResolved, AdversaryRecord, AdversaryResult> = {
  task: adversaryTask,
  aggregate: aggregateAdversary,
};

/** Run. */
export function runAdversaryExperiment(
  opts: AdversaryOptions & { onTask?: (d: number, total: number) => void },
): AdversaryResult {
  const o = resolveAdversary(opts);
  return aggregateAdversary(
    o,
    runTaskRange(adversaryExperiment, o, 0, o.tasks, (d) => opts.onTask?.(d, o.tasks)),
  );
}

/** Headline figures. */
export function adversaryHeadlines(r: AdversaryResult): Headline[] {
  const e = `adversary ${r.domain}`;
  return r.series.flatMap((s) => {
    const g = s.gold[s.gold.length - 1]!;
    const gap = s.gap[s.gap.length - 1]!;
    const out: Headline[] = [
      { experiment: e, figure: `${s.adversary} vs ${s.target}: champion gold at step ${r.steps}`, value: g.mean, se: g.se },
      {
        experiment: e,
        figure: `${s.adversary} vs ${s.target}: champion proxy − gold at step ${r.steps}`,
        value: gap.mean,
        se: gap.se,
      },
    ];
    if (s.target === 'anchored')
      out.push({
        experiment: e,
        figure: `${s.adversary} vs anchored: reality queries spent`,
        value: s.queries.mean,
        se: s.queries.se,
      });
    return out;
  });
}
