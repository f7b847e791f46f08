/**
 * One colour per arm, the same in every chart and every report: the built-in arms have fixed
 * colours; any other arm gets a colour from a hash of its name, so it keeps it across runs.
 */

/** Fixed colours of the built-in arms (Tableau 10). */
export const ARM_COLORS: Readonly<Record<string, string>> = {
  frozen: '#d62728',
  anchored: '#1f77b4',
  execution: '#2ca02c',
  judge: '#ff7f0e',
};

/** Colours for other arms: the rest of Tableau 10 plus darker Tableau 20 tones, none reused above. */
export const EXTRA_COLORS: readonly string[] = [
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#17becf',
  '#bcbd22',
  '#7f7f7f',
  '#393b79',
  '#637939',
  '#8c6d31',
  '#843c39',
  '#7b4173',
  '#3182bd',
];

/** FNV-1a over the name's UTF-16 code units; stable across processes and platforms. */
function hashName(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The colour of one arm, independent of which other arms exist. */
export function armColor(name: string): string {
  return ARM_COLORS[name] ?? EXTRA_COLORS[hashName(name) % EXTRA_COLORS.length]!;
}

/**
 * Colours for a set of arms: {@link armColor}, except that when two custom arms hash to the same
 * colour the later one (by name) moves to the next free colour, so one chart never shows two
 * arms alike.
 */
export function armColors(names: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const n of names) if (ARM_COLORS[n]) out.set(n, ARM_COLORS[n]!), used.add(ARM_COLORS[n]!);
  for (const n of [...new Set(names)].filter((x) => !ARM_COLORS[x]).sort()) {
    const start = hashName(n) % EXTRA_COLORS.length;
    let c = EXTRA_COLORS[start]!;
    for (let k = 0; k < EXTRA_COLORS.length && used.has(c); k++) c = EXTRA_COLORS[(start + k) % EXTRA_COLORS.length]!;
    out.set(n, c);
    used.add(c);
  }
  return out;
}
