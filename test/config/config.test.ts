import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../src/config/load.ts';
import { applyOverrides, leafKind, parseOverrides } from '../../src/config/overrides.ts';
import { loadRunConfig, runConfigSchema } from '../../src/train/run-config.ts';
import { runCli } from '../helpers/cli.ts';
import { errorOf } from '../helpers/errors.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'anchor-config-'));

function write(dir: string, name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe('run config', () => {
  it('embedded defaults follow the reference study', () => {
    const c = loadRunConfig(undefined);
    expect(c.grpo.group_size).toBe(8);
    expect(c.settlement.every).toBe(25);
    expect(c.settlement.rate).toBe(0.1);
    expect(c.arms).toEqual(['frozen', 'settled-gao-hold', 'execution', 'judge']);
  });

  it('--set overrides are typed by the schema', () => {
    const c = loadRunConfig(undefined, [
      'grpo.lr=1e-4',
      'arms=[frozen, anchored]',
      'name=123',
      'settlement.adaptive.enabled=true',
    ]);
    expect(c.grpo.lr).toBe(1e-4);
    expect(c.arms).toEqual(['frozen', 'anchored']);
    expect(c.name).toBe('123'); // a string key keeps the raw text, not the number
    expect(c.settlement.adaptive.enabled).toBe(true);
  });

  it('file values are merged with defaults and overridden by --set', () => {
    const dir = tmp();
    const p = write(dir, 'r.yaml', 'name: mine\ngrpo:\n  steps: 7\n  clip: { low: 0.1 }\n');
    const c = loadRunConfig(p, ['grpo.steps=9']);
    expect(c.name).toBe('mine');
    expect(c.grpo.steps).toBe(9);
    expect(c.grpo.clip).toEqual({ low: 0.1, high: 0.2 });
  });

  it('errors name the key path, quote the value and say what was expected', () => {
    const dir = tmp();
    const p = write(dir, 'bad.yaml', 'grpo:\n  lr: fast\n  group_size: 1\n  bogus: 3\nsettlement:\n  strategy: greedy\n');
    const err = errorOf(() => loadRunConfig(p));
    expect(err.code).toBe('BAD_CONFIG');
    expect(err.message).toContain(p);
    expect(err.message).toContain('grpo.lr: got "fast", expected number');
    expect(err.message).toContain('grpo.group_size: got 1, expected at least 2');
    expect(err.message).toMatch(/grpo\.bogus: unknown key \(value 3\); expected one of: steps, /);
    expect(err.message).toMatch(/settlement\.strategy: got "greedy", expected one of "random", "top-proxy"/);
  });

  it('YAML syntax errors give file, line and column', () => {
    const dir = tmp();
    const p = write(dir, 'syntax.yaml', 'grpo:\n  lr: 0.1\n   steps: 3\n');
    const err = errorOf(() => loadRunConfig(p));
    expect(err.code).toBe('BAD_CONFIG');
    expect(err.message).toMatch(new RegExp(`${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+`));
  });

  it('a missing file is NOT_FOUND and a non-mapping top level is BAD_CONFIG', () => {
    expect(errorOf(() => loadRunConfig('/nonexistent/x.yaml')).code).toBe('NOT_FOUND');
    const dir = tmp();
    expect(errorOf(() => loadRunConfig(write(dir, 'list.yaml', '- a\n- b\n'))).code).toBe('BAD_CONFIG');
  });

  it('every shipped config in configs/ validates', () => {
    const files = readdirSync('configs').filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      if (f === 'pretrain.yaml') continue; // a different schema, tested with the pretrain command
      if (f.endsWith('-hf.yaml')) {
        // Hugging Face configs take the model directory from the command line and demand it.
        expect(() => loadRunConfig(join('configs', f)), f).toThrow(/policy\.model\.path is required/);
        expect(() => loadRunConfig(join('configs', f), ['policy.model.path=/models/x']), f).not.toThrow();
        continue;
      }
      expect(() => loadRunConfig(join('configs', f)), f).not.toThrow();
    }
  });
});

describe('overrides', () => {
  const schema = z
    .object({
      a: z
        .object({ s: z.string().default('x'), n: z.number().default(1), e: z.enum(['p', 'q']).default('p') })
        .strict()
        .prefault({}),
    })
    .strict();

  it('parses KEY.PATH=VALUE and rejects malformed ones', () => {
    expect(parseOverrides(['a.b=1=2'])).toEqual([{ path: ['a', 'b'], raw: '1=2' }]);
    expect(() => parseOverrides(['nokey'])).toThrow(/expected KEY.PATH=VALUE/);
    expect(() => parseOverrides(['a..b=1'])).toThrow(/empty segment/);
  });

  it('knows leaf kinds', () => {
    expect(leafKind(schema, ['a', 's'])).toBe('string');
    expect(leafKind(schema, ['a', 'n'])).toBe('other');
    expect(leafKind(schema, ['a', 'zz'])).toBeUndefined();
  });

  it('does not mutate its input and creates missing sections', () => {
    const raw = { a: { n: 2 } };
    const out = applyOverrides(raw, parseOverrides(['a.s=007', 'a.n=3']), schema);
    expect(raw).toEqual({ a: { n: 2 } });
    expect(out).toEqual({ a: { n: 3, s: '007' } });
    expect(loadConfig(schema, undefined, ['a.e=q']).a.e).toBe('q');
  });

  it('refuses to descend into a scalar', () => {
    expect(() => applyOverrides({ a: 5 }, parseOverrides(['a.n=1']), schema)).toThrow(/not a section/);
  });

  it('the run config schema rejects unknown top-level keys', () => {
    expect(runConfigSchema.safeParse({ nope: 1 }).success).toBe(false);
  });
});

describe('config show (CLI)', () => {
  it('prints the resolved config and honours --set', () => {
    const r = runCli(['config', 'show', '--set', 'grpo.steps=11', '--json']);
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout);
    expect(c.grpo.steps).toBe(11);
    expect(c.settlement.rate).toBe(0.1);
  });

  it('exits 2 with the key path and value on a bad override, writing nothing to stdout', () => {
    const r = runCli(['config', 'show', '--set', 'grpo.beta=-1']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('grpo.beta: got -1, expected at least 0');
  });

  it('exits 2 on an unknown option', () => {
    const r = runCli(['config', 'show', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Unknown argument/);
  });
});
