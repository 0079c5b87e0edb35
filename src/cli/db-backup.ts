/**
 * `vericase db backup --out FILE` and `vericase db restore --in FILE [--force]`.
 *
 * A backup is one gzipped tar archive:
 *   vericase-backup.json   what it holds (format, database kind, date, files)
 *   database/pgdata.tar.gz the embedded database, from PGlite's dumpDataDir()   (embedded)
 *   database/postgres.dump pg_dump --format=custom                             (PostgreSQL)
 *   files/...              DATA_DIR/files, the uploaded files (absent with an S3 bucket)
 * The embedded database is copied while this process holds the DATA_DIR lock, so no server can
 * write during the copy: the copy is consistent by construction. See docs/backup.md.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import * as tar from 'tar';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/connect.ts';
import { acquireDataDirLock } from '../db/data-dir-lock.ts';
import { type Step, startStep } from './progress.ts';

const MANIFEST = 'vericase-backup.json';
const FORMAT = 'vericase-backup';

interface Manifest {
  format: typeof FORMAT;
  version: 1;
  database: 'pglite' | 'postgres';
  created_at: string;
  /** Uploaded files in the archive, or where they live instead. */
  files: { included: true; count: number; bytes: number } | { included: false; reason: string };
}

export const DB_USAGE = `Usage:
  vericase db backup --out FILE [--force]   back up the database and the uploaded files into FILE
  vericase db restore --in FILE [--force]   restore a backup into an empty DATA_DIR (or database)
--force overwrites an existing FILE (backup) or a non-empty target (restore). See docs/backup.md.
`;

/** Shown when pg_dump or pg_restore is not installed: the same steps by hand. */
const POSTGRES_BY_HAND = `Back up and restore a PostgreSQL database with its own tools (same major version or newer):
  pg_dump --format=custom --no-owner --no-privileges --file vericase.dump "$DATABASE_URL"
  pg_restore --no-owner --no-privileges --exit-on-error --dbname "$TARGET_DATABASE_URL" vericase.dump
and copy DATA_DIR/files (or rely on the S3 bucket's own versioning).
`;

class CommandError extends Error {}

export async function dbCommand(sub: string | undefined, args: string[], config: Config): Promise<number> {
  try {
    if (sub === 'backup') {
      const { values } = parseArgs({
        args,
        options: { out: { type: 'string' }, force: { type: 'boolean' } },
      });
      if (!values.out) throw new CommandError(`--out FILE is required\n\n${DB_USAGE}`);
      await backup(config, path.resolve(values.out), values.force ?? false);
      return 0;
    }
    if (sub === 'restore') {
      const { values } = parseArgs({ args, options: { in: { type: 'string' }, force: { type: 'boolean' } } });
      if (!values.in) throw new CommandError(`--in FILE is required\n\n${DB_USAGE}`);
      await restore(config, path.resolve(values.in), values.force ?? false);
      return 0;
    }
    process.stderr.write(DB_USAGE);
    return 2;
  } catch (err) {
    if (
      err instanceof CommandError ||
      (err as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
    ) {
      process.stderr.write(`${(err as Error).message.trimEnd()}\n`);
      return 1;
    }
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// backup

async function backup(config: Config, out: string, force: boolean): Promise<void> {
  if (fs.existsSync(out) && !force)
    throw new CommandError(`${out} exists: choose another file or pass --force`);
  // the embedded database is opened first: openDatabase takes the DATA_DIR lock (refusing while a
  // server runs) and refuses a damaged directory, before any progress line says a copy started.
  // The lock is held until the files are packed too, so both are from one moment.
  let handle: Awaited<ReturnType<typeof openDatabase>> | null = null;
  if (!config.databaseUrl) {
    if (!fs.existsSync(path.join(config.dataDir, 'pgdata', 'PG_VERSION'))) {
      throw new CommandError(`There is no embedded database in ${config.dataDir} to back up.`);
    }
    handle = await openDatabase(config);
  }
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-backup-'));
  const step = startStep(
    config.databaseUrl ? 'Dumping the PostgreSQL database (pg_dump)' : 'Copying the embedded database',
  );
  try {
    fs.mkdirSync(path.join(stage, 'database'));
    if (!handle) {
      dumpPostgres(config.databaseUrl as string, path.join(stage, 'database', 'postgres.dump'));
    } else {
      const pglite = handle.pglite as PGlite;
      const dump = await pglite.dumpDataDir('gzip');
      fs.writeFileSync(path.join(stage, 'database', 'pgdata.tar.gz'), Buffer.from(await dump.arrayBuffer()));
    }
    const files = stageFiles(config, stage);
    const manifest: Manifest = {
      format: FORMAT,
      version: 1,
      database: config.databaseUrl ? 'postgres' : 'pglite',
      created_at: new Date().toISOString(),
      files,
    };
    fs.writeFileSync(path.join(stage, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    const partial = `${out}.partial-${process.pid}`;
    const packing = `Packing the database${files.included ? ` and ${filesCount(files.count)} (${megabytes(files.bytes)})` : ''} into ${out}`;
    step.update(packing);
    // follow: `files` in the stage is a symlink to DATA_DIR/files, packed as its contents
    const onWriteEntry = entryCounter(step, packing, files.included ? files.count : 0);
    await tar.c({ gzip: true, file: partial, cwd: stage, follow: true, portable: true, onWriteEntry }, [
      MANIFEST,
      'database',
      ...(files.included ? ['files'] : []),
    ]);
    fs.renameSync(partial, out);
    step.done(`Archive written (${megabytes(fs.statSync(out).size)})`);
    process.stderr.write(
      `Backed up the ${manifest.database === 'pglite' ? 'embedded' : 'PostgreSQL'} database` +
        `${files.included ? ` and ${filesCount(files.count)}` : ''} into ${out} (${fs.statSync(out).size} bytes).\n` +
        (files.included ? '' : `Files are not included: ${files.reason}\n`),
    );
  } catch (err) {
    step.fail();
    throw err;
  } finally {
    // closes PGlite and releases the lock, after the files were packed (or on a failure)
    await handle?.close();
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** tar's per-entry callback: on a terminal, the step's line counts the uploaded files done. */
function entryCounter(step: Step, text: string, total: number): (() => void) | undefined {
  if (!process.stderr.isTTY || total === 0) return undefined;
  let n = 0;
  let last = 0;
  return () => {
    n += 1;
    const now = Date.now();
    if (now - last < 100) return;
    last = now;
    step.update(`${text}: ${Math.min(n, total)}/${total}`);
  };
}

function stageFiles(config: Config, stage: string): Manifest['files'] {
  if (config.s3) {
    return {
      included: false,
      reason: `they live in the S3 bucket ${config.s3.bucket}: use the bucket's versioning or replication`,
    };
  }
  const dir = path.join(config.dataDir, 'files');
  let count = 0;
  let bytes = 0;
  if (fs.existsSync(dir)) {
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      count += 1;
      bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;
    }
    fs.symlinkSync(dir, path.join(stage, 'files'), 'dir');
  } else {
    fs.mkdirSync(path.join(stage, 'files'));
  }
  return { included: true, count, bytes };
}

function pgTool(name: 'pg_dump' | 'pg_restore', args: string[]): void {
  const res = spawnSync(name, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (res.error && (res.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new CommandError(`${name} is not installed (or not on PATH).\n\n${POSTGRES_BY_HAND}`);
  }
  if (res.status !== 0)
    throw new CommandError(`${name} failed (exit ${res.status ?? res.signal}); see above.`);
}

function dumpPostgres(url: string, file: string): void {
  pgTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', '--file', file, '--dbname', url]);
}

// ---------------------------------------------------------------------------------------------
// restore

async function restore(config: Config, input: string, force: boolean): Promise<void> {
  if (!fs.existsSync(input)) throw new CommandError(`${input} does not exist`);
  // mkdirSync answers the first directory it had to create: a failed restore removes what it made,
  // so a refused file does not leave an empty DATA_DIR behind for the next start to mistake as set up
  const created = fs.mkdirSync(config.dataDir, { recursive: true });
  // The lock keeps a server (or a second restore) away from DATA_DIR while it is being replaced.
  const release = acquireDataDirLock(config.dataDir);
  const stage = fs.mkdtempSync(path.join(config.dataDir, '.restore-'));
  const step = startStep(`Unpacking ${input}`);
  try {
    await tar.x({ file: input, cwd: stage, strict: true }).catch((err: Error) => {
      throw new CommandError(`${input} is not a readable vericase backup: ${err.message}`);
    });
    const manifest = readManifest(stage, input);
    const kind = config.databaseUrl ? 'postgres' : 'pglite';
    if (manifest.database !== kind) {
      throw new CommandError(
        `${input} holds ${manifest.database === 'pglite' ? 'an embedded' : 'a PostgreSQL'} database; ` +
          `this configuration uses ${kind === 'pglite' ? 'the embedded database (DATA_DIR)' : 'PostgreSQL (DATABASE_URL)'}. ` +
          'Restore it with the same kind of database.',
      );
    }
    const filesDir = path.join(config.dataDir, 'files');
    const restoreFiles = manifest.files.included && !config.s3;
    if (!force) {
      const busy: string[] = [];
      if (kind === 'pglite' && nonEmpty(path.join(config.dataDir, 'pgdata')))
        busy.push(path.join(config.dataDir, 'pgdata'));
      if (kind === 'postgres' && (await postgresHasTables(config.databaseUrl as string)))
        busy.push('the database');
      if (restoreFiles && nonEmpty(filesDir)) busy.push(filesDir);
      if (busy.length) {
        throw new CommandError(
          `Refusing to overwrite ${busy.join(' and ')}: not empty. Pass --force to replace.`,
        );
      }
    }
    step.update(
      kind === 'pglite'
        ? 'Restoring the embedded database'
        : 'Restoring the PostgreSQL database (pg_restore)',
    );
    if (kind === 'pglite') {
      const staged = path.join(stage, 'pgdata');
      fs.mkdirSync(staged);
      const tarball = fs.readFileSync(path.join(stage, 'database', 'pgdata.tar.gz'));
      const pglite = await PGlite.create(staged, { loadDataDir: new Blob([tarball]) });
      await pglite.query('select 1'); // proves the restored cluster opens
      await pglite.close();
      replaceDir(staged, path.join(config.dataDir, 'pgdata'));
    } else {
      // pg_restore --clean cannot drop pg-boss's partitioned tables: --force empties the database instead
      if (force) await emptyPostgres(config.databaseUrl as string);
      const args = ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction'];
      pgTool('pg_restore', [
        ...args,
        '--dbname',
        config.databaseUrl as string,
        path.join(stage, 'database', 'postgres.dump'),
      ]);
    }
    if (restoreFiles) {
      step.update(`Putting ${filesCount(manifest.files.included ? manifest.files.count : 0)} in place`);
      replaceDir(path.join(stage, 'files'), filesDir);
    }
    step.done('Restore complete');
    process.stderr.write(
      `Restored the ${kind === 'pglite' ? 'embedded' : 'PostgreSQL'} database from ${input} (taken ${manifest.created_at})` +
        (restoreFiles && manifest.files.included
          ? ` and ${filesCount(manifest.files.count)} into ${filesDir}`
          : '') +
        '.\n' +
        (manifest.files.included ? '' : `The backup holds no files: ${manifest.files.reason}\n`) +
        (manifest.files.included && config.s3
          ? 'Its files were not restored: this configuration uses an S3 bucket.\n'
          : ''),
    );
  } catch (err) {
    step.fail();
    fs.rmSync(stage, { recursive: true, force: true });
    release();
    if (created) fs.rmSync(created, { recursive: true, force: true });
    throw err;
  }
  fs.rmSync(stage, { recursive: true, force: true });
  release();
}

function readManifest(stage: string, input: string): Manifest {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(stage, MANIFEST), 'utf8')) as Manifest;
    if (m.format === FORMAT && m.version === 1) return m;
  } catch {
    // reported below
  }
  throw new CommandError(`${input} is not a vericase backup (no readable ${MANIFEST})`);
}

function nonEmpty(dir: string): boolean {
  try {
    return fs.readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}

/** Puts `from` at `to` (same file system), removing what was there only once `from` is complete. */
function replaceDir(from: string, to: string): void {
  const old = `${to}.replaced-${process.pid}`;
  if (fs.existsSync(to)) fs.renameSync(to, old);
  fs.renameSync(from, to);
  fs.rmSync(old, { recursive: true, force: true });
}

/** Drops every schema but the system ones (public is recreated empty), in one transaction. */
async function emptyPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<{ nspname: string }>(
      `select nspname from pg_namespace where nspname not like 'pg\\_%' and nspname <> 'information_schema'`,
    );
    for (const { nspname } of rows)
      await client.query(`drop schema "${nspname.replaceAll('"', '""')}" cascade`);
    await client.query('create schema public');
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
}

async function postgresHasTables(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p') and n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema' limit 1`,
    );
    return rows.length > 0;
  } finally {
    await client.end();
  }
}

/** `1 file`, `3 files`. */
function filesCount(n: number): string {
  return `${n} ${n === 1 ? 'file' : 'files'}`;
}
