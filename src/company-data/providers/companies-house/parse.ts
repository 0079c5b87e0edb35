import type { RegistryCandidate } from '../../provider.ts';
import type { CompanyProfile } from '../../schemas.ts';
import { isRecord } from '../adapter-options.ts';
import {
  type AddressValue,
  address,
  asRepresentative,
  birthDateFromMonth,
  company,
  dateOnly,
  individual,
  mergeParties,
  type Owner,
  type Representative,
  text,
} from '../profile-parts.ts';
import { britishLegalForm } from './legal-forms.ts';
import { percentages } from './natures-of-control.ts';

/**
 * Companies House public data API answers → candidates and profiles: the company profile
 * (`/company/{n}`), its officers (`/officers`) and its persons with significant control
 * (`/persons-with-significant-control`). Only the fields read here are typed.
 */
export interface ChAddress {
  care_of?: string | null;
  po_box?: string | null;
  premises?: string | null;
  address_line_1?: string | null;
  address_line_2?: string | null;
  locality?: string | null;
  region?: string | null;
  postal_code?: string | null;
  country?: string | null;
}

export interface ChCompany {
  company_number?: string;
  company_name?: string;
  /** Search results name the company `title` instead of `company_name`. */
  title?: string;
  company_status?: string;
  type?: string;
  company_type?: string;
  date_of_creation?: string | null;
  registered_office_address?: ChAddress | null;
  address?: ChAddress | null;
  sic_codes?: string[] | null;
}

interface ChIdentification {
  registration_number?: string | null;
  legal_form?: string | null;
  country_registered?: string | null;
  place_registered?: string | null;
}

export interface ChOfficer {
  name?: string;
  officer_role?: string;
  resigned_on?: string | null;
  date_of_birth?: { month?: number; year?: number } | null;
  address?: ChAddress | null;
  identification?: ChIdentification | null;
}

export interface ChPsc {
  kind?: string;
  name?: string;
  name_elements?: { title?: string; forename?: string; middle_name?: string; surname?: string } | null;
  natures_of_control?: string[] | null;
  ceased_on?: string | null;
  ceased?: boolean;
  date_of_birth?: { month?: number; year?: number } | null;
  address?: ChAddress | null;
  identification?: ChIdentification | null;
}

/**
 * `company_status` values that mean the company no longer exists. Insolvency states (liquidation,
 * administration, receivership...) are live companies under a procedure: the raw status says which.
 */
const CLOSED = new Set(['dissolved', 'converted-closed', 'closed', 'removed']);
const LIVE = new Set([
  'active',
  'open',
  'registered',
  'liquidation',
  'receivership',
  'administration',
  'voluntary-arrangement',
  'insolvency-proceedings',
]);

/** Secretaries keep the books but do not represent the company: only these roles do. */
const REPRESENTATIVE_ROLES = new Set([
  'director',
  'corporate-director',
  'nominee-director',
  'corporate-nominee-director',
  'managing-officer',
  'corporate-managing-officer',
  'llp-member',
  'llp-designated-member',
  'corporate-llp-member',
  'corporate-llp-designated-member',
  'general-partner-in-a-limited-partnership',
  'member-of-a-management-organ',
  'corporate-member-of-a-management-organ',
]);

export function chCandidate(c: ChCompany): RegistryCandidate | null {
  if (!isRecord(c)) return null;
  const number = text(c.company_number);
  const name = text(c.company_name) ?? text(c.title);
  if (!number || !name) return null;
  return {
    vendorRef: number,
    name,
    registration_number: number,
    country: 'GB',
    address: chAddress(c.registered_office_address ?? c.address, 'GB'),
    status: statusOf(c.company_status),
    disclosable: true,
  };
}

export function chProfile(c: ChCompany, officers: ChOfficer[], pscs: ChPsc[]): CompanyProfile | null {
  const candidate = chCandidate(c);
  if (!candidate) return null;
  const current = pscs.filter(isRecord).filter((p) => !p.ceased_on && !p.ceased);
  const parties = {
    // Individual PSCs are the people with significant control: the UK's beneficial owners.
    // A person without any name (an answer missing it) cannot be told from another one: left out,
    // as the French and Norwegian adapters do, rather than imported as a nameless individual.
    beneficial_owners: current.filter(isIndividualPsc).filter(named).map(pscParty),
    // Relevant legal entities hold the company (directly or through others) and are registered as such.
    shareholders: current
      .filter((p) => !isIndividualPsc(p) && p.kind !== 'super-secure-person-with-significant-control')
      .map(pscParty),
    legal_representatives: officers
      .filter(isRecord)
      .filter((o) => !o.resigned_on && REPRESENTATIVE_ROLES.has(o.officer_role ?? ''))
      .filter((o) => o.officer_role?.startsWith('corporate-') || named(o))
      .map(officerParty),
  };
  return {
    name: candidate.name,
    commercial_name: null,
    registration_number: candidate.registration_number,
    country: 'GB',
    status: candidate.status,
    registration_date: dateOnly(c.date_of_creation),
    ...britishLegalForm(text(c.type) ?? text(c.company_type)),
    address: candidate.address,
    // The profile carries no capital: it is in the statements of capital, i.e. filed documents.
    share_capital: null,
    tax_identification_number: null,
    website_url: null,
    classifications: (Array.isArray(c.sic_codes) ? c.sic_codes : [])
      .filter((s) => text(s))
      .map((code) => ({ type: 'SIC', code, description: null })),
    ...parties,
    ...mergeParties(parties),
  };
}

function statusOf(status: string | undefined): 'live' | 'closed' | 'not_reported' {
  if (status && CLOSED.has(status)) return 'closed';
  if (status && LIVE.has(status)) return 'live';
  return 'not_reported';
}

/** An officer or PSC whose record gives some name (a PSC's name elements, else its name). */
const named = (p: ChOfficer | ChPsc): boolean => {
  const n = 'name_elements' in p ? p.name_elements : null;
  return !!(text(n?.forename) || text(n?.surname) || text(p.name)?.replace(/[\s,]+/g, ''));
};

const isIndividualPsc = (p: ChPsc) => p.kind === 'individual-person-with-significant-control';

function pscParty(p: ChPsc): Owner {
  const { ownership, votingRights } = percentages(
    Array.isArray(p.natures_of_control) ? p.natures_of_control : [],
  );
  const addr = chAddress(p.address, null);
  if (isIndividualPsc(p)) {
    const n = p.name_elements ?? {};
    return individual({
      name: [n.forename, n.middle_name, n.surname].filter(Boolean).join(' ') || text(p.name),
      first_name: text(n.forename),
      middle_name: text(n.middle_name),
      last_name: text(n.surname),
      birth_date: birthDateFromMonth(p.date_of_birth?.year, p.date_of_birth?.month),
      address: addr,
      ownership_percentage: ownership,
      voting_rights_percentage: votingRights,
    });
  }
  return company({
    name: text(p.name) ?? 'Unnamed legal entity',
    address: addr,
    registration_number: text(p.identification?.registration_number),
    legal_form: text(p.identification?.legal_form),
    country: ukCountry(p.identification?.country_registered) ?? addr.country,
    ownership_percentage: ownership,
  });
}

function officerParty(o: ChOfficer): Representative {
  const position = text(o.officer_role)?.replace(/-/g, ' ') ?? null;
  const addr = chAddress(o.address, null);
  if (o.officer_role?.startsWith('corporate-')) {
    return asRepresentative(
      company({
        name: text(o.name) ?? 'Unnamed corporate officer',
        position,
        address: addr,
        registration_number: text(o.identification?.registration_number),
        legal_form: text(o.identification?.legal_form),
        country: ukCountry(o.identification?.country_registered) ?? addr.country,
      }),
    );
  }
  // Officer names are "SURNAME, Forenames" (the surname in capitals).
  const [surname, forenames] = (o.name ?? '').split(/,\s*/, 2);
  const given = text(forenames)?.split(/\s+/) ?? [];
  const lastName = text(surname) ? titleCase(surname!) : null;
  return asRepresentative(
    individual({
      name: [...given, lastName].filter(Boolean).join(' ') || text(o.name),
      first_name: given[0] ?? null,
      middle_name: given.slice(1).join(' ') || null,
      last_name: lastName,
      position,
      birth_date: birthDateFromMonth(o.date_of_birth?.year, o.date_of_birth?.month),
      address: addr,
    }),
  );
}

function titleCase(s: string): string {
  return s.toLowerCase().replace(/(^|[\s'-])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase());
}

/** Companies House writes countries as words; the UK's own nations are what it writes most. */
const UK_NAMES = new Set([
  'united kingdom',
  'uk',
  'england',
  'wales',
  'scotland',
  'northern ireland',
  'great britain',
  'england and wales',
]);
function ukCountry(name: string | null | undefined): string | null {
  return name && UK_NAMES.has(name.trim().toLowerCase()) ? 'GB' : null;
}

export function chAddress(a: ChAddress | null | undefined, fallbackCountry: string | null): AddressValue {
  if (!a) return address({ country: fallbackCountry });
  // "premises" is the building number or name that precedes the first line ("1", "Flat 2").
  const first = [text(a.premises), text(a.address_line_1)].filter(Boolean).join(' ');
  const second = [
    text(a.address_line_2),
    text(a.care_of) && `c/o ${a.care_of}`,
    text(a.po_box) && `PO Box ${a.po_box}`,
  ]
    .filter(Boolean)
    .join(', ');
  return address({
    street_address: first,
    street_address_2: second,
    postal_code: a.postal_code,
    city: a.locality,
    region: a.region,
    country: ukCountry(a.country) ?? fallbackCountry,
  });
}
