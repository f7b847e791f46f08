import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { CONFIG_KINDS, configJsonSchema, generatedConfigFiles, undocumentedConfigKeys } from '../../src/train/config-docs.ts';
import { loadRunConfig } from '../../src/train/run-config.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const REGENERATE =
  'out of date: run `npm run docs:config` and commit the result (a new option whose default changes what is trained also needs its earlier value in RECORDED_BEFORE, src/train/run-config.ts, so recorded runs resume as they trained)';

describe('generated config reference', () => {
  it('docs/config.md and the JSON Schema files match the schemas', () => {
    for (const [path, text] of generatedConfigFiles()) {
      let committed = '';
      try {
        committed = readFileSync(join(root, path), 'utf8');
      } catch {
        // A missing file fails below with the same message.
      }
      expect(committed === text, `${path} ${REGENERATE}`).toBe(true);
    }
  });

  it('every config key has a description', () => {
    const missing = undocumentedConfigKeys();
    expect(
      missing,
      `add .describe('what, unit') in the schema, then run \`npm run docs:config\`:\n  ${missing.join('\n  ')}`,
    ).toEqual([]);
  });

  it('every shipped config names its JSON Schema and validates against it', () => {
    const ajv = new Ajv2020({ strict: false });
    const validators = new Map(CONFIG_KINDS.map((k) => [k.schemaFile, ajv.compile(configJsonSchema(k))]));
    const files = readdirSync(join(root, 'configs')).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(1);
    for (const file of files) {
      const text = readFileSync(join(root, 'configs', file), 'utf8');
      const ref = /^# yaml-language-server: \$schema=\.\/(\S+)$/m.exec(text.split('\n')[0]!)?.[1];
      expect(ref, `configs/${file}: first line must be # yaml-language-server: $schema=./<kind>.schema.json`).toBeDefined();
      const validate = validators.get(`configs/${ref}`);
      expect(validate, `configs/${file} names ${ref}, which is not generated`).toBeDefined();
      expect(validate!(parse(text)), `configs/${file}: ${JSON.stringify(validate!.errors)}`).toBe(true);
    }
  });

  it('the JSON Schema rejects what the zod schema rejects: an unknown key, an out-of-range value', () => {
    const validate = new Ajv2020({ strict: false }).compile(configJsonSchema(CONFIG_KINDS[0]!));
    expect(validate({ grpo: { steps: 10 } })).toBe(true);
    expect(validate({ grpo: { stepz: 10 } })).toBe(false);
    expect(validate({ sandbox: { timeout_ms: 1 } })).toBe(false);
    expect(() => loadRunConfig(undefined, ['sandbox.timeout_ms=1'])).toThrow(/timeout_ms/);
  });
});
