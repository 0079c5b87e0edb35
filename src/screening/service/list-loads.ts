import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../../db/connect.ts';
import { presentListVersion } from './present.ts';
import type { LoadReport } from './screening-service.ts';

export const PROCESS_LABEL = `${hostname()}:${process.pid}`;

/**
 * Whether the process a load names may still run: on another host it cannot be told (true); on this
 * host, whether its pid is alive (a load by this machine's previous start is no process's lists).
 */
export function mayBeRunning(label: string): boolean {
  const at = label.lastIndexOf(':');
  const host = label.slice(0, at);
  const pid = Number(label.slice(at + 1));
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive, under another user
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The version key recorded for a load that found no list (no real set of versions has it). */
export const NO_LISTS_KEY = '';

/** The most recent list load recorded by any process. */
export async function latestListLoad(db: Db) {
  return db
    .selectFrom('screening_list_loads')
    .selectAll()
    .orderBy('loaded_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Appends this process's load to the log. Returns the version key that was current before (any
 * process), so the caller can tell a new list version from a restart on the same lists.
 */
export async function recordListLoad(db: Db, report: LoadReport): Promise<{ previousKey: string | null }> {
  const previous = await latestListLoad(db);
  await db
    .insertInto('screening_list_loads')
    .values({
      id: randomUUID(),
      versions_key: report.versionsKey as string,
      lists: JSON.stringify(report.versions.map(presentListVersion)),
      reference_dir: report.dir,
      process: PROCESS_LABEL,
      loaded_at: report.loadedAt ?? new Date().toISOString(),
    })
    .execute();
  return { previousKey: previous?.versions_key ?? null };
}
