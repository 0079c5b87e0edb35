import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { FraudReportRow } from '../db/schema.ts';

export function findReport(db: Db, workspaceId: string, id: string): Promise<FraudReportRow | undefined> {
  return db
    .selectFrom('fraud_reports')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The workspace's report of this entity, if any (one per entity). */
export function findEntityReport(
  db: Db,
  workspaceId: string,
  column: 'individual_id' | 'company_id',
  entityId: string,
): Promise<FraudReportRow | undefined> {
  return db
    .selectFrom('fraud_reports')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where(column, '=', entityId)
    .executeTakeFirst();
}

export async function insertReport(
  trx: Db,
  report: {
    id: string;
    workspace_id: string;
    individual_id: string | null;
    company_id: string | null;
    reason: string;
    identifier_kinds: string[];
  },
  hashes: { kind: string; hash: string }[],
): Promise<FraudReportRow> {
  const row = await trx
    .insertInto('fraud_reports')
    .values({
      id: report.id,
      workspace_id: report.workspace_id,
      individual_id: report.individual_id,
      company_id: report.company_id,
      reason: report.reason,
      identifier_kinds: JSON.stringify(report.identifier_kinds),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('fraud_report_identifiers')
    .values(hashes.map((h) => ({ report_id: report.id, kind: h.kind, hash: h.hash })))
    .execute();
  return row;
}

/** Deletes a report of the workspace with its hashes; false when it has no such report. */
export async function deleteReport(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const res = await db
    .deleteFrom('fraud_reports')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export interface MatchRow {
  report_id: string;
  created_at: Date | string;
  own: boolean;
  kind: string;
}

/**
 * The identifiers among `hashes` that reports visible to the workspace hold: its own reports, and,
 * when it shares itself (`shares`), the reports of every workspace whose `fraud_database.share` is
 * true now. Gives report ids and dates only, for the caller to present without them.
 */
export async function findMatchingHashes(
  db: Db,
  workspaceId: string,
  shares: boolean,
  hashes: string[],
): Promise<MatchRow[]> {
  if (!hashes.length) return [];
  const shared = sql<boolean>`coalesce((w.settings -> 'fraud_database' ->> 'share') = 'true', false)`;
  return db
    .selectFrom('fraud_report_identifiers as i')
    .innerJoin('fraud_reports as r', 'r.id', 'i.report_id')
    .innerJoin('workspaces as w', 'w.id', 'r.workspace_id')
    .select([
      'r.id as report_id',
      'r.created_at',
      'i.kind',
      sql<boolean>`r.workspace_id = ${workspaceId}`.as('own'),
    ])
    .where('i.hash', 'in', hashes)
    .where((eb) =>
      shares
        ? eb.or([eb('r.workspace_id', '=', workspaceId), shared])
        : eb('r.workspace_id', '=', workspaceId),
    )
    .orderBy('r.created_at')
    .orderBy('r.id')
    .execute();
}
