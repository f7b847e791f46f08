/**
 * Re-judging a run (`anchor-rl audit RUN`, docs/gold-watch.md): every recorded pass of a run's
 * samples.jsonl — a pass under either verdict, of the real tests or of a canary — is executed
 * again under the current sandbox harness in strict mode, and every verdict that differs from
 * the one recorded is listed. After a sandbox fix this says which of a run's gold was a hole.
 *
 * Only reads the run directory (never writes into it).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordedRunConfig, runConfigSchema, type RunConfig } from './run-config.ts';
import type { Problem } from '../datasets/problem.ts';
import { createExecutorFromConfig } from '../sandbox/index.ts';
import { problemProgram } from '../sandbox/programs.ts';
import type { ExecStatus, Executor, ProgramSpec, VerdictMode } from '../sandbox/types.ts';
import { applyCanary } from '../tasks/canaries.ts';
import { AnchorError } from '../util/errors.ts';
import { loadProblems } from './assets.ts';
import { harnessHash } from './gold-watch.ts';
import type { SampleLine } from './run-format.ts';

/** One re-judged verdict that differs from the recorded one. */
interface AuditChange {
  arm: string;
  step: number;
  index: number;
  problem: string;
  /** `gold`: the real tests; `canary`: the sample's canary variant. */
  tests: 'gold' | 'canary';
  /** The verdict mode and status recorded (the strict status where it was recorded, else the run's verdict). */
  recorded: { verdict: VerdictMode; status: string };
  /** The strict status under the current harness. */
  now: ExecStatus;
  /** Harness hash the sample was recorded under (null: the run predates stamps). */
  harness: string | null;
}

/** What an audit found. */
export interface AuditReport {
  run: string;
  /** Hash of the harness the passes were re-judged under. */
  harness: string;
  /** Harness hashes the run's samples were recorded under. */
  recordedHarnesses: string[];
  /** Recorded passes re-executed, per arm. */
  rejudged: Record<string, number>;
  changed: AuditChange[];
  /** Sample lines skipped (problem no longer in the task, unreadable line), per arm. */
  skipped: Record<string, number>;
}

/** A recorded pass to re-judge. */
interface Job {
  arm: string;
  line: SampleLine;
  tests: 'gold' | 'canary';
  recorded: { verdict: VerdictMode; status: string };
  spec: ProgramSpec;
}

/** The run's config from its manifest, as its run ran it (keys added since: their earlier behaviour). */
function runConfig(runDir: string): { config: RunConfig; arms: string[] } {
  const p = join(runDir, 'manifest.json');
  if (!existsSync(p)) throw new AnchorError('NOT_FOUND', `${runDir}: not a run directory (no manifest.json)`);
  let manifest: { config?: unknown; arms?: unknown };
  try {
    manifest = JSON.parse(readFileSync(p, 'utf8'));
  } catch (err) {
    throw new AnchorError('BAD_ARGUMENT', `${p}: unreadable manifest (${(err as Error).message})`);
  }
  const parsed = runConfigSchema.safeParse(recordedRunConfig(manifest.config).config);
  if (!parsed.success)
    throw new AnchorError('BAD_ARGUMENT', `${p}: its config does not validate (${parsed.error.issues[0]?.message ?? ''})`);
  const arms = Array.isArray(manifest.arms) ? manifest.arms.filter((a): a is string => typeof a === 'string') : [];
  return { config: parsed.data, arms };
}

/** The recorded passes of one sample line, as jobs. */
function jobsOf(arm: string, line: SampleLine, problem: Problem, runVerdict: VerdictMode): Job[] {
  const jobs: Job[] = [];
  const verdict = line.verdict ?? runVerdict;
  const strictRecorded = line.verdicts?.strict ?? (verdict === 'strict' ? (line.status ?? null) : null);
  const passed = line.status === 'pass' || line.verdicts?.strict === 'pass' || line.verdicts?.parity === 'pass';
  if (passed) {
    jobs.push({
      arm,
      line,
      tests: 'gold',
      recorded:
        strictRecorded !== null ? { verdict: 'strict', status: strictRecorded } : { verdict, status: line.status ?? 'pass' },
      // The step's draw of the problem's random sources, as the verdict was recorded.
      spec: problemProgram(problem, line.text, `${arm}#${line.step}#${line.index}`, line.step),
    });
  }
  const c = line.canary;
  if (c && (c.strict === 'pass' || c.parity === 'pass')) {
    const variant = applyCanary(problem, c);
    if (variant)
      jobs.push({
        arm,
        line,
        tests: 'canary',
        recorded: c.strict !== null ? { verdict: 'strict', status: c.strict } : { verdict: 'parity', status: c.parity ?? 'pass' },
        spec: problemProgram(variant, line.text, `${arm}#${line.step}#${line.index}#canary`, line.step),
      });
  }
  return jobs;
}

/**
 * Re-judge a run's recorded passes under the current harness in strict mode. `executor` defaults
 * to one built from the run's `sandbox` config with `verdict: strict` and the run's seed.
 */
export async function auditRun(
  runDir: string,
  opts: { arms?: readonly string[]; executor?: Executor } = {},
): Promise<AuditReport> {
  const { config, arms: allArms } = runConfig(runDir);
  const arms = opts.arms?.length ? [...opts.arms] : allArms;
  for (const a of arms)
    if (!allArms.includes(a))
      throw new AnchorError('BAD_ARGUMENT', `--arm ${a}: not an arm of ${runDir} (have: ${allArms.join(', ')})`);
  const { train } = loadProblems(config);
  const byId = new Map(train.map((p) => [p.id, p]));
  const jobs: Job[] = [];
  const skipped: Record<string, number> = {};
  const rejudged: Record<string, number> = {};
  const harnesses = new Set<string>();
  for (const arm of arms) {
    skipped[arm] = 0;
    rejudged[arm] = 0;
    const file = join(runDir, arm, 'samples.jsonl');
    if (!existsSync(file)) continue;
    for (const raw of readFileSync(file, 'utf8').split('\n')) {
      if (!raw.trim()) continue;
      let line: SampleLine;
      try {
        line = JSON.parse(raw) as SampleLine;
      } catch {
        skipped[arm]++;
        continue;
      }
      if (typeof line?.text !== 'string' || typeof line.problem !== 'string') {
        skipped[arm]++;
        continue;
      }
      if (line.harness) harnesses.add(line.harness);
      const problem = byId.get(line.problem);
      const js = problem ? jobsOf(arm, line, problem, config.sandbox.verdict) : [];
      if (!problem && line.status === 'pass') skipped[arm]++;
      rejudged[arm] += js.length;
      jobs.push(...js);
    }
  }
  const executor = opts.executor ?? createExecutorFromConfig({ ...config.sandbox, verdict: 'strict' }, config.seed);
  try {
    const results = jobs.length ? await executor.run(jobs.map((j) => j.spec)) : [];
    const changed: AuditChange[] = [];
    jobs.forEach((j, i) => {
      const now = results[i]!.status;
      if (now === j.recorded.status) return;
      changed.push({
        arm: j.arm,
        step: j.line.step,
        index: j.line.index,
        problem: j.line.problem,
        tests: j.tests,
        recorded: j.recorded,
        now,
        harness: j.line.harness ?? null,
      });
    });
    return { run: runDir, harness: harnessHash(), recordedHarnesses: [...harnesses].sort(), rejudged, changed, skipped };
  } finally {
    if (!opts.executor) await executor.close();
  }
}
