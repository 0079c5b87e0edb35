import type { Static } from 'typebox';
import type { Db } from '../../db/connect.ts';
import type { CompanyRow, IndividualRow, PropertyOrigin } from '../../db/schema.ts';
import { ADDRESS_KEYS } from '../../shared/address.ts';
import { iso } from '../../shared/time.ts';
import type { DataLineageMap } from './schemas.ts';

type Lineage = Static<typeof DataLineageMap>;

const COMPANY_PATHS = [
  'name',
  'commercial_name',
  'registration_number',
  'registration_date',
  'status',
  'legal_form',
  'entity_legal_form',
  'country',
  'classifications',
  'banking_information',
  'share_capital',
  'tax_identification_number',
  'website_url',
  'employer_identification_number',
  ...ADDRESS_KEYS.map((k) => `address.${k}`),
];
const INDIVIDUAL_PATHS = [
  'first_name',
  'middle_name',
  'last_name',
  'maiden_name',
  'email',
  'birth_date',
  'birth_country',
  'birth_place',
  'gender',
  'nationalities',
  'tax_identification_number',
  'social_security_number',
  'phone_number',
  'banking_information',
  'position',
  'ownership_percentage',
  'voting_rights_percentage',
  'roles',
  'is_beneficial_owner',
  'is_business_contact',
  ...ADDRESS_KEYS.map((k) => `address.${k}`),
];

const valueAt = (obj: Record<string, unknown>, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
      obj,
    );

/**
 * Whether a property holds something someone gave. An object whose every value is empty (the
 * `banking_information: {iban: null, bic: null}` every entity shows without bank details) holds
 * nothing: it is not attributed to the API.
 */
const hasValue = (v: unknown): boolean =>
  v !== undefined &&
  v !== null &&
  v !== '' &&
  v !== false &&
  !(Array.isArray(v) && v.length === 0) &&
  !(typeof v === 'object' && !Array.isArray(v) && !Object.values(v).some(hasValue));

interface RegistrySource {
  vendor: string | null;
  linkedAt: Date | string | null;
}

function lineage(
  presented: Record<string, unknown>,
  paths: string[],
  origin: PropertyOrigin | null,
  createdAt: Date | string,
  registry: RegistrySource,
): Lineage {
  const out: Lineage = {};
  const fromVendor = { type: 'vendor' as const, name: registry.vendor };
  const registryAt = iso(registry.linkedAt ?? createdAt);
  for (const path of paths) {
    const value = valueAt(presented, path) ?? null;
    const from = origin?.[path] ?? (hasValue(value) ? 'input' : null);
    if (!from) continue;
    if (typeof from === 'object') {
      // changed by an update: the value given then, and before it the registry's it replaced
      out[path] = {
        current_value: value,
        sources: [
          { value, at: iso(from.at), origin: { type: 'api', name: null }, applied: true, is_current: true },
          ...('registry_value' in from
            ? [
                {
                  value: from.registry_value ?? null,
                  at: registryAt,
                  origin: fromVendor,
                  applied: true,
                  is_current: false,
                },
              ]
            : []),
        ],
      };
      continue;
    }
    const fromRegistry = from === 'registry';
    out[path] = {
      current_value: value,
      sources: [
        {
          value,
          at: fromRegistry ? registryAt : iso(createdAt),
          origin: fromRegistry ? fromVendor : { type: 'api', name: null },
          applied: true,
          is_current: true,
        },
      ],
    };
  }
  return out;
}

/**
 * Adds `data_lineage` to the companies and individuals of a presented case: per property, whether
 * its value came from the company registry (an import from a search_ref) or from the API. An
 * individual's registry is the linked company it was imported with (the target of its relations).
 */
export function withDataLineage<
  T extends {
    companies: { id: string }[];
    individuals: { id: string; relations: { to_company_id: string }[] }[];
  },
>(detailed: T, graph: { companies: CompanyRow[]; individuals: IndividualRow[] }): T {
  const companyRows = new Map(graph.companies.map((c) => [c.id, c]));
  const individualRows = new Map(graph.individuals.map((i) => [i.id, i]));
  const registryOf = (c: CompanyRow | undefined): RegistrySource => ({
    vendor: c?.registry_vendor ?? null,
    linkedAt: c?.registry_linked_at ?? null,
  });
  return {
    ...detailed,
    companies: detailed.companies.map((co) => {
      const row = companyRows.get(co.id);
      if (!row) return co;
      // a company imported as another's shareholder has no registry link of its own: its registry
      // is that of the linked company it relates to, as for an imported individual
      const linked = row.registry_vendor
        ? row
        : (co as { relations?: { to_company_id: string }[] }).relations
            ?.map((r) => companyRows.get(r.to_company_id))
            .find((c) => c?.registry_vendor);
      return {
        ...co,
        data_lineage: lineage(co, COMPANY_PATHS, row.property_origin, row.created_at, registryOf(linked)),
      };
    }),
    individuals: detailed.individuals.map((p) => {
      const row = individualRows.get(p.id);
      if (!row) return p;
      const linked = p.relations.map((r) => companyRows.get(r.to_company_id)).find((c) => c?.registry_vendor);
      return {
        ...p,
        data_lineage: lineage(p, INDIVIDUAL_PATHS, row.property_origin, row.created_at, registryOf(linked)),
      };
    }),
  };
}

/**
 * `data_lineage` of one company as GET /v1/companies/{id}?data_lineage=true shows it: its registry
 * is its own link, else (a company imported as another's shareholder) the registry-linked company
 * it relates to.
 */
export async function companyDataLineage(
  db: Db,
  presented: Record<string, unknown> & { relations: { to_company_id: string }[] },
  row: CompanyRow,
): Promise<Lineage> {
  const registry = row.registry_vendor
    ? { vendor: row.registry_vendor, linkedAt: row.registry_linked_at }
    : await relatedRegistry(
        db,
        presented.relations.map((r) => r.to_company_id),
      );
  return lineage(presented, COMPANY_PATHS, row.property_origin, row.created_at, registry);
}

/** The registry of the first registry-linked company among `targets` (none: null). */
async function relatedRegistry(db: Db, targets: string[]): Promise<RegistrySource> {
  const linked = targets.length
    ? await db
        .selectFrom('companies')
        .select(['registry_vendor', 'registry_linked_at'])
        .where('id', 'in', targets)
        .where('registry_vendor', 'is not', null)
        .orderBy('registry_linked_at')
        .executeTakeFirst()
    : undefined;
  return { vendor: linked?.registry_vendor ?? null, linkedAt: linked?.registry_linked_at ?? null };
}

/**
 * `data_lineage` of one individual as GET /v1/individuals/{id}?data_lineage=true shows it: its
 * registry is the registry-linked company among those it relates to.
 */
export async function individualDataLineage(
  db: Db,
  presented: Record<string, unknown> & { relations: { to_company_id: string }[] },
  row: IndividualRow,
): Promise<Lineage> {
  const registry = await relatedRegistry(
    db,
    presented.relations.map((r) => r.to_company_id),
  );
  return lineage(presented, INDIVIDUAL_PATHS, row.property_origin, row.created_at, registry);
}
