import type { CompanyRow, IndividualRow } from '../db/schema.ts';
import { fullAddress } from '../shared/address.ts';
import {
  countryCode,
  joinedApostropheNameBirthDate,
  legacyRegistration,
  normaliseEmail,
  normaliseIban,
  normaliseNameBirthDate,
  normalisePhone,
  normaliseRegistration,
} from './normalize.ts';

/** The identifier kinds the fraud list holds, in the order they are listed. */
export const IDENTIFIER_KINDS = ['email', 'phone', 'iban', 'registration_number', 'name_birth_date'] as const;
export type IdentifierKind = (typeof IDENTIFIER_KINDS)[number];

export type FraudEntity = { kind: 'individual'; row: IndividualRow } | { kind: 'company'; row: CompanyRow };

export interface Identifier {
  kind: IdentifierKind;
  /** Normalised value: hashed before it is stored or searched, never stored itself. */
  value: string;
}

const iban = (b: unknown) => normaliseIban((b as { iban?: string | null } | null)?.iban);

/**
 * The normalised identifiers of an entity: an individual's e-mail, phone (read in its address
 * country when national), IBAN and name with birth date; a company's registration number with its
 * country, and IBAN. Values that cannot be normalised (an invalid IBAN or phone) are left out.
 */
export function entityIdentifiers(entity: FraudEntity): Identifier[] {
  const values: Record<IdentifierKind, string | null> =
    entity.kind === 'individual'
      ? {
          email: normaliseEmail(entity.row.email),
          phone: normalisePhone(entity.row.phone_number, fullAddress(entity.row.address).country),
          iban: iban(entity.row.banking_information),
          registration_number: null,
          name_birth_date: normaliseNameBirthDate(
            entity.row.first_name,
            entity.row.last_name,
            entity.row.birth_date,
          ),
        }
      : {
          email: null,
          phone: null,
          iban: iban(entity.row.banking_information),
          registration_number: normaliseRegistration(entity.row.registration_number, entity.row.country),
          name_birth_date: null,
        };
  return IDENTIFIER_KINDS.flatMap((kind) => (values[kind] ? [{ kind, value: values[kind] }] : []));
}

/**
 * Second spellings of an entity's identifiers, stored with a report and searched with the first:
 * an individual's name with its apostrophes dropped (`L'Hôte` as `LHOTE`), when it has any.
 */
export function variantIdentifiers(entity: FraudEntity): Identifier[] {
  if (entity.kind !== 'individual') return [];
  const joined = joinedApostropheNameBirthDate(
    entity.row.first_name,
    entity.row.last_name,
    entity.row.birth_date,
  );
  return joined ? [{ kind: 'name_birth_date', value: joined }] : [];
}

/**
 * Further spellings a search tries besides `entityIdentifiers` (never stored): a company's
 * registration number as it was normalised before the French SIREN rule, when that differs.
 */
export function legacyIdentifiers(entity: FraudEntity): Identifier[] {
  if (entity.kind !== 'company') return [];
  const legacy = legacyRegistration(entity.row.registration_number, entity.row.country);
  const current = normaliseRegistration(entity.row.registration_number, entity.row.country);
  return legacy && legacy !== current ? [{ kind: 'registration_number', value: legacy }] : [];
}

/** What a fraud_database check searched, as its `data.information` shows it (normalised values). */
export function searchedInformation(entity: FraudEntity) {
  const ids = entityIdentifiers(entity);
  const value = (kind: IdentifierKind) => ids.find((i) => i.kind === kind)?.value ?? null;
  const base = {
    entity_type: entity.kind,
    address: fullAddress(entity.row.address),
    iban: value('iban'),
    identifiers_searched: ids.map((i) => i.kind),
  };
  if (entity.kind === 'individual') {
    return {
      ...base,
      first_name: entity.row.first_name,
      last_name: entity.row.last_name,
      birth_date: entity.row.birth_date,
      email: value('email'),
      phone_number: value('phone'),
      company_name: null,
      company_number: null,
      company_country: null,
      vat_number: null,
    };
  }
  const registration = value('registration_number');
  return {
    ...base,
    first_name: null,
    last_name: null,
    birth_date: null,
    email: null,
    phone_number: null,
    company_name: entity.row.name,
    company_number: registration ? registration.slice(3) : null,
    // the company's own country even when it has no number to search with it
    company_country: registration ? registration.slice(0, 2) : countryCode(entity.row.country),
    vat_number: entity.row.tax_identification_number,
  };
}
