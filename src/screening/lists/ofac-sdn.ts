/**
 * OFAC SDN list, legacy headerless CSV layout (SDN.CSV, ADD.CSV, ALT.CSV, SDN_COMMENTS.CSV), joined on
 * ent_num. `-0-` means null.
 *
 * - sdn.csv: ent_num, SDN_Name, SDN_Type, Program, Title, Call_Sign, Vess_type, Tonnage, GRT, Vess_flag,
 *   Vess_owner, Remarks
 * - add.csv: ent_num, add_num, address, city/state/postal, country, add_remarks
 * - alt.csv: ent_num, alt_num, alt_type (aka/fka/nka), alt_name, alt_remarks
 * - sdn_comments.csv: ent_num, continuation of the Remarks field (appended verbatim)
 *
 * Alias strength: every ALT.CSV row (aka, fka and nka) is 'strong' (fka/nka are names the entity was
 * or is now actually registered under). The quoted `a.k.a. '...'` entries found only in Remarks are
 * OFAC's "weak AKAs" (nicknames, short forms) and are loaded as 'weak'.
 *
 * Remarks parsing extracts: DOB (exact, month/year, year, "circa", "X to Y" ranges), nationality and
 * citizen (→ nationalities), POB country (→ countries), Gender, identifiers (Passport, National ID No.,
 * Cedula No., SSN, Tax ID No., Registration ID, IMO, MMSI, ... any "<label> No./Number/ID/#" value
 * containing a digit) and the weak a.k.a.s.
 */
import { countryCode } from '../countries.ts';
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
  versionString,
} from './util.ts';

export interface OfacSdnFiles {
  /** Contents of sdn.csv (required). */
  sdn: string;
  add?: string;
  alt?: string;
  comments?: string;
}

const NULL = '-0-';

function val(row: string[], i: number): string | undefined {
  const v = row[i]?.trim();
  if (!v || v === NULL) return undefined;
  return v;
}

function kindOf(type: string | undefined): EntityKind {
  switch (type?.toLowerCase()) {
    case 'individual':
      return 'person';
    case 'vessel':
      return 'vessel';
    case 'aircraft':
      return 'aircraft';
    default:
      return 'organisation';
  }
}

const EXPLICIT_ID = /^(Passport|SSN|MMSI|RFC|C\.U\.R\.P\.|CURP|D\.N\.I\.|SWIFT\/BIC|IMO|Kenyan ID)\s+(.+)$/;
const GENERIC_ID =
  /^([A-Z][A-Za-z.'\-/ ]{0,60}?(?:No\.|Number|ID|#|Code|\(MSN\)|Identification))\s+((?:IMO\s+)?[A-Za-z0-9]\S*?\d.*)$/;
const NOT_ID =
  /phone|fax|e-?mail|website|currency|date|model|operator|tonnage|length|flag|sanction|executive order|directive|linked/i;

/** Split a trailing "(Country)" group(s) off an identifier value. */
function splitCountry(rest: string): { value: string; country?: string } {
  const groups: string[] = [];
  let value = rest.trim().replace(/\.$/, '');
  for (;;) {
    const m = /\s*\(([^()]*)\)$/.exec(value);
    if (!m) break;
    groups.unshift(m[1]);
    value = value.slice(0, m.index).trim();
  }
  return { value, country: groups.at(-1) };
}

function addRemarkIdentifier(entity: ScreeningEntity, part: string): boolean {
  let label: string | undefined;
  let rest: string | undefined;
  let m = EXPLICIT_ID.exec(part);
  if (m) {
    label = m[1];
    rest = m[2];
  } else {
    m = GENERIC_ID.exec(part);
    if (m && !NOT_ID.test(m[1])) {
      label = m[1];
      rest = m[2];
    }
  }
  if (!label || !rest) return false;
  const value = splitCountry(rest).value.replace(/^No\.\s*/, '');
  if (!/\d/.test(value) || value.length > 40) return false;
  const imo = /^IMO\s*(\d{7})$/.exec(value);
  if (imo) addIdentifier(entity, 'IMO', imo[1]);
  else addIdentifier(entity, label, value);
  return true;
}

function addDob(entity: ScreeningEntity, text: string): void {
  const t = text.replace(/^circa\s+/i, '').trim();
  const range = /^(.*?)\s*(?:to|-)\s*(.*)$/.exec(t);
  if (range && /\d{4}/.test(range[1]) && /\d{4}/.test(range[2])) {
    const a = parseDate(range[1]);
    const b = parseDate(range[2]);
    const ya = a ? Number(a.slice(0, 4)) : Number.NaN;
    const yb = b ? Number(b.slice(0, 4)) : Number.NaN;
    if (a && b && a.length === 4 && b.length === 4 && yb >= ya && yb - ya <= 10) {
      for (let y = ya; y <= yb; y++) pushUnique(entity.birth_dates, String(y));
      return;
    }
    if (a) pushUnique(entity.birth_dates, a);
    if (b) pushUnique(entity.birth_dates, b);
    return;
  }
  // "Jan 1960" has no day: keep only the year.
  const monthYear = /^[A-Za-z]{3,}\.?\s+(\d{4})$/.exec(t);
  if (monthYear) {
    pushUnique(entity.birth_dates, monthYear[1]);
    return;
  }
  const d = parseDate(t);
  if (d) pushUnique(entity.birth_dates, d);
}

/** Apply the semicolon-separated Remarks field to an entity. Exported for tests. */
export function applyOfacRemarks(entity: ScreeningEntity, remarks: string): void {
  const parts = remarks.split(/;\s+/);
  for (let raw of parts) {
    raw = raw.trim().replace(/^alt\.\s+/, '');
    if (!raw) continue;
    const m = /^(?:a|f|n)\.k\.a\.,?\s+'(.*)'\.?$/.exec(raw);
    if (m) {
      addAlias(entity, m[1], 'weak');
      continue;
    }
    const part = raw.replace(/\.$/, '');
    const dob = /^DOB\s+(.+)$/.exec(part);
    const nat = dob ? null : /^(?:nationality|citizen)\s+(.+)$/.exec(part);
    const pob = dob || nat ? null : /^POB\s+(.+)$/.exec(part);
    const gender = /^Gender\s+(Male|Female)$/i.exec(part);
    if (dob) addDob(entity, dob[1]);
    else if (nat) addCountry(entity.nationalities, nat[1]);
    else if (pob) {
      // Only keep the place of birth when its last segment is a recognisable country.
      const segs = pob[1].split(',');
      const code = countryCode(segs[segs.length - 1]);
      if (code) pushUnique(entity.countries, code);
    } else if (gender) entity.gender = gender[1].toLowerCase() as 'male' | 'female';
    else addRemarkIdentifier(entity, part);
  }
}

/** Load the OFAC legacy CSV set from file contents. */
export function loadOfacSdn(files: OfacSdnFiles): ListLoadResult {
  const problems = new LoadProblems();
  const entities: ScreeningEntity[] = [];
  const byId = new Map<string, ScreeningEntity>();
  const remarks = new Map<string, string>();

  for (const row of parseCsvRows(files.sdn, problems, { label: 'sdn.csv' })) {
    const id = val(row, 0);
    const name = val(row, 1);
    if (row.length !== 12 || !id || !/^\d+$/.test(id) || !name) {
      problems.bad(`sdn.csv: bad row (${row.length} fields) starting ${JSON.stringify(row.slice(0, 2))}`);
      continue;
    }
    if (byId.has(id)) {
      problems.bad(`sdn.csv: duplicate ent_num ${id}`);
      continue;
    }
    const entity = emptyEntity('ofac_sdn', id, kindOf(val(row, 2)), name);
    entity.list_types.push('sanction');
    const program = val(row, 3);
    if (program) for (const p of program.split(/\]\s*\[/)) pushUnique(entity.programs, p.trim());
    const callSign = val(row, 5);
    if (callSign) addIdentifier(entity, 'Call Sign', callSign);
    addCountry(entity.countries, val(row, 9));
    const r = val(row, 11);
    if (r) remarks.set(id, r);
    byId.set(id, entity);
    entities.push(entity);
  }

  let orphans = 0;
  if (files.comments) {
    for (const row of parseCsvRows(files.comments, problems, { label: 'sdn_comments.csv' })) {
      const id = val(row, 0);
      const text = row[1] ?? '';
      if (!id || row.length !== 2) {
        problems.bad(`sdn_comments.csv: bad row ${JSON.stringify(row.slice(0, 2))}`);
        continue;
      }
      if (!byId.has(id)) {
        orphans++;
        continue;
      }
      remarks.set(id, (remarks.get(id) ?? '') + text);
    }
  }
  for (const [id, text] of remarks) {
    const entity = byId.get(id)!;
    applyOfacRemarks(entity, text);
    const all = text.trim();
    if (all) entity.remarks = all;
  }

  if (files.alt) {
    for (const row of parseCsvRows(files.alt, problems, { label: 'alt.csv' })) {
      const id = val(row, 0);
      const name = val(row, 3);
      if (row.length !== 5 || !id || !name) {
        problems.bad(`alt.csv: bad row ${JSON.stringify(row.slice(0, 2))}`);
        continue;
      }
      const entity = byId.get(id);
      if (!entity) {
        orphans++;
        continue;
      }
      addAlias(entity, name, 'strong');
    }
  }

  if (files.add) {
    for (const row of parseCsvRows(files.add, problems, { label: 'add.csv' })) {
      const id = val(row, 0);
      if (row.length !== 6 || !id) {
        problems.bad(`add.csv: bad row ${JSON.stringify(row.slice(0, 2))}`);
        continue;
      }
      const entity = byId.get(id);
      if (!entity) {
        orphans++;
        continue;
      }
      const parts = [val(row, 2), val(row, 3), val(row, 4)].filter(Boolean);
      if (parts.length) pushUnique(entity.addresses, parts.join(', '));
      addCountry(entity.countries, val(row, 4));
    }
  }
  if (orphans) problems.note(`${orphans} alt/add/comment rows refer to an ent_num not in sdn.csv (ignored)`);

  return {
    source: 'ofac_sdn',
    version: versionString(contentHash(files.sdn, files.add, files.alt, files.comments)),
    entities,
    malformed: problems.malformed,
    errors: problems.errors,
  };
}
