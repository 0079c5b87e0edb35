import { type Static, Type } from 'typebox';
import { Country, DateOnly, DateTime, Nullable, Uuid } from '../http/common-schemas.ts';
import { TWO_LETTER_COUNTRY } from '../http/schema-formats.ts';
import { Address } from '../shared/address.ts';
import { CompanyDataVendorSchema } from './vendors.ts';

/**
 * Shapes of the company-data endpoints, after the reference product's `CompanySearch`,
 * `CompanyData`, `Country`, `EntityLegalForm`, `AvailableDocument` and `DocumentOrder`.
 * Every provider adapter returns these shapes; nothing provider-specific leaks past `providers/`.
 */

export const RegistryStatus = Type.Union([
  Type.Literal('live'),
  Type.Literal('closed'),
  Type.Literal('not_reported'),
]);
const Percentage = Nullable(Type.Number({ minimum: 0, maximum: 100 }));

export const CompanySearchResult = Type.Object({
  search_ref: Type.String({
    description: 'Opaque reference to fetch this candidate; valid 24 hours, this workspace only',
  }),
  name: Type.String(),
  registration_number: Type.String(),
  country: Country,
  address: Address,
  status: RegistryStatus,
  disclosable: Type.Boolean({ description: 'False when the registry withholds the details of this company' }),
});
export type CompanySearchResult = Static<typeof CompanySearchResult>;

const personFields = {
  name: Type.String(),
  address: Address,
  position: Nullable(Type.String()),
  first_name: Nullable(Type.String()),
  middle_name: Nullable(Type.String()),
  last_name: Nullable(Type.String()),
  maiden_name: Nullable(Type.String()),
  birth_date: Nullable(DateOnly),
  birth_country: Nullable(Country),
  birth_place: Nullable(Type.String()),
  tax_identification_number: Nullable(Type.String()),
  voting_rights_percentage: Percentage,
};
const companyPartyFields = {
  name: Type.String(),
  address: Address,
  position: Nullable(Type.String()),
  registration_number: Nullable(Type.String()),
  tax_identification_number: Nullable(Type.String()),
  legal_form: Nullable(Type.String()),
  entity_legal_form: Nullable(Type.String()),
  entity_legal_form_label: Nullable(Type.String()),
  country: Nullable(Country),
};
const asIndividual = Type.Literal('individual');
const asCompany = Type.Literal('company');

export const ProfileOwner = Type.Union([
  Type.Object({ entity_type: asIndividual, ...personFields, ownership_percentage: Percentage }),
  Type.Object({ entity_type: asCompany, ...companyPartyFields, ownership_percentage: Percentage }),
]);
export const ProfileRepresentative = Type.Union([
  Type.Object({ entity_type: asIndividual, ...personFields }),
  Type.Object({ entity_type: asCompany, ...companyPartyFields }),
]);
const MergedRole = Type.Union([Type.Literal('legal_representative'), Type.Literal('shareholder')]);

export const MergedIndividual = Type.Object({
  ...personFields,
  roles: Type.Array(MergedRole),
  ownership_percentage: Percentage,
  is_beneficial_owner: Type.Boolean(),
  is_business_contact: Type.Boolean(),
  gender: Nullable(Type.Union([Type.Literal('male'), Type.Literal('female'), Type.Literal('other')])),
  nationalities: Nullable(Type.Array(Country)),
  relations: Type.Array(
    Type.Object({
      voting_rights_percentage: Percentage,
      ownership_percentage: Percentage,
      roles: Type.Array(MergedRole),
      position: Nullable(Type.String()),
    }),
  ),
});
export const MergedCompany = Type.Object({
  name: Type.String(),
  address: Address,
  registration_number: Nullable(Type.String()),
  tax_identification_number: Nullable(Type.String()),
  legal_form: Nullable(Type.String()),
  entity_legal_form: Nullable(Type.String()),
  country: Nullable(Country),
  type: Type.Literal('affiliated'),
  relations: Type.Array(
    Type.Object({
      voting_rights_percentage: Percentage,
      ownership_percentage: Percentage,
      roles: Type.Array(MergedRole),
      position: Nullable(Type.String()),
    }),
  ),
});

/** A company's registry profile (`GET /v1/company-data/fetch/{search_ref}`), the reference's `CompanyData`. */
export const CompanyProfile = Type.Object({
  name: Type.String(),
  commercial_name: Nullable(Type.String()),
  registration_number: Type.String(),
  country: Country,
  status: RegistryStatus,
  registration_date: Nullable(DateOnly),
  legal_form: Nullable(Type.String()),
  entity_legal_form: Nullable(Type.String({ description: 'ISO 20275 code' })),
  entity_legal_form_label: Nullable(Type.String()),
  address: Address,
  share_capital: Nullable(Type.String()),
  tax_identification_number: Nullable(Type.String()),
  website_url: Nullable(Type.String()),
  classifications: Type.Array(
    Type.Object({ type: Type.String(), code: Type.String(), description: Nullable(Type.String()) }),
  ),
  beneficial_owners: Type.Array(ProfileOwner),
  shareholders: Type.Array(ProfileOwner),
  legal_representatives: Type.Array(ProfileRepresentative),
  merged_individuals: Type.Array(MergedIndividual),
  merged_companies: Type.Array(MergedCompany),
});
export type CompanyProfile = Static<typeof CompanyProfile>;

export const CountryEntry = Type.Object({
  code: Country,
  name: Type.String(),
  localName: Type.String(),
  emoji: Type.String(),
  emojiCode: Type.String(),
  vendor: CompanyDataVendorSchema,
});
export type CountryEntry = Static<typeof CountryEntry>;

const LegalFormLanguage = Type.Object({
  label: Type.String({ description: 'The local name in this language' }),
  abbreviations: Type.Array(Type.String(), { description: 'Local-language abbreviations (e.g. SAS)' }),
  language: Nullable(Type.String({ description: "The language's English name (e.g. French)" })),
  local_name: Type.String(),
  transliterated_name: Type.String({ description: 'Latin-script name (equals local_name in Latin scripts)' }),
  transliterated_abbreviations: Type.Array(Type.String()),
});

/** The ELF list's country codes: ISO 3166-1 alpha-2, plus XK (Kosovo, user-assigned) as GLEIF uses it. */
export const ElfCountry = Type.String({
  pattern: TWO_LETTER_COUNTRY,
  description: 'ISO 3166-1 alpha-2 country code (XK: Kosovo); null for forms valid in every country',
});

export const EntityLegalForm = Type.Object({
  code: Type.String({ description: 'ISO 20275 ELF code' }),
  country: Nullable(ElfCountry),
  subdivision: Type.Optional(Type.String({ description: 'ISO 3166-2 code, when the form is regional' })),
  label: Type.String({ description: 'Local name; several languages are joined with ", "' }),
  languages: Type.Record(Type.String(), LegalFormLanguage, { description: 'By ISO 639-1 language code' }),
  local_name: Nullable(Type.String({ description: 'Local name in the first language listed' })),
  transliterated_name: Nullable(Type.String({ description: 'Its Latin-script form' })),
  language: Nullable(Type.String({ description: 'ISO 639-1 code of that first language' })),
  abbreviations: Type.Array(Type.String(), { description: 'Local abbreviations, all languages' }),
});
export type EntityLegalForm = Static<typeof EntityLegalForm>;

export const PriceTier = Type.Enum([
  'tier_0',
  'tier_1',
  'tier_2',
  'tier_3',
  'tier_4',
  'tier_5',
  'tier_6',
  'tier_7',
  'tier_8',
  'tier_9',
] as const);
export const AvailableDocument = Type.Object({
  name: Type.String(),
  product_ref: Type.String(),
  vendor: CompanyDataVendorSchema,
  price_tier: PriceTier,
  delivery: Type.Union([Type.Literal('instant'), Type.Literal('delayed')]),
  delivery_time: Nullable(Type.Integer({ description: 'Expected delivery time in seconds, when delayed' })),
  sample_url: Nullable(Type.String()),
});
export type AvailableDocument = Static<typeof AvailableDocument>;

export const DocumentOrderStatus = Type.Union([
  Type.Literal('created'),
  Type.Literal('processing'),
  Type.Literal('completed'),
  Type.Literal('failed'),
]);
export const DocumentOrder = Type.Object({
  id: Uuid,
  company_id: Uuid,
  product_ref: Type.String(),
  name: Type.String(),
  price_tier: Type.String(),
  status: DocumentOrderStatus,
  file_id: Nullable(Type.String()),
  failure_reason: Nullable(Type.String({ description: 'Why the order failed (status failed only)' })),
  created_at: DateTime,
  updated_at: DateTime,
});
export const DocumentOrderCreate = Type.Object({
  company_id: Uuid,
  product_ref: Type.String({ minLength: 1, maxLength: 500 }),
});
