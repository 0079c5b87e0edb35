import { Type } from 'typebox';
import { CheckEnvelope } from '../checks/envelope-schema.ts';
import { DataLineageMap } from '../company-data/lineage/schemas.ts';
import { DocumentOrder } from '../company-data/schemas.ts';
import {
  Country,
  CustomProperties,
  DateOnly,
  DateTime,
  NonBlank,
  Nullable,
  Uuid,
} from '../http/common-schemas.ts';
import { WEBSITE } from '../http/schema-formats.ts';
import { ImplicitRelationCreate, NestedRelationCreate, RelationOfEntity } from '../relations/schemas.ts';
import { Address, BankingInformation, BankingInformationOut, PartialAddress } from '../shared/address.ts';

export const CompanyType = Type.Enum(['main', 'affiliated']);
export const CompanyStatus = Type.Enum(['live', 'closed', 'not_reported']);
const Classification = Type.Object({
  type: Type.String(),
  code: Type.String(),
  description: Type.Optional(Nullable(Type.String())),
});
const ClassificationOut = Type.Object({
  type: Type.String(),
  code: Type.String(),
  description: Nullable(Type.String()),
});

/** Writable company fields, shared by nested creation, creation and update. */
export const companyWritable = {
  name: NonBlank({ maxLength: 160 }),
  commercial_name: Type.Optional(Nullable(NonBlank({ maxLength: 160 }))),
  registration_number: Type.Optional(Nullable(Type.String({ maxLength: 180 }))),
  registration_date: Type.Optional(Nullable(DateOnly)),
  status: Type.Optional(CompanyStatus),
  legal_form: Type.Optional(Nullable(Type.String())),
  entity_legal_form: Type.Optional(Nullable(Type.String())),
  country: Type.Optional(Nullable(Country)),
  address: Type.Optional(PartialAddress),
  classifications: Type.Optional(Type.Array(Classification)),
  banking_information: Type.Optional(Nullable(BankingInformation)),
  share_capital: Type.Optional(Nullable(Type.String())),
  tax_identification_number: Type.Optional(Nullable(Type.String())),
  website_url: Type.Optional(Nullable(Type.String({ pattern: WEBSITE, maxLength: 2048 }))),
  employer_identification_number: Type.Optional(Nullable(Type.String())),
  custom_properties: Type.Optional(CustomProperties),
};

export const CompanyWritable = Type.Object(companyWritable);

export const NestedCompanyCreate = Type.Object({
  ref: Type.Optional(Type.String({ minLength: 1 })),
  type: Type.Optional(CompanyType),
  ...companyWritable,
  relations: Type.Optional(Type.Array(NestedRelationCreate)),
});

export const CompanyCreate = Type.Object({
  case_id: Uuid,
  type: Type.Optional(CompanyType),
  ...companyWritable,
  relations: Type.Optional(Type.Array(ImplicitRelationCreate)),
});

export const CompanyUpdate = Type.Partial(Type.Object(companyWritable));

const companyOut = {
  id: Uuid,
  case_id: Uuid,
  type: CompanyType,
  name: Type.String(),
  is_relevant: Type.Boolean(),
  commercial_name: Nullable(Type.String()),
  country: Nullable(Type.String()),
  registration_number: Nullable(Type.String()),
  registration_date: Nullable(Type.String()),
  status: CompanyStatus,
  legal_form: Nullable(Type.String()),
  entity_legal_form: Nullable(Type.String()),
  entity_legal_form_label: Nullable(Type.String()),
  address: Address,
  classifications: Nullable(Type.Array(ClassificationOut)),
  banking_information: BankingInformationOut,
  share_capital: Nullable(Type.String()),
  tax_identification_number: Nullable(Type.String()),
  website_url: Nullable(Type.String()),
  employer_identification_number: Nullable(Type.String()),
  last_activity_at: DateTime,
  created_at: DateTime,
  updated_at: DateTime,
};

export const CompanyListItem = Type.Object(companyOut);
export const Company = Type.Object({
  ...companyOut,
  custom_properties: CustomProperties,
  document_orders: Type.Array(DocumentOrder),
  checks: Type.Array(CheckEnvelope),
  relations: Type.Array(RelationOfEntity),
  data_lineage: Type.Optional(DataLineageMap),
});
