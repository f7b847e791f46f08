/** Public API of the task families and DSL worlds. */
export type { BaseGenerateOptions, GenerateOptions, Split, TaskFamily } from './types.ts';
export { generateProblems, getFamily, listFamilies } from './registry.ts';
export { SYNTHETIC_JS_CHARSET, inSyntheticJsCharset } from './synthetic-js/charset.ts';
export {
  SYNTHETIC_JS_SIGNATURE,
  SYNTHETIC_JS_STOP_TOKENS,
  syntheticJsFamily,
  syntheticJsSchema,
  type SyntheticJsKnobs,
} from './synthetic-js/family.ts';
export type { DslProgram, DslTask, DslWorld, DslWorldName } from './dsl/types.ts';
export { dsl6, getWorld, richdsl } from './dsl/world.ts';
export { dsl6Family, dslFamilySchema, richdslFamily } from './dsl/family.ts';
export { POSITIONS, TRIGRAM_BUCKETS, trigramBucket } from './dsl/features.ts';
export { fnv1a32 } from './hash.ts';
export { testBlock, type TestCase, type TestStyle } from './test-code.ts';
export { problemsFromTaskConfig, taskFamilyConfigSchema, type TaskFamilyConfig } from './config.ts';
