/**
 * The default arms: what `anchor-rl train` trains when a config lists no `arms:`, what
 * configs/default.yaml lists, and what the CLI help names — one list (docs/design.md, "The core
 * experiment"). A module of its own with no imports, so the CLI's help can name them without
 * loading any schema.
 */
export const DEFAULT_ARMS = ['frozen', 'settled-gao-hold', 'execution', 'judge'] as const;
