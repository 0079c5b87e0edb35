/**
 * `vericase data pull`: downloads the current official list files into `<DATA_DIR>/reference/<version>/`
 * and switches the `current` pointer to it atomically.
 *
 * 1. every file is streamed into a temporary directory under `<DATA_DIR>/reference/` while its SHA-256
 *    is computed; `SHA256SUMS` and `manifest.json` (url, bytes, sha256, Last-Modified/ETag) are written;
 * 2. the directory is parsed with the same loaders the service uses: a file that yields no entity (a
 *    format change, an HTML error page) fails the pull;
 * 3. identical checksums to the current version → nothing changes ("unchanged");
 * 4. otherwise the temporary directory is renamed to `<version>` (a UTC timestamp) and a new `current`
 *    symlink is renamed over the old one (rename is atomic: a reader sees the old or the new version,
 *    never a half-written one); older versions beyond `keep` are removed.
 *
 * Any failure leaves `current` untouched and removes the temporary directory. A lock file keeps two
 * pulls from running at once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import {
  cp,
  lstat,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { loadReferenceDirectory } from '../lists/load-directory.ts';
import { type DownloadResponse, openDownload } from './pull-http.ts';
import { pulledReferenceRoot } from './reference-dir.ts';

export type PullSourceKey = 'ofac' | 'un' | 'eu' | 'uk' | 'elf';

export interface PullFile {
  source: PullSourceKey;
  /** Short label for the progress display, e.g. `ofac sdn.csv`. */
  label: string;
  url: string;
  /** Path inside the version directory (the layout loadReferenceDirectory reads). */
  path: string;
}

/**
 * Official publication URLs (overridable one by one with VERICASE_PULL_URL_<KEY>). Publishers move
 * files from time to time: when a default stops working, set the variable.
 */
export const DEFAULT_PULL_URLS = {
  OFAC_SDN: 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.CSV',
  OFAC_ADD: 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ADD.CSV',
  OFAC_ALT: 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ALT.CSV',
  OFAC_COMMENTS:
    'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN_COMMENTS.CSV',
  UN: 'https://scsanctions.un.org/resources/xml/en/consolidated.xml',
  EU: 'https://webgate.ec.europa.eu/fsd/fsf/public/files/csvFullSanctionsList_1_1/content?token=dG9rZW4tMjAxNw',
  UK: 'https://sanctionslist.fcdo.gov.uk/docs/UK-Sanctions-List.csv',
} as const;

/** Which list each downloaded group must produce (checked by parsing before the switch). */
const EXPECTED_SOURCE: Record<Exclude<PullSourceKey, 'elf'>, string> = {
  ofac: 'ofac_sdn',
  un: 'un_sc',
  eu: 'eu_fsf',
  uk: 'uk_hmt',
};

/**
 * The files to download. VERICASE_PULL_SOURCES (default `ofac,un,eu,uk`) selects lists; the ELF legal
 * forms are downloaded only when VERICASE_PULL_URL_ELF is set (GLEIF's URL changes with each edition);
 * otherwise the `elf/` directory of the current version is carried over.
 */
export function pullPlan(env: NodeJS.ProcessEnv = process.env, date = new Date()): PullFile[] {
  const url = (key: keyof typeof DEFAULT_PULL_URLS) =>
    env[`VERICASE_PULL_URL_${key}`] || DEFAULT_PULL_URLS[key];
  const wanted = new Set(
    (env.VERICASE_PULL_SOURCES || 'ofac,un,eu,uk')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
  if (env.VERICASE_PULL_URL_ELF) wanted.add('elf');
  for (const s of wanted) {
    if (!['ofac', 'un', 'eu', 'uk', 'elf'].includes(s))
      throw new PullError(`Unknown source "${s}" in VERICASE_PULL_SOURCES (known: ofac, un, eu, uk, elf)`);
  }
  const files: PullFile[] = [];
  if (wanted.has('ofac')) {
    for (const [key, name] of [
      ['OFAC_SDN', 'sdn.csv'],
      ['OFAC_ADD', 'add.csv'],
      ['OFAC_ALT', 'alt.csv'],
      ['OFAC_COMMENTS', 'sdn_comments.csv'],
    ] as const) {
      files.push({
        source: 'ofac',
        label: `ofac ${name}`,
        url: url(key),
        path: `sanctions/ofac-sdn/${name}`,
      });
    }
  }
  if (wanted.has('un'))
    files.push({
      source: 'un',
      label: 'un consolidated.xml',
      url: url('UN'),
      path: 'sanctions/un/consolidated.xml',
    });
  if (wanted.has('eu'))
    files.push({ source: 'eu', label: 'eu fsf.csv', url: url('EU'), path: 'sanctions/eu/eu-fsf.csv' });
  if (wanted.has('uk'))
    files.push({
      source: 'uk',
      label: 'uk sanctions-list.csv',
      url: url('UK'),
      path: 'sanctions/uk/uk-sanctions-list.csv',
    });
  if (wanted.has('elf') && env.VERICASE_PULL_URL_ELF) {
    const day = date.toISOString().slice(0, 10);
    files.push({
      source: 'elf',
      label: 'elf legal forms',
      url: env.VERICASE_PULL_URL_ELF,
      path: `elf/iso-20275-${day}.csv`,
    });
  }
  if (!files.length) throw new PullError('VERICASE_PULL_SOURCES selects no list');
  return files;
}

export class PullError extends Error {
  readonly offline: boolean;
  constructor(message: string, offline = false) {
    super(message);
    this.name = 'PullError';
    this.offline = offline;
  }
}

export interface PullProgress {
  file: PullFile;
  index: number;
  count: number;
  received: number;
  total: number | null;
  done: boolean;
}

export interface ManifestFile {
  path: string;
  url: string;
  bytes: number;
  sha256: string;
  last_modified: string | null;
  etag: string | null;
}

export interface PullResult {
  status: 'updated' | 'unchanged';
  version: string;
  dir: string;
  files: ManifestFile[];
  lists: { source: string; version: string; entities: number; malformed: number }[];
  removed_versions: string[];
}

export interface PullOptions {
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  onProgress?: (p: PullProgress) => void;
  /** Versions kept on disk, the new one included (default 3). */
  keep?: number;
  /** Per-file timeout (default 10 min); the connection itself must open within 30 s. */
  timeoutMs?: number;
  now?: Date;
}

const OFFLINE_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ECONNRESET',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

function networkCode(err: unknown): string | null {
  let e = err as { code?: string; name?: string; cause?: unknown } | undefined;
  for (let i = 0; e && i < 4; i++) {
    if (e.code && OFFLINE_CODES.has(e.code)) return e.code;
    if (e.name === 'TimeoutError' || e.name === 'ConnectTimeoutError') return 'ETIMEDOUT';
    e = e.cause as typeof e;
  }
  return null;
}

const VERSION_RE = /^\d{8}T\d{6}Z(-\d+)?$/;

function versionName(now: Date): string {
  return now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** The version directory `current` points to, or null. */
export async function currentVersion(dataDir: string): Promise<string | null> {
  const link = join(pulledReferenceRoot(dataDir), 'current');
  try {
    return (await readlink(link)).replace(/\/$/, '');
  } catch {
    return null;
  }
}

async function readManifest(dir: string): Promise<{ files: ManifestFile[] } | null> {
  try {
    return JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  } catch {
    return null;
  }
}

/** Verifies `SHA256SUMS` of a pulled version directory. */
export async function verifyChecksums(dir: string): Promise<{ ok: boolean; problems: string[] }> {
  const problems: string[] = [];
  let sums: string;
  try {
    sums = await readFile(join(dir, 'SHA256SUMS'), 'utf8');
  } catch {
    return { ok: false, problems: ['SHA256SUMS is missing'] };
  }
  for (const line of sums.split('\n').filter(Boolean)) {
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (!m) {
      problems.push(`unreadable line: ${line}`);
      continue;
    }
    const actual = await readFile(join(dir, m[2])).then(
      (b) => createHash('sha256').update(b).digest('hex'),
      () => null,
    );
    if (actual === null) problems.push(`${m[2]}: missing`);
    else if (actual !== m[1]) problems.push(`${m[2]}: checksum mismatch`);
  }
  return { ok: problems.length === 0, problems };
}

/**
 * The pull lock: `.pull.lock` holds `<pid> <hostname>`. A lock whose process is gone (a pull killed or
 * crashed before its `finally`) is taken over, as is one over an hour old; a live pull's lock is not.
 * Whoever holds the lock may remove `.tmp-*` directories: they are leftovers of such dead pulls.
 */
async function acquireLock(root: string): Promise<() => Promise<void>> {
  const path = join(root, '.pull.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fh = await open(path, 'wx');
      await fh.writeFile(`${process.pid} ${hostname()}\n`);
      await fh.close();
      await removeLeftovers(root);
      return () => rm(path, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const s = await stat(path).catch(() => undefined);
      const owner = await readFile(path, 'utf8').catch(() => '');
      const fresh = s !== undefined && Date.now() - s.mtimeMs < 60 * 60 * 1000;
      if (fresh && !lockOwnerIsGone(owner)) {
        throw new PullError(
          `Another data pull is running (process ${owner.trim() || '?'}, lock file ${path}); remove the file if it is not`,
        );
      }
      await rm(path, { force: true });
    }
  }
  throw new PullError(`Cannot take the lock ${path}`);
}

/** True when the lock names a process of this machine that no longer exists. */
function lockOwnerIsGone(owner: string): boolean {
  const [pidText, host] = owner.trim().split(/\s+/);
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  // A lock written by another machine sharing DATA_DIR cannot be probed: only its age frees it.
  if (host && host !== hostname()) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function removeLeftovers(root: string): Promise<void> {
  for (const name of await readdir(root)) {
    if (name.startsWith('.tmp-') || name.startsWith('.current-'))
      await rm(join(root, name), { recursive: true, force: true });
  }
}

async function download(
  file: PullFile,
  dest: string,
  timeoutMs: number,
  progress: (received: number, total: number | null) => void,
): Promise<ManifestFile> {
  let res: DownloadResponse;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    res = await openDownload(file.url, signal, {
      'user-agent': 'vericase-data-pull (+https://github.com/vericase)',
    });
  } catch (err) {
    const code = networkCode(err);
    const host = (() => {
      try {
        return new URL(file.url).host;
      } catch {
        return file.url;
      }
    })();
    if (code) {
      throw new PullError(
        `Cannot download ${file.label} from ${file.url} (${code}): this machine looks offline, or ${host} is unreachable from it.`,
        true,
      );
    }
    throw new PullError(`Cannot download ${file.label} from ${file.url}: ${(err as Error).message}`);
  }
  if (res.status < 200 || res.status >= 300) {
    res.body.resume();
    throw new PullError(`Downloading ${file.label} failed: HTTP ${res.status} from ${file.url}`);
  }
  const totalHeader = Number(res.header('content-length'));
  const total = Number.isFinite(totalHeader) && totalHeader > 0 ? totalHeader : null;
  await mkdir(dirname(dest), { recursive: true });
  const hash = createHash('sha256');
  const out = createWriteStream(dest);
  let received = 0;
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      hash.update(chunk);
      received += chunk.length;
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      progress(received, total);
    }
  } catch (err) {
    out.destroy();
    const code = networkCode(err);
    throw new PullError(
      `Downloading ${file.label} from ${file.url} was interrupted after ${received} bytes: ${code ?? (err as Error).message}`,
      code !== null,
    );
  }
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
  if (received === 0) throw new PullError(`Downloading ${file.label}: ${file.url} returned an empty file`);
  if (total !== null && received !== total)
    throw new PullError(`Downloading ${file.label}: got ${received} of ${total} bytes from ${file.url}`);
  return {
    path: file.path,
    url: file.url,
    bytes: received,
    sha256: hash.digest('hex'),
    last_modified: res.header('last-modified'),
    etag: res.header('etag'),
  };
}

async function pruneVersions(root: string, keep: number, current: string): Promise<string[]> {
  const versions = (await readdir(root)).filter((n) => VERSION_RE.test(n)).sort();
  const remove = versions.slice(0, Math.max(0, versions.length - keep)).filter((v) => v !== current);
  for (const v of remove) await rm(join(root, v), { recursive: true, force: true });
  return remove;
}

export async function pullReferenceData(opts: PullOptions): Promise<PullResult> {
  const env = opts.env ?? process.env;
  const now = opts.now ?? new Date();
  const plan = pullPlan(env, now);
  const root = pulledReferenceRoot(opts.dataDir);
  await mkdir(root, { recursive: true });
  const release = await acquireLock(root);
  const tmp = await mkdtemp(join(root, '.tmp-'));
  const previous = await currentVersion(opts.dataDir);
  try {
    const files: ManifestFile[] = [];
    for (const [index, file] of plan.entries()) {
      const report = (received: number, total: number | null, done = false) =>
        opts.onProgress?.({ file, index, count: plan.length, received, total, done });
      report(0, null);
      const m = await download(file, join(tmp, file.path), opts.timeoutMs ?? 600_000, (r, t) => report(r, t));
      report(m.bytes, m.bytes, true);
      files.push(m);
    }
    // legal forms: keep the current version's ELF file when none was downloaded
    if (!plan.some((f) => f.source === 'elf') && previous && (await exists(join(root, previous, 'elf')))) {
      await cp(join(root, previous, 'elf'), join(tmp, 'elf'), { recursive: true });
    }
    const sums = files.map((f) => `${f.sha256}  ${f.path}`).join('\n');
    await writeFile(join(tmp, 'SHA256SUMS'), `${sums}\n`);

    // parse before switching: a file that yields no entity must not replace working lists
    const results = await loadReferenceDirectory(tmp);
    for (const key of new Set(plan.map((f) => f.source))) {
      if (key === 'elf') continue;
      const r = results.find((x) => x.source === EXPECTED_SOURCE[key]);
      if (!r || r.entities.length === 0) {
        throw new PullError(
          `The downloaded ${key} list holds no entity (${r?.errors[0] ?? 'unrecognised format'}): the publisher may have changed its format or URL; nothing was changed`,
        );
      }
    }
    const lists = results.map((r) => ({
      source: r.source,
      version: r.version,
      entities: r.entities.length,
      malformed: r.malformed,
    }));

    if (previous) {
      const before = await readManifest(join(root, previous));
      const same =
        before &&
        before.files.length === files.length &&
        files.every((f) => before.files.some((b) => b.path === f.path && b.sha256 === f.sha256));
      if (same) {
        return {
          status: 'unchanged',
          version: previous,
          dir: join(root, previous),
          files,
          lists,
          removed_versions: [],
        };
      }
    }

    let version = versionName(now);
    for (let i = 1; await exists(join(root, version)); i++) version = `${versionName(now)}-${i}`;
    await writeFile(
      join(tmp, 'manifest.json'),
      `${JSON.stringify({ version, created_at: now.toISOString(), files, lists }, null, 2)}\n`,
    );
    await rename(tmp, join(root, version));
    const link = join(root, `.current-${randomBytes(4).toString('hex')}`);
    await symlink(version, link);
    await rename(link, join(root, 'current'));
    const removed = await pruneVersions(root, Math.max(1, opts.keep ?? 3), version);
    return { status: 'updated', version, dir: join(root, version), files, lists, removed_versions: removed };
  } catch (err) {
    if (err instanceof PullError && err.offline) {
      throw new PullError(
        `${err.message} Nothing was changed${previous ? `: the current lists (${previous}) stay in use` : ''}. ` +
          'Without internet access, copy the official list files into a directory (layout in docs/screening.md) and point VERICASE_REFERENCE_DIR at it.',
        true,
      );
    }
    throw err;
  } finally {
    await rm(tmp, { recursive: true, force: true });
    await release();
  }
}
