import { type Kysely, sql } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import type { Db } from './connect.ts';
import * as m0001 from './migrations/0001_foundation.ts';
import * as m0002 from './migrations/0002_files.ts';
import * as m0003 from './migrations/0003_list_indexes.ts';
import * as m0004 from './migrations/0004_checks.ts';
import * as m0005 from './migrations/0005_webhooks.ts';
import * as m0006 from './migrations/0006_templates.ts';
import * as m0007 from './migrations/0007_aml.ts';
import * as m0008 from './migrations/0008_webhook_fair_claims.ts';
import * as m0009 from './migrations/0009_users.ts';
import * as m0010 from './migrations/0010_event_activities.ts';
import * as m0011 from './migrations/0011_webhook_signature.ts';
import * as m0012 from './migrations/0012_company_data.ts';
import * as m0013 from './migrations/0013_registry_link.ts';
import * as m0014 from './migrations/0014_document_orders.ts';
import * as m0015 from './migrations/0015_reference_shapes.ts';
import * as m0016 from './migrations/0016_document_types.ts';
import * as m0017 from './migrations/0017_fraud_database.ts';
import * as m0018 from './migrations/0018_case_reports.ts';
import * as m0019 from './migrations/0019_client_portal.ts';
import * as m0020 from './migrations/0020_document_templates.ts';
import * as m0021 from './migrations/0021_signature_requests.ts';
import * as m0022 from './migrations/0022_console.ts';
import * as m0024 from './migrations/0024_review_queue.ts';
import * as m0026 from './migrations/0026_trace_context.ts';
import * as m0027 from './migrations/0027_case_list_indexes.ts';
import * as m0028 from './migrations/0028_event_outbox.ts';
import * as m0029 from './migrations/0029_member_list_indexes.ts';
import * as m0030 from './migrations/0030_member_filter_indexes.ts';
import * as m0031 from './migrations/0031_check_list_indexes.ts';
import * as m0032 from './migrations/0032_webhook_log_indexes.ts';
import * as m0033 from './migrations/0033_activity_audit_indexes.ts';
import * as m0034 from './migrations/0034_idempotency_committed.ts';
import * as m0035 from './migrations/0035_events_by_case.ts';
import * as m0036 from './migrations/0036_webhook_delivery_order.ts';
import * as m0037 from './migrations/0037_webhook_delivery_claims.ts';
import * as m0038 from './migrations/0038_files_withheld.ts';
import * as m0039 from './migrations/0039_idempotency_case.ts';
import * as m0040 from './migrations/0040_client_portal_withdrawn_links.ts';
import * as m0041 from './migrations/0041_withdrawn_links_expiry.ts';
import * as m0042 from './migrations/0042_webhook_manual_retries.ts';
import * as m0043 from './migrations/0043_case_tags_out_of_btree.ts';
import * as m0044 from './migrations/0044_case_template_check_deleted.ts';
import * as m0045 from './migrations/0045_signature_code_binding.ts';
import * as m0046 from './migrations/0046_idempotency_secrets_dropped.ts';
import * as m0047 from './migrations/0047_check_need_review_since.ts';
import * as m0048 from './migrations/0048_fold_text.ts';
import * as m0049 from './migrations/0049_deleted_check_files.ts';
import * as m0050 from './migrations/0050_activity_changes.ts';
import { lockedTransaction } from './startup-lock.ts';

/** Migrations are listed here explicitly (no directory scan), so their order is reviewed code. */
const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0003_list_indexes': m0003,
  '0004_checks': m0004,
  '0002_files': m0002,
  '0005_webhooks': m0005,
  '0006_templates': m0006,
  '0007_aml': m0007,
  '0008_webhook_fair_claims': m0008,
  '0009_users': m0009,
  '0010_event_activities': m0010,
  '0011_webhook_signature': m0011,
  '0012_company_data': m0012,
  '0013_registry_link': m0013,
  '0014_document_orders': m0014,
  '0015_reference_shapes': m0015,
  '0016_document_types': m0016,
  '0017_fraud_database': m0017,
  '0018_case_reports': m0018,
  '0019_client_portal': m0019,
  '0020_document_templates': m0020,
  '0021_signature_requests': m0021,
  '0022_console': m0022,
  '0024_review_queue': m0024,
  '0026_trace_context': m0026,
  '0027_case_list_indexes': m0027,
  '0028_event_outbox': m0028,
  '0029_member_list_indexes': m0029,
  '0030_member_filter_indexes': m0030,
  '0031_check_list_indexes': m0031,
  '0032_webhook_log_indexes': m0032,
  '0033_activity_audit_indexes': m0033,
  '0034_idempotency_committed': m0034,
  '0035_events_by_case': m0035,
  '0036_webhook_delivery_order': m0036,
  '0037_webhook_delivery_claims': m0037,
  '0038_files_withheld': m0038,
  '0039_idempotency_case': m0039,
  '0040_client_portal_withdrawn_links': m0040,
  '0041_withdrawn_links_expiry': m0041,
  '0042_webhook_manual_retries': m0042,
  '0043_case_tags_out_of_btree': m0043,
  '0044_case_template_check_deleted': m0044,
  '0045_signature_code_binding': m0045,
  '0046_idempotency_secrets_dropped': m0046,
  '0047_check_need_review_since': m0047,
  '0048_fold_text': m0048,
  '0049_deleted_check_files': m0049,
  '0050_activity_changes': m0050,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Told which migrations are about to run (before they run, in one transaction where possible). */
export interface MigrationProgress {
  pending(names: string[]): void;
}

export async function migrateToLatest(db: Kysely<unknown>, progress?: MigrationProgress): Promise<string[]> {
  // every start of an up-to-date database: one query instead of the Migrator's lock table, lock and
  // reads (half a second on the embedded database)
  if ((await pendingMigrationsIfTracked(db))?.length === 0) return [];
  // Everything in one transaction that first takes a transaction-level advisory lock: processes
  // starting together on an empty database wait for each other before the Migrator creates its own
  // tables (two concurrent CREATE TABLE of one name fail), and the Migrator's session-level lock and
  // unlock run on the transaction's connection. Left to itself, it locks and unlocks outside its
  // transaction: through a transaction-mode pooler (PgBouncer) the two could reach different server
  // connections, which left the lock held by a pooled connection and every later start waiting for
  // it (an hour, its timeout), while a second process failed on the Migrator's table.
  return lockedTransaction(db as Db, 'migrations', async (trx) => {
    // migrations written in parallel branches may land out of order: apply whatever is missing
    const migrator = new Migrator({ db: trx as Kysely<unknown>, provider, allowUnorderedMigrations: true });
    if (progress) {
      // what is pending now; another process migrating just before may have applied some already
      const pending = (await migrator.getMigrations()).filter((m) => !m.executedAt).map((m) => m.name);
      if (pending.length) progress.pending(pending);
    }
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  });
}

/** Migrations this code knows that the database has not recorded as applied (the readiness check). */
export async function pendingMigrations(db: Kysely<unknown>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const applied = new Set(rows.map((r) => r.name));
  return Object.keys(migrations).filter((name) => !applied.has(name));
}

/** Like pendingMigrations, or null when the database has no migration table yet. */
async function pendingMigrationsIfTracked(db: Kysely<unknown>): Promise<string[] | null> {
  const { rows } = await sql<{ present: boolean }>`
    select to_regclass('kysely_migration') is not null as present`.execute(db);
  return rows[0]?.present ? pendingMigrations(db) : null;
}
