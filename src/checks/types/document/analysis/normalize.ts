/** Text normalisation and fuzzy comparison of names and numbers read from documents. */

/** Upper case, accents removed, punctuation → space, spaces collapsed. */
export function normText(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[’'`´]/g, ' ')
    .replace(/[^A-Z0-9\n]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/** Legal forms and filler words ignored when comparing company names. */
const IGNORED_WORDS = new Set(
  [
    'SA SAS SASU SARL EURL SNC SCS SCA SCI SCP SCM SEL SELARL SELAS SELAFA SEM SE GIE EI EIRL SC',
    'SOCIETE STE STE. CIE COMPAGNIE ET AND THE LA LE LES DE DU DES D L',
    'LTD LIMITED PLC LLP LP LLC INC INCORPORATED CORP CORPORATION CO COMPANY',
    'GMBH AG KG UG OHG EV BV NV VOF SPA SRL SAPA SNC AS ASA AB OY OYJ APS SL SLU',
  ]
    .join(' ')
    .split(' '),
);

/** The significant words of a company or person name. */
export function nameTokens(name: string): string[] {
  return normText(name)
    .split(/\s+/)
    .filter((w) => w.length > 0 && !IGNORED_WORDS.has(w));
}

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}

/** Errors tolerated in a word of this length (OCR noise): none under 4 letters, one under 8, two above. */
const tolerance = (len: number) => (len < 4 ? 0 : len < 8 ? 1 : 2);

/** `exact`: the words as written, no reading slip tolerated (text typed by the document's issuer). */
export const wordsMatch = (a: string, b: string, exact = false) =>
  exact ? a === b : levenshtein(a, b) <= tolerance(Math.min(a.length, b.length));

/**
 * Whether every significant word of `expected` appears among the words of `text`, in any order:
 * fuzzily (OCR slips), or `exact`ly. Words split by OCR ("ACME SOLU TIONS") are also tried glued to
 * their neighbour.
 */
export function containsName(text: string, expected: string, exact = false): boolean {
  const want = nameTokens(expected);
  if (want.length === 0) return false;
  const pool = namePool(text);
  return want.every((w) => pool.some((p) => wordsMatch(w, p, exact)));
}

/** The words of a text, and each glued to the next (a word the OCR split in two). */
function namePool(text: string): string[] {
  const words = normText(text).split(/\s+/);
  return [...words, ...words.slice(0, -1).map((w, i) => w + words[i + 1])];
}

/**
 * The words of `expected` that `text` holds only a letter or two off, each with the word read:
 * `[['SOPHIE', 'SOPHIA'], ['MARTIN', 'MARIN']]` for `SOPHIE MARTIN` read, `Sophia Marin` expected.
 * Empty when every word is there as written (or one is not there even fuzzily).
 */
export function nameSlips(text: string, expected: string): [read: string, expected: string][] {
  const pool = namePool(text);
  const slips: [string, string][] = [];
  for (const w of nameTokens(expected)) {
    if (pool.includes(w)) continue;
    const read = pool.find((p) => wordsMatch(w, p));
    if (!read) return [];
    slips.push([read, w]);
  }
  return slips;
}

/**
 * The target's name as the text writes it (`ACME SAS` for *Acme SAS*), for a name found without a
 * label: `received` and the information's name then say what the document reads, not the target's
 * own spelling. The whole name in a row of words first (legal form included), else its significant
 * words (a word the OCR split in two included), each as written, in the name's order. Null when a
 * word is not there as written.
 */
export function nameAsWritten(text: string, expected: string): string | null {
  const words = [...text.matchAll(/[\p{L}\p{M}\p{N}]+/gu)].map((m) => ({
    norm: normText(m[0]),
    start: m.index,
    end: m.index + m[0].length,
  }));
  const span = (from: number, to: number) => text.slice(words[from]!.start, words[to]!.end);
  const whole = normText(expected).split(/\s+/).filter(Boolean);
  for (let i = 0; whole.length && i + whole.length <= words.length; i++) {
    if (whole.every((w, k) => words[i + k]!.norm === w)) return span(i, i + whole.length - 1);
  }
  const found: string[] = [];
  for (const w of nameTokens(expected)) {
    const i = words.findIndex(
      (x, j) => x.norm === w || (j + 1 < words.length && x.norm + words[j + 1]!.norm === w),
    );
    if (i < 0) return null;
    found.push(words[i]!.norm === w ? span(i, i) : span(i, i + 1));
  }
  return found.length ? found.join(' ') : null;
}

/** Whether two names are the same (all significant words of each found in the other). */
export function sameName(a: string, b: string, exact = false): boolean {
  return containsName(a, b, exact) && containsName(b, a, exact);
}

/** Letters OCR commonly reads in place of digits. */
const DIGIT_LOOKALIKES: Record<string, string> = {
  O: '0',
  Q: '0',
  D: '0',
  I: '1',
  L: '1',
  Z: '2',
  S: '5',
  B: '8',
  G: '6',
};

/** A registration number reduced to its letters and digits, upper case. */
export const compactId = (s: string) => normText(s).replace(/[^A-Z0-9]/g, '');

/** Letters that look like digits turned into digits (for all-digit identifiers such as a SIREN). */
export const digitsOnly = (s: string) =>
  compactId(s)
    .split('')
    .map((c) => DIGIT_LOOKALIKES[c] ?? c)
    .join('');

/** Luhn checksum (SIREN and SIRET numbers use it). */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
