import type { Static } from 'typebox';
import type { Address } from '../../shared/address.ts';
import type {
  CompanyProfile,
  MergedCompany,
  MergedIndividual,
  ProfileOwner,
  ProfileRepresentative,
} from '../schemas.ts';

/**
 * Building blocks shared by the registry adapters: complete parties (every field present, null when the
 * registry does not say) and the merged view of a profile (one entry per person or company, with all its
 * roles), so that each parser only states what its registry knows.
 */
export type AddressValue = Static<typeof Address>;
export type Owner = Static<typeof ProfileOwner>;
export type Representative = Static<typeof ProfileRepresentative>;
type IndividualOwner = Extract<Owner, { entity_type: 'individual' }>;
type CompanyOwner = Extract<Owner, { entity_type: 'company' }>;
type MergedIndividualValue = Static<typeof MergedIndividual>;
type MergedCompanyValue = Static<typeof MergedCompany>;

export function address(parts: Partial<AddressValue>): AddressValue {
  const clean = (v: string | null | undefined) => (v?.trim() ? v.trim() : null);
  return {
    street_address: clean(parts.street_address),
    street_address_2: clean(parts.street_address_2),
    postal_code: clean(parts.postal_code),
    city: clean(parts.city),
    state: clean(parts.state),
    region: clean(parts.region),
    country: clean(parts.country)?.toUpperCase() ?? null,
  };
}

export const NO_ADDRESS = address({});

type PersonInput = Partial<Omit<IndividualOwner, 'entity_type' | 'name'>> & { name?: string | null };
type CompanyInput = Partial<Omit<CompanyOwner, 'entity_type' | 'name'>> & { name: string };

export function individual(p: PersonInput): IndividualOwner {
  const name = p.name?.trim() || [p.first_name, p.middle_name, p.last_name].filter(Boolean).join(' ');
  return {
    entity_type: 'individual',
    name,
    address: p.address ?? NO_ADDRESS,
    position: p.position ?? null,
    first_name: p.first_name ?? null,
    middle_name: p.middle_name ?? null,
    last_name: p.last_name ?? null,
    maiden_name: p.maiden_name ?? null,
    birth_date: p.birth_date ?? null,
    birth_country: p.birth_country ?? null,
    birth_place: p.birth_place ?? null,
    tax_identification_number: p.tax_identification_number ?? null,
    voting_rights_percentage: p.voting_rights_percentage ?? null,
    ownership_percentage: p.ownership_percentage ?? null,
  };
}

export function company(c: CompanyInput): CompanyOwner {
  return {
    entity_type: 'company',
    name: c.name.trim(),
    address: c.address ?? NO_ADDRESS,
    position: c.position ?? null,
    registration_number: c.registration_number ?? null,
    tax_identification_number: c.tax_identification_number ?? null,
    legal_form: c.legal_form ?? null,
    entity_legal_form: c.entity_legal_form ?? null,
    entity_legal_form_label: c.entity_legal_form_label ?? null,
    country: c.country ?? null,
    ownership_percentage: c.ownership_percentage ?? null,
  };
}

/** A representative is an owner-shaped party without `ownership_percentage`. */
export function asRepresentative(party: Owner): Representative {
  const { ownership_percentage: _, ...rest } = party;
  return rest as Representative;
}

/**
 * A registry that publishes a birth month and year only (Companies House, the French RNE) gives the
 * first of that month: `birth_date` is a full date in the API, and the month is what matches people
 * across lists. A year alone gives null rather than an invented 1 January.
 */
export function birthDateFromMonth(year: unknown, month: unknown): string | null {
  const y = Number(year);
  const m = Number(month);
  if (!Number.isInteger(y) || y < 1850 || y > 2200 || !Number.isInteger(m) || m < 1 || m > 12) return null;
  return `${y}-${String(m).padStart(2, '0')}-01`;
}

/** A date-time or date from a registry → `yyyy-MM-dd`, or null when it is not one. */
export function dateOnly(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(value.trim());
  return m ? m[1] : null;
}

export function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

type Parties = Pick<CompanyProfile, 'beneficial_owners' | 'shareholders' | 'legal_representatives'>;

/**
 * The merged view of a profile: each person (same name and birth month) and each company (same
 * registration number, else same name) once, with every role it holds. Beneficial owners are not a
 * relation role of their own: they set `is_beneficial_owner` and, when the register gives one, the
 * ownership percentage.
 */
export function mergeParties(parties: Parties): {
  merged_individuals: MergedIndividualValue[];
  merged_companies: MergedCompanyValue[];
} {
  const people = new Map<string, MergedIndividualValue>();
  const companies = new Map<string, MergedCompanyValue>();

  const visit = (party: Owner | Representative, role: 'legal_representative' | 'shareholder' | 'owner') => {
    const percentage = 'ownership_percentage' in party ? party.ownership_percentage : null;
    if (party.entity_type === 'individual') {
      const key = personKey(party);
      let merged = people.get(key);
      if (!merged) {
        const { entity_type: _, ...fields } = party as IndividualOwner;
        merged = {
          ...fields,
          position: null,
          roles: [],
          ownership_percentage: null,
          is_beneficial_owner: false,
          is_business_contact: false,
          gender: null,
          nationalities: null,
          relations: [],
        };
        people.set(key, merged);
      }
      fillGaps(merged, party);
      apply(merged, role, party.position, percentage);
      merged.relations[0].voting_rights_percentage ??= merged.voting_rights_percentage;
      if (role === 'owner') merged.is_beneficial_owner = true;
    } else {
      const key = party.registration_number ? `n:${party.registration_number}` : `c:${normalise(party.name)}`;
      let merged = companies.get(key);
      if (!merged) {
        merged = {
          name: party.name,
          address: party.address,
          registration_number: party.registration_number,
          tax_identification_number: party.tax_identification_number,
          legal_form: party.legal_form,
          entity_legal_form: party.entity_legal_form,
          country: party.country,
          type: 'affiliated',
          relations: [],
        };
        companies.set(key, merged);
      }
      apply(merged, role, party.position, percentage);
    }
  };

  for (const p of parties.legal_representatives) visit(p, 'legal_representative');
  for (const p of parties.shareholders) visit(p, 'shareholder');
  for (const p of parties.beneficial_owners) visit(p, 'owner');
  return { merged_individuals: [...people.values()], merged_companies: [...companies.values()] };
}

type Mergeable = { relations: MergedIndividualValue['relations']; roles?: MergedIndividualValue['roles'] };

/** One relation to the company per merged party, carrying all its roles, its position and its share. */
function apply(
  merged: Mergeable & { position?: string | null; ownership_percentage?: number | null },
  role: 'legal_representative' | 'shareholder' | 'owner',
  position: string | null,
  percentage: number | null,
) {
  let relation = merged.relations[0];
  if (!relation) {
    relation = { ownership_percentage: null, voting_rights_percentage: null, roles: [], position: null };
    merged.relations.push(relation);
  }
  if (role !== 'owner' && !relation.roles.includes(role)) relation.roles.push(role);
  if (role === 'legal_representative' && position && !relation.position) relation.position = position;
  if (percentage !== null && (relation.ownership_percentage === null || role === 'shareholder')) {
    relation.ownership_percentage = percentage;
  }
  if (merged.roles) merged.roles = [...relation.roles];
  if ('position' in merged) merged.position = relation.position;
  if ('ownership_percentage' in merged) merged.ownership_percentage = relation.ownership_percentage;
}

/** A person seen in two lists may be better described in the second (e.g. an address, a birth date). */
function fillGaps(merged: MergedIndividualValue, party: Owner | Representative) {
  const record = merged as unknown as Record<string, unknown>;
  for (const [k, v] of Object.entries(party)) {
    if (k === 'entity_type' || k === 'position' || k === 'ownership_percentage') continue;
    if (record[k] === null && v !== null) record[k] = v;
  }
  if (merged.address.country === null && party.address.country !== null) merged.address = party.address;
}

function personKey(p: {
  first_name: string | null;
  last_name: string | null;
  name: string;
  birth_date: string | null;
}) {
  const name = p.first_name && p.last_name ? `${firstWord(p.first_name)} ${p.last_name}` : p.name;
  return `${normalise(name)}|${p.birth_date?.slice(0, 7) ?? ''}`;
}

function firstWord(s: string): string {
  return s.trim().split(/[\s-]+/)[0] ?? s;
}

export function normalise(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
