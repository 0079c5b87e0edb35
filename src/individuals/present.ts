import type { CheckEnvelopeOut } from '../checks/envelope-schema.ts';
import type { IndividualRow, RelationRow } from '../db/schema.ts';
import { presentRelationOfEntity } from '../relations/present.ts';
import { bankingOut, fullAddress } from '../shared/address.ts';
import { iso } from '../shared/time.ts';

export function presentIndividualListItem(i: IndividualRow) {
  return {
    id: i.id,
    case_id: i.case_id,
    roles: i.roles as ('legal_representative' | 'shareholder')[],
    is_beneficial_owner: i.is_beneficial_owner,
    is_controlling_person: i.is_controlling_person,
    is_business_contact: i.is_business_contact,
    is_delegator: i.is_delegator,
    is_signatory: i.is_signatory,
    is_relevant: i.is_relevant,
    first_name: i.first_name,
    middle_name: i.middle_name,
    last_name: i.last_name,
    maiden_name: i.maiden_name,
    email: i.email,
    birth_date: i.birth_date,
    birth_country: i.birth_country,
    birth_place: i.birth_place,
    gender: i.gender as 'male' | 'female' | 'other' | null,
    nationalities: i.nationalities,
    address: fullAddress(i.address),
    banking_information: bankingOut(i.banking_information),
    tax_identification_number: i.tax_identification_number,
    social_security_number: i.social_security_number,
    phone_number: i.phone_number,
    position: i.position,
    ownership_percentage: i.ownership_percentage,
    voting_rights_percentage: i.voting_rights_percentage,
    last_activity_at: iso(i.last_activity_at),
    created_at: iso(i.created_at),
    updated_at: iso(i.updated_at),
  };
}

export function presentIndividual(
  i: IndividualRow,
  relations: RelationRow[],
  checks: CheckEnvelopeOut[] = [],
) {
  return {
    ...presentIndividualListItem(i),
    custom_properties: i.custom_properties ?? {},
    checks,
    relations: relations.map(presentRelationOfEntity),
  };
}
