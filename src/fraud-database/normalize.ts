import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import type { CountryCode } from 'libphonenumber-js';
import { APOSTROPHES } from '../shared/apostrophes.ts';
import { sirenOfFrenchVat } from '../shared/french-vat.ts';
import { lazyRequire } from '../shared/lazy-module.ts';

// its metadata is large: required by the first phone number normalised (src/shared/lazy-module.ts)
const phoneNumbers = lazyRequire<typeof import('libphonenumber-js')>('libphonenumber-js');

/**
 * Normalisations of the identifiers the fraud list compares: two spellings of one identifier give
 * one value, so they give one hash. Each returns null when the value cannot be normalised (then
 * that identifier is not searched or reported).
 */

/** Trimmed, lower-cased; must look like an address (something@domain). */
export function normaliseEmail(value: string | null | undefined): string | null {
  const v = value?.trim().toLowerCase();
  return v && /^[^\s@]+@[^\s@]+$/.test(v) ? v : null;
}

/** E.164 (`+33612345678`); a national number is read in the entity's country. Invalid: null. */
export function normalisePhone(value: string | null | undefined, country?: string | null): string | null {
  const v = value?.trim();
  if (!v) return null;
  const defaultCountry = country && /^[A-Z]{2}$/.test(country) ? (country as CountryCode) : undefined;
  const parsed = phoneNumbers().parsePhoneNumberFromString(v, defaultCountry);
  return parsed?.isValid() ? parsed.number : null;
}

/** Electronic format (`FR7630006000011234567890189`), only when the IBAN is valid. */
export function normaliseIban(value: string | null | undefined): string | null {
  const v = electronicFormatIBAN(value ?? undefined);
  return v && isValidIBAN(v) ? v : null;
}

/**
 * `FR:552100554`: the country in capitals, the number's letters and digits only, in capitals. A
 * French company is its SIREN however it is written: a SIRET (14 digits: SIREN + establishment), an
 * intra-EU VAT number (`FR40552100554`) or an RCS mention (`RCS Paris B 552 100 554`) gives the
 * 9 digits of the SIREN, so two workspaces that wrote one company differently still meet.
 */
export function normaliseRegistration(
  number: string | null | undefined,
  country: string | null | undefined,
): string | null {
  const n = legacyRegistration(number, country);
  if (!n) return null;
  if (n.startsWith('FR:')) {
    const v = n.slice(3);
    const vat = sirenOfFrenchVat(v);
    if (vat) return `FR:${vat}`;
    const digits = v.replace(/\D/g, '');
    if (digits.length === 9 || digits.length === 14) return `FR:${digits.slice(0, 9)}`;
  }
  return n;
}

/**
 * The registration value as versions before the SIREN rule wrote it (`FR:55210055400013` for a
 * SIRET): a check searches it too, so reports made then keep matching.
 */
export function legacyRegistration(
  number: string | null | undefined,
  country: string | null | undefined,
): string | null {
  const n = number?.toUpperCase().replace(/[^0-9A-Z]/g, '');
  const c = countryCode(country);
  return n && c ? `${c}:${n}` : null;
}

/** A two-letter country as compared (upper case), or null when there is none. */
export function countryCode(country: string | null | undefined): string | null {
  const c = country?.trim().toUpperCase();
  return c && /^[A-Z]{2}$/.test(c) ? c : null;
}

/** Accents stripped, lower case, words sorted: `Lovelace  Ada-Marie` → `ada lovelace marie`. */
export function nameKey(...parts: (string | null | undefined)[]): string | null {
  return nameTokens(parts.join(' '));
}

/**
 * The name key with its apostrophes dropped instead of read as spaces (`L'Hôte` → `lhote`, where
 * `nameKey` gives `hote l`), or null when the name has none: a name is written both ways (`LHOTE`
 * on a form, `L'Hôte` in a registry), so a report keeps both and a search tries both.
 */
export function joinedApostropheNameKey(...parts: (string | null | undefined)[]): string | null {
  const name = parts.join(' ');
  const joined = name.replace(APOSTROPHES, '');
  return joined === name ? null : nameTokens(joined);
}

function nameTokens(name: string): string | null {
  const tokens = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .sort();
  return tokens.length ? tokens.join(' ') : null;
}

/** `ada lovelace|1985-12-10`: name key and ISO birth date, both required. */
export function normaliseNameBirthDate(
  first: string | null | undefined,
  last: string | null | undefined,
  birthDate: string | null | undefined,
): string | null {
  return withBirthDate(nameKey(first, last), birthDate);
}

/** As `normaliseNameBirthDate` with `joinedApostropheNameKey`: null when the name has no apostrophe. */
export function joinedApostropheNameBirthDate(
  first: string | null | undefined,
  last: string | null | undefined,
  birthDate: string | null | undefined,
): string | null {
  return withBirthDate(joinedApostropheNameKey(first, last), birthDate);
}

function withBirthDate(name: string | null, birthDate: string | null | undefined): string | null {
  const date = birthDate?.trim().slice(0, 10);
  return name && date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? `${name}|${date}` : null;
}
