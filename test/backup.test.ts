import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { type CaseReadBack, caseGraph, createDrillTemplate, readCaseBack } from '../drills/_graphs.ts';
import {
  HttpClient,
  newWorkspace,
  ROOT,
  type ServerProcess,
  startServer,
  waitUntil,
} from '../drills/_lib.ts';
import { makePdf, makePng } from './helpers/files.ts';
import { passportPng, td3Mrz } from './helpers/id-documents.ts';
import { scratchDatabase } from './helpers/scratch-database.ts';

/**
 * `vericase db backup` then `vericase db restore` into a new place, through the real CLI and real
 * server processes: every case graph (GET /v1/cases/{id}), its documents, notes and file bytes
 * read back the same. The embedded database in the PGlite suite; pg_dump/pg_restore into a scratch
 * database in the PostgreSQL suite.
 */
const execFileP = promisify(execFile);
const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function cli(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await execFileP(process.execPath, ['bin/vericase.js', ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function server(env: Record<string, string>): Promise<ServerProcess> {
  const s = await startServer({ env, timeoutMs: 120_000 });
  cleanups.push(() => s.kill9());
  return s;
}

async function upload(api: HttpClient, bytes: Buffer, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const res = await api.request('POST', '/v1/files/upload', form);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.upload_ref;
}

/** Cases with entities, relations, template checks, id_document checks with files, and notes. */
async function populate(api: HttpClient): Promise<string[]> {
  await createDrillTemplate(api);
  const ids: string[] = [];
  for (let n = 0; n < 4; n++) {
    const { body } = caseGraph(`backup-${n}`, n);
    const created = await api.post('/v1/cases', body);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    ids.push(created.body.id);
    const person = created.body.individuals[0].id;
    const check = await api.post('/v1/checks/id_document', {
      individual_id: person,
      data: {
        front_upload_ref: await upload(api, passportPng({ mrz: td3Mrz() }), 'front.png'),
        back_upload_ref: await upload(
          api,
          makePng({ width: 4 + n, height: 3, color: [n * 40, 90, 10] }),
          'back.png',
        ),
      },
    });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    const note = await api.post('/v1/notes', {
      case_id: created.body.id,
      content: `<p>Backup note <b>${n}</b></p>`,
    });
    assert.equal(note.status, 201, JSON.stringify(note.body));
  }
  // a file that is only an upload (not attached) is kept by the backup as well
  await upload(api, makePdf({ text: 'loose upload' }), 'loose.pdf');
  // the snapshot is compared after restore: let every job finish first
  const settled = await waitUntil(async () => {
    for (const id of ids) {
      const res = await api.get(`/v1/cases/${id}`);
      const checks = [...res.body.companies, ...res.body.individuals].flatMap((e: any) => e.checks);
      if (checks.some((k: any) => k.status === 'processing')) return false;
    }
    return true;
  }, 60_000);
  assert.ok(settled, 'checks left processing');
  return ids;
}

/** Everything a client can read about the cases, with the SHA-256 of every document's bytes. */
async function snapshot(api: HttpClient, ids: string[]) {
  const cases: Record<string, CaseReadBack> = {};
  let files = 0;
  for (const id of ids) {
    const read = await readCaseBack(api, id);
    assert.deepEqual(read.status, [200, 200, 200]);
    for (const hash of Object.values(read.files))
      assert.match(hash, /^[0-9a-f]{64}$/, 'every file downloads');
    files += Object.keys(read.files).length;
    cases[id] = read;
  }
  return { cases, files };
}

async function roundTrip(source: Record<string, string>, target: Record<string, string>) {
  const first = await server(source);
  const ws = await newWorkspace(first, 'backup round trip');
  const ids = await populate(ws.client);
  const before = await snapshot(ws.client, ids);
  assert.equal(before.files, 8, 'two files per case');
  const archive = path.join(tempDir('vericase-backup-file-'), 'backup.tar.gz');
  if (!source.DATABASE_URL) {
    // the embedded database belongs to the running server: the backup says so and writes nothing
    const refused = await cli(['db', 'backup', '--out', archive], source);
    assert.equal(refused.code, 3, refused.stderr);
    assert.match(refused.stderr, /already in use by process/);
    // refused before any progress line: nothing claims a copy started
    assert.doesNotMatch(refused.stderr, /Copying the embedded database/);
    assert.equal(fs.existsSync(archive), false);
  }
  assert.equal(await first.stop(), 0, first.output().slice(-4000));

  const backup = await cli(['db', 'backup', '--out', archive], source);
  assert.equal(backup.code, 0, backup.stderr);
  assert.match(backup.stderr, /Backed up the .* database and 9 files/);
  const again = await cli(['db', 'backup', '--out', archive], source);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /exists: choose another file or pass --force/);

  const restored = await cli(['db', 'restore', '--in', archive], target);
  assert.equal(restored.code, 0, restored.stderr);
  assert.match(restored.stderr, /Restored the .* database from .* and 9 files/);
  const overwrite = await cli(['db', 'restore', '--in', archive], target);
  assert.equal(overwrite.code, 1);
  assert.match(overwrite.stderr, /Refusing to overwrite .*not empty\. Pass --force/);
  const forced = await cli(['db', 'restore', '--in', archive, '--force'], target);
  assert.equal(forced.code, 0, forced.stderr);

  const second = await server(target);
  // the same key: the workspace came back with the database
  const restoredApi = new HttpClient(second.base, ws.client.headers);
  const after = await snapshot(restoredApi, ids);
  assert.deepEqual(after, before);
  const list = await restoredApi.get('/v1/cases?limit=100');
  assert.equal(list.body.pagination.count, ids.length);
  // the restored service keeps working: a new case with its template checks
  const more = await restoredApi.post('/v1/cases', caseGraph('after-restore', 1).body);
  assert.equal(more.status, 201, JSON.stringify(more.body));
  assert.equal(await second.stop(), 0, second.output().slice(-4000));
}

const serverUrl = process.env.DATABASE_URL;

if (!serverUrl) {
  test('embedded: db backup (refused while served), restore into a new DATA_DIR, every case graph equal', {
    timeout: 300_000,
  }, async () => {
    const source = { DATABASE_URL: '', DATA_DIR: tempDir('vericase-backup-src-') };
    const target = { DATABASE_URL: '', DATA_DIR: path.join(tempDir('vericase-backup-dst-'), 'data') };
    await roundTrip(source, target);
    // something that is not a backup is refused, with a message saying why
    const notBackup = await cli(['db', 'restore', '--in', '/dev/null'], target);
    assert.equal(notBackup.code, 1);
    assert.match(notBackup.stderr, /not a readable vericase backup/);
    // into a DATA_DIR that did not exist: the refusal leaves no directory behind
    const fresh = { DATABASE_URL: '', DATA_DIR: path.join(tempDir('vericase-backup-none-'), 'a', 'data') };
    const refused = await cli(['db', 'restore', '--in', '/dev/null'], fresh);
    assert.equal(refused.code, 1);
    assert.equal(fs.existsSync(path.dirname(fresh.DATA_DIR)), false);
  });
} else {
  async function scratch(label: string): Promise<string> {
    const db = await scratchDatabase(serverUrl as string, `test_backup_${label}_${process.pid}`);
    cleanups.push(db.drop);
    return db.url;
  }

  test('PostgreSQL: db backup through pg_dump, restore through pg_restore into another database, every case graph equal', {
    timeout: 300_000,
  }, async () => {
    const source = { DATABASE_URL: await scratch('src'), DATA_DIR: tempDir('vericase-backup-src-') };
    const target = { DATABASE_URL: await scratch('dst'), DATA_DIR: tempDir('vericase-backup-dst-') };
    await roundTrip(source, target);
  });
}
