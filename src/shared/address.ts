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
  for (const k of [...addressFields, 'country']) out[k] = (partial?.[k] as string | null | undefined) ?? null;
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
  iban: Type.Optional(Nullable(Type.String({ minLength: 15, maxLength: 34 }))),
  bic: Type.Optional(Nullable(Type.String({ minLength: 8, maxLength: 12 }))),
});
export const BankingInformationOut = Type.Object({
  iban: Nullable(Type.String()),
  bic: Nullable(Type.String()),
});
export const bankingOut = (b: Record<string, unknown> | null | undefined) => ({
  iban: (b?.iban as string | null | undefined) ?? null,
  bic: (b?.bic as string | null | undefined) ?? null,
});
