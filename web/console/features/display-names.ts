/**
 * Codes as a reviewer reads them, in the console's language, the code kept beside the name so it
 * can be searched and compared with a list's record: a country "France (FR)", a language
 * "French (français, fr)". One Intl.DisplayNames per language and kind, made on first use.
 */
const cache = new Map<string, Intl.DisplayNames>();

function displayNames(lang: string, type: 'region' | 'language'): Intl.DisplayNames {
  const key = `${type}:${lang}`;
  let names = cache.get(key);
  if (!names) {
    names = new Intl.DisplayNames([lang, 'en'], { type, fallback: 'none' });
    cache.set(key, names);
  }
  return names;
}

/**
 * A country code by its name. A value that is not an ISO 3166 alpha-2 code the browser knows (a
 * list's free-text country) is shown as given.
 */
export function countryName(code: string, lang: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return code;
  const name = displayNames(lang, 'region').of(code);
  return name && name !== code ? `${name} (${code})` : code;
}

/** A language code by its name in `lang`, with its own name where that differs. */
export function languageName(code: string, lang: string): string {
  const name = displayNames(lang, 'language').of(code);
  if (!name || name === code) return code;
  const own = displayNames(code, 'language').of(code);
  return own && own !== name ? `${name} (${own}, ${code})` : `${name} (${code})`;
}
