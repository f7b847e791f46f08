/** Every src/href/xlink:href, CSS url() or @import in an HTML page that points off the page. */
export function externalRefs(html: string): string[] {
  const refs = [...html.matchAll(/\b(?:src|href|xlink:href)\s*=\s*["']?\s*((?:https?:)?\/\/[^"'\s>]*)/gi)].map((m) => m[1]!);
  const urls = [...html.matchAll(/url\(\s*["']?((?:https?:)?\/\/[^)"']*)/gi)].map((m) => m[1]!);
  const imports = [...html.matchAll(/@import/gi)].map((m) => m[0]);
  return [...refs, ...urls, ...imports];
}
