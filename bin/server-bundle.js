// The bundled build of the service (scripts/build-server.ts): the modules of src/ in a few files under
// node_modules/.cache/vericase-server, so a start does not type-strip and resolve ~560 TypeScript
// files one by one (about a third of a start). It is used only when it was built from exactly the
// sources on disk: its fingerprint (the path and content of every file under src/) must equal the
// sources' now; otherwise the sources run, as they always can.
//
// Layout: <dir>/<build id>/main.js (and its chunks), one directory per build, and <dir>/current
// naming the build to run with its fingerprint, replaced atomically. A process already running a
// build keeps finding its lazily imported chunks while a newer build is written beside it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const BUNDLE_DIR = path.join(ROOT, 'node_modules', '.cache', 'vericase-server');

/**
 * A digest of what the bundle is built from: every file under src/ (path and content), this file and
 * the Node version. Content, not modification times: a copy (a Docker stage, a checkout) that
 * holds the same files keeps its bundle, and any edit, addition, removal or rename changes it.
 */
export function sourceFingerprint(root = ROOT) {
  const files = [import.meta.filename];
  for (const e of fs.readdirSync(path.join(root, 'src'), { recursive: true, withFileTypes: true })) {
    if (e.isFile()) files.push(path.join(e.parentPath, e.name));
  }
  files.sort();
  const hash = crypto.createHash('sha256').update(process.version);
  for (const file of files) hash.update(`\0${path.relative(root, file)}\0`).update(fs.readFileSync(file));
  return hash.digest('hex');
}

/** The build `current` names: { id, fingerprint }, or null when there is none. */
export function currentBuild(dir = BUNDLE_DIR) {
  try {
    const [id, fingerprint] = fs.readFileSync(path.join(dir, 'current'), 'utf8').trim().split(' ');
    return id && fingerprint ? { id, fingerprint } : null;
  } catch {
    return null;
  }
}

/** The entry of the bundle when it matches the sources (and VERICASE_BUNDLE is not 0), else null. */
export function freshBundle(root = ROOT, dir = BUNDLE_DIR) {
  if (process.env.VERICASE_BUNDLE === '0') return null;
  const build = currentBuild(dir);
  if (!build) return null;
  const entry = path.join(dir, build.id, 'main.js');
  try {
    return build.fingerprint === sourceFingerprint(root) && fs.existsSync(entry) ? entry : null;
  } catch {
    return null;
  }
}

/** Names `id` as the build to run, in one rename: a reader sees the old line or the new one. */
export function setCurrentBuild(id, fingerprint, dir = BUNDLE_DIR) {
  const tmp = path.join(dir, `current.tmp-${process.pid}`);
  fs.writeFileSync(tmp, `${id} ${fingerprint}\n`);
  fs.renameSync(tmp, path.join(dir, 'current'));
}

/**
 * V8's compile cache for the bundle's files (and the packages they load), beside the builds; its
 * entries are keyed by content, so a stale one is never used.
 *
 * Node keeps every entry it read in memory for the process's lifetime (11-15 MB for the service),
 * so a process may leave it off for itself (`self: false`). Either way the Node processes it starts
 * (the sanctions-list loader) use it through NODE_COMPILE_CACHE: they exit and give that memory back.
 */
export function enableCompileCache(dir = BUNDLE_DIR, { self = true } = {}) {
  const cacheDir = path.join(dir, 'compile-cache');
  if (self) module.enableCompileCache?.(cacheDir);
  if (!process.env.NODE_COMPILE_CACHE) process.env.NODE_COMPILE_CACHE = cacheDir;
}

/**
 * Whether this process keeps the compile cache itself. A long-running process on PostgreSQL
 * (`serve`, `worker`) does not: it starts in well under a second either way (0.77 vs 0.80 s to its
 * first answer, measured 2026-11-28), runs for days and is the kind run many at once, so the memory
 * matters more (idle 156 -> 145 MB). The embedded database's start gains 0.12 s from the cache
 * (1.46 -> 1.34 s) and its memory goal has room; short commands (keys, migrate...) exit at once.
 * docs/performance.md, "Memory".
 */
export function keepsCompileCache(argv = process.argv.slice(2), env = process.env) {
  const longRunning = argv[0] === 'serve' || argv[0] === 'worker';
  return !(longRunning && Boolean(env.DATABASE_URL?.trim()));
}
