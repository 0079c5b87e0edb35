import type { CheckEnvelopeOut } from '../checks/envelope-schema.ts';
import type { DocumentOrderOut } from '../company-data/document-orders/present.ts';
import { legalFormLabelOf } from '../company-data/legal-forms/get-legal-forms.ts';
import type { CompanyRow, RelationRow } from '../db/schema.ts';
import { presentRelationOfEntity } from '../relations/present.ts';
import { bankingOut, fullAddress } from '../shared/address.ts';
import { iso } from '../shared/time.ts';

export function presentCompanyListItem(c: CompanyRow) {
  return {
    id: c.id,
    case_id: c.case_id,
    type: c.type as 'main' | 'affiliated',
    name: c.name,
    is_relevant: c.is_relevant,
    commercial_name: c.commercial_name,
    country: c.country,
    registration_number: c.registration_number,
    registration_date: c.registration_date,
    status: c.status as 'live' | 'closed' | 'not_reported',
    legal_form: c.legal_form,
    entity_legal_form: c.entity_legal_form,
    entity_legal_form_label: legalFormLabelOf(c.entity_legal_form),
    address: fullAddress(c.address),
    classifications: ((c.classifications ?? []) as Classification[]).map(normaliseClassification),
    banking_information: bankingOut(c.banking_information),
    share_capital: c.share_capital,
    tax_identification_number: c.tax_identification_number,
    website_url: c.website_url,
    employer_identification_number: c.employer_identification_number,
    last_activity_at: iso(c.last_activity_at),
    created_at: iso(c.created_at),
    updated_at: iso(c.updated_at),
  };
}

export function presentCompany(
  c: CompanyRow,
  relations: RelationRow[],
  checks: CheckEnvelopeOut[] = [],
  documentOrders: DocumentOrderOut[] = [],
) {
  return {
    ...presentCompanyListItem(c),
    custom_properties: c.custom_properties ?? {},
    document_orders: documentOrders,
    checks,
    relations: relations.map(presentRelationOfEntity),
  };
}

type Classification = { type: string; code: string; description?: string | null };

/** Classifications read and stored always carry a description (null when not given). */
export function normaliseClassification(c: Classification) {
  return { type: c.type, code: c.code, description: c.description ?? null };
}
