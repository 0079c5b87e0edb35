/**
 * Bundles the service (src/cli/main.ts and what it imports; packages stay external) into
 * node_modules/.cache/vericase-server, which bin/vericase.js runs instead of the sources while its
 * fingerprint matches them (bin/server-bundle.js). Run by `npm install` (prepare) and before
 * `npm start`; it does nothing when the bundle is already up to date (`--force` rebuilds).
 *
 * Without rolldown (an install without dev dependencies) it says so and the sources run.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  BUNDLE_DIR,
  declareModuleBuild,
  freshBundle,
  keptExternal,
  OUTPUT_OPTIONS,
  ROOT,
  setCurrentBuild,
  sourceFingerprint,
} from '../bin/server-bundle.js';

/** Builds older than this, other than the current one, are removed (a process may still run one). */
const KEEP_OLD_BUILDS_MS = 60 * 60 * 1000;

/** Every worker thread's module (a file under src/ named *.worker.ts) is an entry: src/shared/worker-file.ts finds it. */
function workerEntries(): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const e of fs.readdirSync(path.join(ROOT, 'src'), { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || !e.name.endsWith('.worker.ts')) continue;
    const name = path.basename(e.name, '.ts');
    if (entries[name]) throw new Error(`two worker modules are named ${e.name}: worker names must be unique`);
    entries[name] = path.join(e.parentPath, e.name);
  }
  return entries;
}

/**
 * A CommonJS module finds files beside itself through `__dirname` or `__filename`; bundled into an
 * ES module it would find neither (a ReferenceError, or a caught error that silently changes what
 * it does). Such a package belongs in KEEP_EXTERNAL: this names the package so that it is added.
 */
function assertNoCommonJsPaths(dir: string): void {
  const offenders = new Set<string>();
  for (const name of fs.readdirSync(dir)) {
    if (!name.endsWith('.js')) continue;
    let region = '';
    for (const line of fs.readFileSync(path.join(dir, name), 'utf8').split('\n')) {
      // each module starts with a comment naming its file: `//#region src/...` or `// node_modules/...`
      const start = /^\/\/(?:#region | )((?:src|node_modules)\/\S+)$/.exec(line);
      if (start) region = start[1];
      else if (/\b__(dirname|filename)\b/.test(line)) offenders.add(region || name);
    }
  }
  if (offenders.size > 0)
    throw new Error(
      `bundled modules use __dirname or __filename (keep their packages external): ${[...offenders].join(', ')}`,
    );
}

const force = process.argv.includes('--force');
if (!force && freshBundle()) process.exit(0);

let rolldown: typeof import('rolldown');
try {
  rolldown = await import('rolldown');
} catch (err) {
  if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw err;
  console.warn('build-server: rolldown is not installed (install without dev dependencies): the sources run');
  process.exit(0);
}

/** Bundles into a directory of its own and names it current; returns that directory. */
async function build(bundler: typeof import('rolldown')): Promise<string> {
  const fingerprint = sourceFingerprint();
  // the pid too: two starts bundling at the same moment each write their own directory
  const id = `${fingerprint.slice(0, 16)}-${Date.now().toString(36)}-${process.pid}`;
  const out = path.join(BUNDLE_DIR, id);
  fs.mkdirSync(BUNDLE_DIR, { recursive: true });
  try {
    await bundler.build({
      input: { main: path.join(ROOT, 'src/cli/main.ts'), ...workerEntries() },
      cwd: ROOT,
      platform: 'node',
      external: keptExternal,
      logLevel: 'warn',
      output: { dir: out, ...OUTPUT_OPTIONS },
    });
    assertNoCommonJsPaths(out);
    declareModuleBuild(out);
  } catch (err) {
    fs.rmSync(out, { recursive: true, force: true });
    throw err;
  }
  setCurrentBuild(id, fingerprint);
  for (const entry of fs.readdirSync(BUNDLE_DIR, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === id || entry.name === 'compile-cache') continue;
    const dir = path.join(BUNDLE_DIR, entry.name);
    if (Date.now() - fs.statSync(dir).mtimeMs > KEEP_OLD_BUILDS_MS)
      fs.rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

const started = performance.now();
let out: string;
try {
  out = await build(rolldown);
} catch (err) {
  // the bundle only makes starts faster: without it (a read-only install, a full disk) the sources
  // run, and `npm start` must not fail for it. `--force` (npm run build:server) reports the failure.
  console.warn(`build-server: the service could not be bundled (${(err as Error).message}): the sources run`);
  process.exit(force ? 1 : 0);
}
console.log(
  `build-server: service bundled into ${path.relative(ROOT, out)} (${Math.round(performance.now() - started)} ms)`,
);
