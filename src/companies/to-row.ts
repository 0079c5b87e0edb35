import type { Static } from 'typebox';
import type { NewCompany } from '../db/schema.ts';
import { updateSetFrom } from '../db/update-set.ts';
import { bankingValue, fullAddress } from '../shared/address.ts';
import { normaliseClassification } from './present.ts';
import type { CompanyUpdate, CompanyWritable } from './schemas.ts';

type Writable = Static<typeof CompanyWritable>;

/** Insert row for a new company from its API fields. */
export function companyInsertRow(
  input: Writable,
  ids: { id: string; workspaceId: string; caseId: string; type: string },
): NewCompany {
  return {
    id: ids.id,
    workspace_id: ids.workspaceId,
    case_id: ids.caseId,
    type: ids.type,
    name: input.name,
    commercial_name: input.commercial_name ?? null,
    country: input.country ?? null,
    registration_number: input.registration_number ?? null,
    registration_date: input.registration_date ?? null,
    status: input.status ?? 'not_reported',
    legal_form: input.legal_form ?? null,
    entity_legal_form: input.entity_legal_form ?? null,
    address: JSON.stringify(fullAddress(input.address)),
    classifications: JSON.stringify((input.classifications ?? []).map(normaliseClassification)),
    banking_information: input.banking_information
      ? JSON.stringify(bankingValue(null, input.banking_information))
      : null,
    share_capital: input.share_capital ?? null,
    tax_identification_number: input.tax_identification_number ?? null,
    website_url: input.website_url ?? null,
    employer_identification_number: input.employer_identification_number ?? null,
    custom_properties: JSON.stringify(input.custom_properties ?? {}),
  };
}

/** The columns a company update may set (address is merged by the caller). */
const UPDATABLE = [
  'name',
  'commercial_name',
  'registration_number',
  'registration_date',
  'status',
  'legal_form',
  'entity_legal_form',
  'country',
  'classifications',
  'banking_information',
  'share_capital',
  'tax_identification_number',
  'website_url',
  'employer_identification_number',
  'custom_properties',
  'is_relevant',
] as const;

type CompanyChange = Static<typeof CompanyUpdate> & { is_relevant?: boolean };

/** Update set for the fields present in a PATCH body, from the explicit column list. */
export function companyUpdateSet(input: CompanyChange): Record<string, unknown> {
  const classifications = input.classifications?.map(normaliseClassification);
  return updateSetFrom({ ...input, classifications }, UPDATABLE, [
    'classifications',
    'banking_information',
    'custom_properties',
  ]);
}
