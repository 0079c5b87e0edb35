import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { HttpClient, newWorkspace, ROOT, startServer } from '../drills/_lib.ts';
import { makePng } from './helpers/files.ts';

/**
 * The embedded database after a `kill -9` and with a damaged directory, through the real CLI:
 * a killed server's stale lock is taken over and every acknowledged write is still there; a
 * directory that has data but is not a valid cluster is refused with a clear message and exit
 * code 4, never silently re-initialised as an empty database. Embedded only: it runs in the
 * PGlite suite.
 */
const execFileP = promisify(execFile);
const dirs: string[] = [];
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-recovery-'));
  dirs.push(dir);
  return dir;
}

const env = (dataDir: string) => ({ DATABASE_URL: '', DATA_DIR: dataDir });

async function cli(args: string[], dataDir: string) {
  try {
    const { stdout, stderr } = await execFileP(process.execPath, ['bin/vericase.js', ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env(dataDir) },
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Every file under `dir` with its size, to prove a refused start wrote nothing. */
function listing(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const p = path.join(e.parentPath, e.name);
      return `${path.relative(dir, p)}:${fs.statSync(p).size}`;
    })
    .sort();
}

if (!process.env.DATABASE_URL) {
  describe('embedded database after a crash', () => {
    let source: string; // a DATA_DIR with a workspace, a case and an upload, written then killed
    let key: string;
    let caseId: string;

    before(async () => {
      source = tempDir();
      const server = await startServer({ env: env(source), timeoutMs: 120_000 });
      try {
        const ws = await newWorkspace(server, 'recovery');
        key = ws.key;
        const created = await ws.client.post('/v1/cases', {
          name: 'Survives kill -9',
          companies: [{ ref: 'main', type: 'main', name: 'Kill Nine SAS', country: 'FR' }],
          individuals: [
            { first_name: 'Ada', last_name: 'Lovelace', relations: [{ roles: ['legal_representative'] }] },
          ],
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        caseId = created.body.id;
        const form = new FormData();
        form.append('file', new Blob([makePng({ width: 3, height: 2 })]), 'r.png');
        const up = await ws.client.request('POST', '/v1/files/upload', form);
        assert.equal(up.status, 200, JSON.stringify(up.body));
        const patched = await ws.client.patch(`/v1/cases/${caseId}`, { name: 'Renamed before the kill' });
        assert.equal(patched.status, 200);
      } finally {
        await server.kill9();
      }
      // the killed process left its lock behind
      assert.ok(fs.existsSync(path.join(source, 'vericase.lock')));
    });

    test('restart after kill -9 takes the stale lock over and has every acknowledged write', {
      timeout: 180_000,
    }, async () => {
      const dir = tempDir();
      fs.cpSync(source, dir, { recursive: true });
      const server = await startServer({ env: env(dir), timeoutMs: 120_000 });
      try {
        assert.equal(fs.readFileSync(path.join(dir, 'vericase.lock'), 'utf8'), String(server.pid));
        const api = new HttpClient(server.base, { 'x-service-api-key': key });
        const kase = await api.get(`/v1/cases/${caseId}`);
        assert.equal(kase.status, 200);
        assert.equal(kase.body.name, 'Renamed before the kill');
        assert.equal(kase.body.companies[0].name, 'Kill Nine SAS');
        assert.equal(kase.body.individuals[0].relations.length, 1);
        // and it takes writes again
        const more = await api.post('/v1/cases', { name: 'After restart' });
        assert.equal(more.status, 201);
        // and runs jobs: the queues existed, so this start created none (src/jobs/queue.ts) and the
        // check's job, enqueued inside the create's transaction, goes through pg-boss's warm cache
        const check = await api.post('/v1/checks/online_reputation', {
          company_id: kase.body.companies[0].id,
        });
        assert.equal(check.status, 201, JSON.stringify(check.body));
        let status = check.body.status;
        for (const deadline = Date.now() + 30_000; status === 'processing' && Date.now() < deadline; ) {
          await new Promise((r) => setTimeout(r, 100));
          status = (await api.get(`/v1/checks/online_reputation/${check.body.id}`)).body.status;
        }
        assert.equal(status, 'approved');
        // a second process on the same directory is still refused while this one runs
        const second = await cli(['migrate'], dir);
        assert.equal(second.code, 3, second.stderr);
        assert.match(second.stderr, new RegExp(`already in use by process ${server.pid}`));
      } finally {
        assert.equal(await server.stop(), 0);
      }
      assert.equal(fs.existsSync(path.join(dir, 'vericase.lock')), false, 'a clean stop releases the lock');
    });

    const damages: { name: string; damage: (pgdata: string, dataDir: string) => void; message: RegExp }[] = [
      {
        name: 'PG_VERSION deleted (PGlite alone would initialise an empty database over it)',
        damage: (pgdata) => fs.rmSync(path.join(pgdata, 'PG_VERSION')),
        message: /is damaged: it has files but PG_VERSION is missing or empty/,
      },
      {
        name: 'global/pg_control truncated',
        damage: (pgdata) => fs.truncateSync(path.join(pgdata, 'global', 'pg_control'), 0),
        message: /is damaged: it has files but global\/pg_control is missing or empty/,
      },
      {
        name: 'pg_wal emptied',
        damage: (pgdata) => {
          for (const f of fs.readdirSync(path.join(pgdata, 'pg_wal'))) {
            fs.rmSync(path.join(pgdata, 'pg_wal', f), { recursive: true });
          }
        },
        message: /could not be opened \(PGlite: .*\); its files are damaged/,
      },
      {
        name: 'pgdata deleted while uploaded files remain',
        damage: (pgdata) => fs.rmSync(pgdata, { recursive: true }),
        message: /is missing or empty, but .*files holds uploaded files: the database was lost/,
      },
    ];
    for (const { name, damage, message } of damages) {
      test(`refuses a damaged directory: ${name}`, { timeout: 120_000 }, async () => {
        const dir = tempDir();
        fs.cpSync(source, dir, { recursive: true });
        fs.rmSync(path.join(dir, 'vericase.lock'));
        damage(path.join(dir, 'pgdata'), dir);
        const before = listing(dir);
        for (const command of ['serve', 'migrate']) {
          const res = await cli([command], dir);
          assert.equal(res.code, 4, `${command}: ${res.stderr}`);
          assert.match(res.stderr, message);
          assert.match(res.stderr, /Restore it from a backup \(vericase db restore --in FILE/);
          assert.match(res.stderr, /will not start an empty database over it/);
          assert.doesNotMatch(res.stdout, /Created workspace/);
        }
        // nothing was written into the damaged directory, and its lock was released
        assert.deepEqual(listing(dir), before);
      });
    }
  });
}
