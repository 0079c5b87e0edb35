import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../app-context.ts';
import { type FileStorage, LocalFileStorage, PART_SUFFIX } from './storage.ts';

/**
 * `.part` files on the local disk (DATA_DIR/files) that no write will finish: a file is written to
 * `<file>.<random>.part` and renamed once complete, and removed when its write fails. A process
 * stopped with the write in flight never got to that: a graceful shutdown cut the upload's
 * connection and exited before its clean-up ran, a killed process ran nothing, and the `.part` stayed
 * for good. The shutdown now removes its own (`removeOwnUnfinished`), and a start and the hourly
 * `files.purge` job remove those left by others (`sweepUnfinished`).
 */

/** When the HTTP server bounds no request (both timeouts 0): an hour of silence is no upload. */
const UNBOUNDED_STALE_MS = 3_600_000;
/** Past the HTTP bound: the slack of a loaded machine between a request's cut and its clean-up. */
const MARGIN_MS = 60_000;

/**
 * How long a `.part` must have gone unwritten before a sweep takes it for abandoned. On the embedded
 * database 0: this process holds DATA_DIR's lock (src/db/data-dir-lock.ts), so every `.part` it is not
 * writing itself was left by a process that is gone. On PostgreSQL, processes may share the
 * directory (docs/deployment.md): a live upload writes at least once within the HTTP request timeout
 * (it is cut with a 408 past it), or the idle timeout when that one is off.
 */
export function staleAfterMs(ctx: Pick<AppContext, 'dbKind' | 'config'>): number {
  if (ctx.dbKind === 'pglite') return 0;
  const { requestTimeoutMs, idleTimeoutMs } = ctx.config.http;
  const bound = requestTimeoutMs || idleTimeoutMs;
  return bound ? bound + MARGIN_MS : UNBOUNDED_STALE_MS;
}

/**
 * Removes the `.part` files under `<root>/<workspace>/` not written for `olderThanMs` (by their
 * mtime) and not this process's own writes in flight; how many it removed. Directories are read as
 * streams: a workspace of a million files is not held in memory for it.
 */
export async function sweepUnfinished(
  storage: LocalFileStorage,
  olderThanMs: number,
  now = Date.now(),
): Promise<number> {
  let workspaces: fs.Dirent[];
  try {
    workspaces = await fs.promises.readdir(storage.root, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  let removed = 0;
  for (const ws of workspaces) {
    if (!ws.isDirectory()) continue;
    const dir = path.join(storage.root, ws.name);
    for await (const entry of await fs.promises.opendir(dir)) {
      if (!entry.isFile() || !entry.name.endsWith(PART_SUFFIX)) continue;
      const file = path.join(dir, entry.name);
      if (storage.unfinished.has(file)) continue;
      // renamed or removed since the directory was read: finished, or cleaned up by its writer
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat || now - stat.mtimeMs < olderThanMs) continue;
      await fs.promises.rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}

/**
 * At shutdown, once the HTTP server has closed every connection (the requests still writing were
 * cut): removes the `.part` files of this process's writes that have not cleaned up after themselves.
 */
export async function removeOwnUnfinished(storage: FileStorage): Promise<number> {
  if (!(storage instanceof LocalFileStorage)) return 0;
  const own = [...storage.unfinished];
  await Promise.all(own.map((file) => fs.promises.rm(file, { force: true })));
  return own.length;
}
