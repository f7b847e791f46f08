/**
 * The task family names, apart from the families themselves (./registry.ts, which checks at
 * load that its registry has exactly these), so `--help` can list them without loading the
 * families' generators and knob schemas.
 */
export const FAMILY_NAMES = ['synthetic-js', 'dsl6', 'richdsl'] as const;
