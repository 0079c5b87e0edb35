/**
 * A country code as a reviewer reads it: "France (FR)" in the console's language, the code kept
 * beside the name so it can be searched and compared with a list's record. A value that is not an
 * ISO 3166 alpha-2 code the browser knows (a list's free-text country) is shown as given.
 */
const displayNames = new Map<string, Intl.DisplayNames>();

export function countryName(code: string, lang: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return code;
  let names = displayNames.get(lang);
  if (!names) {
    names = new Intl.DisplayNames([lang, 'en'], { type: 'region', fallback: 'none' });
    displayNames.set(lang, names);
  }
  const name = names.of(code);
  return name && name !== code ? `${name} (${code})` : code;
}
