/**
 * Names and flags of the ISO 3166-1 countries, from the ICU data built into Node (full ICU):
 * - `name`: the English name (Intl.DisplayNames, CLDR's English region names);
 * - `localName`: the name in the country's main language. The main language is CLDR's "likely
 *   subtags" answer (Intl.Locale('und-FR').maximize() → fr-Latn-FR), so no table of our own;
 *   where ICU has no names for that language, the English name is used;
 * - `emoji`: the flag, i.e. the two regional indicator symbols of the code (F → U+1F1EB);
 *   `emojiCode`: their code points in hex, space-separated ("1F1EB 1F1F7"), as the reference shows.
 * Computed once per process.
 */
import { COUNTRY_CODES } from '../../shared/countries.ts';

export interface CountryNames {
  code: string;
  name: string;
  localName: string;
  emoji: string;
  emojiCode: string;
}

const REGIONAL_INDICATOR_A = 0x1f1e6;

/** The country's main language as a BCP 47 tag (fr-Latn-FR), or null when CLDR knows none (AQ). */
export function mainLanguage(code: string): string | null {
  const likely = new Intl.Locale(`und-${code}`).maximize();
  return likely.language === 'und' ? null : likely.baseName;
}

export function flagOf(code: string): { emoji: string; emojiCode: string } {
  const points = [...code.toUpperCase()].map((c) => REGIONAL_INDICATOR_A + c.charCodeAt(0) - 65);
  return {
    emoji: String.fromCodePoint(...points),
    emojiCode: points.map((p) => p.toString(16).toUpperCase()).join(' '),
  };
}

function build(): Map<string, CountryNames> {
  const english = new Intl.DisplayNames(['en'], { type: 'region' });
  const local = new Map<string, Intl.DisplayNames>();
  const out = new Map<string, CountryNames>();
  for (const code of [...COUNTRY_CODES].sort()) {
    const name = english.of(code) ?? code;
    const language = mainLanguage(code);
    let localName: string | undefined;
    if (language) {
      let names = local.get(language);
      if (!names) {
        names = new Intl.DisplayNames([language, 'en'], { type: 'region', fallback: 'none' });
        local.set(language, names);
      }
      localName = names.of(code);
    }
    out.set(code, { code, name, localName: localName ?? name, ...flagOf(code) });
  }
  return out;
}

let countries: Map<string, CountryNames> | undefined;

/** Every ISO 3166-1 country, by code (sorted by code). */
export function countryNames(): ReadonlyMap<string, CountryNames> {
  countries ??= build();
  return countries;
}
