import { sql } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { PropertyOrigin } from '../../db/schema.ts';
import { baselineSnapshot } from '../monitoring/snapshot.ts';
import type { RegistryImport } from './fetch-for-import.ts';

export interface RegistryLink {
  companyId: string;
  imp: RegistryImport;
  origin: PropertyOrigin;
}

export interface RegistryWrites {
  links: RegistryLink[];
  /** Field origins of the companies and individuals imported with them. */
  companyOrigins?: Map<string, PropertyOrigin>;
  individualOrigins?: Map<string, PropertyOrigin>;
  monitoringIntervalSeconds: number;
}

const asObject = (raw: unknown) =>
  raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : { value: raw ?? null };

/**
 * The registry side of new companies, in their creating transaction and in one statement: each
 * linked company gets its link columns and field origins, the registry's raw answer as its vendor
 * data and the snapshot monitoring will compare the registry against; imported entities get their
 * field origins. Answers whether the workspace monitors companies (`checks.company_monitoring
 * .enabled`, read from the stored settings: no default sets it).
 */
export async function writeRegistryLinks(trx: Db, workspaceId: string, w: RegistryWrites): Promise<boolean> {
  const links = JSON.stringify(
    w.links.map((l) => ({
      company_id: l.companyId,
      vendor: l.imp.vendor,
      country: l.imp.country,
      vendor_ref: l.imp.vendorRef,
      origin: l.origin,
      raw: asObject(l.imp.raw),
      snapshot: baselineSnapshot(l.imp.profile),
    })),
  );
  const companyOrigins = JSON.stringify(Object.fromEntries(w.companyOrigins ?? []));
  const individualOrigins = JSON.stringify(Object.fromEntries(w.individualOrigins ?? []));
  const { rows } = await sql<{ monitored: boolean | null }>`
    with l as (
      select * from jsonb_to_recordset(${links}::jsonb) as x(
        company_id uuid, vendor text, country text, vendor_ref text, origin jsonb, raw jsonb, snapshot jsonb)
    ),
    linked as (
      update companies c
      set registry_vendor = l.vendor, registry_country = l.country, registry_vendor_ref = l.vendor_ref,
        registry_linked_at = now(), property_origin = l.origin
      from l where c.id = l.company_id
    ),
    vendor_data as (
      insert into company_vendor_data (id, workspace_id, company_id, name, raw)
      select gen_random_uuid(), ${workspaceId}, l.company_id, l.vendor, l.raw from l
    ),
    monitoring as (
      insert into company_monitoring_state (company_id, workspace_id, snapshot, next_check_at)
      select l.company_id, ${workspaceId}, l.snapshot,
        now() + make_interval(secs => ${w.monitoringIntervalSeconds}) from l
    ),
    company_origins as (
      update companies set property_origin = (${companyOrigins}::jsonb) -> (id::text)
      where id in (select k::uuid from jsonb_object_keys(${companyOrigins}::jsonb) k)
    ),
    individual_origins as (
      update individuals set property_origin = (${individualOrigins}::jsonb) -> (id::text)
      where id in (select k::uuid from jsonb_object_keys(${individualOrigins}::jsonb) k)
    )
    select (settings #>> '{checks,company_monitoring,enabled}') = 'true' as monitored
    from workspaces where id = ${workspaceId}
  `.execute(trx);
  return rows[0]?.monitored === true;
}
