import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { PropertyOrigin } from '../../db/schema.ts';
import { baselineSnapshot } from '../monitoring/snapshot.ts';
import type { RegistryImport } from './fetch-for-import.ts';

/**
 * Links a new company to its registry record (in the creating transaction): the link columns and
 * field origins, the raw answer as the company's vendor data, and the snapshot monitoring will
 * compare the registry against.
 */
export async function linkCompanyToRegistry(
  trx: Db,
  workspaceId: string,
  companyId: string,
  imp: RegistryImport,
  origin: PropertyOrigin,
  monitoringIntervalSeconds: number,
): Promise<void> {
  await trx
    .updateTable('companies')
    .set({
      registry_vendor: imp.vendor,
      registry_country: imp.country,
      registry_vendor_ref: imp.vendorRef,
      registry_linked_at: sql`now()`,
      property_origin: JSON.stringify(origin),
    })
    .where('id', '=', companyId)
    .execute();
  const raw =
    imp.raw && typeof imp.raw === 'object' && !Array.isArray(imp.raw)
      ? (imp.raw as Record<string, unknown>)
      : { value: imp.raw ?? null };
  await trx
    .insertInto('company_vendor_data')
    .values({
      id: randomUUID(),
      workspace_id: workspaceId,
      company_id: companyId,
      name: imp.vendor,
      raw: JSON.stringify(raw),
    })
    .execute();
  await trx
    .insertInto('company_monitoring_state')
    .values({
      company_id: companyId,
      workspace_id: workspaceId,
      snapshot: JSON.stringify(baselineSnapshot(imp.profile)),
      next_check_at: sql<Date>`now() + make_interval(secs => ${monitoringIntervalSeconds})`,
    })
    .execute();
}

/** Stores the field origins of imported entities, one statement per table. */
export async function setPropertyOrigins(
  trx: Db,
  table: 'companies' | 'individuals',
  originById: Map<string, PropertyOrigin>,
): Promise<void> {
  if (!originById.size) return;
  const map = JSON.stringify(Object.fromEntries(originById));
  await trx
    .updateTable(table)
    .set({ property_origin: sql`(${map}::jsonb) -> (id::text)` })
    .where('id', 'in', [...originById.keys()])
    .execute();
}
