/**
 * `anchor-rl validate-loop [--seed S] [--json] [--rounds T] [--modes N]`: the design's numerical
 * validation of the pre-action gate, run on the same gate modules the training loop uses
 * (src/research/gate-validation.ts). Prints each check with its figures and PASS/FAIL; exit code 1 if any
 * check fails.
 */
import type { Argv } from 'yargs';
import type { CommandBody } from '../command-body.ts';
import cliProgress from 'cli-progress';
import type { ValidationReport } from '../../research/gate-validation.ts';
import { VALIDATION_DEFAULTS } from '../../research/gate-validation-options.ts';
import { AnchorError } from '../../util/errors.ts';

interface ValidateLoopArgs {
  seed: number;
  json: boolean;
  rounds: number;
  modes: number;
}

/** Show a progress bar only once the run has taken this long (most runs finish sooner). */
const BAR_AFTER_MS = 2000;

/** The `validate-loop` command. */
export const validateLoopCommand: CommandBody<object, ValidateLoopArgs> = {
  builder: (y) =>
    y
      .option('seed', { type: 'number', default: VALIDATION_DEFAULTS.seed, describe: 'Seed of the simulation' })
      .option('json', { type: 'boolean', default: false, describe: 'Print the result as JSON' })
      .option('rounds', { type: 'number', default: VALIDATION_DEFAULTS.rounds, describe: 'Rounds T (proposed actions)' })
      .option('modes', {
        type: 'number',
        default: VALIDATION_DEFAULTS.modes,
        describe: 'Failure modes N (Zipf 1.1 frequencies)',
      }) as Argv<ValidateLoopArgs>,
  handler: async (args) => {
    const started = Date.now();
    let bar: cliProgress.SingleBar | undefined;
    const { runValidation } = await import('../../research/gate-validation.ts');
    const report = await runValidation({
      seed: args.seed,
      rounds: args.rounds,
      modes: args.modes,
      onProgress: (done, total) => {
        if (!bar && process.stderr.isTTY && Date.now() - started > BAR_AFTER_MS) {
          bar = new cliProgress.SingleBar(
            { format: 'validate-loop [{bar}] {value}/{total} rounds', stream: process.stderr, hideCursor: true },
            cliProgress.Presets.shades_classic,
          );
          bar.start(total, done);
        }
        bar?.update(done);
      },
    }).finally(() => bar?.stop());
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(args.json ? JSON.stringify(report, null, 2) + '\n' : formatReport(report, seconds));
    const failed = report.checks.filter((c) => !c.pass);
    if (failed.length > 0) {
      throw new AnchorError(
        'RUN_FAILED',
        `validate-loop: ${failed.length} of ${report.checks.length} checks failed: ${failed.map((c) => c.name).join('; ')}`,
      );
    }
  },
};

function formatReport(r: ValidationReport, seconds: number): string {
  const p = r.params;
  const lines = [
    `validate-loop: seed ${p.seed}, T = ${p.rounds} rounds, N = ${p.modes} modes (Zipf ${p.alpha}), epsilon = ${p.epsilon}, violation rate ${p.violationRate}`,
    `  world: latent-failure rate ${p.failureRate}, ${p.exploitItems}/${p.windowSize} exploiting completions per failing update, forged-claim rate ${p.fabricationRate}, missing-authorisation rate ${p.authMissingRate}`,
    `  gate passes (a MODIFY is followed by a re-gate of the modified update in the same round): ${Object.entries(r.decisions)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `  escalation: ${r.escalation.count} ESCALATE (${r.escalation.inFirstTenth} in the first tenth; rounds ${r.escalation.firstRound ?? '-'}..${r.escalation.lastRound ?? '-'}), settlement rate up to ${r.escalation.maxSettlementRate}, probe depth up to ${r.escalation.maxDepth}`,
    '',
  ];
  for (const c of r.checks) lines.push(`${c.pass ? 'PASS' : 'FAIL'}  ${c.name}`, `      ${c.detail}`);
  lines.push('', `${r.ok ? 'all checks passed' : 'SOME CHECKS FAILED'} (${seconds.toFixed(1)} s)`);
  return lines.join('\n') + '\n';
}
