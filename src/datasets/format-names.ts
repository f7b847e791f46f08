/**
 * The dataset format names, apart from the formats themselves (./formats.ts, which checks at
 * load that its registry has exactly these), so `--help` can list them without loading the
 * formats' zod schemas.
 */
export const FORMAT_NAMES = ['humaneval', 'mbpp', 'sanitized-mbpp', 'multipl-e', 'anchor'] as const;
