import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ServerProcess, startServer } from '../../drills/_lib.ts';
import { scratchDatabase } from './scratch-database.ts';

export type Cleanups = (() => Promise<void> | void)[];

/**
 * Cleanups run, last pushed first, when the test or suite whose `after` is given ends: a file-level
 * `after` would run at the end of the whole suite (every file runs in one process), leaving what a
 * test started (its server and workers) running until then.
 */
export function cleanupsAfter(after: (fn: () => Promise<void>) => void): Cleanups {
  const cleanups: Cleanups = [];
  after(async () => {
    for (const c of cleanups.reverse()) await c();
  });
  return cleanups;
}

/**
 * The environment of a server process a test starts on its own database: a fresh PGlite data
 * directory, or under the PostgreSQL suite (DATABASE_URL set) a fresh database on the same server
 * (the data directory then holds the files). What it made is removed by the functions it pushes on
 * `cleanups`.
 */
export async function ownDatabaseEnv(label: string, cleanups: Cleanups): Promise<Record<string, string>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `vericase-${label}-`));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return { DATABASE_URL: '', DATA_DIR: dataDir };
  const db = await scratchDatabase(serverUrl, `test_${label.replace(/\W/g, '_')}_${process.pid}`);
  cleanups.push(db.drop);
  return { DATABASE_URL: db.url, DATA_DIR: dataDir };
}

/** `vericase serve` on its own database (ownDatabaseEnv) with `env` on top; killed by `cleanups`. */
export async function startOwnServer(
  label: string,
  env: Record<string, string>,
  cleanups: Cleanups,
): Promise<ServerProcess> {
  const server = await startServer({ env: { ...(await ownDatabaseEnv(label, cleanups)), ...env } });
  cleanups.push(() => server.kill9());
  return server;
}
