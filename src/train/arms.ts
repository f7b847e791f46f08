/**
 * The arm registry. Arms are data: where the training reward comes from, where the reward
 * model's refit labels come from (if it is refitted at all), and config overlays. Adding an
 * arm is adding an entry here or an inline definition in a run config — never a trainer copy.
 */
import { z } from 'zod';
import { deepMerge } from '../config/overrides.ts';
import { dirNameSchema } from '../config/validate.ts';
import { AnchorError } from '../util/errors.ts';
import { DEFAULT_ARMS } from './default-arms.ts';
import { LABEL_SOURCE_NAMES, type LabelSourceName } from './label-sources.ts';
import { REWARD_SOURCES, REWARD_SOURCE_NAMES, type RewardSource, type RewardSourceName } from './reward-sources.ts';
import { updaterOf } from './updaters.ts';

/** One arm. */
export interface ArmSpec {
  name: string;
  describe: string;
  /** The reward GRPO optimises. */
  reward: RewardSourceName;
  /** Refit labels source at each settlement window; null = the RM is never refitted. */
  labels: LabelSourceName | null;
  /**
   * Every policy update passes the pre-action gate (`gate:` in the run config) before it is
   * committed, with a failure library and salience memory (./gated-step.ts). Needs reward `rm`
   * and labels `execution`: the gate's settled gaps and verifications are executed gold.
   */
  gate?: boolean;
  /** Run-config overlay applied to this arm only (deep-merged before validation). */
  overlay: Record<string, unknown>;
}

/** The settlement overlay of `settled-gao-hold`, which its variants extend. */
const SETTLED_GAO_HOLD = {
  strategy: 'groups',
  adaptive: { enabled: true, signal: 'gao', growth: 1, rm_weight: 0, release: 3 },
};

/** The built-in arms (docs/design.md, "The core experiment"). */
export const ARM_REGISTRY: Record<string, ArmSpec> = {
  frozen: {
    name: 'frozen',
    describe: 'RM score; RM fitted once on executed base-policy samples, never again',
    reward: 'rm',
    labels: null,
    overlay: {},
  },
  anchored: {
    name: 'anchored',
    describe: 'RM score; RM refitted every window on the settled (executed) sample',
    reward: 'rm',
    labels: 'execution',
    overlay: {},
  },
  execution: {
    name: 'execution',
    describe: 'executed test pass fraction (the sound ceiling)',
    reward: 'execution',
    labels: null,
    overlay: {},
  },
  judge: {
    name: 'judge',
    describe: 'RM score; RM refitted every window on labels from a judge that does not execute',
    reward: 'rm',
    labels: 'judge',
    overlay: {},
  },
  gated: {
    name: 'gated',
    describe:
      'anchored + pre-action gate: every update passes oracle, simulator, critic and gate before it is committed; failure library and memory',
    reward: 'rm',
    labels: 'execution',
    gate: true,
    overlay: {},
  },
  'anchored-top-proxy': {
    name: 'anchored-top-proxy',
    describe:
      'anchored, but each window settles the completions the RM rates highest (where selection pressure concentrates) — same budget',
    reward: 'rm',
    labels: 'execution',
    overlay: { settlement: { strategy: 'top-proxy' } },
  },
  'anchored-gao': {
    name: 'anchored-gao',
    describe:
      'anchored with a Gao thermostat: RM advantages are zeroed while the settled-label early warning (a Gao et al. fit on settled labels alone) says the policy is past its peak — same budget',
    reward: 'rm',
    labels: 'execution',
    overlay: { settlement: { adaptive: { enabled: true, signal: 'gao', growth: 1, rm_weight: 0 } } },
  },
  'anchored-weighted': {
    name: 'anchored-weighted',
    describe:
      'anchored, refitted by weighted ridge: settled labels weigh 4 (their 384 then weigh about what the 1,600 base labels do) and decay with a half-life of 3 windows — same budget',
    reward: 'rm',
    labels: 'execution',
    overlay: { settlement: { label_weight: 4, half_life: 3 } },
  },
  'anchored-groups': {
    name: 'anchored-groups',
    describe: 'anchored, settling whole GRPO groups and refitting with a within-group pairwise (ranking) term — same budget',
    reward: 'rm',
    labels: 'execution',
    overlay: { settlement: { strategy: 'groups', objective: 'pairwise', pairwise_weight: 1 } },
  },
  hybrid: {
    name: 'hybrid',
    describe:
      'instant settlement: σ of every step executed before the update, their gold replaces the RM score; the RM refits on them at each window end — same budget',
    reward: 'hybrid',
    labels: 'execution',
    overlay: {},
  },
  'settled-groups': {
    name: 'settled-groups',
    describe:
      'control without a reward model: σ of the groups executed as they are rolled out and trained on their gold alone (GRPO on execution over 10% of the data) — same budget',
    reward: 'settled',
    labels: 'execution',
    overlay: { settlement: { strategy: 'groups' } },
  },
  'settled-gao': {
    name: 'settled-gao',
    describe:
      "settled groups + the RM under a Gao thermostat: σ of the groups executed as rolled out train on their gold; the other groups train on the RM's score, zeroed while the settled-label early warning fires — same budget",
    reward: 'settled-rm',
    labels: 'execution',
    overlay: {
      settlement: { strategy: 'groups', adaptive: { enabled: true, signal: 'gao', growth: 1, rm_weight: 0 } },
    },
  },
  'settled-gao-hold': {
    name: 'settled-gao-hold',
    describe:
      "settled-gao with a steadier thermostat: once the settled-label early warning fires, the RM's groups stay silenced until 3 refits in a row are quiet (settlement.adaptive.release 3), so one noisy window does not hand the policy back to the RM — same budget",
    reward: 'settled-rm',
    labels: 'execution',
    overlay: { settlement: SETTLED_GAO_HOLD },
  },
  'settled-gao-rollback': {
    name: 'settled-gao-rollback',
    describe:
      'settled-gao-hold with a rollback to the best settled window: the policy and its optimizer are restored to the end of the window with the best mean settled gold when a later window falls more than 1 SE below it or the alarm rises, and the RM stays silenced from then on — same budget',
    reward: 'settled-rm',
    labels: 'execution',
    overlay: {
      settlement: { ...SETTLED_GAO_HOLD, rollback: { enabled: true, z: 1, on_alarm: true } },
    },
  },
  'settled-gao-rmgate': {
    name: 'settled-gao-rmgate',
    describe:
      "settled-gao-hold with an RM quality gate: the RM's groups are also silenced in the window after one whose settled labels it ranked below 0.5 pairwise accuracy out of sample — same budget",
    reward: 'settled-rm',
    labels: 'execution',
    overlay: {
      settlement: { ...SETTLED_GAO_HOLD, rm_gate: { min_pair_acc: 0.5 } },
    },
  },
  'settled-gao-mask': {
    name: 'settled-gao-mask',
    describe:
      'settled-gao-hold whose silenced RM groups leave the loss (proxy.silenced mask): while silenced, the loss is normalised over the executed groups alone — same budget',
    reward: 'settled-rm',
    labels: 'execution',
    overlay: { settlement: SETTLED_GAO_HOLD, proxy: { silenced: 'mask' } },
  },
  ensemble: {
    name: 'ensemble',
    describe:
      'anchored with a conservative ensemble reward: mean − 1·std of 8 bootstrap members of the RM, refitted with it every window — same budget',
    reward: 'rm',
    labels: 'execution',
    overlay: { proxy: { ensemble: { members: 8, mode: 'std', lambda: 1 } } },
  },
  'anchored-par': {
    name: 'anchored-par',
    describe: "anchored with PAR shaping: σ((r − r_base)/0.1), centred on the base policy's mean gold — same budget",
    reward: 'rm',
    labels: 'execution',
    overlay: { proxy: { par: { enabled: true, scale: 0.1 } } },
  },
  'anchored-uncertainty': {
    name: 'anchored-uncertainty',
    describe: 'anchored, but each window settles the completions a bootstrap committee of RMs disagrees on most — same budget',
    reward: 'rm',
    labels: 'execution',
    overlay: { settlement: { strategy: 'uncertainty' } },
  },
};

/** An inline arm definition in a run config. */
export const armDefinitionSchema = z
  .object({
    name: dirNameSchema.describe("The arm's name: its directory in the run (letters, digits, _ . -)."),
    extends: z
      .string()
      .optional()
      .describe('A registry arm or an earlier arm whose reward, labels, gate and overlay this one starts from.'),
    describe: z.string().optional().describe('One line shown in the compare table and the report.'),
    reward: z
      .enum(REWARD_SOURCE_NAMES)
      .optional()
      .describe('The reward GRPO optimises (`rm` learned reward model, `execution` executed test pass fraction, ...).'),
    labels: z
      .enum(LABEL_SOURCE_NAMES)
      .nullable()
      .optional()
      .describe("Where the RM's refit labels come from at each settlement window; null = the RM is never refitted."),
    gate: z
      .boolean()
      .optional()
      .describe(
        'Every policy update passes the pre-action gate (`gate:`) before it is committed; needs reward `rm` and labels `execution`.',
      ),
    overlay: z
      .record(z.string(), z.unknown())
      .default({})
      .describe('Run-config overlay applied to this arm only (deep-merged over the run config, then validated).'),
  })
  .strict();

/** `arms:` entries: a registry name or an inline definition. */
export const armsConfigSchema = z
  .array(z.union([z.string().min(1), armDefinitionSchema]))
  .min(1)
  .default([...DEFAULT_ARMS]);

/** Resolve `arms:` entries to specs; unknown names and duplicates are BAD_CONFIG. */
export function resolveArms(entries: readonly (string | z.output<typeof armDefinitionSchema>)[]): ArmSpec[] {
  const out: ArmSpec[] = [];
  const known = (name: string, where: string): ArmSpec => {
    const spec = ARM_REGISTRY[name] ?? out.find((a) => a.name === name);
    if (!spec) {
      throw new AnchorError(
        'BAD_CONFIG',
        `${where}: unknown arm ${JSON.stringify(name)}; expected one of ${Object.keys(ARM_REGISTRY).join(', ')} or an inline definition`,
      );
    }
    return spec;
  };
  entries.forEach((entry, i) => {
    let spec: ArmSpec;
    if (typeof entry === 'string') {
      spec = known(entry, `arms[${i}]`);
    } else {
      const base = entry.extends ? known(entry.extends, `arms[${i}].extends`) : undefined;
      const reward = entry.reward ?? base?.reward;
      if (!reward)
        throw new AnchorError(
          'BAD_CONFIG',
          `arms[${i}] (${entry.name}): give \`reward\` (${REWARD_SOURCE_NAMES.join(' | ')}) or \`extends\``,
        );
      spec = {
        name: entry.name,
        describe: entry.describe ?? `custom arm${base ? ` extending ${base.name}` : ''}`,
        reward,
        labels: entry.labels !== undefined ? entry.labels : (base?.labels ?? null),
        overlay: deepMerge(base?.overlay ?? {}, entry.overlay),
      };
      const gate = entry.gate ?? base?.gate;
      if (gate) spec.gate = true;
    }
    checkNeeds(spec, i);
    if (out.some((a) => a.name === spec.name))
      throw new AnchorError('BAD_CONFIG', `arms[${i}]: arm ${JSON.stringify(spec.name)} listed twice`);
    out.push(spec);
  });
  return out;
}

/**
 * An arm's parts must fit together as their registries declare: the reward source's refit labels
 * (instantly settled labels are executed) and the updater's requirements (the gate settles and
 * verifies by execution). BAD_CONFIG names the arm and the rule.
 */
function checkNeeds(spec: ArmSpec, i: number): void {
  const where = `arms[${i}] (${spec.name})`;
  const source: RewardSource = REWARD_SOURCES[spec.reward];
  const labels = source.needsLabels;
  if (labels && spec.labels !== labels) {
    throw new AnchorError(
      'BAD_CONFIG',
      `${where}: a ${spec.reward} arm needs labels ${labels} (its instantly settled labels refit the RM)`,
    );
  }
  const updater = updaterOf(spec);
  const req = updater.requires;
  if (req && (!req.rewards.includes(spec.reward) || spec.labels !== req.labels)) {
    throw new AnchorError(
      'BAD_CONFIG',
      `${where}: a ${updater.name} arm needs reward ${req.rewards.join(' or ')} and labels ${req.labels} (${req.why})`,
    );
  }
}
