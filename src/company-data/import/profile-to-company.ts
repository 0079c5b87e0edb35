import type { Static } from 'typebox';
import type { CompanyWritable } from '../../companies/schemas.ts';
import type { PropertyOrigin } from '../../db/schema.ts';
import type { CompanyProfile } from '../schemas.ts';

type Writable = Static<typeof CompanyWritable>;

/** Company fields a registry profile fills (the address is merged key by key). */
const PROFILE_FIELDS = [
  'name',
  'commercial_name',
  'registration_number',
  'registration_date',
  'status',
  'legal_form',
  'entity_legal_form',
  'country',
  'classifications',
  'share_capital',
  'tax_identification_number',
  'website_url',
] as const;

const isSet = (v: unknown) =>
  v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

/** The profile's values as company API fields. */
function profileValues(p: CompanyProfile): Partial<Writable> {
  return {
    name: p.name,
    commercial_name: p.commercial_name,
    registration_number: p.registration_number,
    registration_date: p.registration_date,
    status: p.status,
    legal_form: p.legal_form,
    entity_legal_form: p.entity_legal_form,
    country: p.country,
    classifications: p.classifications.map((c) => ({
      type: c.type,
      code: c.code,
      description: c.description,
    })),
    share_capital: p.share_capital,
    tax_identification_number: p.tax_identification_number,
    website_url: p.website_url,
  };
}

/**
 * The company to create from a registry profile and the body's own fields: a field given in the
 * body (even null) wins over the profile; the address merges key by key. `origin` says per field
 * (address keys as `address.city`...) where each stored value came from.
 */
export function companyFromProfile<T extends Partial<Writable>>(
  body: T,
  profile: CompanyProfile,
): { company: T & Writable; origin: PropertyOrigin } {
  const fromProfile = profileValues(profile);
  const out: Record<string, unknown> = { ...body };
  const origin: PropertyOrigin = {};
  const given = body as Record<string, unknown>;
  for (const field of PROFILE_FIELDS) {
    if (given[field] !== undefined) {
      if (isSet(given[field])) origin[field] = 'input';
      continue;
    }
    const value = (fromProfile as Record<string, unknown>)[field];
    if (value === undefined) continue;
    out[field] = value;
    if (isSet(value)) origin[field] = 'registry';
  }
  const address: Record<string, unknown> = {};
  const givenAddress = (body.address ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(profile.address)) {
    if (givenAddress[k] !== undefined) continue;
    address[k] = v;
    if (isSet(v)) origin[`address.${k}`] = 'registry';
  }
  for (const [k, v] of Object.entries(givenAddress)) {
    address[k] = v;
    if (isSet(v)) origin[`address.${k}`] = 'input';
  }
  out.address = address;
  for (const [k, v] of Object.entries(given)) {
    if (v !== undefined && isSet(v) && !(k in origin) && k !== 'address' && TYPED_FIELDS.has(k))
      origin[k] = 'input';
  }
  return { company: out as T & Writable, origin };
}

/** Body fields that are company data (not refs, relations or registry options). */
const TYPED_FIELDS = new Set([
  ...PROFILE_FIELDS,
  'banking_information',
  'employer_identification_number',
  'custom_properties',
]);
