import type { Static } from 'typebox';
import type { NewCompany } from '../db/schema.ts';
import { fullAddress } from '../shared/address.ts';
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
    classifications: JSON.stringify(input.classifications ?? []),
    banking_information: input.banking_information ? JSON.stringify(input.banking_information) : null,
    share_capital: input.share_capital ?? null,
    tax_identification_number: input.tax_identification_number ?? null,
    website_url: input.website_url ?? null,
    employer_identification_number: input.employer_identification_number ?? null,
    custom_properties: JSON.stringify(input.custom_properties ?? {}),
  };
}

const JSON_FIELDS = new Set(['classifications', 'banking_information', 'custom_properties']);

/** Update set for the fields present in a PATCH body (address merged by the caller). */
export function companyUpdateSet(input: Static<typeof CompanyUpdate>): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined || k === 'address') continue;
    set[k] = JSON_FIELDS.has(k) ? (v === null ? null : JSON.stringify(v)) : v;
  }
  return set;
}
