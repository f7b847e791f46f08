/**
 * The `http` judge: an OpenAI-compatible chat-completions endpoint. For each completion it POSTs
 * `{base_url}/chat/completions` with a system message and the filled template, reads
 * `choices[0].message.content`, and parses the first number in it (a trailing `%` divides by 100),
 * clamped to [0, 1].
 *
 * Failure policy: each attempt has its own timeout (AbortController). Timeouts, network errors,
 * HTTP 429/5xx and replies without a number are retried with exponential backoff
 * (backoff_ms · 2^attempt); other 4xx statuses are configuration errors and fail at once. A
 * completion still unscored after all retries gets `null` (unknown), never a made-up score.
 * Concurrency across completions is bounded by a p-queue.
 */
import PQueue from 'p-queue';
import type { Problem } from '../../datasets/problem.ts';
import { AnchorError } from '../../util/errors.ts';
import { fillTemplate, type HttpJudgeConfig } from './config.ts';
import type { Judge } from './types.ts';

const NUMBER_RE = /(-?\d+(?:\.\d+)?|-?\.\d+)(?:[eE][-+]?\d+)?\s*(%?)/;

/** The first number in a reply, as a score in [0, 1]; null when there is none. */
export function parseScore(text: string): number | null {
  const m = NUMBER_RE.exec(text);
  if (!m) return null;
  let v = Number.parseFloat(m[0]);
  if (!Number.isFinite(v)) return null;
  if (m[2] === '%') v /= 100;
  return Math.min(1, Math.max(0, v));
}

/** Why one attempt failed, and whether to try again. */
class AttemptError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** Counters for reports and tests. */
export interface HttpJudgeStats {
  requests: number;
  retries: number;
  unscored: number;
}

/** Judge backed by an OpenAI-compatible endpoint. */
export class HttpJudge implements Judge {
  readonly kind = 'http' as const;
  readonly stats: HttpJudgeStats = { requests: 0, retries: 0, unscored: 0 };
  private readonly queue: PQueue;
  private readonly url: string;

  constructor(
    private readonly cfg: HttpJudgeConfig,
    private readonly log: (msg: string) => void = (m) => process.stderr.write(m + '\n'),
  ) {
    this.queue = new PQueue({ concurrency: cfg.concurrency });
    this.url = cfg.base_url.replace(/\/+$/, '') + '/chat/completions';
  }

  async score(problem: Problem, completions: readonly string[]): Promise<(number | null)[]> {
    return Promise.all(completions.map((c) => this.queue.add(() => this.scoreOne(problem.prompt, c)) as Promise<number | null>));
  }

  private async scoreOne(prompt: string, completion: string): Promise<number | null> {
    const body = JSON.stringify({
      model: this.cfg.model,
      messages: [
        { role: 'system', content: this.cfg.system },
        { role: 'user', content: fillTemplate(this.cfg.template, prompt, completion) },
      ],
      temperature: this.cfg.temperature,
      max_tokens: this.cfg.max_tokens,
    });
    let last = '';
    for (let attempt = 0; attempt <= this.cfg.retries; attempt++) {
      if (attempt > 0) {
        this.stats.retries++;
        await sleep(this.cfg.backoff_ms * 2 ** (attempt - 1));
      }
      try {
        return await this.attempt(body);
      } catch (err) {
        if (!(err instanceof AttemptError)) throw err;
        if (!err.retryable) throw new AnchorError('BAD_CONFIG', `http judge: ${err.message}`);
        last = err.message;
      }
    }
    this.stats.unscored++;
    this.log(`http judge: no score after ${this.cfg.retries + 1} attempts (${last}); recording null`);
    return null;
  }

  private async attempt(body: string): Promise<number> {
    this.stats.requests++;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const key = process.env[this.cfg.api_key_env];
    if (key) headers.authorization = `Bearer ${key}`;
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), this.cfg.timeout_ms);
    try {
      let res: Response;
      try {
        res = await fetch(this.url, { method: 'POST', headers, body, signal: ac.signal });
      } catch (err) {
        throw new AttemptError(
          ac.signal.aborted ? `timeout after ${this.cfg.timeout_ms} ms` : `network error: ${(err as Error).message}`,
          true,
        );
      }
      let text: string;
      try {
        text = await res.text();
      } catch {
        throw new AttemptError(
          ac.signal.aborted ? `timeout after ${this.cfg.timeout_ms} ms reading the reply` : 'reply body unreadable',
          true,
        );
      }
      if (!res.ok) {
        const retryable = res.status === 429 || res.status >= 500;
        throw new AttemptError(`HTTP ${res.status} from ${this.url}: ${text.slice(0, 200)}`, retryable);
      }
      let content: unknown;
      try {
        content = (JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
      } catch {
        throw new AttemptError('reply is not JSON', true);
      }
      if (typeof content !== 'string') throw new AttemptError('reply has no choices[0].message.content', true);
      const score = parseScore(content);
      if (score === null) throw new AttemptError(`reply has no number: ${JSON.stringify(content.slice(0, 80))}`, true);
      return score;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.queue.clear();
    await this.queue.onIdle();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
