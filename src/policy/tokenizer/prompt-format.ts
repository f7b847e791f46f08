/**
 * How a problem's prompt (a code stub to continue) becomes model input: as it is for base models
 * (`completion`), or for instruct models (`chat`) through the chat template of
 * tokenizer_config.json, rendered with @huggingface/jinja: a user turn asking for the code's
 * continuation, the generation prompt, then the code stub itself as the start of the assistant's
 * answer — so the completion is still the stub's continuation and the sandbox assembles
 * `prompt + completion` exactly as for base models.
 */
import { Template } from '@huggingface/jinja';
import { z } from 'zod';
import { AnchorError } from '../../util/errors.ts';
import type { EngineTokenizer } from '../engine/types.ts';

/** The `policy.prompt` config block. */
export const promptFormatSchema = z
  .object({
    format: z
      .enum(['completion', 'chat'])
      .default('completion')
      .describe(
        'completion: the prompt as it is (base models); chat: the chat template of tokenizer_config.json (instruct models)',
      ),
    system: z.string().optional().describe('chat only: a system message (omitted when unset)'),
    instruction: z
      .string()
      .default('Complete the following code. Reply with the code only.')
      .describe('chat only: the user message, followed by the code stub in a fenced block'),
  })
  .strict();

/** Parsed `policy.prompt`. */
export type PromptFormat = z.infer<typeof promptFormatSchema>;

const tokenText = (v: unknown): string =>
  typeof v === 'string' ? v : v && typeof v === 'object' && 'content' in v ? String((v as { content: unknown }).content) : '';

/** A function from problem prompt to model input text for `format` (tokenizer_config supplies the template). */
export function promptFormatter(
  format: PromptFormat,
  tokenizerConfig: Readonly<Record<string, unknown>>,
): (prompt: string) => string {
  if (format.format === 'completion') return (p) => p;
  let source = tokenizerConfig.chat_template;
  // Some tokenizer configs hold several named templates; "default" is the chat one.
  if (Array.isArray(source))
    source = (source as { name?: string; template?: string }[]).find((t) => t.name === 'default')?.template;
  if (typeof source !== 'string' || source.length === 0) {
    throw new AnchorError(
      'BAD_CONFIG',
      'policy.prompt.format is chat, but tokenizer_config.json has no chat_template (use format: completion for base models)',
    );
  }
  let template: Template;
  try {
    template = new Template(source);
  } catch (err) {
    throw new AnchorError(
      'BAD_MODEL',
      `tokenizer_config.json: chat_template does not parse: ${(err as Error).message}`,
      undefined,
      { cause: err },
    );
  }
  const specials = { bos_token: tokenText(tokenizerConfig.bos_token), eos_token: tokenText(tokenizerConfig.eos_token) };
  return (prompt) => {
    const messages = [
      ...(format.system !== undefined ? [{ role: 'system', content: format.system }] : []),
      { role: 'user', content: `${format.instruction}\n\n\`\`\`\n${prompt}\n\`\`\`` },
    ];
    return template.render({ messages, add_generation_prompt: true, ...specials }) + prompt;
  };
}

/** `tok` with prompts formatted before encoding (what the rollout engine is given). */
export function withPromptFormat<T extends EngineTokenizer>(tok: T, format: (prompt: string) => string): EngineTokenizer {
  return {
    encode: (text) => tok.encode(format(text)),
    decode: (ids) => tok.decode(ids),
    ...(tok.eosId !== undefined ? { eosId: tok.eosId } : {}),
    ...(tok.padId !== undefined ? { padId: tok.padId } : {}),
  };
}
