/**
 * Published benchmarks by name: where each publisher serves the file (pinned to a commit), its
 * SHA-256, and the local cache a config's `task.dataset: NAME` resolves to. The project ships no
 * copy of them; `anchor-rl datasets fetch NAME` downloads one (./fetch.ts).
 *
 * The cache is `$ANCHOR_RL_DATASETS` when set (CI points it at a directory already holding the
 * files), else `$XDG_CACHE_HOME/anchor-rl/datasets`, else `~/.cache/anchor-rl/datasets`. A cached
 * file is checked against its pinned SHA-256 every time it is used.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { AnchorError } from '../util/errors.ts';

/** One published benchmark file. */
export interface PublishedDataset {
  /** The file name the publisher gives it (kept in the cache). */
  file: string;
  /** The publisher's own location, pinned to the commit of this version. */
  url: string;
  /** SHA-256 of the published bytes (hex). */
  sha256: string;
  bytes: number;
  licence: string;
  /** What it is, in a line. */
  about: string;
}

/** The names a config's `task.dataset` may use instead of a path. */
export const DATASETS = {
  humaneval: {
    file: 'HumanEval.jsonl.gz',
    url: 'https://raw.githubusercontent.com/openai/human-eval/463c980b59e818ace59f6f9803cd92c749ceae61/data/HumanEval.jsonl.gz',
    sha256: 'b796127e635a67f93fb35c04f4cb03cf06f38c8072ee7cee8833d7bee06979ef',
    bytes: 44_877,
    licence: 'MIT',
    about: 'HumanEval (OpenAI): 164 Python problems',
  },
  mbpp: {
    file: 'mbpp.jsonl',
    url: 'https://raw.githubusercontent.com/google-research/google-research/30adf0ec5f35f9609c2f1d896005e184195d9146/mbpp/mbpp.jsonl',
    sha256: 'ccf64ceae9c5403bf50a044cb6d505bfd2a2963ee58338ba268fd65beab92a9f',
    bytes: 563_743,
    licence: 'CC-BY-4.0',
    about: 'MBPP (Google Research): 974 Python problems',
  },
  'sanitized-mbpp': {
    file: 'sanitized-mbpp.json',
    url: 'https://raw.githubusercontent.com/google-research/google-research/30adf0ec5f35f9609c2f1d896005e184195d9146/mbpp/sanitized-mbpp.json',
    sha256: 'ca95deaa9a01ef0a6f439f88bcf0dd3db3563d22f22aad6cae04ebb9a8d8c8e9',
    bytes: 255_053,
    licence: 'CC-BY-4.0',
    about: 'sanitized MBPP: the 427 hand-verified MBPP problems',
  },
  'multipl-e-js': {
    file: 'humaneval-js-reworded.jsonl',
    url: 'https://raw.githubusercontent.com/nuprl/MultiPL-E/7bc20f22f27ebd353b07586695a2a9e3740cfcf8/prompts/humaneval-js-reworded.jsonl',
    sha256: '47536b7f7a0221586cdecc16c900ff8e7ba7dd60cc4bab3bddbbc4e866e0cef8',
    bytes: 206_768,
    licence: 'BSD-3-Clause with a Machine Learning Restriction: evaluation only',
    about: 'MultiPL-E: HumanEval in JavaScript, 161 problems (evaluation only)',
  },
  'multipl-e-mbpp-js': {
    file: 'mbpp-js-reworded.jsonl',
    url: 'https://raw.githubusercontent.com/nuprl/MultiPL-E/7bc20f22f27ebd353b07586695a2a9e3740cfcf8/prompts/mbpp-js-reworded.jsonl',
    sha256: '9bb4dd80a3091fb7b79a76f046c36504b64b3e148c17f63e53a02789238b80b2',
    bytes: 309_197,
    licence: 'BSD-3-Clause with a Machine Learning Restriction: evaluation only',
    about: 'MultiPL-E: sanitized MBPP in JavaScript, 399 problems (evaluation only)',
  },
} as const satisfies Record<string, PublishedDataset>;

/** A dataset name. */
export type DatasetName = keyof typeof DATASETS;

/** The dataset names, in the order `anchor-rl datasets list` shows them. */
export const DATASET_NAMES = Object.keys(DATASETS) as DatasetName[];

/** Whether `spec` is a dataset name (rather than a path). */
export function isDatasetName(spec: string): spec is DatasetName {
  return Object.hasOwn(DATASETS, spec);
}

/** The dataset cache directory (see the module docs). */
export function datasetCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ANCHOR_RL_DATASETS) return env.ANCHOR_RL_DATASETS;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'anchor-rl', 'datasets');
}

/** SHA-256 of bytes, hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The file `spec` names: a dataset name → its cached file, checked against the pinned SHA-256
 * (NOT_FOUND saying how to fetch it when absent, BAD_DATASET when the bytes differ); anything
 * else is a path and returned as it is.
 */
export function resolveDataset(spec: string, env: NodeJS.ProcessEnv = process.env): string {
  if (!isDatasetName(spec)) return spec;
  const d: PublishedDataset = DATASETS[spec];
  const dir = datasetCacheDir(env);
  const file = join(dir, d.file);
  if (!existsSync(file))
    throw new AnchorError(
      'NOT_FOUND',
      `dataset ${spec} is not in the dataset cache (${file} does not exist): fetch it with \`anchor-rl datasets fetch ${spec}\`, or set ANCHOR_RL_DATASETS to a directory that holds ${d.file}`,
      { dataset: spec, file },
    );
  const got = sha256Hex(readFileSync(file));
  if (got !== d.sha256)
    throw new AnchorError(
      'BAD_DATASET',
      `${file} is not the published ${spec} file (sha256 ${got}, expected ${d.sha256}): delete it and run \`anchor-rl datasets fetch ${spec}\``,
      { dataset: spec, file, sha256: got },
    );
  return file;
}
