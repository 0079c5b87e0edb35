import type { Static } from 'typebox';
import type { PropertyOrigin } from '../../db/schema.ts';
import { mergeParties } from '../providers/profile-parts.ts';
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
 * `merged_companies`) when it gives one, else the one the adapters use (`mergeParties`), which
 * merges a person listed in several roles and a company listed in several.
 */
export function relatedFromProfile(profile: CompanyProfile): {
  individuals: ImportedIndividual[];
  companies: ImportedCompany[];
} {
  const hasMerged = profile.merged_individuals.length > 0 || profile.merged_companies.length > 0;
  const merged = hasMerged ? profile : mergeParties(profile);
  return {
    individuals: merged.merged_individuals.map(individualFrom),
    companies: merged.merged_companies.map(companyFrom),
  };
}
