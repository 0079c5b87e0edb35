/**
 * UK sanctions list CSV (OFSI consolidated list layout). The first line is a report/update date line
 * (`Report Date: ...` or `Last Updated,dd/mm/yyyy`), the header is on line 2; one row per name, grouped by
 * Group ID. Columns are looked up by header name.
 *
 * Used: Group ID (id), Group Type (Individual → person, Ship → vessel, else organisation), Name 1..Name 5
 * (given names) + Name 6 (surname / whole entity name), Name type or Alias Type (Primary name / Alias /
 * AKA ...), Alias strength or Alias Quality (Weak → weak), Name Non-Latin Script (strong alias), DOB
 * (dd/mm/yyyy, 00 for unknown parts), Nationality ("(1) X (2) Y"), Country, Country of Birth, Regime,
 * Passport Number, National Identification Number, Address 1-6, Gender.
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
  const hasPreamble = !/Name 6/i.test(firstLine);
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
  if (!col.has('group id') || !col.has('name 6')) {
    problems.bad('uk-hmt: header lacks Group ID / Name 6 columns');
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
  for (const row of rows) {
    if (row.length !== header.length) {
      problems.bad(`uk-hmt: row has ${row.length} fields, header has ${header.length}`);
      continue;
    }
    const id = get(row, 'Group ID');
    const given = ['Name 1', 'Name 2', 'Name 3', 'Name 4', 'Name 5'].map((c) => get(row, c)).filter(Boolean);
    const surname = get(row, 'Name 6');
    if (!id || (!surname && !given.length)) {
      problems.bad(`uk-hmt: row without Group ID or name (${id ?? '?'})`);
      continue;
    }
    const groupType = (get(row, 'Group Type') ?? '').toLowerCase();
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
    pushUnique(e.programs, get(row, 'Regime'));
    for (const dob of splitNumbered(get(row, 'DOB'))) pushUnique(e.birth_dates, parseDate(dob));
    for (const n of splitNumbered(get(row, 'Nationality'))) addCountry(e.nationalities, n);
    addCountry(e.countries, get(row, 'Country'));
    addCountry(e.countries, get(row, 'Country of Birth'));
    addIdentifier(e, 'Passport', get(row, 'Passport Number'));
    addIdentifier(e, 'National Identification Number', get(row, 'National Identification Number'));
    addIdentifier(e, 'IMO', get(row, 'IMO number', 'IMO Number'));
    const addr = [
      'Address 1',
      'Address 2',
      'Address 3',
      'Address 4',
      'Address 5',
      'Address 6',
      'Post/Zip Code',
      'Country',
    ]
      .map((c) => get(row, c))
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
