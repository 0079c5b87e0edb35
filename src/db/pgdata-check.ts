import fs from 'node:fs';
import path from 'node:path';

/**
 * The embedded database refuses a damaged directory instead of starting empty. PGlite decides
 * "new cluster" from the absence of `PG_VERSION` alone: a directory that lost that file is
 * silently initialised as an empty database (measured with PGlite 0.5), and one that lost
 * `global/pg_control` or `pg_wal` aborts with "Aborted(). Build with -sASSERTIONS". Both must end
 * in a clear refusal that names the directory and says what to do.
 */
export class CorruptDataDirError extends Error {}

/** Files and directories every initialised cluster has; missing ones mean damage, not a new start. */
const REQUIRED: { rel: string; dir: boolean }[] = [
  { rel: 'PG_VERSION', dir: false },
  { rel: 'global/pg_control', dir: false },
  { rel: 'base', dir: true },
  { rel: 'global', dir: true },
  { rel: 'pg_wal', dir: true },
  { rel: 'pg_xact', dir: true },
];

function advice(pgdata: string): string {
  return (
    `Restore it from a backup (vericase db restore --in FILE, see docs/backup.md), or move ${pgdata} ` +
    'away to start with an empty database. vericase will not start an empty database over it.'
  );
}

function entries(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/**
 * Throws CorruptDataDirError when `DATA_DIR/pgdata` holds something that is not a complete
 * cluster, or is gone while `DATA_DIR/files` still holds uploads (the database was lost, not
 * never created). An absent or empty `pgdata` otherwise is a first start: PGlite creates it.
 */
export function assertUsableDataDir(dataDir: string): void {
  const pgdata = path.join(dataDir, 'pgdata');
  if (entries(pgdata).length === 0) {
    if (entries(path.join(dataDir, 'files')).length > 0) {
      throw new CorruptDataDirError(
        `The embedded database directory ${pgdata} is missing or empty, but ${path.join(dataDir, 'files')} ` +
          `holds uploaded files: the database was lost. ${advice(pgdata)}`,
      );
    }
    return;
  }
  const missing = REQUIRED.filter(({ rel, dir }) => {
    try {
      const st = fs.statSync(path.join(pgdata, rel));
      return dir ? !st.isDirectory() : !st.isFile() || st.size === 0;
    } catch {
      return true;
    }
  }).map((r) => r.rel);
  if (missing.length) {
    throw new CorruptDataDirError(
      `The embedded database directory ${pgdata} is damaged: it has files but ${missing.join(', ')} ` +
        `${missing.length > 1 ? 'are' : 'is'} missing or empty, so it is not a valid database. ${advice(pgdata)}`,
    );
  }
}

/** Wraps an error PGlite raised while opening an existing directory into a clear refusal. */
export function openFailure(pgdata: string, err: unknown): CorruptDataDirError {
  const reason = (err as Error)?.message ?? String(err);
  return new CorruptDataDirError(
    `The embedded database in ${pgdata} could not be opened (PGlite: ${reason}); its files are ` +
      `damaged or were written by an incompatible version. ${advice(pgdata)}`,
  );
}
