/**
 * UN Security Council consolidated list (XML). INDIVIDUALS/INDIVIDUAL → person, ENTITIES/ENTITY →
 * organisation. REFERENCE_NUMBER is the id, UN_LIST_TYPE the program, dateGenerated the published date.
 * Aliases: QUALITY Good → strong, Low → weak, a.k.a./f.k.a. (entities) → strong; NAME_ORIGINAL_SCRIPT is
 * added as a strong alias so queries in the original script match.
 */

import { lazyRequire } from '../../shared/lazy-module.ts';
import { type EntityKind, emptyEntity, type ListLoadResult, type ScreeningEntity } from '../entity.ts';
import {
  addAlias,
  addCountry,
  addIdentifier,
  aliasNames,
  contentHash,
  LoadProblems,
  pushUnique,
  versionString,
} from './util.ts';

// required by the first UN list parsed, in the background after start-up (src/shared/lazy-module.ts)
const lazyXml = lazyRequire<typeof import('fast-xml-parser')>('fast-xml-parser');

type XmlNode = Record<string, unknown>;

const ARRAY_TAGS = new Set([
  'INDIVIDUAL',
  'ENTITY',
  'VALUE',
  'INDIVIDUAL_ALIAS',
  'ENTITY_ALIAS',
  'INDIVIDUAL_ADDRESS',
  'ENTITY_ADDRESS',
  'INDIVIDUAL_DATE_OF_BIRTH',
  'INDIVIDUAL_PLACE_OF_BIRTH',
  'INDIVIDUAL_DOCUMENT',
  'NATIONALITY',
  'LIST_TYPE',
  'DESIGNATION',
  'TITLE',
  'LAST_DAY_UPDATED',
]);

function text(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string' || typeof v === 'number') {
    const s = String(v).trim();
    return s || undefined;
  }
  if (typeof v === 'object' && '#text' in (v as XmlNode)) return text((v as XmlNode)['#text']);
  return undefined;
}

function nodes(v: unknown): XmlNode[] {
  if (!v) return [];
  const list = Array.isArray(v) ? v : [v];
  return list.filter((x): x is XmlNode => typeof x === 'object' && x !== null);
}

function values(v: unknown): string[] {
  const out: string[] = [];
  for (const n of nodes(v)) {
    const vals = n.VALUE;
    for (const x of Array.isArray(vals) ? vals : [vals]) {
      const t = text(x);
      if (t) out.push(t);
    }
  }
  return out;
}

function addressOf(n: XmlNode): string | undefined {
  const parts = ['STREET', 'CITY', 'STATE_PROVINCE', 'ZIP_CODE', 'COUNTRY']
    .map((k) => text(n[k]))
    .filter(Boolean);
  return parts.length ? parts.join(', ') : undefined;
}

function toEntity(node: XmlNode, kind: EntityKind, problems: LoadProblems): ScreeningEntity | undefined {
  const ref = text(node.REFERENCE_NUMBER);
  const nameParts = ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME'].map((k) => text(node[k]));
  const name = nameParts.filter(Boolean).join(' ').replace(/\s+/g, ' ');
  if (!ref || !name) {
    problems.bad(`${kind} without REFERENCE_NUMBER or name (DATAID ${text(node.DATAID) ?? '?'})`);
    return undefined;
  }
  const e = emptyEntity('un_sc', ref, kind, name);
  e.list_types.push('sanction');
  pushUnique(e.programs, text(node.UN_LIST_TYPE));
  addAlias(e, text(node.NAME_ORIGINAL_SCRIPT), 'strong');
  for (const a of nodes(kind === 'person' ? node.INDIVIDUAL_ALIAS : node.ENTITY_ALIAS)) {
    const q = text(a.QUALITY)?.toLowerCase();
    for (const name of aliasNames(text(a.ALIAS_NAME))) addAlias(e, name, q === 'low' ? 'weak' : 'strong');
  }
  for (const nat of values(node.NATIONALITY)) addCountry(e.nationalities, nat);
  for (const a of nodes(kind === 'person' ? node.INDIVIDUAL_ADDRESS : node.ENTITY_ADDRESS)) {
    pushUnique(e.addresses, addressOf(a));
    addCountry(e.countries, text(a.COUNTRY));
  }
  for (const p of nodes(node.INDIVIDUAL_PLACE_OF_BIRTH)) addCountry(e.countries, text(p.COUNTRY));
  for (const d of nodes(node.INDIVIDUAL_DATE_OF_BIRTH)) {
    const date = text(d.DATE);
    const year = text(d.YEAR);
    const from = Number(text(d.FROM_YEAR));
    const to = Number(text(d.TO_YEAR));
    if (date && /^\d{4}-\d{2}-\d{2}/.test(date)) pushUnique(e.birth_dates, date.slice(0, 10));
    else if (year && /^\d{4}$/.test(year)) pushUnique(e.birth_dates, year);
    else if (from && to && to >= from && to - from <= 10) {
      for (let y = from; y <= to; y++) pushUnique(e.birth_dates, String(y));
    } else {
      // a date given only as a note ("Nov. 1973", "Between Aug. and Sep. 1977"): its Gregorian
      // year, as the year-only dates; a Hijri date or an age ("30-35 years old") gives nothing
      const note = text(d.NOTE) ?? '';
      const years = /hijri/i.test(note) ? [] : (note.match(/\b(?:19|20)\d{2}\b/g) ?? []);
      if (years.length === 1) pushUnique(e.birth_dates, years[0]);
    }
  }
  for (const d of nodes(node.INDIVIDUAL_DOCUMENT)) {
    const type = [text(d.TYPE_OF_DOCUMENT), text(d.TYPE_OF_DOCUMENT2)].filter(Boolean).join(' / ');
    addIdentifier(e, type || 'Document', text(d.NUMBER));
  }
  const comments = text(node.COMMENTS1);
  if (comments) e.remarks = comments;
  const listedOn = text(node.LISTED_ON);
  if (listedOn && /^\d{4}-\d{2}-\d{2}/.test(listedOn)) e.listed_on = listedOn.slice(0, 10);
  const gender = text(node.GENDER)?.toLowerCase();
  if (gender === 'male' || gender === 'female') e.gender = gender;
  return e;
}

/** Load the UN consolidated list from its XML text. */
export function loadUnConsolidated(xml: string): ListLoadResult {
  const problems = new LoadProblems();
  const entities: ScreeningEntity[] = [];
  let published: string | undefined;
  try {
    const { XMLParser } = lazyXml();
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@_',
      parseTagValue: false,
      parseAttributeValue: false,
      trimValues: true,
      processEntities: true,
      isArray: (name) => ARRAY_TAGS.has(name),
    });
    const doc = parser.parse(xml) as XmlNode;
    const root = doc.CONSOLIDATED_LIST as XmlNode | undefined;
    if (!root || typeof root !== 'object') {
      problems.bad('no CONSOLIDATED_LIST root element');
    } else {
      const generated = text(root['@_dateGenerated']);
      if (generated) published = generated.slice(0, 10);
      const individuals = nodes((root.INDIVIDUALS as XmlNode | undefined)?.INDIVIDUAL);
      const orgs = nodes((root.ENTITIES as XmlNode | undefined)?.ENTITY);
      for (const n of individuals) {
        const e = toEntity(n, 'person', problems);
        if (e) entities.push(e);
      }
      for (const n of orgs) {
        const e = toEntity(n, 'organisation', problems);
        if (e) entities.push(e);
      }
    }
  } catch (err) {
    problems.bad(`XML parse error: ${(err as Error).message}`);
  }
  return {
    source: 'un_sc',
    version: versionString(contentHash(xml), published),
    published,
    entities,
    malformed: problems.malformed,
    errors: problems.errors,
  };
}
