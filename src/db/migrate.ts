import type { Kysely } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import * as m0001 from './migrations/0001_foundation.ts';
import * as m0002 from './migrations/0002_files.ts';
import * as m0004 from './migrations/0004_checks.ts';
import * as m0005 from './migrations/0005_webhooks.ts';

/** Migrations are listed here explicitly (no directory scan), so their order is reviewed code. */
const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0004_checks': m0004,
  '0002_files': m0002,
  '0005_webhooks': m0005,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  // migrations written in parallel branches may land out of order: apply whatever is missing
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
