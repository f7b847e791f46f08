/**
 * Plain-text reports of the reproduction experiments (stdout of
 * `anchor-rl experiment NAME`), and of the headline table.
 */
import { formatTable, markdownTable, pm } from '../../util/table.ts';
import type { Headline } from './common.ts';
import type { ExchangeRateResult } from './exchange-rate.ts';
import type { CopulaResult } from './copula.ts';
import type { AdversaryResult } from './adversary.ts';
import type { ScalingResult } from './settlement-scaling.ts';
import type { ResolutionResult } from './resolution.ts';
import type { GoodhartResult } from './goodhart.ts';
import type { SettlementLoopResult } from './settlement-loop.ts';
import type { ResolutionProbeResult } from './resolution-probe.ts';

const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');

/** exchange-rate as text. */
export function formatExchangeRate(r: ExchangeRateResult): string {
  const header = ['N', ...r.rhos.map((x) => `ρ=${x} sim`), ...r.rhos.map((x) => `ρ=${x} theory`)];
  const rows = r.ns.map((n) => [
    String(n),
    ...r.rhos.map((rho) => {
      const p = r.points.find((q) => q.rho === rho && q.n === n)!;
      return pm(p.simulated, p.se);
    }),
    ...r.rhos.map((rho) => f3(r.points.find((q) => q.rho === rho && q.n === n)!.theory)),
  ]);
  const pen = r.penalty.map((p) => [
    String(p.rho),
    String(p.n),
    p.empiricalLog2 === null ? `> ${Math.log2(r.ns[r.ns.length - 1]!)}` : p.empiricalLog2.toFixed(2),
    p.exactLog2.toFixed(2),
    p.asymptoticLog2.toFixed(2),
  ]);
  return [
    `exchange-rate: joint-Gaussian model, ${r.replicates} Monte Carlo replicates (seed ${r.seed}); E[gold of the proxy's pick], gold and proxy standard normal`,
    'theory = ρ·E[max of N standard normals], the expectation integrated exactly (not √(2 ln N))',
    '',
    formatTable(header, rows),
    '',
    'compute penalty: log2 N′ such that a proxy of correlation ρ at N′ matches the sound verifier at N',
    formatTable(['ρ', 'N', 'log2 N′ empirical', 'log2 N′ exact', 'log2 N′ asymptotic N^(1/ρ²)'], pen),
    '',
    `max |simulated − theory| = ${f3(r.maxAbsDeviation.value)} (SE there ${f3(r.maxAbsDeviation.se)}; ρ=${r.maxAbsDeviation.rho}, N=${r.maxAbsDeviation.n}); max |z| = ${r.maxAbsZ.toFixed(2)}`,
    `max |log2 N′ empirical − exact| = ${pm(r.maxEmpiricalVsExactLog2.value, r.maxEmpiricalVsExactLog2.se)} over ${r.maxEmpiricalVsExactLog2.pairs} pairs with N′ in range (ρ=${r.maxEmpiricalVsExactLog2.rho}, N=${r.maxEmpiricalVsExactLog2.n})`,
    `max |log2 N′ asymptotic − exact| = ${f3(r.maxAsymptoticVsExactLog2.value)} over the same pairs (ρ=${r.maxAsymptoticVsExactLog2.rho}, N=${r.maxAsymptoticVsExactLog2.n})`,
  ].join('\n');
}

/** copula as text. */
export function formatCopula(r: CopulaResult): string {
  const out = [
    `copula: ${r.source}; ${r.problems} problems, N = 2..2^${r.maxLog2}`,
    'Snd@N per problem: measured vs Gaussian-copula (Spearman → r = 2 sin(πρ/6), empirical gold margin) vs Pearson (joint Gaussian) predictions',
    '',
  ];
  for (const v of r.verifiers) {
    out.push(
      `${v.verifier}: median |copula − measured| = ${pm(v.copulaMedianAbsErr.value, v.copulaMedianAbsErr.se)}, median |Pearson − measured| = ${pm(v.pearsonMedianAbsErr.value, v.pearsonMedianAbsErr.se)} (${v.pairs} pairs, ${v.problems} problems; bootstrap SE)`,
      formatTable(
        ['N', 'mean measured', 'mean copula', 'mean Pearson', 'median |err| copula', 'median |err| Pearson'],
        v.perN.map((p) => [String(p.n), f3(p.measuredMean), f3(p.copulaMean), f3(p.pearsonMean), f3(p.copula), f3(p.pearson)]),
      ),
      '',
    );
  }
  return out.join('\n').trimEnd();
}

/** adversary as text (every `stride`-th step). */
export function formatAdversary(r: AdversaryResult): string {
  const stride = Math.max(1, Math.round(r.steps / 10));
  const steps = Array.from({ length: r.steps + 1 }, (_, s) => s).filter((s) => s % stride === 0 || s === r.steps);
  const out = [
    `adversary ${r.domain}: ${r.tasks} tasks, seed ${r.seed}, ${r.steps} steps, anchored settles visited programs every ${r.every} steps, ${r.base} base labels`,
    'champion gold / proxy − gold (mean ± SE over tasks)',
    '',
  ];
  for (const s of r.series) {
    out.push(
      `${s.adversary} vs ${s.target}${s.target === 'anchored' ? ` — reality queries ${pm(s.queries.mean, s.queries.se, 1)}` : ''}${s.adversary === 'settlement-aware' ? `, restarts ${pm(s.restarts.mean, s.restarts.se, 1)}` : ''}`,
    );
    out.push(
      formatTable(
        ['step', 'gold', 'proxy − gold'],
        steps.map((t) => [String(t), pm(s.gold[t]!.mean, s.gold[t]!.se), pm(s.gap[t]!.mean, s.gap[t]!.se)]),
      ),
      '',
    );
  }
  return out.join('\n').trimEnd();
}

/** settlement-scaling as text. */
export function formatScaling(r: ScalingResult): string {
  const header = ['S', ...r.strategies.map((s) => s.strategy)];
  const rows = r.budgets.map((b, i) => [String(b), ...r.strategies.map((s) => pm(s.auc[i]!.auc, s.auc[i]!.se))]);
  return [
    `settlement-scaling ${r.domain}: ${r.tasks} tasks, seed ${r.seed}; Snd AUC over N = 2^0..2^${r.maxLog2} on a fresh pool of ${r.evalPool} (± delta-method SE over tasks)`,
    '',
    formatTable(header, rows),
    '',
    ...r.strategies.map(
      (s) =>
        `${s.strategy}: AUC ≈ ${f3(s.trend.intercept)} + ${pm(s.trend.slope, s.trend.slopeSe)} · log2 S, R² = ${f3(s.trend.r2)}`,
    ),
  ].join('\n');
}

/** resolution as text. */
export function formatResolution(r: ResolutionResult): string {
  const rows = r.perRound.map((x) => [
    String(x.round),
    pm(x.anchored.reliability.mean, x.anchored.reliability.se),
    pm(x.frozen.reliability.mean, x.frozen.reliability.se),
    pm(x.anchored.resolution.mean, x.anchored.resolution.se),
    pm(x.frozen.resolution.mean, x.frozen.resolution.se),
    pm(x.anchored.brier.mean, x.anchored.brier.se),
    pm(x.frozen.brier.mean, x.frozen.brier.se),
    pm(x.anchored.baseRate.mean, x.anchored.baseRate.se),
    pm(x.anchored.meanForecast.mean, x.anchored.meanForecast.se),
  ]);
  return [
    `resolution ${r.domain}: ${r.tasks} tasks, seed ${r.seed}, ${r.rounds} rounds, pool ${r.pool}, ${r.claims} claims "gold ≥ ${r.threshold}" per round, ${r.base} base labels`,
    "Brier decomposition (10 bins) of each round's claims, out of sample (before the refit); mean ± SE over tasks",
    '',
    formatTable(
      [
        'round',
        'reliability anch.',
        'reliability frozen',
        'resolution anch.',
        'resolution frozen',
        'Brier anch.',
        'Brier frozen',
        'base rate anch.',
        'mean p anch.',
      ],
      rows,
    ),
  ].join('\n');
}

/** resolution-probe as text: one table per window, a row per predictor. */
export function formatResolutionProbe(r: ResolutionProbeResult): string {
  const opt = (x: number | null): string => (x === null ? 'n/a' : f3(x));
  const out = [
    `resolution-probe ${r.runDir} ${r.arm}: features ${r.features.join(' + ')} (${r.dims} dims), ${r.baseLabels} base labels, groups of ${r.groupSize}, windows of ${r.every} steps`,
    'rho: mean within-group Spearman(RM, gold) over the groups whose gold varies; snd: Snd@G; mae: mean |RM − gold|',
  ];
  for (const w of r.windows) {
    out.push('', `window ${w.window} (${w.completions} completions)`);
    out.push(
      formatTable(
        ['predictor', 'rho', 'groups', 'snd', 'mae'],
        w.rows.map((row) =>
          row.score === null
            ? [row.name, 'n/a', '', '', '']
            : [row.name, opt(row.score.rho), String(row.score.groups), opt(row.score.snd), f3(row.score.mae)],
        ),
      ),
    );
  }
  return out.join('\n');
}

/** The headline table as Markdown. */
export function headlinesMarkdown(rows: readonly Headline[]): string {
  const num = (x: number): string => (Number.isFinite(x) ? (Math.abs(x) >= 100 ? x.toFixed(1) : x.toFixed(4)) : '–');
  return markdownTable(
    ['experiment', 'figure', 'value', 'SE', 'note'],
    rows.map((h) => [h.experiment, h.figure, num(h.value), num(h.se), h.note ?? '']),
    [false, false, true, true, false],
  ).join('\n');
}

/** The Goodhart result as text. */
export function formatGoodhart(r: GoodhartResult): string {
  const names = r.verifiers.map((v) => v.name);
  const header = ['N', 'execution', ...names.flatMap((n) => [n, `Snd@N ${n}`])];
  const rows = r.rows.map((row) => [
    String(row.n),
    pm(row.execution.mean, row.execution.se),
    ...names.flatMap((n) => [pm(row.learned[n]!.mean, row.learned[n]!.se), pm(row.snd[n]!.value, row.snd[n]!.se)]),
  ]);
  const out = [
    `goodhart ${r.domain}: ${r.tasks} tasks, seed ${r.seed}, ${r.train} labelled programs per task, pool ${r.pool}, ridge alpha ${r.alpha}`,
    'mean gold of the best-of-N pick (± SE over tasks); Snd@N = ratio of means (± delta-method SE)',
    '',
    formatTable(header, rows),
    '',
    ...r.verifiers.map(
      (v) =>
        `${v.name} (${v.model} on ${v.dim} features${v.note ? '; ' + v.note : ''}): AUC of Snd@N over log N = ${r.auc[v.name]!.toFixed(3)}, ` +
        `Spearman(proxy, gold) on the pool = ${pm(r.spearman[v.name]!.mean, r.spearman[v.name]!.se)}`,
    ),
    `pool mean gold (a random pick) = ${pm(r.poolMeanGold.mean, r.poolMeanGold.se)}`,
  ];
  return out.join('\n');
}

/** The settlement-loop result as text. */
export function formatSettlement(r: SettlementLoopResult): string {
  const rows = r.perRound.map((x) => [
    String(x.round),
    pm(x.anchored.gold.mean, x.anchored.gold.se),
    pm(x.frozen.gold.mean, x.frozen.gold.se),
    pm(x.anchored.drift.mean, x.anchored.drift.se),
    pm(x.frozen.drift.mean, x.frozen.drift.se),
    pm(x.diff.gold.mean, x.diff.gold.se),
    pm(x.diff.drift.mean, x.diff.drift.se),
    pm(x.oracleTopGold.mean, x.oracleTopGold.se),
    pm(x.poolGold.mean, x.poolGold.se),
  ]);
  return [
    `settlement-loop ${r.domain}: ${r.tasks} tasks, seed ${r.seed}, ${r.rounds} rounds, pool ${r.pool}, settle top ${r.top}, ${r.base} base labels, verifier ${r.verifier.name} (${r.verifier.model} on ${r.verifier.dim} features${r.verifier.model === 'ridge' ? `, alpha ${r.alpha}` : ''})`,
    'gold = mean gold of the top selection; drift = mean |proxy - gold| on the settled, before refit (± SE over tasks);',
    'Δ = paired per-task difference anchored − frozen (same tasks and pools) ± its SE',
    '',
    formatTable(
      [
        'round',
        'gold anchored',
        'gold frozen',
        'drift anchored',
        'drift frozen',
        'Δgold (a−f)',
        'Δdrift (a−f)',
        'oracle top-k gold',
        'pool gold',
      ],
      rows,
    ),
    '',
    `anchored ends with ${r.anchoredFinalLabels} labels; frozen keeps ${r.base}`,
  ].join('\n');
}
