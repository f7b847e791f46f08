import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { initTf } from '../../src/tf/backend.ts';
import type { Problem } from '../../src/datasets/problem.ts';
import {
  createJudge,
  judgeSchema,
  parseScore,
  yesProbability,
  fillTemplate,
  type LabelledCompletion,
  HttpJudge,
} from '../../src/reward/judges/index.ts';
import type { NextTokenModel } from '../../src/reward/judges/lm.ts';
import type { HttpJudgeConfig } from '../../src/reward/judges/config.ts';
import { loadOnnxNextTokenModel } from '../../src/reward/judges/onnx-lm.ts';
import { loadOnnxModel } from '../../src/policy/engine/load-onnx-model.ts';
import { haveSharedModels, sharedModels } from '../helpers/paths.ts';
import { join } from 'node:path';

const tinyGpt2 = join(sharedModels, 'tiny-random-gpt2-fp32');
const haveTiny = haveSharedModels('lm judge on tiny-random-gpt2');

const problem: Problem = {
  id: 't/0',
  language: 'javascript',
  prompt: 'function f(x) {\n',
  tests: '',
  stopTokens: [],
  source: 'test',
};

describe('judge config', () => {
  it('parses each kind with defaults and rejects unknown keys', () => {
    expect(judgeSchema.parse({ kind: 'learned' })).toMatchObject({ kind: 'learned', features: 'js-ast', model: 'mlp' });
    expect(judgeSchema.parse({ kind: 'http', base_url: 'http://127.0.0.1:1/v1', model: 'm' })).toMatchObject({
      retries: 3,
      concurrency: 4,
    });
    expect(() => judgeSchema.parse({ kind: 'http', base_url: 'http://x/v1', model: 'm', retires: 1 })).toThrow();
    expect(() => judgeSchema.parse({ kind: 'oracle' })).toThrow();
  });

  it('fills templates in one pass', () => {
    expect(fillTemplate('P:{prompt} C:{completion}', 'a', '{prompt}')).toBe('P:a C:{prompt}');
  });
});

describe('learned judge', () => {
  beforeAll(async () => {
    await initTf(() => {});
  });

  const bodies = [
    'return x + 1;',
    'return x * 2;',
    'let y = x; return y;',
    'if (x > 0) { return x; } return -x;',
    'return [x].map((v) => v + 1)[0];',
  ];
  const sample: LabelledCompletion[] = [];
  for (let i = 0; i < 40; i++) {
    const b = bodies[i % bodies.length]!;
    // Broken twins: drop a closing token so the program does not parse; gold 0.
    sample.push({ problem, completion: `  ${b}\n}`, gold: 1 });
    sample.push({ problem, completion: `  ${b.replace(/;$/, '')} +\n}`, gold: 0 });
  }

  for (const model of ['ridge', 'mlp'] as const) {
    it(`(${model} on js-ast) scores parsing code above broken code, in [0, 1]`, async () => {
      const cfg = judgeSchema.parse({ kind: 'learned', model, mlp: { epochs: 60, hidden: [8] } });
      const judge = await createJudge(cfg, { labelled: sample });
      expect(judge.kind).toBe('learned');
      const s = await judge.score(problem, ['  return x - 3;\n}', '  return x - ;\n}']);
      expect(s[0]!).toBeGreaterThan(s[1]! + 0.5);
      for (const v of s) expect(v! >= 0 && v! <= 1).toBe(true);
      await judge.close?.();
    });
  }
});

describe('lm judge (arithmetic over a stub model; the ONNX path needs the policy engine)', () => {
  it('P(yes)/(P(yes)+P(no)) sums variant tokens and ignores the rest of the vocabulary', () => {
    const logits = Float32Array.from([0, Math.log(3), 5, Math.log(1), 9]);
    // yes = {1}, no = {3}: 3/(3+1).
    expect(yesProbability(logits, [1], [3])).toBeCloseTo(0.75, 6);
    // yes = {1, 3}, no = {0}: (3+1)/(3+1+1).
    expect(yesProbability(logits, [1, 3], [0])).toBeCloseTo(0.8, 6);
  });

  it('scores each completion from the next-token logits of the filled template', async () => {
    const vocab = [' yes', ' Yes', ' no', ' No', 'other'];
    const seen: number[][] = [];
    const lm: NextTokenModel = {
      encode: (t) => (vocab.includes(t) ? [vocab.indexOf(t)] : Array.from(t, (c) => 5 + (c.charCodeAt(0) % 7))),
      async nextTokenLogits(ids) {
        seen.push(ids);
        // "Likes" prompts of even length.
        return ids.length % 2 === 0 ? Float32Array.from([2, 0, 0, 0, 0, 0]) : Float32Array.from([0, 0, 2, 0, 0, 0]);
      },
      contextLength: 1000,
    };
    const cfg = judgeSchema.parse({ kind: 'lm', model: '/nonexistent', template: '{prompt}|{completion}' });
    const judge = await createJudge(cfg, { loadLm: async () => lm });
    const s = await judge.score(problem, ['a', 'ab']);
    const hi = (Math.E ** 2 + 1) / (Math.E ** 2 + 1 + 2);
    const lo = 2 / (2 + Math.E ** 2 + 1);
    const evenFirst = (problem.prompt.length + 1 + 1) % 2 === 0;
    expect(s[0]).toBeCloseTo(evenFirst ? hi : lo, 6);
    expect(s[1]).toBeCloseTo(evenFirst ? lo : hi, 6);
    expect(seen.length).toBe(2);
  });

  it('a missing model directory is NOT_FOUND', async () => {
    await expect(createJudge(judgeSchema.parse({ kind: 'lm', model: '/nonexistent/model' }))).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});

describe.skipIf(!haveTiny)('lm judge on a real ONNX model (tiny-random-gpt2 via the policy engine)', () => {
  it("P(yes) equals the engine's own next-token distribution", async () => {
    // The model has a 1,000-token vocabulary: keep every id inside it (" a" = 257, " b" = 275).
    const cfg = judgeSchema.parse({ kind: 'lm', model: tinyGpt2, template: '{prompt} {completion}', yes: [' a'], no: [' b'] });
    const judge = await createJudge(cfg, {});
    const p: Problem = { ...problem, prompt: 'a b' };
    const scores = await judge.score(p, ['c', 'a c']);
    await judge.close?.();
    for (const s of scores) expect(s! > 0 && s! < 1).toBe(true);
    expect(scores[0]).not.toBe(scores[1]);
    // Independent check of the adapter's logits through the engine's own generation path: the
    // greedy token must be their argmax and its reported logprob their log-softmax there.
    const m = await loadOnnxModel(tinyGpt2);
    try {
      const ids = m.tokenizer.encode('a b c');
      const out = await m.engine.generateIds([ids], { maxNewTokens: 1, temperature: 0, eosTokenId: null });
      const lm = await loadOnnxNextTokenModel(tinyGpt2);
      const logits = await lm.nextTokenLogits(ids);
      await lm.release?.();
      let argmax = 0;
      for (let i = 1; i < logits.length; i++) if (logits[i]! > logits[argmax]!) argmax = i;
      expect(out[0]!.tokenIds[0]).toBe(argmax);
      let z = 0;
      for (const v of logits) z += Math.exp(v - logits[argmax]!);
      expect(out[0]!.logprobs[0]).toBeCloseTo(-Math.log(z), 4);
      expect(scores[0]).toBeCloseTo(yesProbability(logits, [257], [275]), 6);
    } finally {
      await m.engine.release();
    }
  });
});

describe('parseScore', () => {
  it('takes the first number, handles percent, clamps', () => {
    expect(parseScore('0.8')).toBe(0.8);
    expect(parseScore('Score: 85%')).toBeCloseTo(0.85, 12);
    expect(parseScore('I would say 1.7')).toBe(1);
    expect(parseScore('-2')).toBe(0);
    expect(parseScore('.25 probably')).toBe(0.25);
    expect(parseScore('no idea')).toBeNull();
  });
});

describe('http judge against a local server', () => {
  type Behaviour = 'ok' | 'malformed' | 'nonumber' | 'hang' | '500' | '400';
  // Each request pops the next behaviour for its completion text; default 'ok'.
  const script = new Map<string, Behaviour[]>();
  const received: { auth?: string; body: { model: string; messages: { role: string; content: string }[] } }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let server: Server;
  let baseUrl = '';

  const reply = (res: ServerResponse, status: number, body: string): void => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  };

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        const body = JSON.parse(raw);
        received.push({ auth: req.headers.authorization, body });
        const user: string = body.messages[1].content;
        const key = user.split('COMPLETION:')[1]!.trim();
        const b = script.get(key)?.shift() ?? 'ok';
        const done = (): void => void inFlight--;
        setTimeout(() => {
          if (b === 'hang') {
            // Never answer; the client must time out. Close later so the server can shut down.
            setTimeout(() => {
              done();
              res.destroy();
            }, 3000);
            return;
          }
          done();
          if (b === '500') return reply(res, 500, '{"error":"boom"}');
          if (b === '400') return reply(res, 400, '{"error":"bad model"}');
          if (b === 'malformed') return reply(res, 200, '{"choices": [');
          const content = b === 'nonumber' ? 'I cannot tell.' : `Score: ${key.length / 10}`;
          reply(res, 200, JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
        }, 20);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const makeJudge = (extra: Record<string, unknown> = {}): HttpJudge =>
    new HttpJudge(
      judgeSchema.parse({
        kind: 'http',
        base_url: baseUrl,
        model: 'judge-model',
        template: 'PROMPT: {prompt}\nCOMPLETION: {completion}',
        timeout_ms: 1500,
        retries: 2,
        backoff_ms: 5,
        concurrency: 2,
        api_key_env: 'ANCHOR_TEST_JUDGE_KEY',
        ...extra,
      }) as HttpJudgeConfig,
      () => {},
    );

  it('scores in order, sends the model and messages, respects concurrency', async () => {
    process.env.ANCHOR_TEST_JUDGE_KEY = 'test-token';
    received.length = 0;
    maxInFlight = 0;
    const judge = makeJudge();
    const s = await judge.score(problem, ['aaaa', 'aa', 'aaaaaa', 'a', 'aaa']);
    expect(s).toEqual([0.4, 0.2, 0.6, 0.1, 0.3]);
    expect(received).toHaveLength(5);
    expect(received[0]!.body.model).toBe('judge-model');
    expect(received[0]!.body.messages[1]!.content).toBe('PROMPT: function f(x) {\n\nCOMPLETION: aaaa');
    expect(received[0]!.auth).toBe('Bearer test-token');
    expect(maxInFlight).toBeLessThanOrEqual(2);
    expect(maxInFlight).toBeGreaterThanOrEqual(1);
    delete process.env.ANCHOR_TEST_JUDGE_KEY;
  });

  it('retries a malformed reply, a reply without a number, a 500 and a timeout', async () => {
    script.set('bbbbb', ['malformed']);
    script.set('bb', ['nonumber']);
    script.set('bbbbbbb', ['500', '500']);
    script.set('bbb', ['hang']);
    const judge = makeJudge();
    const s = await judge.score(problem, ['bbbbb', 'bb', 'bbbbbbb', 'bbb']);
    expect(s).toEqual([0.5, 0.2, 0.7, 0.3]);
    expect(judge.stats.retries).toBe(5);
    expect(judge.stats.unscored).toBe(0);
  });

  it('records null after exhausting retries, and fails at once on a 4xx', async () => {
    script.set('cc', ['nonumber', 'nonumber', 'nonumber']);
    const judge = makeJudge();
    expect(await judge.score(problem, ['cc', 'c'])).toEqual([null, 0.1]);
    expect(judge.stats.unscored).toBe(1);
    script.set('dd', ['400']);
    await expect(makeJudge().score(problem, ['dd'])).rejects.toThrow(/HTTP 400/);
  });
});
