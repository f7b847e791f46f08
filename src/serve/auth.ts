/**
 * Access to `anchor-rl serve`: the Host header must name the loopback address (so a page
 * elsewhere cannot reach the server by DNS rebinding), and an access token must come with every
 * request — once in the URL (`?token=`, then remembered in an HttpOnly cookie, as Jupyter does)
 * or as `Authorization: Bearer` — so other users of the machine cannot read the runs.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The address the server listens on (and the only one its Host check accepts, with aliases). */
export const HOST = '127.0.0.1';

/** A reply that ends a request before it reaches the router. */
export interface Refusal {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** Decode a %-escaped component; null when malformed. */
export function decodeComponent(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/** Constant-time comparison of byte strings (a token's length in characters is not its length in bytes). */
function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The access check of a server with `token` (null: no token required) on the port `port()`
 * returns (known only once it listens). Returns the refusal or redirect to send, or null to let
 * the request through.
 */
export function accessCheck(token: string | null, port: () => number): (req: IncomingMessage, u: URL) => Refusal | null {
  const cookieName = () => `anchor_rl_token_${port()}`;
  const cookieToken = (req: IncomingMessage): string | null => {
    for (const part of (req.headers.cookie ?? '').split(';')) {
      const [k, ...v] = part.trim().split('=');
      if (k === cookieName()) return decodeComponent(v.join('='));
    }
    return null;
  };
  const bearer = (req: IncomingMessage): string | null => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
  const hostOk = (req: IncomingMessage) =>
    [`${HOST}:${port()}`, `localhost:${port()}`, `[::1]:${port()}`].includes(req.headers.host ?? '');
  return (req, u) => {
    if (!hostOk(req)) return { status: 403, body: 'anchor-rl serve: wrong Host header (only the loopback address is served)\n' };
    if (token === null) return null;
    const q = u.searchParams.get('token');
    if (q !== null && same(q, token)) {
      // Remember the token in a cookie and drop it from the address bar and history.
      u.searchParams.delete('token');
      return {
        status: 303,
        body: '',
        headers: {
          location: u.pathname + (u.search || ''),
          'set-cookie': `${cookieName()}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`,
        },
      };
    }
    const given = bearer(req) ?? cookieToken(req);
    if (given === null || !same(given, token))
      return {
        status: 403,
        body: 'anchor-rl serve: access token required — open the URL that `anchor-rl serve` printed (it carries ?token=...)\n',
      };
    return null;
  };
}
