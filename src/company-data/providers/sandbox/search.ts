import { type RegistryCandidate, RegistryError, type RegistryQuery } from '../../provider.ts';
import { addressIn, registrationNumber } from './places.ts';
import { Seed } from './seed.ts';
import { encodeVendorRef } from './vendor-ref.ts';

/** `acme corp` → `Acme Corp`: still contains the query, case-insensitively. */
const titleCase = (s: string) =>
  s.replace(/(^|\s)(\p{Ll})/gu, (_m, sp: string, c: string) => sp + c.toUpperCase());

const SEVERAL_SUFFIXES = ['', ' Holding', ' Services', ' International'];

/**
 * The sandbox search rules (docs/sandbox.md): `nomatch` finds nothing; a registration number finds
 * one company with that number; a name finds one company whose name contains it, or four when
 * it contains `several`; a name containing `closed` is a closed company. Outages on demand: a
 * query containing `unavailable` fails (503), a company whose name contains `fetchfail` is found
 * but its fetch fails (see index.ts).
 */
export function sandboxSearch(query: RegistryQuery): RegistryCandidate[] {
  const name = query.name?.trim().replace(/\s+/g, ' ');
  const number = query.registrationNumber?.trim();
  const text = `${name ?? ''} ${number ?? ''}`.toLowerCase();
  if (text.includes('nomatch')) return [];
  if (text.includes('unavailable'))
    throw new RegistryError('sandbox', 'unavailable', 'sandbox outage on demand');
  if (number && !name) return [candidate(query.country, `Sandbox Company ${number}`, number, number)];
  if (number && name) return [candidate(query.country, titleCase(name), number)];
  if (!name) return [];
  const suffixes = text.includes('several') ? SEVERAL_SUFFIXES : [''];
  return suffixes.map((suffix) => {
    const shown = titleCase(name) + suffix;
    const seed = new Seed(`number|${query.country}|${shown.toLowerCase()}`);
    return candidate(query.country, shown, registrationNumber(query.country, seed));
  });
}

/** A company's address, the same in its search result and in its fetched profile. */
export const sandboxCompanyAddress = (country: string, name: string, number: string) =>
  addressIn(country, new Seed(`address|${country}|${name}|${number}`));

export const sandboxStatus = (name: string) => (name.toLowerCase().includes('closed') ? 'closed' : 'live');

function candidate(country: string, name: string, number: string, vendorRef?: string): RegistryCandidate {
  return {
    vendorRef: vendorRef ?? encodeVendorRef({ name, registrationNumber: number }),
    name,
    registration_number: number,
    country,
    address: sandboxCompanyAddress(country, name, number),
    status: sandboxStatus(name),
    disclosable: true,
  };
}
