import { describe, expect, it } from 'vitest';
import { tokenizeJs } from '../../src/reward/features/js-tokenize.ts';
import { AST_EXTRA_FEATURES, ESTREE_TYPES, LENGTH_FEATURES, jsSurfaceExtractor } from '../../src/reward/features/js-surface.ts';
import { createFeatureExtractor, featureExtractorNames } from '../../src/reward/features/registry.ts';
import { ASCII_CHARS, CharTokenizer } from '../../src/policy/tokenizer/index.ts';

const PROMPT = '// f(1) = 2\nfunction f(x) {\n';
const GOOD = '  return x * 2;\n}';
const BAD = '  return x * ;\n}';

describe('JS tokenizer', () => {
  it('splits identifiers, numbers, multi-char punctuators and normalises literals', () => {
    expect(tokenizeJs("let a = b === 'x' ? 0x1F : 2.5e3; // hi\n")).toEqual([
      'let',
      'a',
      '=',
      'b',
      '===',
      '<str>',
      '?',
      '0x1F',
      ':',
      '2.5e3',
      ';',
      '<comment>',
    ]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the input is JavaScript source containing a template literal
    expect(tokenizeJs('x=>{return `t${y}`}')).toEqual(['x', '=>', '{', 'return', '<str>', '}']);
    // Never throws on junk or unterminated literals.
    expect(tokenizeJs('"abc\n@#')).toEqual(['<str>', '@', '#']);
  });
});

describe('js-surface', () => {
  it('has a fixed dimension and counts n-grams deterministically', () => {
    const fx = jsSurfaceExtractor({ hashDim: 64 });
    expect(fx.dim).toBe(64 + LENGTH_FEATURES.length);
    const a = fx.extract(GOOD);
    expect(a.length).toBe(fx.dim);
    expect(Array.from(fx.extract(GOOD))).toEqual(Array.from(a));
    // 6 tokens → 6 unigrams + 5 bigrams + 4 trigrams = 15 hashed counts.
    expect(a.slice(0, 64).reduce((s, v) => s + v, 0)).toBe(15);
    expect(a[64]).toBe(GOOD.length); // chars
    expect(a[64 + 2]).toBe(2); // lines
    expect(a[64 + 3]).toBe(6); // tokens
    expect(a[64 + 6]).toBe(-1); // one unmatched closing brace
    expect(Array.from(fx.extract(BAD))).not.toEqual(Array.from(a));
  });
});

describe('js-ast', () => {
  const fx = createFeatureExtractor('js-ast');
  const k = ESTREE_TYPES.length + 1;
  it('parses the completion inside its prompt and counts only the completion nodes', () => {
    expect(fx.dim).toBe(k + AST_EXTRA_FEATURES.length - 1);
    const v = fx.extract(GOOD, PROMPT);
    expect(v[k]).toBe(1); // parses
    const at = (t: string): number => v[ESTREE_TYPES.indexOf(t as (typeof ESTREE_TYPES)[number])]!;
    expect(at('ReturnStatement')).toBe(1);
    expect(at('BinaryExpression')).toBe(1);
    expect(at('FunctionDeclaration')).toBe(1); // the prompt alone does not parse, so nothing is subtracted
    expect(v[k + 1]).toBeGreaterThanOrEqual(4); // Program > Function > Block > Return > Binary
  });

  it('flags code that does not parse', () => {
    const v = fx.extract(BAD, PROMPT);
    expect(v[k]).toBe(0);
    expect(v.every((x) => x === 0)).toBe(true);
  });

  it('subtracts the prompt when the prompt parses on its own', () => {
    const v = fx.extract('\nfunction g() { return 1; }', 'function f(x) { return x; }');
    expect(v[ESTREE_TYPES.indexOf('FunctionDeclaration')]).toBe(1);
    expect(v[ESTREE_TYPES.indexOf('Program')]).toBe(0);
  });
});

describe('registry', () => {
  it('has all seven extractors with the DSL dimensions of the spec', () => {
    expect(featureExtractorNames().sort()).toEqual([
      'dsl6',
      'js-ast',
      'js-surface',
      'policy-tokens',
      'py-surface',
      'richdsl-strong',
      'richdsl-weak',
    ]);
    expect(createFeatureExtractor('dsl6').dim).toBe(43);
    expect(createFeatureExtractor('richdsl-weak').dim).toBe(111);
    expect(createFeatureExtractor('richdsl-strong').dim).toBe(359);
    const v = createFeatureExtractor('dsl6').extract('AAD');
    expect(v[0]).toBe(2); // count of A
    expect(v[42]).toBe(3); // length
    expect(() => createFeatureExtractor('nope')).toThrow(/unknown feature extractor/);
  });
});

describe('policy-tokens', () => {
  const tokenizer = new CharTokenizer(ASCII_CHARS);
  it('is the policy ids of prompt + completion, the last ones kept, padded with −1', () => {
    const fx = createFeatureExtractor('policy-tokens', { tokenizer, maxTokens: 6 });
    expect(fx.dim).toBe(6);
    expect(Array.from(fx.extract('b;', 'a='))).toEqual([...tokenizer.encode('a=b;'), -1, -1]);
    // Longer than the window: the end (the completion) is what is kept.
    expect(Array.from(fx.extract('return x;', 'f('))).toEqual(tokenizer.encode('urn x;'));
  });
  it('needs the tokenizer (a config error naming the RM kind otherwise)', () => {
    expect(() => createFeatureExtractor('policy-tokens')).toThrow(/need the policy tokenizer .*reward_model\.kind transformer/);
  });
});
