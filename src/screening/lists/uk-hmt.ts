/**
 * UK sanctions list CSV, in both layouts the UK has published:
 * - the FCDO UK Sanctions List (current; `UK-Sanctions-List.csv`): first line `Report Date: 08-Oct-2026`,
 *   header on line 2 starting `Last Updated,Unique ID,OFSI Group ID,...,Name 6,Name 1,...`, one row per
 *   name and address of an entry, grouped by Unique ID (e.g. `RUS0001`), kind in `Designation Type`;
 * - the older OFSI consolidated list: optional date line, rows grouped by `Group ID`, kind in `Group Type`.
 * Columns are looked up by header name, case-insensitively, so either layout (and a reordering) reads.
 *
 * Used: Unique ID or Group ID (id), Designation Type or Group Type (Individual → person, Ship → vessel,
 * else organisation), Name 1..Name 5 (given names) + Name 6 (surname / whole entity name), Name type or
 * Alias Type (Primary name / Alias / AKA ...), Alias strength or Alias Quality (Weak → weak), Name
 * non-latin script (strong alias), D.O.B or DOB (dd/mm/yyyy, 00 for unknown parts), Nationality(/ies) or
 * Nationality ("(1) X (2) Y"), Address Country or Country, Country of birth, Regime Name or Regime,
 * Passport number, National Identifier number, Business registration number (s), IMO number, Address
 * Line 1-6 or Address 1-6, Gender, Date Designated.
 */
import { type EntityKind, emptyEntity, type ListLoadResult, type ScreeningEntity } from '../entity.ts';
import { parseCsvRows } from './csv.ts';
import {
  addAlias,
  addCountry,
  addIdentifier,
  contentHash,
  LoadProblems,
  parseDate,
  pushUnique,
  stripBom,
  versionString,
} from './util.ts';

function splitNumbered(v: string | undefined): string[] {
  if (!v) return [];
  return v
    .split(/\(\d+\)/)
    .map((s) => s.trim().replace(/[,;.]$/, ''))
    .filter(Boolean);
}

export function loadUkHmt(csv: string): ListLoadResult {
  const problems = new LoadProblems();
  const text = stripBom(csv);
  const firstLineEnd = text.indexOf('\n');
  const firstLine = firstLineEnd >= 0 ? text.slice(0, firstLineEnd) : text;
  const hasPreamble = !/Name 6|Unique ID|Group ID/i.test(firstLine);
  const published = hasPreamble ? parseDate(firstLine.replace(/^[^:,]*[:,]/, '')) : undefined;
  const rows = parseCsvRows(text, problems, { label: 'uk-hmt', fromLine: hasPreamble ? 2 : 1 });
  const header = rows.shift() ?? [];
  const col = new Map(header.map((h, i) => [h.trim().toLowerCase(), i]));
  const get = (row: string[], ...names: string[]): string | undefined => {
    for (const n of names) {
      const i = col.get(n.toLowerCase());
      if (i === undefined) continue;
      const v = row[i]?.trim();
      if (v) return v;
    }
    return undefined;
  };
  const entities: ScreeningEntity[] = [];
  const idColumn = col.has('unique id') ? 'Unique ID' : 'Group ID';
  if (!col.has(idColumn.toLowerCase()) || !col.has('name 6')) {
    problems.bad('uk-hmt: header lacks Unique ID (or Group ID) / Name 6 columns');
    return {
      source: 'uk_hmt',
      version: contentHash(csv),
      entities,
      malformed: problems.malformed,
      errors: problems.errors,
    };
  }
  const byId = new Map<string, ScreeningEntity>();
  const primarySeen = new Set<string>();
  for (const [n, row] of rows.entries()) {
    // which record: counted from the header, so an operator can find it in the file
    const at = `record ${n + 1} after the header`;
    if (row.length !== header.length) {
      problems.bad(`uk-hmt: ${at} has ${row.length} fields, the header ${header.length}`);
      continue;
    }
    const id = get(row, idColumn);
    const given = ['Name 1', 'Name 2', 'Name 3', 'Name 4', 'Name 5'].map((c) => get(row, c)).filter(Boolean);
    const surname = get(row, 'Name 6');
    if (!id || (!surname && !given.length)) {
      problems.bad(`uk-hmt: ${at} has no Group ID or no name (${id ?? '?'})`);
      continue;
    }
    const groupType = (get(row, 'Designation Type', 'Group Type') ?? '').toLowerCase();
    const kind: EntityKind =
      groupType === 'individual' ? 'person' : groupType === 'ship' ? 'vessel' : 'organisation';
    const name =
      kind === 'person' && surname && given.length
        ? `${surname}, ${given.join(' ')}`
        : [...given, surname].filter(Boolean).join(' ');
    const nameType = (get(row, 'Name type', 'Alias Type') ?? '').toLowerCase();
    const isPrimary = nameType.startsWith('primary');
    const weak = /weak|low/i.test(get(row, 'Alias strength', 'Alias Quality') ?? '');
    let e = byId.get(id);
    if (!e) {
      e = emptyEntity('uk_hmt', id, kind, name);
      e.list_types.push('sanction');
      byId.set(id, e);
      entities.push(e);
      if (isPrimary) primarySeen.add(id);
      else if (weak) {
        // First row is a weak alias: keep it as the name for now, a later primary row replaces it.
        e.aliases.push({ name, strength: 'weak' });
      }
    } else if (isPrimary && !primarySeen.has(id)) {
      primarySeen.add(id);
      if (e.name !== name) {
        if (!e.aliases.some((a) => a.name === e!.name)) e.aliases.push({ name: e.name, strength: 'strong' });
        e.name = name;
        e.aliases = e.aliases.filter((a) => a.name !== name);
      }
    } else addAlias(e, name, weak ? 'weak' : 'strong');
    addAlias(e, get(row, 'Name Non-Latin Script'), 'strong');
    pushUnique(e.programs, get(row, 'Regime Name', 'Regime'));
    for (const dob of splitNumbered(get(row, 'D.O.B', 'DOB'))) pushUnique(e.birth_dates, parseDate(dob));
    for (const n of splitNumbered(get(row, 'Nationality(/ies)', 'Nationality')))
      addCountry(e.nationalities, n);
    const country = get(row, 'Address Country', 'Country');
    addCountry(e.countries, country);
    addCountry(e.countries, get(row, 'Country of Birth'));
    addIdentifier(e, 'Passport', get(row, 'Passport Number'));
    addIdentifier(
      e,
      'National Identification Number',
      get(row, 'National Identifier number', 'National Identification Number'),
    );
    for (const n of splitNumbered(get(row, 'Business registration number (s)')))
      addIdentifier(e, 'Registration Number', n);
    // The current file writes `IMO9826902`; the identifier is the seven digits.
    addIdentifier(e, 'IMO', get(row, 'IMO number')?.replace(/^IMO\s*/i, ''));
    const addr = [1, 2, 3, 4, 5, 6]
      .map((n) => get(row, `Address Line ${n}`, `Address ${n}`))
      .concat(get(row, 'Address Postal Code', 'Post/Zip Code'), country)
      .filter(Boolean)
      .join(', ');
    pushUnique(e.addresses, addr || undefined);
    const g = get(row, 'Gender')?.toLowerCase();
    if (g === 'male' || g === 'female') e.gender = g;
    e.remarks ??=
      [get(row, 'UK Statement of Reasons'), get(row, 'Other Information')].filter(Boolean).join(' ') ||
      undefined;
    const designated = parseDate(get(row, 'Date Designated'));
    if (designated && designated.length === 10) e.listed_on ??= designated;
  }
  return {
    source: 'uk_hmt',
    version: versionString(contentHash(csv), published),
    published,
    entities,
    malformed: problems.malformed,
    errors: problems.errors,
  };
}
