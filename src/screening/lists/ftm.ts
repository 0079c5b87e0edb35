/**
 * FollowTheMoney entities as JSON lines (OpenSanctions export format): `{id, schema, properties, ...}`.
 *
 * Person → person; Company / Organization / LegalEntity / PublicBody → organisation; Vessel → vessel;
 * Airplane → aircraft. Other schemas (Ownership, Directorship, Family, Address, Passport, ...) are skipped
 * except Sanction, whose `program`/`programId` is attached to the sanctioned entity (and marks it as a
 * 'sanction' list entry). topics map to list_types: sanction* → sanction, role.pep/role.rca → pep,
 * crime*, debarment, wanted, poi → warning.
 */
import { type EntityKind, emptyEntity, type ListLoadResult, type ScreeningEntity } from '../entity.ts';
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

const KINDS: Record<string, EntityKind> = {
  Person: 'person',
  Company: 'organisation',
  Organization: 'organisation',
  LegalEntity: 'organisation',
  PublicBody: 'organisation',
  Vessel: 'vessel',
  Airplane: 'aircraft',
};

const ID_PROPS: [string, string][] = [
  ['idNumber', 'ID number'],
  ['passportNumber', 'Passport'],
  ['registrationNumber', 'Registration number'],
  ['taxNumber', 'Tax number'],
  ['innCode', 'INN'],
  ['ogrnCode', 'OGRN'],
  ['vatCode', 'VAT'],
  ['leiCode', 'LEI'],
  ['swiftBic', 'SWIFT/BIC'],
  ['imoNumber', 'IMO'],
  ['mmsi', 'MMSI'],
  ['registrationNumber', 'Registration number'],
];

function listType(topic: string): string | undefined {
  if (topic.startsWith('sanction')) return 'sanction';
  if (topic === 'role.pep' || topic === 'role.rca' || topic.startsWith('role.pep')) return 'pep';
  if (topic.startsWith('crime') || topic === 'debarment' || topic === 'wanted' || topic === 'poi')
    return 'warning';
  return undefined;
}

type Props = Record<string, unknown>;

function strings(props: Props, key: string): string[] {
  const v = props[key];
  if (!Array.isArray(v)) return [];
  return v.filter((x): x is string => typeof x === 'string' && x.trim() !== '');
}

export function loadFtm(jsonl: string, source = 'ftm'): ListLoadResult {
  const problems = new LoadProblems();
  const entities: ScreeningEntity[] = [];
  const byId = new Map<string, ScreeningEntity>();
  const sanctions: { entity: string[]; programs: string[]; reasons: string[]; dates: string[] }[] = [];
  let lineNo = 0;
  for (const line of jsonl.split('\n')) {
    lineNo++;
    const trimmed = line.trim();
    if (!trimmed) continue;
    let obj: { id?: unknown; schema?: unknown; caption?: unknown; properties?: unknown };
    try {
      obj = JSON.parse(trimmed);
    } catch {
      problems.bad(`line ${lineNo}: invalid JSON`);
      continue;
    }
    if (!obj || typeof obj !== 'object' || typeof obj.id !== 'string' || typeof obj.schema !== 'string') {
      problems.bad(`line ${lineNo}: missing id or schema`);
      continue;
    }
    const props = (obj.properties && typeof obj.properties === 'object' ? obj.properties : {}) as Props;
    if (obj.schema === 'Sanction') {
      sanctions.push({
        entity: strings(props, 'entity'),
        programs: [...strings(props, 'program'), ...strings(props, 'programId')],
        reasons: [...strings(props, 'reason'), ...strings(props, 'summary')],
        dates: [...strings(props, 'listingDate'), ...strings(props, 'startDate')],
      });
      continue;
    }
    const kind = KINDS[obj.schema];
    if (!kind) continue;
    const names = strings(props, 'name');
    const caption = typeof obj.caption === 'string' && obj.caption.trim() ? obj.caption.trim() : undefined;
    const primary = caption ?? names[0];
    if (!primary) {
      problems.bad(`line ${lineNo}: ${obj.schema} ${obj.id} has no name`);
      continue;
    }
    const e = emptyEntity(source, obj.id, kind, primary);
    for (const n of names) addAlias(e, n, 'strong');
    for (const n of strings(props, 'alias')) addAlias(e, n, 'strong');
    for (const n of strings(props, 'previousName')) addAlias(e, n, 'strong');
    for (const n of strings(props, 'weakAlias')) addAlias(e, n, 'weak');
    for (const d of strings(props, 'birthDate')) pushUnique(e.birth_dates, parseDate(d));
    for (const c of [...strings(props, 'nationality'), ...strings(props, 'citizenship')])
      addCountry(e.nationalities, c);
    for (const c of [...strings(props, 'country'), ...strings(props, 'jurisdiction')])
      addCountry(e.countries, c);
    for (const [prop, label] of ID_PROPS) for (const v of strings(props, prop)) addIdentifier(e, label, v);
    for (const a of strings(props, 'address')) pushUnique(e.addresses, a);
    for (const p of [...strings(props, 'program'), ...strings(props, 'programId')]) pushUnique(e.programs, p);
    for (const t of strings(props, 'topics')) pushUnique(e.list_types, listType(t));
    const g = strings(props, 'gender')[0]?.toLowerCase();
    if (g === 'male' || g === 'female') e.gender = g;
    const notes = [...strings(props, 'notes'), ...strings(props, 'summary')];
    if (notes.length) e.remarks = notes.join(' ');
    if (byId.has(e.id)) {
      problems.bad(`line ${lineNo}: duplicate id ${e.id}`);
      continue;
    }
    byId.set(e.id, e);
    entities.push(e);
  }
  for (const s of sanctions) {
    for (const id of s.entity) {
      const e = byId.get(id);
      if (!e) continue;
      pushUnique(e.list_types, 'sanction');
      for (const p of s.programs) pushUnique(e.programs, p);
      const reasons = s.reasons.filter((r) => !e.remarks?.includes(r));
      if (reasons.length) e.remarks = [e.remarks, ...reasons].filter(Boolean).join(' ');
      for (const d of s.dates) {
        const date = parseDate(d);
        if (date?.length === 10 && (!e.listed_on || date < e.listed_on)) e.listed_on = date;
      }
    }
  }
  return {
    source,
    version: versionString(contentHash(jsonl)),
    entities,
    malformed: problems.malformed,
    errors: problems.errors,
  };
}
