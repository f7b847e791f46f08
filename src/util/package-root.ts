/** Where this package is installed (a checkout or node_modules/anchor-rl): the parent of src/ and dist/. */
import { fileURLToPath } from 'node:url';

/** The package's root directory (holds package.json, configs/, models/, sandbox/). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
