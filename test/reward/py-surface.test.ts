/**
 * `py-surface` (Python hashed n-grams + length features): tokenizer shape, determinism, and that
 * different programs get different vectors while the registry serves it by name.
 */
import { describe, expect, it } from 'vitest';
import { createFeatureExtractor } from '../../src/reward/features/registry.ts';
import { PY_LENGTH_FEATURES, pySurfaceExtractor, tokenizePy } from '../../src/reward/features/py-surface.ts';

describe('py-surface features', () => {
  it('tokenizes Python with indentation tokens and string classes', () => {
    const toks = tokenizePy('def f(x):\n    if x > 1:\n        return "a long string here"\n    return x ** 2  # c\n');
    expect(toks.slice(0, 7)).toEqual(['def', 'f', '(', 'x', ')', ':', '<NL>']);
    expect(toks).toContain('<INDENT>');
    expect(toks).toContain('<DEDENT>');
    expect(toks).toContain('<LSTR>');
    expect(toks).toContain('**');
    expect(toks).toContain('#');
  });

  it('is deterministic, sized hashDim + length features, and separates programs', () => {
    const fx = pySurfaceExtractor({ hashDim: 64 });
    expect(fx.dim).toBe(64 + PY_LENGTH_FEATURES.length);
    const a = fx.extract('    return a + b\n');
    const b = fx.extract('    return a - b\n');
    expect(Array.from(fx.extract('    return a + b\n'))).toEqual(Array.from(a));
    expect(Array.from(a)).not.toEqual(Array.from(b));
    expect(a[64]).toBe('    return a + b\n'.length);
    expect(a[64 + PY_LENGTH_FEATURES.indexOf('max_indent')]).toBe(4);
    expect(() => tokenizePy('"""unterminated\n\t\x00 (((')).not.toThrow();
  });

  it('is registered as py-surface', () => {
    expect(createFeatureExtractor('py-surface').name).toBe('py-surface');
  });
});
