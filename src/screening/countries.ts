/**
 * Country name → ISO 3166-1 alpha-2 mapping.
 *
 * Built from the ICU region names that ship with Node (Intl.DisplayNames, English) plus the
 * formal/legacy spellings that sanctions lists use ("Korea, North", "Iran (Islamic Republic of)",
 * "Russian Federation", "Burma", ...). Unknown names are returned unchanged by `toCountryCode`.
 */

const EXTRA_NAMES: Record<string, string> = {
  'korea north': 'KP',
  'north korea': 'KP',
  'democratic peoples republic of korea': 'KP',
  'korea democratic peoples republic of': 'KP',
  dprk: 'KP',
  'korea south': 'KR',
  'south korea': 'KR',
  'republic of korea': 'KR',
  'korea republic of': 'KR',
  'russian federation': 'RU',
  'iran islamic republic of': 'IR',
  'islamic republic of iran': 'IR',
  'syrian arab republic': 'SY',
  'democratic republic of the congo': 'CD',
  'congo democratic republic of the': 'CD',
  'congo democratic republic': 'CD',
  drc: 'CD',
  'republic of the congo': 'CG',
  'congo republic of the': 'CG',
  congo: 'CG',
  'united republic of tanzania': 'TZ',
  'tanzania united republic of': 'TZ',
  'viet nam': 'VN',
  'lao peoples democratic republic': 'LA',
  burma: 'MM',
  'united kingdom of great britain and northern ireland': 'GB',
  uk: 'GB',
  'great britain': 'GB',
  'united states of america': 'US',
  usa: 'US',
  'bolivia plurinational state of': 'BO',
  'venezuela bolivarian republic of': 'VE',
  'republic of moldova': 'MD',
  'moldova republic of': 'MD',
  turkiye: 'TR',
  'cote divoire': 'CI',
  'ivory coast': 'CI',
  'state of palestine': 'PS',
  'palestinian territory': 'PS',
  'west bank': 'PS',
  gaza: 'PS',
  'the former yugoslav republic of macedonia': 'MK',
  macedonia: 'MK',
  'brunei darussalam': 'BN',
  'cabo verde': 'CV',
  'holy see': 'VA',
  'micronesia federated states of': 'FM',
  'libyan arab jamahiriya': 'LY',
  'bosnia herzegovina': 'BA',
  'bosnia and herzegovina': 'BA',
  'united arab emirates': 'AE',
  uae: 'AE',
  'china peoples republic of': 'CN',
  'peoples republic of china': 'CN',
  'taiwan province of china': 'TW',
  'hong kong sar': 'HK',
  'macau sar': 'MO',
  'the gambia': 'GM',
  'gambia the': 'GM',
  'the bahamas': 'BS',
  'bahamas the': 'BS',
  'kyrgyz republic': 'KG',
  'slovak republic': 'SK',
  'czech republic': 'CZ',
  swaziland: 'SZ',
  'east timor': 'TL',
  'saint kitts and nevis': 'KN',
  'saint vincent and the grenadines': 'VC',
  'saint lucia': 'LC',
  'sao tome and principe': 'ST',
  'netherlands antilles': 'AN',
  'serbia and montenegro': 'CS',
  yugoslavia: 'YU',
  'soviet union': 'SU',
  ussr: 'SU',
  'crimea region of ukraine': 'UA',
  turkey: 'TR',
  'virgin islands british': 'VG',
  'british virgin islands': 'VG',
  'hong kong': 'HK',
  macau: 'MO',
  macao: 'MO',
  palestinian: 'PS',
  palestine: 'PS',
  'gaza strip': 'PS',
  'man isle of': 'IM',
  'isle of man': 'IM',
  'cote d ivoire': 'CI',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  'comoros islands': 'KM',
  'bosina herzegovina': 'BA',
  'saint martin': 'MF',
  curacao: 'CW',
  'the netherlands': 'NL',
  holland: 'NL',
};

/** ISO codes ICU still names but that must not win a name lookup (deprecated or non-country). */
const SKIP_CODES = new Set([
  'UK',
  'SU',
  'YU',
  'CS',
  'DD',
  'FX',
  'TP',
  'ZR',
  'BU',
  'AN',
  'QO',
  'EU',
  'EZ',
  'UN',
  'XA',
  'XB',
]);
const CODE_ALIASES: Record<string, string> = { UK: 'GB' };

let nameToCode: Map<string, string> | undefined;

/** Lower-case ASCII key used for country lookups (diacritics, punctuation and apostrophes dropped). */
export function countryKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function buildMap(): Map<string, string> {
  const map = new Map<string, string>();
  const A = 'A'.charCodeAt(0);
  let display: Intl.DisplayNames | undefined;
  try {
    display = new Intl.DisplayNames('en', { type: 'region' });
  } catch {
    display = undefined;
  }
  if (display) {
    for (let i = 0; i < 26; i++) {
      for (let j = 0; j < 26; j++) {
        const code = String.fromCharCode(A + i, A + j);
        let name: string | undefined;
        try {
          name = display.of(code);
        } catch {
          name = undefined;
        }
        if (!name || name === code || name === 'Unknown Region' || SKIP_CODES.has(code)) continue;
        if (!map.has(countryKey(name))) map.set(countryKey(name), code);
        // ICU forms like "Myanmar (Burma)", "Congo - Kinshasa": also index the part before the bracket/dash.
        const short = name.replace(/\s*\(.*\)\s*/, '').split(' - ')[0];
        if (short && short !== name && !map.has(countryKey(short))) map.set(countryKey(short), code);
      }
    }
  }
  for (const [k, v] of Object.entries(EXTRA_NAMES)) map.set(k, v);
  return map;
}

/**
 * Map a country name or code to ISO alpha-2 (upper case). Two-letter input is treated as a code.
 * Returns undefined when the name is not recognised.
 */
export function countryCode(name: string | undefined | null): string | undefined {
  if (!name) return undefined;
  const trimmed = name.trim();
  if (!trimmed) return undefined;
  if (/^[A-Za-z]{2}$/.test(trimmed)) {
    const code = trimmed.toUpperCase();
    return CODE_ALIASES[code] ?? code;
  }
  nameToCode ??= buildMap();
  const key = countryKey(trimmed);
  return nameToCode.get(key) ?? nameToCode.get(key.replace(/^the /, ''));
}

/** ISO alpha-2 where derivable, else the trimmed input text. */
export function toCountryCode(name: string): string {
  return countryCode(name) ?? name.trim();
}
