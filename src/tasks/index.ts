/** Public API of the task families and DSL worlds. */
export { generateProblems, getFamily, listFamilies } from './registry.ts';
export { SYNTHETIC_JS_CHARSET, inSyntheticJsCharset } from './synthetic-js/charset.ts';
export { syntheticJsSchema } from './synthetic-js/family.ts';
export type { DslProgram, DslTask, DslWorld, DslWorldName } from './dsl/types.ts';
export { dsl6, getWorld, richdsl } from './dsl/world.ts';
export { trigramBucket } from './dsl/features.ts';
export { fnv1a32 } from './hash.ts';
export { problemsFromTaskConfig, taskFamilyConfigSchema } from './config.ts';
