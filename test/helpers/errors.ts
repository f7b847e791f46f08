import { AnchorError } from '../../src/util/errors.ts';

/** The AnchorError `fn` throws (any other error is rethrown; no error fails the test). */
export function errorOf(fn: () => unknown): AnchorError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AnchorError) return err;
    throw err;
  }
  throw new Error('expected an AnchorError');
}
