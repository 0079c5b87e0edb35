/**
 * Language choice shared by the pages: the browser's language when the page has a dictionary for
 * it, else the language the operator configured, else the first one the page has.
 */
export function pickLanguage<L extends string>(
  supported: readonly L[],
  configured: string | null | undefined,
  browser: readonly string[] = typeof navigator === 'undefined' ? [] : [navigator.language],
): L {
  const primary = (tag: string) => tag.toLowerCase().split('-')[0];
  for (const tag of browser) {
    const hit = supported.find((l) => l === primary(tag));
    if (hit) return hit;
  }
  const conf = configured ? supported.find((l) => l === primary(configured)) : undefined;
  return conf ?? supported[0];
}

/** Replaces `{name}` placeholders. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
