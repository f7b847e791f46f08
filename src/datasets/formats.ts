/**
 * Loaders for the published code-generation benchmark formats, each turning one record into
 * the common {@link Problem}. Formats are detected from the fields of the first record or
 * named explicitly.
 */
import { z } from 'zod';
import { AnchorError } from '../util/errors.ts';
import { describeIssues } from '../config/validate.ts';
import { resolveDataset } from './catalog.ts';
import { FORMAT_NAMES } from './format-names.ts';
import type { Problem } from './problem.ts';
import { readRecords } from './read.ts';

/** Python stop sequences used by the Codex/HumanEval evaluation. */
const PYTHON_STOP_TOKENS = ['\nclass ', '\ndef ', '\n#', '\nif __name__', '\nprint('];

const humanEvalRecord = z.object({
  task_id: z.string(),
  prompt: z.string(),
  canonical_solution: z.string(),
  test: z.string(),
  entry_point: z.string().min(1),
});

const mbppRecord = z.object({
  task_id: z.number().int(),
  text: z.string(),
  code: z.string(),
  test_list: z.array(z.string()).min(1),
  test_setup_code: z.string().default(''),
  challenge_test_list: z.array(z.string()).default([]),
});

const sanitizedMbppRecord = z.object({
  task_id: z.number().int(),
  prompt: z.string(),
  code: z.string(),
  test_list: z.array(z.string()).min(1),
  test_imports: z.array(z.string()).default([]),
  source_file: z.string().optional(),
});

const multiplERecord = z.object({
  name: z.string().min(1),
  language: z.string(),
  prompt: z.string(),
  tests: z.string(),
  stop_tokens: z.array(z.string()).default([]),
  doctests: z.string().optional(),
  original: z.string().optional(),
  prompt_terminology: z.string().optional(),
});

const synthRecord = z.object({
  id: z.string().min(1),
  language: z.enum(['javascript', 'python']),
  prompt: z.string(),
  tests: z.string(),
  entryPoint: z.string().optional(),
  stopTokens: z.array(z.string()).default([]),
  reference: z.string().optional(),
  setup: z.string().optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});

/** MBPP has no function signature in its prompt; the entry point is the function the asserts call. */
function mbppEntryPoint(tests: readonly string[], code: string): string | undefined {
  const fromTest = /assert\s+\(?\s*(?:not\s+)?(?:\w+\()*?([A-Za-z_]\w*)\s*\(/.exec(tests[0] ?? '');
  const defs = [...code.matchAll(/^def\s+([A-Za-z_]\w*)\s*\(/gm)].map((m) => m[1]!);
  if (fromTest && defs.includes(fromTest[1]!)) return fromTest[1];
  return defs[defs.length - 1] ?? fromTest?.[1];
}

function mbppPrompt(text: string, firstTest: string): string {
  // The MBPP paper's prompt: task text plus one example test, as a Python comment block the
  // model continues with the whole function.
  return `# ${text.trim()}\n# Your code should pass this test:\n# ${firstTest.trim()}\n`;
}

/** A dataset format: how to recognise its records and turn one into a Problem. */
interface DatasetFormat {
  name: string;
  describe: string;
  /** True when a record has this format's tell-tale fields. */
  matches(record: Record<string, unknown>): boolean;
  schema: z.ZodType;
  toProblem(record: never, source: string): Problem;
}

/** The format registry, in detection order. */
const FORMATS: DatasetFormat[] = [
  {
    name: 'humaneval',
    describe: 'OpenAI HumanEval JSONL (task_id, prompt, canonical_solution, test, entry_point)',
    matches: (r) => 'canonical_solution' in r && 'entry_point' in r,
    schema: humanEvalRecord,
    toProblem: (r: z.output<typeof humanEvalRecord>, source) => ({
      id: r.task_id,
      language: 'python',
      prompt: r.prompt,
      tests: `${r.test}\n\ncheck(${r.entry_point})\n`,
      entryPoint: r.entry_point,
      stopTokens: PYTHON_STOP_TOKENS,
      reference: r.canonical_solution,
      source,
    }),
  },
  {
    name: 'mbpp',
    describe: 'Google MBPP JSONL (task_id, text, code, test_list, test_setup_code)',
    matches: (r) => 'text' in r && 'test_list' in r && 'code' in r,
    schema: mbppRecord,
    toProblem: (r: z.output<typeof mbppRecord>, source) => {
      const code = r.code.replace(/\r\n/g, '\n');
      return {
        id: `mbpp/${r.task_id}`,
        language: 'python',
        prompt: mbppPrompt(r.text, r.test_list[0]!),
        tests: r.test_list.join('\n') + '\n',
        entryPoint: mbppEntryPoint(r.test_list, code),
        stopTokens: ['\nif __name__', '\nprint(', '\nassert '],
        reference: code,
        setup: r.test_setup_code.replace(/\r\n/g, '\n') || undefined,
        source,
        meta: { text: r.text, challenge_test_list: r.challenge_test_list },
      };
    },
  },
  {
    name: 'sanitized-mbpp',
    describe: 'Google sanitized-MBPP JSON array (task_id, prompt, code, test_list, test_imports)',
    matches: (r) => 'prompt' in r && 'test_list' in r && 'code' in r,
    schema: sanitizedMbppRecord,
    toProblem: (r: z.output<typeof sanitizedMbppRecord>, source) => ({
      id: `mbpp/${r.task_id}`,
      language: 'python',
      prompt: mbppPrompt(r.prompt, r.test_list[0]!),
      tests: r.test_list.join('\n') + '\n',
      entryPoint: mbppEntryPoint(r.test_list, r.code),
      stopTokens: ['\nif __name__', '\nprint(', '\nassert '],
      reference: r.code,
      setup: r.test_imports.length ? r.test_imports.join('\n') : undefined,
      source,
      meta: { text: r.prompt },
    }),
  },
  {
    name: 'multipl-e',
    describe:
      'MultiPL-E prompts JSON/JSONL (name, language, prompt, tests, stop_tokens); JavaScript ports are evaluation-only by licence',
    matches: (r) => 'name' in r && 'tests' in r && 'prompt' in r && !('id' in r),
    schema: multiplERecord,
    toProblem: (r: z.output<typeof multiplERecord>, source) => {
      const language =
        r.language === 'js' || r.language === 'javascript'
          ? 'javascript'
          : r.language === 'py' || r.language === 'python'
            ? 'python'
            : undefined;
      if (!language)
        throw new AnchorError('BAD_DATASET', `language ${JSON.stringify(r.language)} is not supported (javascript or python)`);
      return {
        id: r.name,
        language,
        prompt: r.prompt,
        tests: r.tests,
        entryPoint:
          /let\s+candidate\s*=\s*([A-Za-z_$][\w$]*)/.exec(r.tests)?.[1] ??
          /function\s+([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*\{\s*$/.exec(r.prompt)?.[1],
        stopTokens: r.stop_tokens,
        source,
        meta: { evaluationOnly: true },
      };
    },
  },
  {
    name: 'anchor',
    describe: "anchor-rl's own problem JSONL (id, language, prompt, tests, entryPoint, stopTokens, reference)",
    matches: (r) => 'id' in r && 'tests' in r && 'prompt' in r && 'language' in r,
    schema: synthRecord,
    toProblem: (r: z.output<typeof synthRecord>, source) => ({ ...r, source }),
  },
];

// `--help` lists the names from ./format-names.ts without loading this module: keep the two equal.
if (FORMATS.map((f) => f.name).join() !== FORMAT_NAMES.join()) {
  throw new AnchorError('INTERNAL', `dataset formats ${FORMATS.map((f) => f.name).join(', ')} differ from FORMAT_NAMES`);
}

/** Result of loading a dataset file. */
export interface LoadedDataset {
  path: string;
  format: string;
  problems: Problem[];
  /** Field names of the first raw record, for inspection. */
  fields: string[];
}

/**
 * Load a dataset of any supported format (detected from the first record unless `format` is
 * given): `spec` is a published dataset's name (./catalog.ts: its verified cached file) or a
 * path. A malformed record throws BAD_DATASET naming file, line and problem.
 */
export function loadDataset(spec: string, format?: string): LoadedDataset {
  const path = resolveDataset(spec);
  const records = readRecords(path);
  if (records.length === 0) throw new AnchorError('BAD_DATASET', `${path}: no records`);
  const first = records[0]!;
  if (!first.value || typeof first.value !== 'object' || Array.isArray(first.value)) {
    throw new AnchorError('BAD_DATASET', `${path}:${first.line}: expected a JSON object per record`);
  }
  let fmt: DatasetFormat | undefined;
  if (format) {
    fmt = FORMATS.find((f) => f.name === format);
    if (!fmt)
      throw new AnchorError(
        'BAD_ARGUMENT',
        `unknown dataset format ${JSON.stringify(format)}; expected one of ${FORMAT_NAMES.join(', ')}`,
      );
  } else {
    fmt = FORMATS.find((f) => f.matches(first.value as Record<string, unknown>));
    if (!fmt) {
      throw new AnchorError(
        'BAD_DATASET',
        `${path}:${first.line}: cannot tell the format from fields ${Object.keys(first.value).join(', ')}; ` +
          `give --format (${FORMAT_NAMES.join(', ')})`,
      );
    }
  }
  const problems: Problem[] = [];
  for (const { line, value } of records) {
    const parsed = fmt.schema.safeParse(value);
    if (!parsed.success) {
      const lines = describeIssues(parsed.error.issues, value);
      throw new AnchorError('BAD_DATASET', `${path}:${line}: not a valid ${fmt.name} record: ${lines.join('; ')}`, {
        file: path,
        line,
      });
    }
    try {
      problems.push(fmt.toProblem(parsed.data as never, path));
    } catch (err) {
      throw new AnchorError('BAD_DATASET', `${path}:${line}: ${(err as Error).message}`, { file: path, line });
    }
  }
  return { path, format: fmt.name, problems, fields: Object.keys(first.value) };
}
