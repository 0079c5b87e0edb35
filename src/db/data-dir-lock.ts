import fs from 'node:fs';
import path from 'node:path';

/**
 * PGlite takes no lock on its directory: two processes can open it and silently lose writes.
 * We hold our own lock file (with our pid) for as long as the database is open.
 *
 * The file appears with its pid already in it (written aside, then linked into place), so no
 * process ever reads it empty and takes a lock being created for a stale one. A stale lock (its
 * process is gone) is taken over under a second, short-lived file (`vericase.lock.takeover`,
 * created exclusively): of two processes that find the same stale lock, one takes it over and the
 * other then finds it held, instead of each removing the other's new lock.
 */
export class DataDirLockedError extends Error {}

/** A lock file without a pid younger than this is being written by a process of an older version. */
const WRITING_MS = 10_000;
/** A takeover file older than this was left by a process that died taking a lock over. */
const TAKEOVER_STALE_MS = 10_000;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const inUse = (dataDir: string, holder: string) =>
  new DataDirLockedError(
    `The embedded database in ${dataDir} is already in use by ${holder}. ` +
      'Stop that process first, or point DATA_DIR elsewhere (or use DATABASE_URL for PostgreSQL).',
  );

/** Creates the lock file holding our pid, atomically; false when it exists. */
function create(lockPath: string): boolean {
  const aside = `${lockPath}.${process.pid}.new`;
  fs.writeFileSync(aside, String(process.pid));
  try {
    fs.linkSync(aside, lockPath);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // a file system without hard links: create it exclusively, then write (the old way)
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
  } finally {
    fs.rmSync(aside, { force: true });
  }
}

function read(file: string): { content: string; ageMs: number } | null {
  try {
    const content = fs.readFileSync(file, 'utf8');
    return { content, ageMs: Date.now() - fs.statSync(file).mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Replaces the stale lock (`stale`, its content) with ours, under the takeover file. 'taken', or
 * 'again' when the lock changed meanwhile (look at it again), or 'busy' (another process is taking
 * it over right now).
 */
function takeOver(lockPath: string, stale: string): 'taken' | 'again' | 'busy' {
  const guard = `${lockPath}.takeover`;
  try {
    fs.closeSync(fs.openSync(guard, 'wx'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const left = read(guard);
    if (left && left.ageMs < TAKEOVER_STALE_MS) return 'busy';
    fs.rmSync(guard, { force: true }); // left by a process that died taking a lock over
    return 'again';
  }
  try {
    const now = read(lockPath);
    if (now && now.content !== stale) return 'again';
    fs.rmSync(lockPath, { force: true });
    return create(lockPath) ? 'taken' : 'again';
  } finally {
    fs.rmSync(guard, { force: true });
  }
}

export function acquireDataDirLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'vericase.lock');
  let held = false;
  for (let attempt = 0; attempt < 5 && !held; attempt++) {
    if (create(lockPath)) {
      held = true;
      break;
    }
    const lock = read(lockPath);
    if (!lock) continue; // released meanwhile
    const holder = Number(lock.content.trim());
    if (!(Number.isInteger(holder) && holder > 0)) {
      if (lock.ageMs < WRITING_MS) throw inUse(dataDir, 'a process starting now');
    } else if (holder !== process.pid && processAlive(holder)) {
      throw inUse(dataDir, `process ${holder}`);
    }
    const outcome = takeOver(lockPath, lock.content);
    if (outcome === 'busy') throw inUse(dataDir, 'a process starting now');
    held = outcome === 'taken';
  }
  if (!held) throw new DataDirLockedError(`Could not lock ${dataDir}`);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    try {
      if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
    } catch {
      // already gone
    }
  };
  process.once('exit', release);
  return release;
}
