/**
 * Prompt formats: completion prompts pass through; chat prompts render the tokenizer_config
 * chat template (a ChatML template here; the Llama-2 template of ../shared's tiny Llama when
 * present) with the code stub after the generation prompt; a missing template is a named error.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { promptFormatSchema, promptFormatter, withPromptFormat } from '../../src/policy/tokenizer/prompt-format.ts';
import { haveSharedPath } from '../helpers/paths.ts';
import { tinyLlamaDir } from './hf/shared-graphs.ts';

const CHATML =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
const stub = 'function add(a, b) {\n';

describe('prompt formats', () => {
  it('completion passes the prompt through', () => {
    expect(promptFormatter(promptFormatSchema.parse({}), {})(stub)).toBe(stub);
  });

  it('chat renders the template, then the stub as the start of the answer', () => {
    const f = promptFormatter(promptFormatSchema.parse({ format: 'chat', system: 'Be brief.' }), { chat_template: CHATML });
    expect(f(stub)).toBe(
      '<|im_start|>system\nBe brief.<|im_end|>\n' +
        '<|im_start|>user\nComplete the following code. Reply with the code only.\n\n```\nfunction add(a, b) {\n\n```<|im_end|>\n' +
        '<|im_start|>assistant\n' +
        stub,
    );
    const tok = withPromptFormat(
      {
        encode: (t: string) => [...t].map((c) => c.charCodeAt(0)),
        decode: (ids: number[]) => String.fromCharCode(...ids),
        eosId: 1,
      },
      f,
    );
    expect(tok.encode('x').length).toBeGreaterThan(40);
    expect(tok.decode([104, 105])).toBe('hi');
    expect(tok.eosId).toBe(1);
  });

  it('chat without a template is a configuration error', () => {
    expect(() => promptFormatter(promptFormatSchema.parse({ format: 'chat' }), {})).toThrow(/no chat_template/);
  });

  it.skipIf(!haveSharedPath("the tiny Llama's chat template", path.join(tinyLlamaDir, 'tokenizer_config.json')))(
    "renders the tiny Llama's own (Llama-2) chat template",
    () => {
      const cfg = JSON.parse(readFileSync(path.join(tinyLlamaDir, 'tokenizer_config.json'), 'utf8'));
      const out = promptFormatter(promptFormatSchema.parse({ format: 'chat' }), cfg)(stub);
      expect(out).toMatch(/^<s>\[INST\] Complete the following code/);
      expect(out.endsWith(`[/INST]${stub}`) || out.endsWith(`[/INST] ${stub}`)).toBe(true);
    },
  );
});
