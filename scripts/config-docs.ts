/**
 * `npm run docs:config`: write docs/config.md and the configs' JSON Schema files from the zod
 * schemas (src/train/config-docs.ts), and list config keys that still lack a `.describe()` text.
 */
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedConfigFiles, undocumentedConfigKeys } from '../src/train/config-docs.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
for (const [path, text] of generatedConfigFiles()) {
  writeFileSync(resolve(root, path), text);
  console.log(`wrote ${path}`);
}
const missing = undocumentedConfigKeys();
if (missing.length > 0) {
  console.warn(`${missing.length} config keys have no description (add .describe() in their schema):`);
  for (const key of missing) console.warn(`  ${key}`);
}
