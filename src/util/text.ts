/** Small text helpers shared by the readers of user files. */

/**
 * `text` without a leading UTF-8 byte-order mark. Editors on Windows write one; JSON.parse
 * rejects it, so every JSON/JSONL reader of user files strips it first.
 */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
