/**
 * Requests of `anchor-rl serve` → what to show: a page or its data (`/api/...`), the change
 * stream's watched entries, a run's file; and errors → HTTP statuses by their code.
 */
import { AnchorError } from '../util/errors.ts';
import { decodeComponent } from './auth.ts';
import { findEntry, type Entry } from './discover.ts';

/** A parsed page/data request: what to build and what to watch. */
export interface Target {
  page: 'index' | 'run' | 'sweep' | 'overlay';
  entries: Entry[];
  window?: number;
  metric?: string;
}

/** Where the server looks entries up: its root and the one entry it serves (null: all). */
export interface Scope {
  root: string;
  only: string | null;
}

const intParam = (u: URL, k: string): number | undefined => {
  const v = u.searchParams.get(k);
  return v === null || v === '' ? undefined : Number(v);
};

/** The id after `prefix` in a path (%-decoded per segment); BAD_REQUEST when malformed. */
export function idFrom(path: string, prefix: string): string {
  const parts = path.slice(prefix.length).split('/').map(decodeComponent);
  if (parts.some((p) => p === null))
    throw new AnchorError('BAD_REQUEST', `not a run id: ${JSON.stringify(path.slice(prefix.length))}`);
  return parts.join('/');
}

/** The page a path asks for (`/`, `/run/ID`, `/sweep/ID`, `/overlay?run=...`), or null for no such page. */
export function targetOf(scope: Scope, path: string, u: URL): Target | null {
  const { root, only } = scope;
  const window = intParam(u, 'window');
  if (path === '/' || path === '/index') return { page: 'index', entries: [] };
  if (path.startsWith('/run/')) return { page: 'run', entries: [findEntry(root, only, 'run', idFrom(path, '/run/'))], window };
  if (path.startsWith('/sweep/'))
    return { page: 'sweep', entries: [findEntry(root, only, 'sweep', idFrom(path, '/sweep/'))], window };
  if (path === '/overlay') {
    const ids = [...new Set(u.searchParams.getAll('run'))];
    if (ids.length < 1)
      throw new AnchorError('BAD_REQUEST', 'overlay needs run=ID parameters (tick two or more runs in the index)');
    return {
      page: 'overlay',
      entries: ids.map((id) => findEntry(root, only, 'run', id)),
      window,
      metric: u.searchParams.get('metric') ?? undefined,
    };
  }
  return null;
}

/** What `/api/events?index=1` or `?run=ID&sweep=ID` watches. */
export function watchedOf(scope: Scope, u: URL): Target {
  if (u.searchParams.has('index')) return { page: 'index', entries: [] };
  return {
    page: 'run',
    entries: [
      ...u.searchParams.getAll('run').map((id) => findEntry(scope.root, scope.only, 'run', id)),
      ...u.searchParams.getAll('sweep').map((id) => findEntry(scope.root, scope.only, 'sweep', id)),
    ],
  };
}

/** The query of the change stream that watches what `t` shows. */
export function watchQuery(t: Target): string {
  const q = new URLSearchParams();
  if (t.page === 'index') q.set('index', '1');
  else for (const e of t.entries) q.append(e.kind, e.id);
  return q.toString();
}

/**
 * The HTTP status of an error: NOT_FOUND 404, a malformed request (BAD_REQUEST) 400, any other
 * error of ours 409 (the run is in a state the page cannot show, e.g. half-written), and anything
 * else 503 (a read that failed while the run is written; the next change retries).
 */
export function statusOf(err: unknown): number {
  if (!(err instanceof AnchorError)) return 503;
  if (err.code === 'NOT_FOUND') return 404;
  if (err.code === 'BAD_REQUEST') return 400;
  return 409;
}

/** The message an error shows on a page or in an API reply. */
export function messageOf(err: unknown): string {
  return err instanceof AnchorError
    ? err.message
    : `not readable right now (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); retrying on the next change`;
}
