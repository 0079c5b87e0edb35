import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { CompanyProfile, CompanySearchResult } from './schemas.ts';

/** SQL of company data: search refs, the shared profile cache and the monthly fetch counts. */

export interface NewSearchRef {
  vendor: string;
  country: string;
  vendorRef: string;
  /** The candidate as shown, without its search_ref. */
  candidate: Omit<CompanySearchResult, 'search_ref'>;
}

/** Stores the candidates of one search, each under a fresh random ref, valid `seconds`. */
export async function insertSearchRefs(
  db: Db,
  workspaceId: string,
  rows: NewSearchRef[],
  seconds: number,
): Promise<string[]> {
  if (!rows.length) return [];
  const refs = rows.map(() => `sr_${randomBytes(24).toString('base64url')}`);
  await db
    .insertInto('company_data_search_refs')
    .values(
      rows.map((r, i) => ({
        ref: refs[i] as string,
        workspace_id: workspaceId,
        vendor: r.vendor,
        country: r.country,
        vendor_ref: r.vendorRef,
        candidate: JSON.stringify(r.candidate),
        expires_at: sql<Date>`now() + ${seconds} * interval '1 second'`,
      })),
    )
    .execute();
  return refs;
}

/** A search ref of the workspace, with whether it is still valid (by the database clock). */
export async function findSearchRef(db: Db, workspaceId: string, ref: string) {
  return db
    .selectFrom('company_data_search_refs')
    .select(['vendor', 'country', 'vendor_ref', sql<boolean>`expires_at > now()`.as('valid')])
    .where('ref', '=', ref)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
}

/** Deletes search refs expired for a day (kept a while so an expired ref says so rather than unknown). */
export async function pruneSearchRefs(db: Db): Promise<number> {
  const res = await db
    .deleteFrom('company_data_search_refs')
    .where('expires_at', '<', sql<Date>`now() - interval '1 day'`)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

export interface CachedProfile {
  profile: CompanyProfile;
  raw: unknown;
}

/** The cached profile of a registry record when fetched less than `seconds` ago. */
export async function findCachedProfile(
  db: Db,
  key: { vendor: string; country: string; vendorRef: string },
  seconds: number,
): Promise<CachedProfile | undefined> {
  const row = await db
    .selectFrom('company_data_profiles')
    .select(['profile', 'raw'])
    .where('vendor', '=', key.vendor)
    .where('country', '=', key.country)
    .where('vendor_ref', '=', key.vendorRef)
    .where('fetched_at', '>', sql<Date>`now() - ${seconds} * interval '1 second'`)
    .executeTakeFirst();
  return row ? { profile: row.profile as unknown as CompanyProfile, raw: row.raw } : undefined;
}

export async function storeProfile(
  db: Db,
  key: { vendor: string; country: string; vendorRef: string },
  value: CachedProfile,
): Promise<void> {
  const values = { profile: JSON.stringify(value.profile), raw: JSON.stringify(value.raw ?? null) };
  await db
    .insertInto('company_data_profiles')
    .values({
      vendor: key.vendor,
      country: key.country,
      vendor_ref: key.vendorRef,
      ...values,
      fetched_at: sql`now()`,
    })
    .onConflict((oc) =>
      oc.columns(['vendor', 'country', 'vendor_ref']).doUpdateSet({ ...values, fetched_at: sql`now()` }),
    )
    .execute();
}

/** Deletes cache entries older than `seconds`: they would be fetched again anyway. */
export async function pruneProfiles(db: Db, seconds: number): Promise<number> {
  const res = await db
    .deleteFrom('company_data_profiles')
    .where('fetched_at', '<', sql<Date>`now() - ${seconds} * interval '1 second'`)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

const MONTH = sql<string>`to_char(now() at time zone 'UTC', 'YYYY-MM')`;

/**
 * Counts one fetch for the workspace's current month (UTC), refusing past `limit` (null: none):
 * one statement, so concurrent fetches can never count beyond the limit. The month counted, or
 * null when the limit is reached.
 */
export async function countFetch(db: Db, workspaceId: string, limit: number | null): Promise<string | null> {
  if (limit !== null && limit <= 0) return null;
  let insert = db
    .insertInto('company_data_fetch_counts')
    .values({ workspace_id: workspaceId, month: MONTH, count: 1 });
  insert = insert.onConflict((oc) => {
    const update = oc
      .columns(['workspace_id', 'month'])
      .doUpdateSet({ count: sql<number>`company_data_fetch_counts.count + 1` });
    return limit === null ? update : update.where('company_data_fetch_counts.count', '<', limit);
  });
  const row = await insert.returning('month').executeTakeFirst();
  return row?.month ?? null;
}

/** Gives back a counted fetch that did not happen (the registry failed). */
export async function uncountFetch(db: Db, workspaceId: string, month: string): Promise<void> {
  await db
    .updateTable('company_data_fetch_counts')
    .set({ count: sql<number>`count - 1` })
    .where('workspace_id', '=', workspaceId)
    .where('month', '=', month)
    .where('count', '>', 0)
    .execute();
}
