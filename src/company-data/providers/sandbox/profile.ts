import type { CompanyProfile } from '../../schemas.ts';
import { currencyOf } from './currencies.ts';
import { chooseLegalForm, type LegalFormSource } from './legal-form.ts';
import { addressIn, FIRST_NAMES, LAST_NAMES, registrationNumber, styleOf } from './places.ts';
import { sandboxCompanyAddress, sandboxStatus } from './search.ts';
import { Seed } from './seed.ts';
import type { SandboxRecord } from './vendor-ref.ts';

type Person = { first: string; last: string; birthDate: string };

/**
 * A sandbox company's full profile, derived from its record alone: a director who owns 60 % (the
 * beneficial owner), a second legal representative without shares (the finance officer), and a
 * holding company owning the other 40 %. The share capital is in the country's currency.
 */
export function sandboxProfile(
  country: string,
  record: SandboxRecord,
  legalForms: LegalFormSource | null,
): CompanyProfile {
  const seed = new Seed(`profile|${country}|${record.name}|${record.registrationNumber}`);
  const style = styleOf(country);
  const person = (): Person => ({
    first: seed.pick(FIRST_NAMES),
    last: seed.pick(LAST_NAMES),
    birthDate: `${1950 + seed.int(50)}-${pad(1 + seed.int(12))}-${pad(1 + seed.int(28))}`,
  });
  const owner = person();
  const second = person();
  const holdingName = `${record.name} Holding`;
  // a number of its own, in the country's format: the parent's number with a suffix read as the
  // parent's once normalised (a French SIREN is its nine digits), so a fraud report or a registry
  // extract of one matched the other
  const holdingNumber = otherNumber(country, record.registrationNumber);
  const legalForm = chooseLegalForm(country, legalForms, (n) => seed.int(n));
  const ownerFields = individual(owner, country, style.director, seed);
  const secondFields = individual(second, country, style.cfo, seed);
  const holding = {
    entity_type: 'company' as const,
    name: holdingName,
    address: addressIn(country, seed),
    position: null,
    registration_number: holdingNumber,
    tax_identification_number: null,
    ...legalForm,
    country,
  };
  return {
    name: record.name,
    commercial_name: null,
    registration_number: record.registrationNumber,
    country,
    status: sandboxStatus(record.name),
    registration_date: `${1990 + seed.int(34)}-${pad(1 + seed.int(12))}-${pad(1 + seed.int(28))}`,
    ...legalForm,
    address: sandboxCompanyAddress(country, record.name, record.registrationNumber),
    share_capital: `${(1 + seed.int(100)) * 1000} ${currencyOf(country)}`,
    tax_identification_number: country === 'FR' ? frenchVat(record.registrationNumber) : null,
    website_url: null,
    classifications: [classification(style.classification.type, seed.pick(style.classification.codes))],
    beneficial_owners: [{ ...ownerFields, ownership_percentage: 60 }],
    shareholders: [
      { ...ownerFields, ownership_percentage: 60 },
      { ...holding, ownership_percentage: 40 },
    ],
    legal_representatives: [ownerFields, secondFields],
    merged_individuals: [
      merged(ownerFields, ['legal_representative', 'shareholder'], 60, true),
      merged(secondFields, ['legal_representative'], null, false),
    ],
    merged_companies: [
      {
        name: holding.name,
        address: holding.address,
        registration_number: holding.registration_number,
        tax_identification_number: null,
        legal_form: holding.legal_form,
        entity_legal_form: holding.entity_legal_form,
        country,
        type: 'affiliated',
        relations: [
          {
            ownership_percentage: 40,
            voting_rights_percentage: null,
            roles: ['shareholder'],
            position: null,
          },
        ],
      },
    ],
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

function individual(p: Person, country: string, position: string, seed: Seed) {
  return {
    entity_type: 'individual' as const,
    name: `${p.first} ${p.last}`,
    address: addressIn(country, seed),
    position,
    first_name: p.first,
    middle_name: null,
    last_name: p.last,
    maiden_name: null,
    birth_date: p.birthDate,
    birth_country: country,
    birth_place: null,
    tax_identification_number: null,
    voting_rights_percentage: null,
  };
}

type Role = 'legal_representative' | 'shareholder';

function merged(
  p: ReturnType<typeof individual>,
  roles: Role[],
  ownership: number | null,
  beneficialOwner: boolean,
): CompanyProfile['merged_individuals'][number] {
  const { entity_type: _type, ...fields } = p;
  return {
    ...fields,
    roles,
    ownership_percentage: ownership,
    is_beneficial_owner: beneficialOwner,
    is_business_contact: false,
    gender: null,
    nationalities: [p.birth_country],
    relations: [
      {
        ownership_percentage: ownership,
        voting_rights_percentage: p.voting_rights_percentage,
        roles,
        position: p.position,
      },
    ],
  };
}

/** French VAT number of a SIREN (key = (12 + 3 × (SIREN mod 97)) mod 97). */
function frenchVat(siren: string): string | null {
  if (!/^\d{9}$/.test(siren)) return null;
  const key = (12 + 3 * (Number(siren) % 97)) % 97;
  return `FR${String(key).padStart(2, '0')}${siren}`;
}

/** The sandbox's three activities, described in English whatever the national code list. */
function classification(type: string, code: string) {
  const description =
    code.startsWith('62') || code === '541511'
      ? 'Computer programming activities'
      : code.startsWith('70') || code === '551112'
        ? 'Activities of head offices and holding companies'
        : 'Non-specialised wholesale trade';
  return { type, code, description };
}

/** A registration number of the country's format that is not `number` (deterministic). */
function otherNumber(country: string, number: string): string {
  for (let i = 0; ; i++) {
    const candidate = registrationNumber(country, new Seed(`holding|${country}|${number}|${i}`));
    if (candidate.replace(/\D/g, '') !== number.replace(/\D/g, '')) return candidate;
  }
}
