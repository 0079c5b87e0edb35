/** Dates read from document text (French and English forms) and what their labels say they are. */

export interface FoundDate {
  /** yyyy-MM-dd */
  date: string;
  role: 'issue' | 'expiry' | 'other' | 'unlabelled';
}

/** Upper case and accents removed, punctuation kept (dates need their separators). */
export const foldText = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toUpperCase();

const MONTHS: Record<string, number> = {
  JANVIER: 1,
  JANUARY: 1,
  JAN: 1,
  FEVRIER: 2,
  FEBRUARY: 2,
  FEB: 2,
  FEV: 2,
  MARS: 3,
  MARCH: 3,
  MAR: 3,
  AVRIL: 4,
  APRIL: 4,
  APR: 4,
  AVR: 4,
  MAI: 5,
  MAY: 5,
  JUIN: 6,
  JUNE: 6,
  JUN: 6,
  JUILLET: 7,
  JULY: 7,
  JUL: 7,
  JUIL: 7,
  AOUT: 8,
  AUGUST: 8,
  AUG: 8,
  SEPTEMBRE: 9,
  SEPTEMBER: 9,
  SEP: 9,
  SEPT: 9,
  OCTOBRE: 10,
  OCTOBER: 10,
  OCT: 10,
  NOVEMBRE: 11,
  NOVEMBER: 11,
  NOV: 11,
  DECEMBRE: 12,
  DECEMBER: 12,
  DEC: 12,
};
const MONTH_RE = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|');

const EXPIRY =
  /EXPIR|VALABLE JUSQU|VALIDE JUSQU|VALID UNTIL|VALID THRU|FIN DE VALIDITE|DATE LIMITE DE VALIDITE/;
// A bare `Date :` is the document's own date, but not when a word qualifies it (`Registration
// date:` is when the company was registered, and an extract that says so was read as issued then)
const ISSUE =
  /\bEMIS|EMISSION|DELIVRE|FAIT LE|FAIT A|A JOUR AU|MIS A JOUR|MISE A JOUR|DATE DE (LA )?FACTURE|DATE FACTURE|FACTURE DU|ISSUED|ISSUE DATE|DATE OF ISSUE|\bEDITE|EDITION|\bETABLI|INVOICE DATE|STATEMENT DATE|DATE DU DOCUMENT|EXTRAIT DU|^ *DATE *:?$|(?:^|[^A-Z ]) *DATE *:/;
const OTHER =
  /NAISSANCE|DATE DE NAISS|NE LE|NEE LE|NE\(E\)|BIRTH|IMMATRICULATION|REGISTRATION|\bREGISTERED\b|CREATION|DEBUT D.?ACTIVITE|COMMENCEMENT|ECHEANCE|PRELEVEMENT|PERIODE|DU .* AU|CLOTURE|EXERCICE|INCORPORAT|DUE DATE|PAYMENT|PAIEMENT|DEPUIS|SINCE|NOMINATION|DATE D.?EFFET/;

/** Where the last match of a label pattern starts in the text before a date (-1: none). */
function lastStart(re: RegExp, label: string): number {
  let at = -1;
  for (const m of label.matchAll(new RegExp(re.source, 'g'))) at = m.index;
  return at;
}

/** The role the label closest to the date gives (`extrait du registre à jour au` is an issue date). */
function roleOf(label: string): FoundDate['role'] {
  const found: [FoundDate['role'], number][] = [
    ['expiry', lastStart(EXPIRY, label)],
    ['other', lastStart(OTHER, label)],
    ['issue', lastStart(ISSUE, label)],
  ];
  const best = found.filter(([, at]) => at >= 0).sort((a, b) => b[1] - a[1])[0];
  return best ? best[0] : 'unlabelled';
}

function iso(y: number, m: number, d: number): string | null {
  if (y < 1900 || y > 2200 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const dt = new Date(Date.UTC(y, m - 1, d));
  if (dt.getUTCMonth() !== m - 1) return null;
  return dt.toISOString().slice(0, 10);
}

/** Every date in the text, with the role its label (text before it on its line, or the line above) gives. */
export function findDates(text: string): FoundDate[] {
  const lines = foldText(text).split(/\r?\n/);
  const out: FoundDate[] = [];
  // [pattern, its date, whether a label is required]
  const patterns: [RegExp, (m: RegExpExecArray) => string | null, boolean?][] = [
    [/\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b/g, (m) => iso(+m[1], +m[2], +m[3])],
    [
      /\b(\d{1,2})\s?[/.-]\s?(\d{1,2})\s?[/.-]\s?(\d{4})\b/g,
      (m) => (+m[2] > 12 && +m[1] <= 12 ? iso(+m[3], +m[1], +m[2]) : iso(+m[3], +m[2], +m[1])),
    ],
    [
      new RegExp(`\\b(\\d{1,2})(?:ER|ST|ND|RD|TH)?\\.?\\s+(${MONTH_RE})\\.?\\s+(\\d{4})\\b`, 'g'),
      (m) => iso(+m[3], MONTHS[m[2]], +m[1]),
    ],
    [
      new RegExp(`\\b(${MONTH_RE})\\.?\\s+(\\d{1,2})(?:ST|ND|RD|TH)?,?\\s+(\\d{4})\\b`, 'g'),
      (m) => iso(+m[3], MONTHS[m[1]], +m[2]),
    ],
    // `10 06 2021`, as a French identity card prints its dates: day, month and year apart. Only
    // after a label (below): unlabelled, such digits are as likely part of a phone or account number
    [/(?<!\d ?)\b(\d{2}) (\d{2}) (\d{4})\b(?! ?\d)/g, (m) => iso(+m[3], +m[2], +m[1]), true],
  ];
  lines.forEach((line, i) => {
    const taken: [number, number][] = [];
    for (const [re, toIso, labelRequired] of patterns) {
      re.lastIndex = 0;
      let m: RegExpExecArray | null = re.exec(line);
      while (m !== null) {
        const start = m.index;
        const end = start + m[0].length;
        const date = toIso(m);
        if (date && !taken.some(([s, e]) => start < e && end > s)) {
          let label = line.slice(0, start);
          if (!/[A-Z]{3}/.test(label) && i > 0) label = `${lines[i - 1]} ${label}`;
          const role = roleOf(label);
          if (role !== 'unlabelled' || !labelRequired) {
            taken.push([start, end]);
            out.push({ date, role });
          }
        }
        m = re.exec(line);
      }
    }
  });
  return out;
}

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

/** The issuing date: the first date labelled as such, else the latest unlabelled date not after `now`. */
export function issuingDate(dates: FoundDate[], now: Date): string | null {
  const labelled = dates.find((d) => d.role === 'issue');
  if (labelled) return labelled.date;
  const candidates = dates.filter(
    (d) => d.role === 'unlabelled' && day(d.date) <= now.getTime() + 86_400_000,
  );
  if (candidates.length === 0) return null;
  return candidates.map((d) => d.date).sort()[candidates.length - 1];
}

/** The expiration date: the first date labelled as one. */
export function expirationDate(dates: FoundDate[]): string | null {
  return dates.find((d) => d.role === 'expiry')?.date ?? null;
}

/** `now` minus a number of calendar months, as yyyy-MM-dd. */
export function monthsBefore(now: Date, months: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, now.getUTCDate()));
  return d.toISOString().slice(0, 10);
}

export const todayIso = (now: Date) => now.toISOString().slice(0, 10);
