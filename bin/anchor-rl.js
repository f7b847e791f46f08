#!/usr/bin/env node
// Entry shim. Two flavours of the CLI:
// - the compiled JavaScript of `npm run build` (dist/), with no loader: what the installed package
//   runs (npm ships dist/ and no src/, see `files` in package.json), and what a checkout runs
//   while its build is fresh (below);
// - in a source checkout whose dist/ is missing or stale, the TypeScript sources through tsx's
//   loader, so edits take effect without a rebuild and a stale build is never run.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';

const sources = new URL('../src/', import.meta.url);
const compiled = new URL('../dist/cli/main.js', import.meta.url);

/** dist/ was built from src/ as it is now: the same .ts files, none modified since the build began. */
function buildIsFresh() {
  try {
    const stamp = JSON.parse(readFileSync(new URL('../dist/build-stamp.json', import.meta.url), 'utf8'));
    const files = readdirSync(sources, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .sort();
    return (
      files.length === stamp.files.length &&
      files.every((f, i) => f === stamp.files[i] && statSync(new URL(f, sources)).mtimeMs < stamp.startedAt)
    );
  } catch {
    return false; // no stamp, unreadable stamp or a file gone mid-check: run the sources
  }
}

let main;
if (!existsSync(sources) || (existsSync(compiled) && buildIsFresh())) {
  ({ main } = await import(compiled.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(new URL('cli/main.ts', sources).href));
}
process.exitCode = await main(process.argv.slice(2));
