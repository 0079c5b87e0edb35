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

/** `PATCH`: the given settings merged into the stored ones, key by key (a validated, closed body). */
export async function patchSettings(db: Db, workspaceId: string, patch: unknown): Promise<Settings> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('workspaces')
      .select('settings')
      .where('id', '=', workspaceId)
      .forNoKeyUpdate()
      .executeTakeFirstOrThrow();
    return storeSettings(trx, workspaceId, deepMerge(row.settings ?? {}, patch));
  });
}

/**
 * `PUT`: the given settings replace the stored ones, so whatever the body leaves out takes its
 * default again (`PUT {}` resets them all). PATCH cannot do that: null is a value of its own for
 * several settings (no limit, no review due).
 */
export async function replaceSettings(db: Db, workspaceId: string, settings: unknown): Promise<Settings> {
  return storeSettings(db, workspaceId, settings ?? {});
}

async function storeSettings(db: Db, workspaceId: string, stored: unknown): Promise<Settings> {
  await db
    .updateTable('workspaces')
    .set({ settings: JSON.stringify(stored), updated_at: sql`now()` })
    .where('id', '=', workspaceId)
    .execute();
  return resolveSettings(stored);
}
