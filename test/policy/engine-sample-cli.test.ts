/** `anchor-rl sample` on a tiny native checkpoint and on a bring-your-own ONNX directory. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runSample, type SampleReport } from '../../src/cli/commands/sample.ts';
import { saveCheckpoint } from '../../src/policy/checkpoint.ts';
import { CharTokenizer } from '../../src/policy/tokenizer/char.ts';
import { randomWeights } from './parity-reference.ts';
import { haveSharedPath } from '../helpers/paths.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tinyGpt2 = path.join(path.resolve(repoRoot, '../shared/models'), 'tiny-random-gpt2-fp32');
const haveTiny = haveSharedPath('engine-sample-cli --onnx case', path.join(tinyGpt2, 'genai_config.json'));

const dir = mkdtempSync(path.join(tmpdir(), 'anchor-sample-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = { n: 3, 'max-new-tokens': 6, temperature: 1, 'top-p': 1, 'top-k': 0, seed: 7, json: true };

describe('sample command', () => {
  it('--checkpoint: exports the native policy in memory and prints JSON completions', async () => {
    const tok = new CharTokenizer([...'abc xyz=']);
    const config = { vocabSize: tok.vocabSize, context: 32, layers: 1, dModel: 8, heads: 2, tiedHead: true };
    saveCheckpoint(dir, { config, tokenizer: tok, weights: randomWeights(config, 1, 0.5) });
    let printed = '';
    const report = await runSample({ ...base, checkpoint: dir, prompt: 'abc' }, (s) => (printed += s));
    const parsed = JSON.parse(printed) as SampleReport;
    expect(parsed).toEqual(report);
    expect(parsed.samples).toHaveLength(3);
    for (const s of parsed.samples) {
      expect(s.tokenIds.length).toBeGreaterThan(0);
      expect(s.tokenIds.length).toBeLessThanOrEqual(6);
      expect(s.logprobs).toHaveLength(s.tokenIds.length);
      expect([...s.text].every((ch) => 'abc xyz='.includes(ch))).toBe(true);
    }
    // Same seed, same output.
    let again = '';
    await runSample({ ...base, checkpoint: dir, prompt: 'abc' }, (s) => (again += s));
    expect(again).toBe(printed);
    // Human-readable form prints prompt + completion per sample.
    let text = '';
    await runSample({ ...base, json: false, checkpoint: dir, prompt: 'abc' }, (s) => (text += s));
    expect(text.match(/^--- sample \d\/3 /gm)).toHaveLength(3);
  });

  it.skipIf(!haveTiny)('--onnx: samples from a bring-your-own export', async () => {
    let printed = '';
    await runSample({ ...base, onnx: tinyGpt2, prompt: 'a b c' }, (s) => (printed += s));
    const r = JSON.parse(printed) as SampleReport;
    expect(r.model.kind).toBe('onnx');
    expect(r.samples).toHaveLength(3);
  });

  it('rejects giving both or neither model source', async () => {
    await expect(runSample({ ...base, prompt: 'x' })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(runSample({ ...base, prompt: 'x', checkpoint: dir, onnx: dir })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(runSample({ ...base, prompt: 'x', checkpoint: path.join(dir, 'missing') })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
