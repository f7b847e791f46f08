/**
 * One arm's "anchoring" in a line: the reward model's kind and key options, and the settlement
 * controls that silence or roll back its reward (`settlement.rm_gate`, `settlement.rollback`,
 * `proxy.silenced`). compare (text, markdown, JSON), the HTML report's arm table and the live
 * view's arm summary all show this one string, so they cannot disagree about what an arm ran.
 */
import type { z } from 'zod';
import { deepMerge } from '../config/overrides.ts';
import { rewardModelBlockSchema, transformerConfigSchema } from '../reward/models/config.ts';
import { ARM_REGISTRY, resolveArms } from '../train/arms.ts';
import { proxyConfigSchema, settlementConfigSchema } from '../train/config.ts';
import type { RunData } from './read-run.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/**
 * The config arm `arm` trained with: the run's config (manifest.json) under the arm's overlay
 * (inline or the registry's), as the arm process merges them. Null when the run has no config in its manifest.
 */
function armConfig(run: RunData, arm: string): Obj | null {
  // An arm merged from another run (compare --pair-by-seed) ran with that run's config, under the
  // registry name it had there.
  const origin = run.arms?.find((a) => a.name === arm)?.origin;
  const c = (origin ? origin.manifest : run.manifest)?.config;
  if (!c || typeof c !== 'object') return null;
  return deepMerge(c as Obj, armOverlay(c as Obj, origin?.name ?? arm));
}

/**
 * The overlay arm `name` trains with: an inline arm of the config's `arms` (a sweep's grid cell,
 * `extends` merged as the trainer merges it), else the registry's arm.
 */
function armOverlay(config: Obj, name: string): Obj {
  try {
    const entries = (Array.isArray(config.arms) ? config.arms : []) as Parameters<typeof resolveArms>[0];
    const spec = resolveArms(entries).find((a) => a.name === name);
    if (spec) return obj(spec.overlay);
  } catch {
    // An arms list this version no longer reads (written by an older one): the registry's arm.
  }
  return obj(ARM_REGISTRY[name]?.overlay);
}

/**
 * One block of an arm's config with its schema's defaults filled in, so the description names
 * what the arm ran with even where the manifest leaves a key out, and a default changed in the
 * schema changes the description with it. A block that no longer validates (a manifest written
 * by an older version) keeps its own keys over the schema's defaults.
 */
function withDefaults(schema: z.ZodType, raw: unknown): Obj {
  const parsed = schema.safeParse(raw ?? {});
  return parsed.success ? obj(parsed.data) : deepMerge(obj(schema.parse({})), obj(raw));
}

/**
 * Whether a recorded transformer block is a resolved one (manifests record every key) written
 * before `fast` existed, when the whole trunk ran on every batch: every other key, not that one.
 */
function resolvedBeforeFast(recorded: Obj): boolean {
  const keys = Object.keys(transformerConfigSchema.parse({})).filter((k) => k !== 'fast');
  return !('fast' in recorded) && keys.every((k) => k in recorded);
}

/**
 * The anchoring description of arm `arm` in `run`, e.g.
 * `RM transformer (heads 4, pairwise 0.5); rm_gate pair acc < 0.5; rollback z 1, on alarm; silenced mask`.
 * Only controls that are on are named; the silenced mode is named where some control can silence
 * the RM (an alarm, the gate or a rollback). Null when the run's config is unknown.
 */
export function armAnchoring(run: RunData, arm: string): string | null {
  const cfg = armConfig(run, arm);
  if (!cfg) return null;
  const rm = withDefaults(rewardModelBlockSchema, cfg.reward_model);
  const settlement = withDefaults(settlementConfigSchema, cfg.settlement);
  const proxy = withDefaults(proxyConfigSchema, cfg.proxy);
  const parts: string[] = [];
  const kind = String(rm.kind);
  const opts: string[] = [];
  if (kind === 'transformer') {
    const t = obj(rm.transformer);
    if (typeof t.heads === 'number') opts.push(`heads ${t.heads}`);
    if (typeof t.pairwise === 'number' && t.pairwise > 0) opts.push(`pairwise ${t.pairwise}`);
    if (t.fast === false || resolvedBeforeFast(obj(obj(cfg.reward_model).transformer))) opts.push('full forward');
  }
  const members = obj(proxy.ensemble).members;
  if (typeof members === 'number' && members > 0) opts.push(`ensemble ${members}`);
  if (rm.seed !== undefined && rm.seed !== 0) opts.push(`seed ${String(rm.seed)}`);
  parts.push(`RM ${kind}${opts.length ? ` (${opts.join(', ')})` : ''}`);
  const gate = obj(settlement.rm_gate).min_pair_acc;
  if (typeof gate === 'number') parts.push(`rm_gate pair acc < ${gate}`);
  const rollback = obj(settlement.rollback);
  if (rollback.enabled === true) parts.push(`rollback z ${String(rollback.z)}${rollback.on_alarm === true ? ', on alarm' : ''}`);
  const silences = typeof gate === 'number' || rollback.enabled === true || obj(settlement.adaptive).enabled === true;
  if (silences) parts.push(`silenced ${String(proxy.silenced)}`);
  return parts.join('; ');
}
