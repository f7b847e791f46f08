/**
 * bin/anchor-rl.js picks the compiled CLI (dist/) in a checkout only while dist/build-stamp.json
 * still describes src/: the same .ts files, none modified since the build started. Otherwise it
 * runs the sources through tsx, so a stale build is never run. Checked on a scratch tree holding
 * a copy of the shim, a stand-in main in each flavour, and the checkout's node_modules (for tsx).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.ts';

const tree = mkdtempSync(join(tmpdir(), 'anchor-bin-'));
afterAll(() => rmSync(tree, { recursive: true, force: true }));

const mainOf = (flavour: string) => `export async function main() { process.stdout.write('${flavour}'); return 0; }\n`;

function build(startedAt: number): void {
  writeFileSync(join(tree, 'dist', 'build-stamp.json'), JSON.stringify({ startedAt, files: ['cli/main.ts', 'util/x.ts'] }));
}

function flavour(): string {
  const res = spawnSync(process.execPath, [join(tree, 'bin', 'anchor-rl.js')], { encoding: 'utf8' });
  expect(res.status, res.stderr).toBe(0);
  return res.stdout;
}

describe('bin/anchor-rl.js flavour', () => {
  beforeEach(() => {
    rmSync(join(tree, 'src'), { recursive: true, force: true });
    rmSync(join(tree, 'dist'), { recursive: true, force: true });
    for (const d of ['bin', 'src/cli', 'src/util', 'dist/cli']) mkdirSync(join(tree, d), { recursive: true });
    copyFileSync(join(repoRoot, 'bin', 'anchor-rl.js'), join(tree, 'bin', 'anchor-rl.js'));
    writeFileSync(join(tree, 'package.json'), '{"type": "module"}\n');
    try {
      symlinkSync(join(repoRoot, 'node_modules'), join(tree, 'node_modules'));
    } catch {} // already linked by an earlier case
    writeFileSync(join(tree, 'src', 'cli', 'main.ts'), mainOf('src'));
    writeFileSync(join(tree, 'src', 'util', 'x.ts'), 'export const x = 1;\n');
    writeFileSync(join(tree, 'dist', 'cli', 'main.js'), mainOf('dist'));
    const past = new Date(Date.now() - 60_000);
    for (const f of ['cli/main.ts', 'util/x.ts']) utimesSync(join(tree, 'src', f), past, past);
  });

  it('runs dist/ when the stamp describes src/ as it is', () => {
    build(Date.now() - 30_000);
    expect(flavour()).toBe('dist');
  });

  it('runs the sources when a source file changed after the build started', () => {
    build(Date.now() - 30_000);
    writeFileSync(join(tree, 'src', 'util', 'x.ts'), 'export const x = 2;\n');
    expect(flavour()).toBe('src');
  });

  it('runs the sources when a source file was added or removed since the build', () => {
    build(Date.now() - 30_000);
    writeFileSync(join(tree, 'src', 'util', 'y.ts'), 'export const y = 1;\n');
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(tree, 'src', 'util', 'y.ts'), past, past);
    expect(flavour()).toBe('src');
    rmSync(join(tree, 'src', 'util', 'y.ts'));
    rmSync(join(tree, 'src', 'util', 'x.ts'));
    expect(flavour()).toBe('src');
  });

  it('runs the sources when there is no stamp (a build from before stamps, or a failed one)', () => {
    expect(flavour()).toBe('src');
  });

  it('runs dist/ when there are no sources (the installed package)', () => {
    rmSync(join(tree, 'src'), { recursive: true });
    expect(flavour()).toBe('dist');
  });
});
