/**
 * dependency-cruiser rules: the module structure as designed (README "Architecture"), checked by `npm run lint:deps`.
 *
 * Layers point one way, with no exceptions:
 *   cli → train / report / research / serve → reward, policy, sandbox, tasks, gate, datasets, eval, tf
 *       → config (generic config machinery: load, overrides, validation) → util.
 * Each component owns its config section's schema; the trainer composes the run config
 * (src/train/run-config.ts). Backends stay isolated: one module talks to ONNX Runtime, one to TensorFlow.js.
 */
const LOWER = '^src/(reward|policy|sandbox|tasks|gate|datasets|config|eval|tf|util)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make load order matter and layers meaningless.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'cli-is-the-top',
      severity: 'error',
      comment: 'Only src/cli turns work into commands and errors into exit codes; nothing below imports it.',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'lower-layers-not-up',
      severity: 'error',
      comment: 'Components (reward, policy, sandbox, tasks, gate, datasets, config, eval, tf, util) never reach up into train, report, research or serve.',
      from: { path: LOWER },
      to: { path: '^src/(train|report|research|serve)/' },
    },
    {
      name: 'config-is-generic',
      severity: 'error',
      comment:
        'src/config holds the generic config machinery (YAML loading, --set overrides, validation messages) every component may use; it knows no component, so it imports only src/util.',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: '^src/(config|util)/' },
    },
    {
      name: 'model-room-runs-no-programs',
      severity: 'error',
      comment:
        'src/policy holds models, tokenizers and the rollout engine; training loops that execute programs or read datasets (pretraining) live a layer up, in src/train.',
      from: { path: '^src/policy/' },
      to: { path: '^src/(sandbox|datasets|tasks)/' },
    },
    {
      name: 'util-is-the-bottom',
      severity: 'error',
      comment: 'src/util holds leaf helpers: it imports no other part of src.',
      from: { path: '^src/util/' },
      to: { path: '^src/', pathNot: '^src/util/' },
    },
    {
      name: 'train-not-report',
      severity: 'error',
      comment: 'Training writes run directories; reporting reads them. The trainer never depends on the report.',
      from: { path: '^src/train/' },
      to: { path: '^src/report/' },
    },
    {
      name: 'research-not-in-product',
      severity: 'error',
      comment: 'Research code (src/research) is reached only through its CLI commands, never from the product.',
      from: { path: '^src/', pathNot: ['^src/research/', '^src/cli/commands/'] },
      to: { path: '^src/research/' },
    },
    {
      name: 'src-not-tooling',
      severity: 'error',
      comment: 'The shipped code never imports tests, benchmarks, scripts or their support helpers.',
      from: { path: '^src/' },
      to: { path: '^(test|bench|scripts|support)/' },
    },
    {
      name: 'one-onnxruntime-module',
      severity: 'error',
      comment:
        'Backend isolation: only the ONNX Runtime session module imports onnxruntime-node; the decoders hold model logic and see its tensors through type aliases.',
      from: { path: '^(src|bench|scripts)/', pathNot: '^src/policy/engine/ort-session\\.ts$' },
      to: { path: 'onnxruntime-node', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'one-tfjs-module',
      severity: 'error',
      comment: 'Backend isolation: only src/tf/backend.ts imports @tensorflow/* (it picks tfjs-node or wasm).',
      from: { path: '^(src|bench|scripts)/', pathNot: '^src/tf/backend\\.ts$' },
      to: { path: '@tensorflow/' },
    },
    {
      name: 'tf-only-in-model-modules',
      severity: 'error',
      comment: 'Only model code (the policy, the learned reward models, the trainer update) uses tensors.',
      from: { path: '^src/', pathNot: '^src/(tf|policy|reward/models|train)/' },
      to: { path: '^src/tf/' },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve is a typo or a missing dependency.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(test/fixtures|runs|datasets)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
