import { createHash } from 'node:crypto';
import { toCountryCode } from '../countries.ts';
import type { ScreeningEntity } from '../entity.ts';

export const MAX_ERRORS = 10;

/** Collects malformed-record counts and the first few messages. */
export class LoadProblems {
  malformed = 0;
  errors: string[] = [];

  /** Count a malformed record and keep its message if we have room. */
  bad(message: string): void {
    this.malformed++;
    this.note(message);
  }

  /** Keep a message without counting a malformed record (e.g. orphan alias rows). */
  note(message: string): void {
    if (this.errors.length < MAX_ERRORS) this.errors.push(message);
  }
}

export function contentHash(...parts: (string | undefined)[]): string {
  const h = createHash('sha256');
  for (const p of parts) {
    h.update(p ?? '');
    h.update('\0');
  }
  return `sha256:${h.digest('hex').slice(0, 12)}`;
}

export function versionString(hash: string, published?: string): string {
  return published ? `${published}/${hash}` : hash;
}

export function pushUnique<T>(list: T[], value: T | undefined | null): void {
  if (value === undefined || value === null || value === '') return;
  if (!list.includes(value)) list.push(value);
}

export function addCountry(list: string[], name: string | undefined | null): void {
  if (!name) return;
  const t = name.trim();
  if (!t) return;
  pushUnique(list, toCountryCode(t));
}

export function addIdentifier(entity: ScreeningEntity, type: string, value: string | undefined | null): void {
  const v = value?.trim();
  if (!v) return;
  const t = type.trim() || 'id';
  if (entity.identifiers.some((i) => i.value === v && i.type === t)) return;
  entity.identifiers.push({ type: t, value: v });
}

export function addAlias(
  entity: ScreeningEntity,
  name: string | undefined | null,
  strength: 'strong' | 'weak',
) {
  const n = name?.replace(/\s+/g, ' ').trim();
  if (!n || n === entity.name) return;
  const existing = entity.aliases.find((a) => a.name === n);
  if (existing) {
    if (strength === 'strong') existing.strength = 'strong';
    return;
  }
  entity.aliases.push({ name: n, strength });
}

/**
 * The names one alias field of a list holds. The UN list writes several spellings in one field
 * (`Javad Rahigi; Jawad Rahigi; Jawad Rahiqi`, `Mohammad Sabet b) M. Javad Kareemi Sabet`), the
 * original script in brackets (`Jin Tiesan (金铁三)`) and notes after a comma (`..., born 1 Jan.
 * 1953 (Oman passport no. ...)`): indexed as one name, none of its spellings could be found. Each
 * spelling is a name; a bracket in another script than Latin is one more (the name as written), any
 * other bracket (a passport, a date, a note) and a `born ...` note are dropped.
 */
export function aliasNames(raw: string | undefined | null): string[] {
  if (!raw) return [];
  const names: string[] = [];
  const scripts: string[] = [];
  for (const part of raw.split(/;|\s[b-z]\)\s/)) {
    let text = part.replace(/^\s*a\)\s/, '');
    const cut = /,\s*(?:born|dob|date of birth|d\.o\.b\.)\b/i.exec(text);
    if (cut) text = text.slice(0, cut.index);
    for (const m of text.matchAll(/\(([^()]*)\)/g)) {
      const inner = m[1].trim();
      // the name in its own script only: a Latin note in brackets ("(Pvt)", "(formerly ...)")
      // would be a short name of common words
      if (inner && !/\d/.test(inner) && /[^\P{L}\p{Script=Latin}]/u.test(inner)) scripts.push(inner);
    }
    // a bracket left open by the cut (`born ... (Oman passport no.`) goes with the note
    text = text.replace(/\([^()]*\)/g, ' ').replace(/\([^)]*$/, ' ');
    const name = text.replace(/\s+/g, ' ').trim().replace(/[,.]$/, '').trim();
    if (name) names.push(name);
  }
  return [...new Set([...names, ...scripts])];
}

const MONTHS: Record<string, string> = {
  jan: '01',
  feb: '02',
  mar: '03',
  apr: '04',
  may: '05',
  jun: '06',
  jul: '07',
  aug: '08',
  sep: '09',
  oct: '10',
  nov: '11',
  dec: '12',
};

function pad2(n: string): string {
  return n.length === 1 ? `0${n}` : n;
}

/**
 * Parse a birth date written in one of the common list styles into 'yyyy-MM-dd' or 'yyyy'.
 * Handles '1960-01-31', '31/01/1960', '31.01.1960', '31 Jan 1960', 'Jan 1960' (→ year), '1960',
 * 'circa 1960'. Returns undefined when no year can be found.
 */
export function parseDate(text: string | undefined | null): string | undefined {
  if (!text) return undefined;
  const s = text.trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(s);
  if (m) {
    if (m[2] === '00' || m[3] === '00') return m[1];
    return `${m[1]}-${pad2(m[2])}-${pad2(m[3])}`;
  }
  m = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(s);
  if (m) {
    if (m[1] === '00' || m[2] === '00') return m[3];
    return `${m[3]}-${pad2(m[2])}-${pad2(m[1])}`;
  }
  // `1 March 2026`, `01 Mar. 2026` and the UK list's `08-Oct-2026`.
  m = /(\d{1,2})[\s-]+([A-Za-z]{3})[a-z]*\.?[\s-]+(\d{4})/.exec(s);
  if (m) {
    const month = MONTHS[m[2].toLowerCase()];
    if (month) return `${m[3]}-${month}-${pad2(m[1])}`;
  }
  m = /\b(1[89]\d\d|20\d\d)\b/.exec(s);
  if (m) return m[1];
  return undefined;
}

/** Split a UTF-8 text into lines, stripping a BOM. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
