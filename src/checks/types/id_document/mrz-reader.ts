import { type ParseResult, parse } from 'mrz';
import { APOSTROPHES } from '../../../shared/apostrophes.ts';
import { alpha2FromMrz } from './countries.ts';
import { frenchIdCardExpiry } from './french-id-card.ts';
import { romanise } from './icao-transliteration.ts';
import type { DocumentInformation } from './provider.ts';

/**
 * MRZ line lengths by format: TD3 (passport) 2×44, TD2 2×36, TD1 3×30, and the Swiss driving
 * licence in credit-card format (ASTRA; also issued by Liechtenstein), 9 + 30 + 30, which is no
 * ICAO format but is read by the same parser.
 */
const SHAPES: number[][] = [
  [44, 44],
  [36, 36],
  [30, 30, 30],
  [9, 30, 30],
];

/**
 * Finds the MRZ among text lines (spaces removed, upper-cased): the first run of consecutive lines
 * of one MRZ shape. Returns null when none is found.
 */
export function findMrzLines(lines: string[]): string[] | null {
  const clean = lines.map((l) => l.replace(/\s+/g, '').toUpperCase()).filter((l) => l.length > 0);
  for (let i = 0; i < clean.length; i++) {
    for (const shape of SHAPES) {
      const run = clean.slice(i, i + shape.length);
      if (run.length === shape.length && run.every((l, k) => l.length === shape[k] && /^[A-Z0-9<]+$/.test(l)))
        return run;
    }
  }
  return null;
}

export interface MrzReading {
  information: Omit<DocumentInformation, 'front_file_id' | 'back_file_id'>;
  /** Every check digit of the MRZ is right. */
  checkDigitsValid: boolean;
  /** The fields whose check digit is wrong (for the provider comment). */
  invalidCheckDigits: string[];
  /**
   * The fields whose fixed form is wrong, for the Swiss driving licence only: it has no check digit,
   * so its fixed parts (document code `FA`, state `CHE`/`LIE`, language code, numeric PIN and
   * version, fillers, birth date) are all there is to validate. Empty for the ICAO formats, whose
   * check digits decide (a specimen state such as `UTO` is no error there).
   */
  malformedFields: string[];
  /**
   * The format has an expiry date (or, for the French card of 1988–2021, one that follows from it).
   * The Swiss driving licence's MRZ has none: the licence itself is usually valid without limit
   * (field 4b "-"), so a missing date there is no sign of anything and is not evaluated.
   */
  carriesExpiry: boolean;
  /**
   * Whether each name may have been cut short: an MRZ truncates a name only when it fills its field
   * to the end (no filler after it). A name followed by fillers is whole, so "C" is not "Curie".
   */
  namesTruncated: { first_name: boolean; last_name: boolean };
}

/** Why the MRZ's data is not valid, one phrase per problem (for the provider comment); [] when valid. */
export function mrzValidationProblems(m: MrzReading): string[] {
  const problems: string[] = [];
  if (!m.checkDigitsValid) problems.push(`invalid MRZ check digits (${m.invalidCheckDigits.join(', ')})`);
  if (m.malformedFields.length) problems.push(`malformed MRZ fields (${m.malformedFields.join(', ')})`);
  return problems;
}

/** `YYMMDD` → `yyyy-MM-dd`; birth dates never lie in the future, expiry dates are 20xx below 70. */
function mrzDate(raw: string | null | undefined, kind: 'birth' | 'expiry', today: Date): string | null {
  if (!raw || !/^\d{6}$/.test(raw)) return null;
  const yy = Number(raw.slice(0, 2));
  const mm = raw.slice(2, 4);
  const dd = raw.slice(4, 6);
  const currentYy = today.getUTCFullYear() % 100;
  const century = kind === 'birth' ? (yy > currentYy ? 1900 : 2000) : yy >= 70 ? 1900 : 2000;
  const iso = `${century + yy}-${mm}-${dd}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? null : iso;
}

/** The raw text of a field (even when invalid) from the parse details. */
function raw(result: ParseResult, lines: string[], field: string): string | null {
  const d = result.details.find((x) => x.field === field);
  if (!d) return null;
  if (d.value !== null) return d.value;
  return d.ranges.map((r) => lines[r.line]?.slice(r.start, r.end) ?? '').join('') || null;
}

/** The characters of a field's ranges, as written in the lines (fillers included). */
function fieldText(result: ParseResult, lines: string[], field: string): string | null {
  const d = result.details.find((x) => x.field === field);
  return d ? d.ranges.map((r) => lines[r.line]?.slice(r.start, r.end) ?? '').join('') : null;
}

/**
 * Which names reach the end of their field. TD1, TD2, TD3 and the Swiss licence hold both names in
 * one field (`LAST<<FIRST<<<`): the one written last reaches its end when it has no filler after
 * it. The French card of 1988–2021 gives each name a field of its own.
 */
function namesTruncated(result: ParseResult, lines: string[]): MrzReading['namesTruncated'] {
  const last = fieldText(result, lines, 'lastName');
  const first = fieldText(result, lines, 'firstName');
  const full = (t: string | null) => t !== null && t.length > 0 && !t.endsWith('<');
  if (last !== null && last === first) {
    const separated = last.includes('<<');
    return { last_name: full(last) && !separated, first_name: full(last) && separated };
  }
  return { last_name: full(last), first_name: full(first) };
}

const titleCase = (s: string | null) =>
  s
    ? s
        .toLowerCase()
        .split(/\s+/)
        .filter(Boolean)
        .map((w) => w[0].toUpperCase() + w.slice(1))
        .join(' ')
    : null;

function documentType(code: string | null, format: string): DocumentInformation['document_type'] {
  if (format.includes('DRIVING_LICENSE')) return 'driving_license';
  if (!code) return 'other';
  const c = code.replace(/</g, '');
  if (c.startsWith('P')) return 'passport';
  if (c.startsWith('V')) return 'visa';
  if (c.startsWith('R') || c === 'IR' || c === 'AR' || c === 'CR') return 'residence_permit';
  if (/^[IAC]/.test(c)) return 'identity_card';
  return 'other';
}

/**
 * The document number, as the parser builds it (for the Swiss driving licence the PIN and version,
 * the 12-digit number printed in field 5), else the raw characters of those fields when the parser
 * found them invalid.
 */
function documentNumber(result: ParseResult, lines: string[]): string | null {
  if (result.documentNumber) return result.documentNumber;
  const fields =
    result.format === 'SWISS_DRIVING_LICENSE' ? ['pinCode', 'versionNumber'] : ['documentNumber'];
  return (
    fields
      .map((f) => raw(result, lines, f) ?? '')
      .join('')
      .replace(/</g, '') || null
  );
}

/**
 * Parses MRZ lines with the `mrz` library; null when they are not a supported MRZ. `autocorrect`
 * (for lines read by OCR) lets the parser turn letters in digit fields into the digits they look
 * like, and the reverse.
 */
export function readMrz(
  lines: string[],
  today = new Date(),
  opts: { autocorrect?: boolean } = {},
): MrzReading | null {
  let result: ParseResult;
  try {
    result = parse(lines, { autocorrect: opts.autocorrect ?? false });
  } catch {
    return null;
  }
  const f = result.fields;
  const invalidCheckDigits = result.details
    .filter((d) => d.field?.endsWith('CheckDigit') && !d.valid)
    .map((d) => d.label);
  const sex = raw(result, lines, 'sex');
  const birthDate = mrzDate(raw(result, lines, 'birthDate'), 'birth', today);
  // the French card of 1988–2021 (IDFRA): no expiry and no nationality in its MRZ, but it is issued
  // to French nationals only and its validity follows from its issue month (french-id-card.ts)
  const frenchCard = result.format === 'FRENCH_NATIONAL_ID';
  // the Swiss driving licence: names, birth date, licence number (PIN + version, the number printed
  // in field 5) and issuing state only; no sex, nationality, expiry or check digit
  const swissLicence = result.format === 'SWISS_DRIVING_LICENSE';
  const malformedFields = swissLicence
    ? [...new Set(result.details.filter((d) => !d.valid).map((d) => d.label))]
    : [];
  const gender =
    f.sex === 'male' || sex === 'M' ? 'male' : f.sex === 'female' || sex === 'F' ? 'female' : null;
  return {
    checkDigitsValid: invalidCheckDigits.length === 0,
    invalidCheckDigits,
    malformedFields,
    carriesExpiry: !swissLicence,
    namesTruncated: namesTruncated(result, lines),
    information: {
      document_type: documentType(raw(result, lines, 'documentCode'), result.format),
      document_number: documentNumber(result, lines),
      first_name: titleCase(f.firstName ?? raw(result, lines, 'firstName')),
      last_name: titleCase(f.lastName ?? raw(result, lines, 'lastName')),
      maiden_name: null,
      gender,
      nationality: frenchCard ? 'FR' : alpha2FromMrz(raw(result, lines, 'nationality')),
      birth_date: birthDate,
      birth_country: null,
      issuing_date: null,
      issuing_country: alpha2FromMrz(raw(result, lines, 'issuingState')),
      expiration_date: frenchCard
        ? frenchIdCardExpiry(raw(result, lines, 'issueDate'), birthDate, today)
        : swissLicence
          ? null
          : mrzDate(raw(result, lines, 'expirationDate'), 'expiry', today),
    },
  };
}

/**
 * Upper-case Latin letters only, words separated by one space; `variant` spells ä ö ü ß as ICAO does,
 * `script` romanises Cyrillic and Greek by ICAO's table or the common way (icao-transliteration.ts).
 * `apostrophe`: ICAO 9303 omits it in the MRZ (N'DIAYE → NDIAYE, O'NEIL → ONEIL); some issuers
 * write a filler instead, so it may also separate words.
 */
function normaliseName(
  s: string,
  variant: 'strip' | 'expand',
  apostrophe: 'omit' | 'split' = 'split',
  script: 'icao' | 'common' = 'icao',
): string {
  let t = s.toUpperCase();
  if (apostrophe === 'omit') t = t.replace(APOSTROPHES, '');
  if (variant === 'expand')
    t = t.replace(/Ä/g, 'AE').replace(/Ö/g, 'OE').replace(/Ü/g, 'UE').replace(/ß|ẞ/g, 'SS');
  // letters NFD does not decompose, transliterated as ICAO 9303 does
  t = t
    .replace(/Ł/g, 'L')
    .replace(/Ø/g, 'O')
    .replace(/Đ/g, 'D')
    .replace(/Æ/g, 'AE')
    .replace(/Œ/g, 'OE')
    .replace(/Þ/g, 'TH');
  t = t.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  return romanise(t, script)
    .replace(/[^A-Z]+/g, ' ')
    .trim();
}

/**
 * A declared name matches a document name when, in either ICAO spelling, one's words are a prefix
 * of the other's (the declared first name may be only the first one); the document's last word may
 * be cut short only when `mayBeTruncated` (the name fills its MRZ field: MrzReading.namesTruncated).
 */
export function namesMatch(declared: string, onDocument: string, mayBeTruncated: boolean): boolean {
  const doc = normaliseName(onDocument, 'strip').split(' ');
  const spellings = (['strip', 'expand'] as const).flatMap((v) =>
    (['omit', 'split'] as const).flatMap((a) =>
      (['icao', 'common'] as const).map((script) => normaliseName(declared, v, a, script)),
    ),
  );
  return spellings.some((spelling) => {
    const mine = spelling.split(' ');
    if (!mine[0] || !doc[0]) return false;
    const docIsShort = doc.length <= mine.length;
    const [short, long] = docIsShort ? [doc, mine] : [mine, doc];
    // only the document side may be cut short (MRZ truncation), never the declared name
    return short.every(
      (w, i) =>
        w === long[i] || (mayBeTruncated && docIsShort && i === short.length - 1 && long[i].startsWith(w)),
    );
  });
}
