/**
 * A config's relative paths mean the same thing from any working directory: relative to the
 * config file, defaults relative to the package, `--set` relative to where it was typed; a cache
 * that does not exist yet is created from the working directory, never inside the package.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRunConfig } from '../../src/train/run-config.ts';
import { repoRoot } from '../helpers/paths.ts';

const work = mkdtempSync(join(tmpdir(), 'anchor-config-paths-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Write a config file into `dir` (created). */
function config(dir: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'run.yaml');
  writeFileSync(file, text);
  return file;
}

describe('config paths', () => {
  it('a dataset, an eval dataset and a model directory in a config file are relative to that file', () => {
    const dir = join(work, 'project', 'configs');
    const file = config(
      dir,
      [
        'task: { dataset: data/train.jsonl, eval_dataset: ../held-out.jsonl }',
        'policy: { model: { source: hf, path: models/tiny }, onnx: exported }',
        'judge: { kind: lm, model: judge-lm }',
      ].join('\n'),
    );
    const c = loadRunConfig(file);
    expect(c.task).toMatchObject({
      dataset: join(dir, 'data/train.jsonl'),
      eval_dataset: join(work, 'project', 'held-out.jsonl'),
    });
    expect(c.policy.model.path).toBe(join(dir, 'models/tiny'));
    expect(c.policy.onnx).toBe(join(dir, 'exported'));
    expect(c.judge).toMatchObject({ kind: 'lm', model: join(dir, 'judge-lm') });
  });

  it('--set paths stay as typed (relative to the working directory); names and absolute paths are kept', () => {
    const file = config(join(work, 'a'), 'task: { dataset: mbpp }\n');
    expect(loadRunConfig(file).task).toMatchObject({ dataset: 'mbpp' });
    expect(loadRunConfig(file, ['task.dataset=here.jsonl']).task).toMatchObject({ dataset: 'here.jsonl' });
    const abs = config(join(work, 'b'), 'task: { dataset: /data/x.jsonl }\n');
    expect(loadRunConfig(abs).task).toMatchObject({ dataset: '/data/x.jsonl' });
  });

  it('a base that exists next to the config is used from there; a missing one is a cache in the working directory', () => {
    const dir = join(work, 'c');
    mkdirSync(join(dir, 'bases', 'mine'), { recursive: true });
    expect(loadRunConfig(config(dir, 'policy: { base: bases/mine }\n')).policy.base).toBe(join(dir, 'bases', 'mine'));
    expect(loadRunConfig(config(dir, 'policy: { base: runs/.cache/base-x }\n')).policy.base).toBe('runs/.cache/base-x');
    const random = config(dir, 'policy: { model: { source: hf, path: runs/.cache/rnd, random_if_missing: true } }\n');
    expect(loadRunConfig(random).policy.model.path).toBe('runs/.cache/rnd');
  });

  it("the embedded defaults and configs/default.yaml use the package's shipped base", () => {
    const shipped = join(repoRoot, 'models', 'base-synthetic-js');
    expect(loadRunConfig(undefined).policy.base).toBe(shipped);
    expect(loadRunConfig(join(repoRoot, 'configs', 'default.yaml')).policy.base).toBe(shipped);
    // A file that does not set the base gets the default (the package's), not a path next to it.
    expect(loadRunConfig(config(join(work, 'd'), 'seed: 3\n')).policy.base).toBe(shipped);
    expect(loadRunConfig(undefined, ['policy.base=elsewhere']).policy.base).toBe('elsewhere');
  });
});
