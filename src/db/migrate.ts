import type { Kysely } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import * as m0001 from './migrations/0001_foundation.ts';
import * as m0002 from './migrations/0002_files.ts';

/** Migrations are listed here explicitly (no directory scan), so their order is reviewed code. */
const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_files': m0002,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
