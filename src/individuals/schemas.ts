import { Type } from 'typebox';
import { CheckEnvelope } from '../checks/envelope-schema.ts';
import { DataLineageMap } from '../company-data/lineage/schemas.ts';
import {
  Country,
  CustomProperties,
  DateOnly,
  DateTime,
  NonBlank,
  Nullable,
  Uuid,
} from '../http/common-schemas.ts';
import {
  ImplicitRelationCreate,
  NestedRelationCreate,
  RelationOfEntity,
  RelationRole,
} from '../relations/schemas.ts';
import { Address, BankingInformation, BankingInformationOut, PartialAddress } from '../shared/address.ts';

export const Gender = Type.Enum(['male', 'female', 'other']);
const Percentage = Nullable(Type.Number({ minimum: 0, maximum: 100 }));

/** Writable individual fields, shared by nested creation, creation and update. */
export const individualWritable = {
  first_name: NonBlank(),
  middle_name: Type.Optional(Nullable(Type.String())),
  last_name: NonBlank(),
  maiden_name: Type.Optional(Nullable(Type.String())),
  is_business_contact: Type.Optional(Type.Boolean()),
  is_beneficial_owner: Type.Optional(Type.Boolean()),
  is_controlling_person: Type.Optional(Type.Boolean()),
  is_delegator: Type.Optional(Type.Boolean()),
  is_signatory: Type.Optional(Type.Boolean()),
  email: Type.Optional(Nullable(Type.String({ format: 'email' }))),
  birth_date: Type.Optional(Nullable(DateOnly)),
  birth_country: Type.Optional(Nullable(Country)),
  birth_place: Type.Optional(Nullable(Type.String())),
  gender: Type.Optional(Nullable(Gender)),
  nationalities: Type.Optional(Nullable(Type.Array(Country, { uniqueItems: true }))),
  address: Type.Optional(PartialAddress),
  banking_information: Type.Optional(Nullable(BankingInformation)),
  tax_identification_number: Type.Optional(Nullable(Type.String())),
  social_security_number: Type.Optional(Nullable(Type.String())),
  phone_number: Type.Optional(
    Nullable(Type.String({ format: 'e.164', description: 'E.164, e.g. +33612345678' })),
  ),
  position: Type.Optional(Nullable(Type.String())),
  ownership_percentage: Type.Optional(Percentage),
  voting_rights_percentage: Type.Optional(Percentage),
  roles: Type.Optional(Type.Array(RelationRole, { uniqueItems: true })),
  custom_properties: Type.Optional(CustomProperties),
};

export const IndividualWritable = Type.Object(individualWritable);

export const NestedIndividualCreate = Type.Object({
  ref: Type.Optional(Type.String({ minLength: 1 })),
  ...individualWritable,
  relations: Type.Optional(Type.Array(NestedRelationCreate)),
});

export const IndividualCreate = Type.Object({
  case_id: Uuid,
  ...individualWritable,
  relations: Type.Optional(Type.Array(ImplicitRelationCreate)),
});

export const IndividualUpdate = Type.Partial(Type.Object(individualWritable));

const individualOut = {
  id: Uuid,
  case_id: Uuid,
  roles: Type.Array(RelationRole),
  is_beneficial_owner: Type.Boolean(),
  is_controlling_person: Type.Boolean(),
  is_business_contact: Type.Boolean(),
  is_delegator: Type.Boolean(),
  is_signatory: Type.Boolean(),
  is_relevant: Type.Boolean(),
  first_name: Type.String(),
  middle_name: Nullable(Type.String()),
  last_name: Type.String(),
  maiden_name: Nullable(Type.String()),
  email: Nullable(Type.String()),
  birth_date: Nullable(Type.String()),
  birth_country: Nullable(Type.String()),
  birth_place: Nullable(Type.String()),
  gender: Nullable(Gender),
  nationalities: Nullable(Type.Array(Type.String())),
  address: Address,
  banking_information: BankingInformationOut,
  tax_identification_number: Nullable(Type.String()),
  social_security_number: Nullable(Type.String()),
  phone_number: Nullable(Type.String()),
  position: Nullable(Type.String()),
  ownership_percentage: Nullable(Type.Number()),
  voting_rights_percentage: Nullable(Type.Number()),
  last_activity_at: DateTime,
  created_at: DateTime,
  updated_at: DateTime,
};

export const IndividualListItem = Type.Object(individualOut);
export const Individual = Type.Object({
  ...individualOut,
  custom_properties: CustomProperties,
  checks: Type.Array(CheckEnvelope),
  relations: Type.Array(RelationOfEntity),
  data_lineage: Type.Optional(DataLineageMap),
});
