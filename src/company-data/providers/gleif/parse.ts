import type { RegistryCandidate } from '../../provider.ts';
import type { CompanyProfile } from '../../schemas.ts';
import { isRecord } from '../adapter-options.ts';
import { type AddressValue, address, dateOnly, mergeParties, text } from '../profile-parts.ts';

/**
 * GLEIF LEI records (JSON:API, `https://api.gleif.org/api/v1/lei-records`) → candidates and profiles.
 * Only the fields read here are typed; the whole record is kept as the raw vendor data.
 */
export interface GleifAddress {
  addressLines?: string[];
  addressNumber?: string | null;
  city?: string | null;
  region?: string | null;
  country?: string | null;
  postalCode?: string | null;
}

export interface GleifRecord {
  type?: string;
  id?: string;
  attributes?: {
    lei?: string;
    entity?: {
      legalName?: { name?: string; language?: string };
      otherNames?: { name?: string; type?: string }[];
      legalAddress?: GleifAddress;
      headquartersAddress?: GleifAddress;
      registeredAs?: string | null;
      jurisdiction?: string | null;
      legalForm?: { id?: string | null; other?: string | null };
      status?: string;
      creationDate?: string | null;
    };
  };
}

/** ELF placeholders, not forms: 8888 = "other" (the name is in `legalForm.other`), 9999 = not reported. */
const NOT_AN_ELF_CODE = new Set(['8888', '9999']);

export function gleifCandidate(record: GleifRecord, fallbackCountry: string): RegistryCandidate | null {
  if (!isRecord(record)) return null;
  const lei = leiOf(record);
  const entity = record.attributes?.entity;
  const name = text(entity?.legalName?.name);
  if (!lei || !entity || !name) return null;
  const addr = gleifAddress(entity.legalAddress);
  return {
    vendorRef: lei,
    name,
    registration_number: registrationNumber(record, lei),
    country: addr.country ?? fallbackCountry,
    address: addr,
    status: statusOf(entity.status),
    // The LEI data is public by design (CC0): GLEIF never withholds a record it lists.
    disclosable: true,
  };
}

export function gleifProfile(record: GleifRecord, fallbackCountry: string): CompanyProfile | null {
  const candidate = gleifCandidate(record, fallbackCountry);
  if (!candidate) return null;
  const entity = record.attributes!.entity!;
  const elf = text(entity.legalForm?.id);
  const entityLegalForm = elf && !NOT_AN_ELF_CODE.has(elf) ? elf : null;
  // GLEIF's level-2 data names the accounting-consolidation parents, not shareholders: a direct parent
  // can hold its stake through entities that do not consolidate, and no percentage is given. Mapping it
  // to a shareholder would state something the register does not, so the parties stay empty.
  const parties = { beneficial_owners: [], shareholders: [], legal_representatives: [] };
  return {
    name: candidate.name,
    commercial_name: text(entity.otherNames?.find((n) => n.type === 'TRADING_OR_OPERATING_NAME')?.name),
    registration_number: candidate.registration_number,
    country: candidate.country,
    status: candidate.status,
    registration_date: dateOnly(entity.creationDate),
    legal_form: text(entity.legalForm?.other),
    entity_legal_form: entityLegalForm,
    // The ELF label comes from the ISO 20275 list, which the adapter does not hold (see index.ts).
    entity_legal_form_label: null,
    address: candidate.address,
    share_capital: null,
    tax_identification_number: null,
    website_url: null,
    classifications: [],
    ...parties,
    ...mergeParties(parties),
  };
}

function leiOf(record: GleifRecord): string | null {
  return text(record.attributes?.lei) ?? text(record.id);
}

/**
 * `registeredAs` is the number at the local register (SIREN, company number...), which is what a KYB
 * user knows; an entity without one (some funds, public bodies) is identified by its LEI.
 */
function registrationNumber(record: GleifRecord, lei: string): string {
  return text(record.attributes?.entity?.registeredAs) ?? lei;
}

/** `entity.status` is the legal entity's own state; the LEI's registration status (LAPSED...) is not. */
function statusOf(status: string | undefined): 'live' | 'closed' | 'not_reported' {
  if (status === 'ACTIVE') return 'live';
  if (status === 'INACTIVE') return 'closed';
  return 'not_reported';
}

export function gleifAddress(a: GleifAddress | undefined): AddressValue {
  const lines = (Array.isArray(a?.addressLines) ? a.addressLines : []).filter(
    (l) => typeof l === 'string' && l.trim(),
  );
  // Some LOUs split the house number out of the first line; put it back where a reader expects it.
  const first = [text(a?.addressNumber), lines[0]].filter(Boolean).join(' ');
  return address({
    street_address: first,
    street_address_2: lines.slice(1).join(', '),
    postal_code: a?.postalCode,
    city: a?.city,
    // GLEIF regions are ISO 3166-2 codes (FR-75, US-DE): kept as the region, verbatim.
    region: a?.region,
    country: a?.country,
  });
}
