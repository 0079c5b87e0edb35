import type { RegistryCandidate } from '../../provider.ts';
import type { CompanyProfile } from '../../schemas.ts';
import { isRecord } from '../adapter-options.ts';
import {
  type AddressValue,
  address,
  asRepresentative,
  company,
  dateOnly,
  individual,
  mergeParties,
  type Owner,
  text,
} from '../profile-parts.ts';
import { norwegianLegalForm } from './legal-forms.ts';

/**
 * Brønnøysund's Enhetsregisteret open data API (`https://data.brreg.no/enhetsregisteret/api`) → candidates
 * and profiles: a unit (`/enheter/{orgnr}`) and its roles (`/enheter/{orgnr}/roller`). Only the fields
 * read here are typed.
 */
export interface BrregAddress {
  adresse?: string[] | null;
  postnummer?: string | null;
  poststed?: string | null;
  kommune?: string | null;
  landkode?: string | null;
}

export interface BrregEnhet {
  organisasjonsnummer?: string;
  navn?: string;
  organisasjonsform?: { kode?: string; beskrivelse?: string } | null;
  hjemmeside?: string | null;
  forretningsadresse?: BrregAddress | null;
  postadresse?: BrregAddress | null;
  registreringsdatoEnhetsregisteret?: string | null;
  stiftelsesdato?: string | null;
  naeringskode1?: { kode?: string; beskrivelse?: string } | null;
  registrertIMvaregisteret?: boolean;
  kapital?: { belop?: number | null; valuta?: string | null } | null;
  konkurs?: boolean;
  underAvvikling?: boolean;
  underTvangsavviklingEllerTvangsopplosning?: boolean;
  slettedato?: string | null;
}

export interface BrregRolle {
  type?: { kode?: string; beskrivelse?: string };
  person?: {
    fodselsdato?: string | null;
    navn?: { fornavn?: string | null; mellomnavn?: string | null; etternavn?: string | null };
    erDoed?: boolean;
  } | null;
  enhet?: {
    organisasjonsnummer?: string;
    organisasjonsform?: { kode?: string; beskrivelse?: string } | null;
    navn?: string[] | string | null;
    erSlettet?: boolean;
  } | null;
  fratraadt?: boolean;
  avregistrert?: boolean;
}

export interface BrregRoller {
  rollegrupper?: { type?: { kode?: string }; roller?: BrregRolle[] }[];
}

/**
 * Roles that act for the unit: general manager, chair, deputy chair and board members, the sole
 * proprietor, partners with unlimited liability, the general partner of a KS and a business manager.
 * Deputy members, auditors, accountants and contact persons do not represent it.
 */
const REPRESENTATIVE_ROLES = new Set([
  'DAGL',
  'LEDE',
  'NEST',
  'MEDL',
  'INNH',
  'DTPR',
  'DTSO',
  'KOMP',
  'FFØR',
]);

/**
 * A unit is closed once deleted (`slettedato`), bankrupt or being wound up: konkurs and (forced)
 * liquidation end its business even before the deletion is registered.
 */
function statusOf(e: BrregEnhet): 'live' | 'closed' {
  return e.slettedato || e.konkurs || e.underAvvikling || e.underTvangsavviklingEllerTvangsopplosning
    ? 'closed'
    : 'live';
}

export function brregCandidate(e: BrregEnhet): RegistryCandidate | null {
  if (!isRecord(e)) return null;
  const number = text(e.organisasjonsnummer);
  const name = text(e.navn);
  if (!number || !name) return null;
  return {
    vendorRef: number,
    name,
    registration_number: number,
    country: 'NO',
    // Units without a business address (e.g. many associations) are reached at their postal address.
    address: brregAddress(e.forretningsadresse ?? e.postadresse),
    status: statusOf(e),
    disclosable: true,
  };
}

export function brregProfile(e: BrregEnhet, roller: BrregRoller | null): CompanyProfile | null {
  const candidate = brregCandidate(e);
  if (!candidate) return null;
  const held = (Array.isArray(roller?.rollegrupper) ? roller.rollegrupper : [])
    .flatMap((g) => (Array.isArray(g?.roller) ? g.roller : []))
    .filter(isRecord)
    .filter((r) => !r.fratraadt && !r.avregistrert && REPRESENTATIVE_ROLES.has(r.type?.kode ?? ''))
    .map((r) => ({ code: r.type?.kode, party: roleParty(r) }))
    .filter((h): h is { code: string; party: Owner } => h.party !== null);
  // The sole proprietor (INNH) owns the whole enterprise; Enhetsregisteret names no other owners (the
  // shareholder register is the Tax Administration's, not open data).
  const owners = held
    .filter((h) => h.code === 'INNH' && h.party.entity_type === 'individual')
    .map((h) => ({ ...h.party, position: null, ownership_percentage: 100 }));
  const parties = {
    beneficial_owners: owners,
    shareholders: [],
    legal_representatives: held.map((h) => asRepresentative(h.party)),
  };
  const nace = text(e.naeringskode1?.kode);
  return {
    name: candidate.name,
    commercial_name: null,
    registration_number: candidate.registration_number,
    country: 'NO',
    status: candidate.status,
    registration_date: dateOnly(e.registreringsdatoEnhetsregisteret) ?? dateOnly(e.stiftelsesdato),
    ...norwegianLegalForm(text(e.organisasjonsform?.kode), text(e.organisasjonsform?.beskrivelse)),
    address: candidate.address,
    share_capital: capital(e.kapital),
    // Norway's VAT number is the organisation number + "MVA", for units in the VAT register only.
    tax_identification_number: e.registrertIMvaregisteret ? `NO${candidate.registration_number}MVA` : null,
    website_url: website(e.hjemmeside),
    classifications: nace
      ? [{ type: 'NACE', code: nace, description: text(e.naeringskode1?.beskrivelse) ?? null }]
      : [],
    ...parties,
    ...mergeParties(parties),
  };
}

function roleParty(r: BrregRolle): Owner | null {
  const position = text(r.type?.beskrivelse);
  if (r.person) {
    if (r.person.erDoed) return null;
    const n = r.person.navn ?? {};
    if (!text(n.fornavn) && !text(n.etternavn)) return null;
    return individual({
      first_name: text(n.fornavn),
      middle_name: text(n.mellomnavn),
      last_name: text(n.etternavn),
      position,
      // The register publishes the full birth date of role holders.
      birth_date: dateOnly(r.person.fodselsdato),
    });
  }
  if (r.enhet) {
    const name = Array.isArray(r.enhet.navn) ? r.enhet.navn.filter(Boolean).join(' ') : text(r.enhet.navn);
    if (!name || r.enhet.erSlettet) return null;
    const form = norwegianLegalForm(
      text(r.enhet.organisasjonsform?.kode),
      text(r.enhet.organisasjonsform?.beskrivelse),
    );
    return company({
      name,
      position,
      registration_number: text(r.enhet.organisasjonsnummer),
      country: 'NO',
      ...form,
    });
  }
  return null;
}

function brregAddress(a: BrregAddress | null | undefined): AddressValue {
  const lines = (Array.isArray(a?.adresse) ? a.adresse : []).filter((l) => text(l));
  return address({
    street_address: lines[0],
    street_address_2: lines.slice(1).join(', '),
    postal_code: a?.postnummer,
    city: a?.poststed,
    country: a?.landkode ?? 'NO',
  });
}

function capital(k: BrregEnhet['kapital']): string | null {
  if (typeof k?.belop !== 'number') return null;
  return `${k.belop} ${text(k.valuta) ?? 'NOK'}`;
}

/** The register stores websites without a scheme ("www.example.no"). */
function website(site: string | null | undefined): string | null {
  const s = text(site);
  if (!s) return null;
  return /^https?:\/\//i.test(s) ? s : `https://${s}`;
}
