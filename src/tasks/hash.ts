/**
 * Small deterministic string hashing shared by the task families (split assignment, hashed
 * n-gram features). FNV-1a is used because it is trivial to re-implement in any language,
 * so feature vectors and split membership can be reproduced outside this code base.
 */

/** 32-bit FNV-1a over the UTF-16 code units of `text` (equal to bytes for ASCII). */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * Which split an item belongs to, decided by a salted hash of its key. Both splits reject
 * items that hash to the other split, so train and eval are disjoint by construction and
 * membership does not depend on how many items are drawn.
 */
export function splitOf(key: string, salt: string | number, evalFraction: number): 'train' | 'eval' {
  const u = fnv1a32(`${salt}\u0000${key}`) / 4294967296;
  return u < evalFraction ? 'eval' : 'train';
}
