/**
 * `npm test`: the whole suite twice, on the embedded database (PGlite) and on PostgreSQL.
 * PostgreSQL comes from TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); it is
 * reset before the run. When it is unreachable the PostgreSQL run is skipped with a warning, except
 * under CI=true, where that is a failure.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { NODE_FLAGS } from '../bin/node-flags.js';

const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const only = process.env.TEST_DB; // 'pglite' | 'postgres' to run one of them
const files = process.argv.slice(2);
const patterns = files.length ? files : ['test/*.test.ts', 'test/**/*.test.ts'];

async function resetPostgres(): Promise<boolean> {
  const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch (err) {
    console.warn(`PostgreSQL at ${pgUrl} is unreachable: ${(err as Error).message}`);
    return false;
  }
  try {
    const { rows } = await client.query<{ nspname: string }>(
      `select nspname from pg_namespace where nspname not like 'pg\\_%' and nspname <> 'information_schema'`,
    );
    for (const { nspname } of rows) await client.query(`drop schema "${nspname}" cascade`);
    await client.query('create schema public');
    return true;
  } finally {
    await client.end();
  }
}

function run(label: string, env: NodeJS.ProcessEnv): number {
  console.log(`\n=== test suite on ${label} ===\n`);
  const res = spawnSync(
    process.execPath,
    [
      // the suite runs with the service's own Node options (bin/node-flags.js)
      ...NODE_FLAGS,
      '--test',
      '--experimental-test-isolation=none',
      '--test-timeout=180000',
      '--test-force-exit',
      '--no-warnings=ExperimentalWarning',
      ...patterns,
    ],
    { stdio: 'inherit', env: { ...process.env, ...env } },
  );
  return res.status ?? 1;
}

let failed = 0;
if (only !== 'postgres') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-test-'));
  failed += run('PGlite (embedded)', { DATABASE_URL: '', DATA_DIR: dir }) ? 1 : 0;
  fs.rmSync(dir, { recursive: true, force: true });
}
if (only !== 'pglite') {
  if (await resetPostgres()) {
    failed += run(`PostgreSQL (${pgUrl})`, { DATABASE_URL: pgUrl }) ? 1 : 0;
  } else if (process.env.CI === 'true') {
    console.error('CI requires the PostgreSQL run.');
    failed += 1;
  } else {
    console.warn('Skipping the PostgreSQL run (set TEST_DATABASE_URL to a reachable server).');
  }
}
process.exit(failed ? 1 : 0);
