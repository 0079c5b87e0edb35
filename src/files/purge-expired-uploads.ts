import type { Db } from '../db/connect.ts';
import type { FileStorage } from './storage.ts';

const BATCH = 500;

/**
 * Deletes uploads that expired without any check referencing them: rows first (only while still
 * unattached, so a concurrent attach wins), then their bytes. Returns how many were purged.
 */
export async function purgeExpiredUploads(
  db: Db,
  storage: FileStorage,
  now: Date = new Date(),
): Promise<number> {
  let purged = 0;
  for (;;) {
    const batch = await db
      .selectFrom('files')
      .select('id')
      .where('attached_at', 'is', null)
      .where('expires_at', '<=', now)
      .limit(BATCH)
      .execute();
    if (batch.length === 0) return purged;
    const deleted = await db
      .deleteFrom('files')
      .where(
        'id',
        'in',
        batch.map((r) => r.id),
      )
      .where('attached_at', 'is', null)
      .where('expires_at', '<=', now)
      .returning('storage_key')
      .execute();
    for (const { storage_key } of deleted) await storage.delete(storage_key).catch(() => {});
    purged += deleted.length;
    if (batch.length < BATCH) return purged;
  }
}
