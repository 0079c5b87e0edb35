import type { Static } from 'typebox';
import type { PropertyOrigin } from '../../db/schema.ts';
import type { CompanyProfile, MergedCompany, MergedIndividual } from '../schemas.ts';

type Person = Static<typeof MergedIndividual>;
type Corporate = Static<typeof MergedCompany>;
type Role = 'legal_representative' | 'shareholder';

/** The relation of an imported entity to the company it was imported from. */
export interface ImportedRelation {
  roles: Role[];
  ownership_percentage: number | null;
  voting_rights_percentage: number | null;
  position: string | null;
}

export interface ImportedIndividual {
  fields: Record<string, unknown> & { first_name: string; last_name: string };
  relation: ImportedRelation;
  origin: PropertyOrigin;
}
export interface ImportedCompany {
  fields: Record<string, unknown> & { name: string };
  relation: ImportedRelation;
  origin: PropertyOrigin;
}

const norm = (s: string | null | undefined) =>
  (s ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

const maxPct = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/** One relation from the several a merged entry may list (one relation per pair of entities). */
function oneRelation(
  relations: { ownership_percentage: number | null; roles: Role[]; position: string | null }[],
  fallback: { roles: Role[]; ownership_percentage: number | null; position: string | null },
  voting: number | null,
): ImportedRelation {
  const all = relations.length ? relations : [fallback];
  return {
    roles: [...new Set(all.flatMap((r) => r.roles))],
    ownership_percentage: all.reduce<number | null>((m, r) => maxPct(m, r.ownership_percentage), null),
    voting_rights_percentage: voting,
    position: all.find((r) => r.position)?.position ?? null,
  };
}

function splitName(p: Pick<Person, 'name' | 'first_name' | 'last_name'>) {
  if (p.first_name && p.last_name) return { first_name: p.first_name, last_name: p.last_name };
  const parts = p.name.trim().split(/\s+/);
  const last = p.last_name ?? (parts.length > 1 ? (parts.pop() as string) : parts[0]);
  const first = p.first_name ?? (parts.length ? parts.join(' ') : last);
  return { first_name: first, last_name: last };
}

const originOf = (fields: Record<string, unknown>): PropertyOrigin => {
  const o: PropertyOrigin = {};
  for (const [k, v] of Object.entries(fields)) {
    if (k === 'address' && v && typeof v === 'object') {
      for (const [ak, av] of Object.entries(v)) if (av !== null && av !== '') o[`address.${ak}`] = 'registry';
    } else if (v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0)) o[k] = 'registry';
  }
  return o;
};

function individualFrom(p: Person): ImportedIndividual {
  const relation = oneRelation(
    p.relations,
    { roles: p.roles, ownership_percentage: p.ownership_percentage, position: p.position },
    p.voting_rights_percentage,
  );
  const fields = {
    ...splitName(p),
    middle_name: p.middle_name,
    maiden_name: p.maiden_name,
    birth_date: p.birth_date,
    birth_country: p.birth_country,
    birth_place: p.birth_place,
    gender: p.gender,
    nationalities: p.nationalities,
    address: p.address,
    tax_identification_number: p.tax_identification_number,
    is_beneficial_owner: p.is_beneficial_owner,
    is_business_contact: p.is_business_contact,
    roles: [...new Set([...p.roles, ...relation.roles])],
    position: relation.position,
    ownership_percentage: relation.ownership_percentage,
    voting_rights_percentage: relation.voting_rights_percentage,
  };
  const origin = originOf(fields);
  // flags are always set by the import; false says nothing came from the registry
  if (!p.is_beneficial_owner) delete origin.is_beneficial_owner;
  if (!p.is_business_contact) delete origin.is_business_contact;
  return { fields, relation, origin };
}

function companyFrom(c: Corporate): ImportedCompany {
  const relation = oneRelation(c.relations, { roles: [], ownership_percentage: null, position: null }, null);
  const fields = {
    name: c.name,
    registration_number: c.registration_number,
    tax_identification_number: c.tax_identification_number,
    legal_form: c.legal_form,
    entity_legal_form: c.entity_legal_form,
    country: c.country,
    address: c.address,
  };
  return { fields, relation, origin: originOf(fields) };
}

/**
 * The profile's people and companies, each once: the registry's own merge (`merged_individuals`,
 * `merged_companies`) when it gives one, else ours, which merges a person listed in several roles
 * (same name and birth date) and a company listed in several (same registration number, else name).
 */
export function relatedFromProfile(profile: CompanyProfile): {
  individuals: ImportedIndividual[];
  companies: ImportedCompany[];
} {
  const hasMerged = profile.merged_individuals.length > 0 || profile.merged_companies.length > 0;
  const merged = hasMerged
    ? { individuals: profile.merged_individuals, companies: profile.merged_companies }
    : mergeParties(profile);
  return {
    individuals: merged.individuals.map(individualFrom),
    companies: merged.companies.map(companyFrom),
  };
}

type Party = CompanyProfile['legal_representatives'][number] & { ownership_percentage?: number | null };

/** Our merge of the three lists into merged entries (the registry gave none). */
export function mergeParties(profile: CompanyProfile): { individuals: Person[]; companies: Corporate[] } {
  const people = new Map<string, Person>();
  const companies = new Map<string, Corporate>();
  const add = (party: Party, role: Role | null, beneficial: boolean) => {
    const pct = party.ownership_percentage ?? null;
    const rel = {
      ownership_percentage: role === 'shareholder' || beneficial ? pct : null,
      roles: role ? [role] : [],
      position: party.position,
    };
    if (party.entity_type === 'individual') {
      const key = `${norm(party.name)}|${party.birth_date ?? ''}`;
      const found = people.get(key);
      if (found) {
        if (role && !found.roles.includes(role)) found.roles.push(role);
        found.is_beneficial_owner ||= beneficial;
        found.ownership_percentage = maxPct(found.ownership_percentage, rel.ownership_percentage);
        found.position ??= party.position;
        found.relations.push(rel);
        return;
      }
      people.set(key, {
        ...party,
        roles: role ? [role] : [],
        ownership_percentage: rel.ownership_percentage,
        is_beneficial_owner: beneficial,
        is_business_contact: false,
        gender: null,
        nationalities: null,
        relations: [rel],
      } as Person);
      return;
    }
    const key = party.registration_number ? `#${norm(party.registration_number)}` : norm(party.name);
    const found = companies.get(key);
    if (found) {
      found.relations.push(rel);
      return;
    }
    companies.set(key, {
      name: party.name,
      address: party.address,
      registration_number: party.registration_number,
      tax_identification_number: party.tax_identification_number,
      legal_form: party.legal_form,
      entity_legal_form: party.entity_legal_form,
      country: party.country,
      type: 'affiliated',
      relations: [rel],
    });
  };
  for (const r of profile.legal_representatives) add(r, 'legal_representative', false);
  for (const s of profile.shareholders) add(s, 'shareholder', false);
  for (const b of profile.beneficial_owners) add(b, null, true);
  return { individuals: [...people.values()], companies: [...companies.values()] };
}
