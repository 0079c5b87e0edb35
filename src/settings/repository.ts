import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { deepMerge, resolveSettings, type Settings } from './defaults.ts';

export async function getSettings(db: Db, workspaceId: string): Promise<Settings> {
  const row = await db
    .selectFrom('workspaces')
    .select('settings')
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  return resolveSettings(row?.settings);
}

export async function patchSettings(db: Db, workspaceId: string, patch: unknown): Promise<Settings> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('workspaces')
      .select('settings')
      .where('id', '=', workspaceId)
      .forNoKeyUpdate()
      .executeTakeFirstOrThrow();
    const stored = deepMerge(row.settings ?? {}, patch);
    await trx
      .updateTable('workspaces')
      .set({ settings: JSON.stringify(stored), updated_at: sql`now()` })
      .where('id', '=', workspaceId)
      .execute();
    return resolveSettings(stored);
  });
}
