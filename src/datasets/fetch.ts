/**
 * `anchor-rl datasets fetch NAME`: download a published benchmark into the dataset cache,
 * verified against its pinned SHA-256 before it is written (atomically: a reader never sees half
 * a file, and a failed download leaves nothing behind).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnchorError } from '../util/errors.ts';
import { writeFileAtomic } from '../util/fs.ts';
import { DATASETS, type DatasetName, type PublishedDataset, datasetCacheDir, sha256Hex } from './catalog.ts';

/** Options of {@link fetchDataset}. */
export interface FetchOptions {
  /** Cache directory (default {@link datasetCacheDir}). */
  dir?: string;
  /** Download from here instead of the publisher (a mirror); the pinned SHA-256 still applies. */
  url?: string;
  /** Download again even when a verified copy is cached. */
  force?: boolean;
  /** Called as bytes arrive: received so far, and the total when the server says it. */
  onProgress?: (received: number, total: number | undefined) => void;
  /** The catalogue entry to use instead of the named one (tests serve their own fixture). */
  entry?: PublishedDataset;
}

/** What {@link fetchDataset} did. */
export interface FetchResult {
  file: string;
  bytes: number;
  sha256: string;
  /** A verified copy was already cached; nothing was downloaded. */
  cached: boolean;
  url: string;
}

/** Download dataset `name` into the cache (see the module docs). */
export async function fetchDataset(name: DatasetName, opts: FetchOptions = {}): Promise<FetchResult> {
  const d = opts.entry ?? DATASETS[name];
  const file = join(opts.dir ?? datasetCacheDir(), d.file);
  const url = opts.url ?? d.url;
  if (!opts.force && existsSync(file) && sha256Hex(readFileSync(file)) === d.sha256)
    return { file, bytes: d.bytes, sha256: d.sha256, cached: true, url };
  let res: Response;
  try {
    res = await fetch(url, { redirect: 'follow' });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new AnchorError(
      'RUN_FAILED',
      `cannot download ${name} from ${url}: ${cause?.code ?? cause?.message ?? (err as Error).message}`,
      {
        url,
      },
    );
  }
  if (!res.ok || !res.body)
    throw new AnchorError('RUN_FAILED', `cannot download ${name} from ${url}: HTTP ${res.status}`, { url });
  const header = Number(res.headers.get('content-length'));
  const total = Number.isFinite(header) && header > 0 ? header : undefined;
  const chunks: Uint8Array[] = [];
  let received = 0;
  opts.onProgress?.(0, total);
  for await (const chunk of res.body) {
    received += chunk.length;
    // The pinned size bounds what is kept in memory: a server sending more is not serving this file.
    if (received > d.bytes)
      throw new AnchorError('BAD_DATASET', `${url} sent more than the ${d.bytes} bytes of the published ${name} file`, { url });
    chunks.push(chunk);
    opts.onProgress?.(received, total);
  }
  const data = Buffer.concat(chunks);
  const got = sha256Hex(data);
  if (got !== d.sha256)
    throw new AnchorError(
      'BAD_DATASET',
      `${url} did not send the published ${name} file: ${data.length} bytes with sha256 ${got}, expected ${d.bytes} bytes with sha256 ${d.sha256}${
        data.length < d.bytes ? ' (truncated download)' : ''
      }; nothing was written`,
      { url, sha256: got },
    );
  writeFileAtomic(file, data);
  return { file, bytes: data.length, sha256: got, cached: false, url };
}
