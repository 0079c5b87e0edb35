import anyAscii from 'any-ascii';

/**
 * ICAO 9303 (part 3) transliteration of Cyrillic and Greek capitals into the MRZ's Latin letters,
 * applied after accents are removed (NFD), so Й, Ё, Ї, Ў, Ѓ, Ќ and Greek letters with a tonos or a
 * dialytika arrive here as their base letter. The soft sign is omitted (empty string).
 */
const ICAO_LETTERS: Record<string, string> = {
  // Cyrillic (Russian, Ukrainian, Belarusian, Serbian, Macedonian, Bulgarian)
  А: 'A',
  Б: 'B',
  В: 'V',
  Г: 'G',
  Ґ: 'G',
  Д: 'D',
  Ђ: 'D',
  Е: 'E',
  Є: 'IE',
  Ж: 'ZH',
  З: 'Z',
  Ѕ: 'DZ',
  И: 'I',
  І: 'I',
  Ј: 'J',
  К: 'K',
  Л: 'L',
  Љ: 'LJ',
  М: 'M',
  Н: 'N',
  Њ: 'NJ',
  О: 'O',
  П: 'P',
  Р: 'R',
  С: 'S',
  Т: 'T',
  Ћ: 'C',
  У: 'U',
  Ф: 'F',
  Х: 'KH',
  Ц: 'TS',
  Ч: 'CH',
  Џ: 'DZ',
  Ш: 'SH',
  Щ: 'SHCH',
  Ъ: 'IE',
  Ы: 'Y',
  Ь: '',
  Э: 'E',
  Ю: 'IU',
  Я: 'IA',
  // Greek
  Α: 'A',
  Β: 'V',
  Γ: 'G',
  Δ: 'D',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'I',
  Θ: 'TH',
  Ι: 'I',
  Κ: 'K',
  Λ: 'L',
  Μ: 'M',
  Ν: 'N',
  Ξ: 'X',
  Ο: 'O',
  Π: 'P',
  Ρ: 'R',
  Σ: 'S',
  Τ: 'T',
  Υ: 'Y',
  Φ: 'F',
  Χ: 'CH',
  Ψ: 'PS',
  Ω: 'O',
};

const CYRILLIC_OR_GREEK = /[\u0370-\u03ff\u0400-\u04ff]/gu;

/**
 * Latin capitals for a name already upper-cased and stripped of accents: Cyrillic and Greek by
 * ICAO 9303's table (`icao`) or by common romanisation (`common`: Юлия → YULIYA, as passports issued
 * before the ICAO table was adopted spell it); any other script (Arabic, CJK...) by common
 * romanisation in both. Without this a name written in Cyrillic had no Latin letter left to compare,
 * and never matched, even itself.
 */
export function romanise(name: string, table: 'icao' | 'common'): string {
  const t =
    table === 'icao'
      ? // ΟΥ is one sound, written OU in Greek passports' MRZ (ELOT 743, which ICAO's table follows)
        name.replace(/ΟΥ/gu, 'OU').replace(CYRILLIC_OR_GREEK, (c) => ICAO_LETTERS[c] ?? c)
      : name;
  // only what is still outside ASCII goes through any-ascii (it would also rewrite nothing else)
  // any-ascii writes the soft and hard signs as apostrophes (Наталья → Natal'ya), which no passport
  // prints: dropped, so NATALYA matches
  return t.replace(/[^\p{ASCII}]+/gu, (run) => anyAscii(run).replace(/['`"]/g, '').toUpperCase());
}
