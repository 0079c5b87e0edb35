import { luhnValid } from '../../../checks/types/document/analysis/normalize.ts';
import type { Seed } from './seed.ts';

/**
 * What makes a sandbox company look like one of its country: an address, a registration number
 * format, officer titles and people's names. Countries not listed get a generic address and
 * English titles (the sandbox speaks no other language there). The currency is every country's
 * own (currencies.ts).
 */
interface CountryStyle {
  street: string;
  postalCode: string | null;
  city: string;
  state?: string;
  /** The registration number: `#` is a digit. */
  number: string;
  director: string;
  /** The second legal representative, the finance officer, in the country's language. */
  cfo: string;
  classification: { type: string; codes: string[] };
}

const STYLES: Record<string, CountryStyle> = {
  FR: {
    street: 'rue de la Paix',
    postalCode: '75002',
    city: 'Paris',
    number: '#########',
    director: 'Président',
    cfo: 'Directeur financier',
    classification: { type: 'NAF', codes: ['62.01Z', '70.10Z', '46.90Z'] },
  },
  GB: {
    street: 'Baker Street',
    postalCode: 'NW1 6XE',
    city: 'London',
    number: '########',
    director: 'Director',
    cfo: 'Chief Financial Officer',
    classification: { type: 'SIC', codes: ['62012', '70100', '46900'] },
  },
  DE: {
    street: 'Unter den Linden',
    postalCode: '10117',
    city: 'Berlin',
    number: 'HRB ######',
    director: 'Geschäftsführer',
    cfo: 'Kaufmännischer Geschäftsführer',
    classification: { type: 'WZ', codes: ['62.01', '70.10', '46.90'] },
  },
  NO: {
    street: 'Karl Johans gate',
    postalCode: '0154',
    city: 'Oslo',
    number: '#########',
    director: 'Daglig leder',
    cfo: 'Økonomidirektør',
    classification: { type: 'NACE', codes: ['62.010', '70.100', '46.900'] },
  },
  US: {
    street: 'Orange Street',
    postalCode: '19801',
    city: 'Wilmington',
    state: 'DE',
    number: '#######',
    director: 'Chief Executive Officer',
    cfo: 'Chief Financial Officer',
    classification: { type: 'NAICS', codes: ['541511', '551112', '423990'] },
  },
};

const GENERIC: CountryStyle = {
  street: 'Main Street',
  postalCode: null,
  city: 'Sandbox City',
  number: '########',
  director: 'Director',
  cfo: 'Chief Financial Officer',
  classification: { type: 'NACE', codes: ['62.01', '70.10', '46.90'] },
};

export const styleOf = (country: string): CountryStyle => STYLES[country] ?? GENERIC;

export function addressIn(country: string, seed: Seed) {
  const s = styleOf(country);
  return {
    street_address: `${1 + seed.int(120)} ${s.street}`,
    street_address_2: null,
    postal_code: s.postalCode,
    city: s.city,
    state: s.state ?? null,
    region: null,
    country,
  };
}

export function registrationNumber(country: string, seed: Seed): string {
  const number = styleOf(country).number.replace(/#/g, () => String(seed.int(10)));
  // a French SIREN's last digit is a Luhn check digit: the sandbox's are valid ones, so they pass
  // the checks real numbers pass (document analysis takes unlabelled 9-digit groups only then)
  return country === 'FR' ? withLuhnDigit(number.slice(0, 8)) : number;
}

/** `digits` followed by the digit that makes the whole pass the Luhn check (as SIREN numbers do). */
function withLuhnDigit(digits: string): string {
  for (let d = 0; d < 9; d++) if (luhnValid(`${digits}${d}`)) return `${digits}${d}`;
  return `${digits}9`;
}

export const FIRST_NAMES = [
  'Ada',
  'Alan',
  'Grace',
  'Marie',
  'Niels',
  'Lise',
  'Emmy',
  'Kurt',
  'Sofia',
  'Hedy',
];
export const LAST_NAMES = [
  'Martin',
  'Bernard',
  'Smith',
  'Jones',
  'Müller',
  'Hansen',
  'Berg',
  'Moreau',
  'Lee',
];
