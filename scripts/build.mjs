// `npm run build`: compile src/ to dist/ and stamp what was compiled. bin/anchor-rl.js runs
// dist/ from a checkout only while the stamp still describes src/ (same files, none modified
// since the build started), so a stale build is never run and a fresh one spares tsx's start-up.
// Plain JavaScript: it runs inside `npm ci` (the `prepare` script) before anything is compiled.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const startedAt = Date.now(); // before reading any source: an edit during the build makes the stamp stale
// Compile beside dist/ and swap it in at the end: a CLI already running from dist/ (a test that
// spawns the CLI while `npm pack` runs `prepare`) keeps finding every module it imports lazily,
// instead of a directory deleted under it for the whole compile.
const dist = join(root, 'dist');
const out = join(root, `.dist-build-${process.pid}`);
const old = join(root, `.dist-old-${process.pid}`);
rmSync(out, { recursive: true, force: true });
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript')), '..', 'bin', 'tsc');
const res = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', out], {
  stdio: 'inherit',
});
if (res.status !== 0) {
  rmSync(out, { recursive: true, force: true });
  process.exit(res.status ?? 1);
}
const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .sort();
writeFileSync(join(out, 'build-stamp.json'), `${JSON.stringify({ startedAt, files })}\n`);
if (existsSync(dist)) renameSync(dist, old);
renameSync(out, dist);
rmSync(old, { recursive: true, force: true });
