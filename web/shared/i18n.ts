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

/**
 * `{n, plural, one {# page} other {# pages}}`: the branch the language's plural rules pick for the
 * value (`=0` for an exact value, then `zero`, `one`, `two`, `few`, `many`, else `other`), with `#`
 * the number. Branches may hold plain placeholders (`{total}`), not other plurals.
 */
const PLURAL = /\{(\w+), plural,((?:\s*(?:=\d+|[a-z]+)\s*\{(?:[^{}]|\{\w+\})*\})+)\s*\}/g;
const BRANCH = /(=\d+|[a-z]+)\s*\{((?:[^{}]|\{\w+\})*)\}/g;

function plurals(text: string, values: Record<string, string | number>, lang: string): string {
  if (!text.includes(', plural,')) return text;
  const rules = new Intl.PluralRules(lang);
  return text.replace(PLURAL, (m, k: string, body: string) => {
    if (!(k in values)) return m;
    const n = Number(values[k]);
    const branches = new Map([...body.matchAll(BRANCH)].map((b) => [b[1], b[2]] as const));
    const chosen = branches.get(`=${n}`) ?? branches.get(rules.select(n)) ?? branches.get('other') ?? m;
    return chosen.replace(/#/g, String(values[k]));
  });
}

/**
 * The values a text reads, sorted, each once: `{name}` placeholders, plural selectors, and the
 * placeholders inside plural branches (`one`, `other`... are branch names, not values).
 */
export function placeholdersOf(text: string): string[] {
  const flat = text.replace(
    PLURAL,
    (_m, k: string, body: string) => `{${k}} ${[...body.matchAll(BRANCH)].map((b) => b[2]).join(' ')}`,
  );
  return [...new Set([...flat.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();
}

/** Replaces `{name}` placeholders, and picks plural forms in `lang` (default English). */
export function fill(text: string, values: Record<string, string | number>, lang = 'en'): string {
  return plurals(text, values, lang).replace(/\{(\w+)\}/g, (m, k: string) =>
    k in values ? String(values[k]) : m,
  );
}
