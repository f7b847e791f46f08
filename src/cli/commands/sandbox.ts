/**
 * `anchor-rl sandbox run INPUT.jsonl [--out RESULTS.jsonl] [--timeout-ms N] [--memory-mb N]
 * [--workers N] [--queue URL ...]`: execute programs in the settlement sandbox and write one
 * result line per input. With `--queue` the programs go through the `queue` backend to the
 * `anchor-rl worker` fleet on that Redis instead (a fleet check: same results as a local run).
 */
import { closeSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import cliProgress from 'cli-progress';
import type { CommandModule } from 'yargs';
import type { CommandBody } from '../command-body.ts';
import { truncateAtStop, type Language } from '../../datasets/problem.ts';
import type { ExecResult, ExecStatus, ProgramSpec } from '../../sandbox/types.ts';
import { AnchorError } from '../../util/errors.ts';
import { stripBom } from '../../util/text.ts';

interface RunArgs {
  input: string;
  out?: string;
  'timeout-ms'?: number;
  'memory-mb'?: number;
  workers?: number;
  'stdout-limit'?: number;
  'min-assertions'?: number;
  queue?: string;
  prefix?: string;
  'batch-size'?: number;
  'max-in-flight'?: number;
  'no-worker-timeout-ms'?: number;
  'redis-timeout-ms'?: number;
  'stall-timeout-ms'?: number;
}

/** Command-line flag of each `sandbox` config key this command sets (for messages). */
const FLAGS: Record<string, keyof RunArgs> = {
  timeout_ms: 'timeout-ms',
  memory_mb: 'memory-mb',
  workers: 'workers',
  stdout_limit: 'stdout-limit',
  min_assertions: 'min-assertions',
  redis: 'queue',
  queue_prefix: 'prefix',
  batch_size: 'batch-size',
  max_in_flight: 'max-in-flight',
  no_worker_timeout_ms: 'no-worker-timeout-ms',
  redis_timeout_ms: 'redis-timeout-ms',
  stall_timeout_ms: 'stall-timeout-ms',
};

/** Flags that only mean something with --queue. */
const QUEUE_ONLY = [
  'prefix',
  'batch-size',
  'max-in-flight',
  'no-worker-timeout-ms',
  'redis-timeout-ms',
  'stall-timeout-ms',
] as const;

/** One input line, parsed: a program to run, or the reason it cannot run. */
type ParsedLine = { line: number; spec: ProgramSpec } | { line: number; id: string; error: string };

const LANGUAGES: Record<string, Language> = {
  js: 'javascript',
  javascript: 'javascript',
  node: 'javascript',
  py: 'python',
  python: 'python',
};

/**
 * Parse the JSONL input: `{"id","program"[,"language"]}` lines, or MultiPL-E completion records
 * (`name`, `prompt`, `completion`, `tests`, optional `stop_tokens`). A completion record runs as
 * prompt + truncated completion, with its tests in their own realm and the prompt as the trusted
 * prefix (see ProgramSpec.tests and ProgramSpec.prompt), exactly as training runs them.
 */
function parseInput(text: string): ParsedLine[] {
  const out: ParsedLine[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, k) => {
    const line = k + 1;
    if (raw.trim() === '') return;
    const fallbackId = `line-${line}`;
    let rec: unknown;
    try {
      rec = JSON.parse(raw);
    } catch (e) {
      out.push({ line, id: fallbackId, error: `line ${line}: invalid JSON (${(e as Error).message})` });
      return;
    }
    if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) {
      out.push({ line, id: fallbackId, error: `line ${line}: expected a JSON object` });
      return;
    }
    const r = rec as Record<string, unknown>;
    const idRaw = r.id ?? r.name;
    const id = typeof idRaw === 'string' || typeof idRaw === 'number' ? String(idRaw) : fallbackId;
    const langRaw = r.language;
    if (langRaw !== undefined && typeof langRaw !== 'string') {
      out.push({ line, id, error: `line ${line}: "language" must be a string` });
      return;
    }
    const language = (langRaw === undefined ? 'javascript' : (LANGUAGES[langRaw.toLowerCase()] ?? langRaw)) as Language;
    if (typeof r.program === 'string') {
      // With `tests`, the program is the solution and only the tests' own checks count (they run
      // in their own realm, as in training); without, it is a self-contained program.
      if (r.tests !== undefined && typeof r.tests !== 'string') {
        out.push({ line, id, error: `line ${line}: "tests" must be a string` });
        return;
      }
      out.push({ line, spec: { id, language, code: r.program, ...(typeof r.tests === 'string' ? { tests: r.tests } : {}) } });
      return;
    }
    if (typeof r.prompt === 'string' && typeof r.completion === 'string' && typeof r.tests === 'string') {
      const stops = r.stop_tokens;
      if (stops !== undefined && !(Array.isArray(stops) && stops.every((s) => typeof s === 'string'))) {
        out.push({ line, id, error: `line ${line}: "stop_tokens" must be an array of strings` });
        return;
      }
      const completion = truncateAtStop(r.completion, (stops as string[] | undefined) ?? []);
      out.push({ line, spec: { id, language, code: r.prompt + completion + '\n', tests: r.tests, prompt: r.prompt } });
      return;
    }
    out.push({
      line,
      id,
      error: `line ${line}: expected {"id", "program"} or a MultiPL-E completion record {"name", "prompt", "completion", "tests"}`,
    });
  });
  return out;
}

const STATUS_ORDER: ExecStatus[] = ['pass', 'fail', 'error', 'syntax_error', 'timeout', 'oom', 'unsupported'];

/** The final summary: `N passed, M failed` followed by the count of every status that occurred. */
function summaryLine(statuses: readonly ExecStatus[]): string {
  const counts = new Map<ExecStatus, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  const passed = counts.get('pass') ?? 0;
  const parts = STATUS_ORDER.filter((s) => counts.has(s)).map((s) => `${s} ${counts.get(s)}`);
  return `${passed} passed, ${statuses.length - passed} failed${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

/** True when both paths exist and are the same file (after links and relative paths). */
function sameFile(a: string, b: string): boolean {
  try {
    const sa = statSync(a);
    const sb = statSync(b);
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return false;
  }
}

function readInput(path: string): string {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch {
    throw new AnchorError('NOT_FOUND', `cannot read ${path}: no such file`);
  }
  if (!st.isFile()) throw new AnchorError('BAD_ARGUMENT', `cannot read ${path}: not a file`);
  try {
    return stripBom(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new AnchorError('BAD_ARGUMENT', `cannot read ${path}: ${(e as Error).message}`);
  }
}

const run: CommandModule<object, RunArgs> = {
  command: 'run <input>',
  describe: 'Run the programs of a JSONL file in the sandbox; one JSON result line per input line',
  builder: (y) =>
    y
      // `--no-worker-timeout-ms` is the config's no_worker_timeout_ms, not the negation of a flag.
      .parserConfiguration({ 'boolean-negation': false })
      .positional('input', {
        type: 'string',
        demandOption: true,
        describe:
          'JSONL: {"id","program"[,"language"]} lines or MultiPL-E completion records {"name","prompt","completion","tests"[,"stop_tokens"]}',
      })
      .option('out', { type: 'string', describe: 'Write results here (default: stdout)' })
      .option('timeout-ms', { type: 'number', describe: 'Wall-clock limit per program (default 2000)' })
      .option('memory-mb', { type: 'number', describe: 'Isolate memory limit (default 64)' })
      .option('workers', { type: 'number', describe: 'Worker processes (default 2)' })
      .option('stdout-limit', { type: 'number', describe: 'Captured console bytes per program (default 65536)' })
      .option('min-assertions', {
        type: 'number',
        describe: 'Assertions a program must run to pass (default 1; 0 = Node exit-code semantics)',
      })
      .option('queue', {
        type: 'string',
        describe: 'Run on the `anchor-rl worker` fleet of this Redis (redis://[:password@]host:port) instead of locally',
      })
      .option('prefix', { type: 'string', describe: 'With --queue: queue-name prefix (default anchor-rl)' })
      .option('batch-size', { type: 'number', describe: 'With --queue: programs per job (default 16)' })
      .option('max-in-flight', { type: 'number', describe: 'With --queue: most programs queued at once (default 256)' })
      .option('no-worker-timeout-ms', {
        type: 'number',
        describe: 'With --queue: fail when no worker serves the queue this long (default 60000)',
      })
      .option('redis-timeout-ms', {
        type: 'number',
        describe: 'With --queue: fail when Redis is unreachable this long (default 120000)',
      })
      .option('stall-timeout-ms', {
        type: 'number',
        describe: 'With --queue: fail when workers make no progress this long (default 0 = 10 x timeout + 30 s)',
      }),
  handler: async (args) => {
    // The config schema (zod) loads here, not at import: `sandbox --help` stays light.
    const { sandboxConfigSchema } = await import('../../sandbox/config.ts');
    if (args.queue === undefined) {
      const stray = QUEUE_ONLY.filter((k) => args[k] !== undefined);
      if (stray.length)
        throw new AnchorError('BAD_ARGUMENT', `${stray.map((k) => `--${k}`).join(', ')} only apply with --queue URL`);
    }
    const given = Object.fromEntries(
      Object.entries(FLAGS)
        .filter(([, flag]) => args[flag] !== undefined)
        .map(([key, flag]) => [key, args[flag]]),
    );
    const parsedConfig = sandboxConfigSchema.safeParse({ ...given, ...(args.queue !== undefined ? { backend: 'queue' } : {}) });
    if (!parsedConfig.success) {
      const msgs = parsedConfig.error.issues.map((i) => {
        const key = String(i.path[0]);
        const flag = FLAGS[key];
        return `${flag ? `--${flag}` : key}: ${i.message}${flag ? ` (got ${JSON.stringify(args[flag])})` : ''}`;
      });
      throw new AnchorError('BAD_ARGUMENT', `bad sandbox option: ${msgs.join('; ')}`);
    }
    const cfg = parsedConfig.data;
    if (args.out !== undefined && sameFile(args.input, args.out)) {
      throw new AnchorError(
        'BAD_ARGUMENT',
        `--out ${args.out} is the input file ${args.input}: writing results there would overwrite the programs; choose another --out`,
      );
    }
    const parsed = parseInput(readInput(args.input));

    let fd = 1;
    if (args.out !== undefined) {
      try {
        fd = openSync(args.out, 'w');
      } catch (e) {
        throw new AnchorError('BAD_ARGUMENT', `cannot write ${args.out}: ${(e as Error).message}`);
      }
    }

    for (const p of parsed) if ('error' in p) process.stderr.write(`anchor-rl sandbox: ${p.error}\n`);

    // Results are written in input order as soon as every earlier line has its result.
    const lines: Array<string | undefined> = new Array(parsed.length);
    const statuses: ExecStatus[] = [];
    let next = 0;
    const flush = () => {
      while (next < lines.length && lines[next] !== undefined) {
        writeSync(fd, lines[next]!);
        lines[next] = '';
        next++;
      }
    };
    const record = (k: number, line: number, r: ExecResult) => {
      lines[k] = JSON.stringify({ ...r, line }) + '\n';
      statuses.push(r.status);
    };
    const specs: ProgramSpec[] = [];
    const slot: number[] = [];
    parsed.forEach((p, k) => {
      if ('error' in p) record(k, p.line, { id: p.id, status: 'error', passed: 0, total: 0, ms: 0, stdout: '', error: p.error });
      else {
        specs.push(p.spec);
        slot.push(k);
      }
    });
    flush();

    const bar = process.stderr.isTTY
      ? new cliProgress.SingleBar(
          { stream: process.stderr, format: 'sandbox [{bar}] {value}/{total} programs | {eta_formatted} left', hideCursor: true },
          cliProgress.Presets.shades_classic,
        )
      : undefined;
    bar?.start(specs.length, 0);
    const { createExecutorFromConfig } = await import('../../sandbox/index.ts'); // isolated-vm, Pyodide, the queue client
    const executor = createExecutorFromConfig(cfg);
    try {
      await executor.run(specs, (r, i) => {
        const k = slot[i]!;
        record(k, (parsed[k] as { line: number }).line, r);
        flush();
        bar?.increment();
      });
    } finally {
      bar?.stop();
      await executor.close();
      flush();
      if (fd !== 1) closeSync(fd);
    }
    const via =
      args.queue !== undefined
        ? ` (queue ${cfg.queue_prefix} at ${(await import('../../sandbox/queue/connection.ts')).redactUrl(cfg.redis)})`
        : '';
    process.stderr.write(summaryLine(statuses) + via + '\n');
  },
};

/** `anchor-rl sandbox <subcommand>`. */
export const sandboxCommand: CommandBody = {
  builder: (y) => y.command(run).demandCommand(1),
  handler: () => {},
};
