/**
 * `anchor-rl snd --pool FILE.jsonl [--json] [--max-log2 K]`: Soundness-under-Pressure of every
 * verifier in a scored candidate pool.
 *
 * Pool records, one JSON object per line:
 *   {"problem": "id", "candidate": "...", "scores": {"verifierName": number, ...}, "gold": number}
 * Every record must score the same verifiers. Also reports Spearman/Pearson(score, gold) over all
 * records and, for verifiers whose scores lie in [0, 1], the Brier decomposition.
 */
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { Argv } from 'yargs';
import type { CommandBody } from '../command-body.ts';
import { AnchorError } from '../../util/errors.ts';
import { stripBom } from '../../util/text.ts';
import { sndCurve, type SndResult } from '../../research/verifiers/snd.ts';
import { pearson, spearman } from '../../util/correlation.ts';
import { brierDecomposition, type BrierResult } from '../../research/verifiers/brier.ts';
import { formatTable, pm } from '../../util/table.ts';

/** One pool record. */
export interface PoolRecord {
  problem: string;
  candidate: string;
  scores: Record<string, number>;
  gold: number;
}

/** Read and validate a pool file (.jsonl or .jsonl.gz). */
export async function readPool(path: string): Promise<PoolRecord[]> {
  if (!existsSync(path)) throw new AnchorError('NOT_FOUND', `pool file not found: ${path}`);
  const raw = createReadStream(path);
  const input = path.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  const out: PoolRecord[] = [];
  let names: string[] | undefined;
  let lineNo = 0;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    lineNo++;
    if (!line.trim()) continue;
    let rec: unknown;
    try {
      rec = JSON.parse(lineNo === 1 ? stripBom(line) : line);
    } catch {
      throw new AnchorError('BAD_DATASET', `${path}:${lineNo}: not valid JSON`);
    }
    const r = rec as Partial<PoolRecord>;
    const bad = (why: string): AnchorError => new AnchorError('BAD_DATASET', `${path}:${lineNo}: ${why}`);
    if (typeof r.problem !== 'string' && typeof r.problem !== 'number') throw bad('"problem" must be a string');
    if (typeof r.gold !== 'number' || !Number.isFinite(r.gold)) throw bad('"gold" must be a finite number');
    if (typeof r.scores !== 'object' || r.scores === null || Array.isArray(r.scores))
      throw bad('"scores" must be an object of verifier name -> number');
    const keys = Object.keys(r.scores).sort();
    if (keys.length === 0) throw bad('"scores" is empty');
    for (const k of keys)
      if (typeof r.scores[k] !== 'number' || !Number.isFinite(r.scores[k])) throw bad(`score "${k}" must be a finite number`);
    names ??= keys;
    if (keys.join('\u0000') !== names.join('\u0000'))
      throw bad(`scores verifiers [${keys.join(', ')}] differ from the first record's [${names.join(', ')}]`);
    out.push({ problem: String(r.problem), candidate: String(r.candidate ?? ''), scores: r.scores, gold: r.gold });
  }
  if (out.length === 0) throw new AnchorError('BAD_DATASET', `${path}: no records`);
  return out;
}

/** Per-verifier report of {@link analysePool}. */
export interface VerifierReport {
  name: string;
  snd: SndResult;
  spearman: number;
  pearson: number;
  brier?: BrierResult;
}

/** Snd@N, correlations and (when applicable) Brier for every verifier in the pool. */
export function analysePool(
  records: readonly PoolRecord[],
  maxLog2?: number,
): { problems: number; candidates: number; verifiers: VerifierReport[] } {
  const byProblem = new Map<string, PoolRecord[]>();
  for (const r of records) {
    const list = byProblem.get(r.problem);
    if (list) list.push(r);
    else byProblem.set(r.problem, [r]);
  }
  const names = Object.keys(records[0]!.scores).sort();
  const minPool = Math.min(...[...byProblem.values()].map((l) => l.length));
  if (maxLog2 !== undefined && 2 ** maxLog2 > minPool) {
    throw new AnchorError(
      'BAD_ARGUMENT',
      `--max-log2 ${maxLog2} needs at least ${2 ** maxLog2} candidates per problem; the smallest pool has ${minPool}`,
    );
  }
  const gold = records.map((r) => r.gold);
  const goldIn01 = gold.every((g) => g >= 0 && g <= 1);
  const verifiers = names.map((name) => {
    const pools = [...byProblem.values()].map((l) => ({ scores: l.map((r) => r.scores[name]!), gold: l.map((r) => r.gold) }));
    const scores = records.map((r) => r.scores[name]!);
    const rep: VerifierReport = {
      name,
      snd: sndCurve(pools, maxLog2),
      spearman: spearman(scores, gold),
      pearson: pearson(scores, gold),
    };
    if (goldIn01 && scores.every((s) => s >= 0 && s <= 1)) rep.brier = brierDecomposition(scores, gold);
    return rep;
  });
  return { problems: byProblem.size, candidates: records.length, verifiers };
}

interface SndArgs {
  pool: string;
  json: boolean;
  'max-log2'?: number;
}

/** `anchor-rl snd`. */
export const sndCommand: CommandBody<object, SndArgs> = {
  builder: (y) =>
    y
      .option('pool', {
        type: 'string',
        demandOption: true,
        describe: 'JSONL: {problem, candidate, scores: {verifier: number}, gold}',
      })
      .option('json', { type: 'boolean', default: false, describe: 'Print the result as JSON' })
      .option('max-log2', {
        type: 'number',
        describe: 'Largest log2 N (default: what the smallest pool allows)',
      }) as Argv<SndArgs>,
  handler: async (args) => {
    const k = args['max-log2'];
    if (k !== undefined && !(Number.isInteger(k) && k >= 0))
      throw new AnchorError('BAD_ARGUMENT', `--max-log2 must be a non-negative integer, got ${k}`);
    const res = analysePool(await readPool(args.pool), k);
    if (args.json) {
      process.stdout.write(JSON.stringify(res, null, 2) + '\n');
      return;
    }
    const ns = res.verifiers[0]!.snd.points.map((p) => p.n);
    const rows = ns.map((n, j) => [String(n), ...res.verifiers.map((v) => pm(v.snd.points[j]!.snd, v.snd.points[j]!.se))]);
    const lines = [
      `${res.candidates} candidates over ${res.problems} problems; Snd@N (± delta-method SE over problems)`,
      '',
      formatTable(['N', ...res.verifiers.map((v) => v.name)], rows),
      '',
      formatTable(
        ['verifier', 'AUC', 'Spearman', 'Pearson', 'Brier', 'reliability', 'resolution', 'uncertainty'],
        res.verifiers.map((v) => [
          v.name,
          v.snd.auc.toFixed(3),
          v.spearman.toFixed(3),
          v.pearson.toFixed(3),
          ...(v.brier
            ? [v.brier.brier, v.brier.reliability, v.brier.resolution, v.brier.uncertainty].map((x) => x.toFixed(4))
            : ['-', '-', '-', '-']),
        ]),
      ),
    ];
    process.stdout.write(lines.join('\n') + '\n');
  },
};
