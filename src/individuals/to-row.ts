import type { Static } from 'typebox';
import type { NewIndividual } from '../db/schema.ts';
import { updateSetFrom } from '../db/update-set.ts';
import { bankingValue, fullAddress } from '../shared/address.ts';
import type { IndividualUpdate, IndividualWritable } from './schemas.ts';

type Writable = Static<typeof IndividualWritable>;

/** Relation-level facts copied onto the individual when the body does not state them. */
export interface RelationDefaults {
  roles?: string[];
  position?: string | null;
  ownership_percentage?: number | null;
  voting_rights_percentage?: number | null;
}

/** The body's value when the body has the field (null included), else the relation's, else null. */
const stated = <T>(given: T | null | undefined, fallback: T | null | undefined): T | null =>
  given !== undefined ? given : (fallback ?? null);

export function individualInsertRow(
  input: Writable,
  ids: { id: string; workspaceId: string; caseId: string },
  fromMainRelation: RelationDefaults = {},
): NewIndividual {
  return {
    id: ids.id,
    workspace_id: ids.workspaceId,
    case_id: ids.caseId,
    roles: input.roles ?? fromMainRelation.roles ?? [],
    is_beneficial_owner: input.is_beneficial_owner ?? false,
    is_controlling_person: input.is_controlling_person ?? false,
    is_business_contact: input.is_business_contact ?? false,
    is_delegator: input.is_delegator ?? false,
    is_signatory: input.is_signatory ?? false,
    first_name: input.first_name,
    middle_name: input.middle_name ?? null,
    last_name: input.last_name,
    maiden_name: input.maiden_name ?? null,
    email: input.email ?? null,
    birth_date: input.birth_date ?? null,
    birth_country: input.birth_country ?? null,
    birth_place: input.birth_place ?? null,
    gender: input.gender ?? null,
    nationalities: input.nationalities ?? null,
    address: JSON.stringify(fullAddress(input.address)),
    banking_information: input.banking_information
      ? JSON.stringify(bankingValue(null, input.banking_information))
      : null,
    tax_identification_number: input.tax_identification_number ?? null,
    social_security_number: input.social_security_number ?? null,
    phone_number: input.phone_number ?? null,
    // an explicit null states "none" for the individual: only an absent field takes the relation's
    position: stated(input.position, fromMainRelation.position),
    ownership_percentage: stated(input.ownership_percentage, fromMainRelation.ownership_percentage),
    voting_rights_percentage: stated(
      input.voting_rights_percentage,
      fromMainRelation.voting_rights_percentage,
    ),
    custom_properties: JSON.stringify(input.custom_properties ?? {}),
  };
}

/** The columns an individual update may set (address is merged by the caller). */
const UPDATABLE = [
  'roles',
  'is_beneficial_owner',
  'is_controlling_person',
  'is_business_contact',
  'is_delegator',
  'is_signatory',
  'first_name',
  'middle_name',
  'last_name',
  'maiden_name',
  'email',
  'birth_date',
  'birth_country',
  'birth_place',
  'gender',
  'nationalities',
  'banking_information',
  'tax_identification_number',
  'social_security_number',
  'phone_number',
  'position',
  'ownership_percentage',
  'voting_rights_percentage',
  'custom_properties',
  'is_relevant',
] as const;

/** Update set for the fields present in a PATCH body, from the explicit column list. */
export function individualUpdateSet(
  input: Static<typeof IndividualUpdate> & { is_relevant?: boolean },
): Record<string, unknown> {
  return updateSetFrom(input, UPDATABLE, ['banking_information', 'custom_properties']);
}
