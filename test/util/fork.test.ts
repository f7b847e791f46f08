/** util/fork.ts: a child is forked in its parent's flavour (TypeScript sources or compiled dist/). */
import { describe, expect, it } from 'vitest';
import { moduleEntry } from '../../src/util/fork.ts';

describe('moduleEntry', () => {
  it('from a source module: the sibling .ts with tsx resolved to a file, never a bare specifier', () => {
    const e = moduleEntry('./arm-process', 'file:///pkg/src/train/run.ts');
    expect(e.path).toBe('/pkg/src/train/arm-process.ts');
    expect(e.execArgv[0]).toBe('--import');
    expect(e.execArgv[1]).toMatch(/^file:\/\/.*\/node_modules\/tsx\//);
  });

  it('from compiled dist/: the sibling .js with no loader', () => {
    expect(moduleEntry('./python/worker', 'file:///pkg/dist/sandbox/local-executor.js')).toEqual({
      path: '/pkg/dist/sandbox/python/worker.js',
      execArgv: [],
    });
  });
});
