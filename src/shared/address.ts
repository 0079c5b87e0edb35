import { type Static, Type } from 'typebox';
import { Country, Nullable } from '../http/common-schemas.ts';

const addressFields = [
  'street_address',
  'street_address_2',
  'postal_code',
  'city',
  'state',
  'region',
] as const;

/** Every key of an address as the API presents it (`fullAddress`), the country last. */
export const ADDRESS_KEYS = [...addressFields, 'country'] as const;

export const PartialAddress = Type.Object({
  street_address: Type.Optional(Nullable(Type.String())),
  street_address_2: Type.Optional(Nullable(Type.String())),
  postal_code: Type.Optional(Nullable(Type.String())),
  city: Type.Optional(Nullable(Type.String())),
  state: Type.Optional(Nullable(Type.String())),
  region: Type.Optional(Nullable(Type.String())),
  country: Type.Optional(Nullable(Country)),
});

export const Address = Type.Object({
  street_address: Nullable(Type.String()),
  street_address_2: Nullable(Type.String()),
  postal_code: Nullable(Type.String()),
  city: Nullable(Type.String()),
  state: Nullable(Type.String()),
  region: Nullable(Type.String()),
  country: Nullable(Country),
});

type AddressValue = Static<typeof Address>;

/** A complete address (every key present, null when unknown) from a partial one. */
export function fullAddress(partial: Record<string, unknown> | null | undefined): AddressValue {
  const out: Record<string, string | null> = {};
  for (const k of ADDRESS_KEYS) out[k] = (partial?.[k] as string | null | undefined) ?? null;
  return out as AddressValue;
}

/** Merges a partial update into a stored address: keys present in the update win. */
export function mergeAddress(
  stored: AddressValue,
  update: Record<string, unknown> | undefined,
): AddressValue {
  return update ? fullAddress({ ...stored, ...update }) : stored;
}

export const BankingInformation = Type.Object({
  iban: Type.Optional(
    Nullable(
      Type.String({
        minLength: 15,
        maxLength: 42,
        description: 'ISO 13616 IBAN; spaces are removed and letters upper-cased',
      }),
    ),
  ),
  bic: Type.Optional(
    Nullable(
      Type.String({
        minLength: 8,
        maxLength: 14,
        description: 'ISO 9362 BIC; spaces are removed and letters upper-cased',
      }),
    ),
  ),
});

type BankingValue = { iban: string | null; bic: string | null };
const compact = (v: unknown) => (typeof v === 'string' ? v.replace(/\s+/g, '').toUpperCase() : null);

/**
 * The stored banking information: an IBAN and a BIC as their standards write them (spaces removed,
 * upper case, as the reference does), and on an update the keys the update gives win, the others
 * are kept (a PATCH with a new BIC alone kept no IBAN). `null` clears it.
 */
export function bankingValue(
  stored: Record<string, unknown> | null | undefined,
  update: Record<string, unknown> | null,
): BankingValue | null {
  if (update === null) return null;
  const merged = { ...(stored ?? {}), ...update };
  return { iban: compact(merged.iban), bic: compact(merged.bic) };
}
export const BankingInformationOut = Type.Object({
  iban: Nullable(Type.String()),
  bic: Nullable(Type.String()),
});
export const bankingOut = (b: Record<string, unknown> | null | undefined) => ({
  iban: (b?.iban as string | null | undefined) ?? null,
  bic: (b?.bic as string | null | undefined) ?? null,
});
