#!/usr/bin/env node
// Entry shim. Two flavours of the CLI:
// - a source checkout (src/ next to this file): the TypeScript sources through tsx's loader, so
//   edits take effect without a rebuild and a dist/ left by an earlier build is never run stale;
// - the installed package (npm ships dist/ and no src/, see `files` in package.json): the
//   compiled JavaScript of `npm run build`, with no loader and no tsx.
import { existsSync } from 'node:fs';

const sources = new URL('../src/cli/main.ts', import.meta.url);
let main;
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(sources.href));
} else {
  ({ main } = await import('../dist/cli/main.js'));
}
process.exitCode = await main(process.argv.slice(2));
