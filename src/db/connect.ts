import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The embedded instance, for pg-boss's PGlite adapter. */
  pglite: PGlite | null;
  connectionString: string | null;
  close(): Promise<void>;
}

// DATE columns are kept as text in the schema; int8 (bigserial) comes back as string: keep it so.
pg.types.setTypeParser(1082, (v: string) => v);

export async function openDatabase(config: Config): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      kind: 'postgres',
      pglite: null,
      connectionString: config.databaseUrl,
      close: () => db.destroy(),
    };
  }
  const release = acquireDataDirLock(config.dataDir);
  try {
    const pglite = await PGlite.create(path.join(config.dataDir, 'pgdata'));
    const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
    return {
      db,
      kind: 'pglite',
      pglite,
      connectionString: null,
      close: async () => {
        await db.destroy();
        if (!pglite.closed) await pglite.close();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}
