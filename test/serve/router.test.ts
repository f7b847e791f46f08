/**
 * The router of `anchor-rl serve` without a server: requests to targets, and HTTP statuses
 * chosen by an error's code, never by its wording.
 */
import { describe, expect, it } from 'vitest';
import { statusOf, targetOf } from '../../src/serve/router.ts';
import { AnchorError } from '../../src/util/errors.ts';

describe('serve router', () => {
  it('chooses the status by error code: NOT_FOUND 404, BAD_REQUEST 400, other errors of ours 409, anything else 503', () => {
    expect(statusOf(new AnchorError('NOT_FOUND', 'x'))).toBe(404);
    expect(statusOf(new AnchorError('BAD_REQUEST', 'worded any way at all'))).toBe(400);
    // The wording of a request error, on an error that is not one, does not make it a 400.
    expect(statusOf(new AnchorError('BAD_ARGUMENT', 'not a run id: "x"'))).toBe(409);
    expect(statusOf(new AnchorError('BAD_ARGUMENT', 'overlay needs run=ID parameters'))).toBe(409);
    expect(statusOf(Object.assign(new Error('busy'), { code: 'EBUSY' }))).toBe(503);
  });

  it('malformed ids and an overlay without runs are BAD_REQUEST', () => {
    const scope = { root: '/nonexistent-root', only: null };
    const code = (path: string, query = '') => {
      try {
        targetOf(scope, path, new URL(`http://127.0.0.1/${query}`));
      } catch (err) {
        return (err as AnchorError).code;
      }
      return 'none';
    };
    expect(code('/run/%E0%A4%A')).toBe('BAD_REQUEST');
    expect(code('/run/..%2Fetc'.replace('%2F', '/'))).toBe('BAD_REQUEST');
    expect(code('/overlay')).toBe('BAD_REQUEST');
    expect(code('/run/nope')).toBe('NOT_FOUND');
    expect(targetOf(scope, '/elsewhere', new URL('http://127.0.0.1/'))).toBeNull();
  });
});
