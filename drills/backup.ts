/**
 * `npm run drill -- backup [--cases 40] [--database URL --reset]`
 *
 * Creates case graphs (companies, individuals, relations, template checks, id_document checks
 * with uploaded files, notes), stops the server, runs `vericase db backup`, restores with
 * `vericase db restore` into a new DATA_DIR (and, on PostgreSQL, a new scratch database
 * `<name>_restore` on the same server), starts a server there and compares every case graph, its
 * documents, notes and file bytes with what was read before the backup.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual, parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { makePng } from '../test/helpers/files.ts';
import { type CaseReadBack, caseGraph, createDrillTemplate, readCaseBack } from './_graphs.ts';
import {
  drillDatabase,
  HttpClient,
  newWorkspace,
  printTable,
  ROOT,
  redact,
  type ServerProcess,
  startServer,
  Verdicts,
  waitUntil,
} from './_lib.ts';

const execFileP = promisify(execFile);

async function cli(args: string[], env: Record<string, string>) {
  const started = performance.now();
  try {
    const { stderr } = await execFileP(process.execPath, ['bin/vericase.js', ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stderr, ms: performance.now() - started };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr, ms: performance.now() - started };
  }
}

/** Distinct images per file (size and colour vary), so a swapped file cannot compare equal. */
function fileBytes(n: number, side: 'front' | 'back'): Buffer {
  return makePng({
    width: 4 + (n % 17),
    height: side === 'front' ? 3 : 5,
    color: [n % 256, side === 'front' ? 10 : 200, 90],
  });
}

async function upload(api: HttpClient, bytes: Buffer, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const res = await api.request('POST', '/v1/files/upload', form);
  if (res.status !== 200) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.upload_ref;
}

/** A scratch database beside the drill's one, for the restore (dropped at the end). */
async function scratchDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const target = new URL(url);
  const name = `${target.pathname.slice(1)}_restore`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  await admin.end();
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}

export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      cases: { type: 'string', default: '40' },
      database: { type: 'string' },
      reset: { type: 'boolean', default: false },
    },
  });
  const caseCount = Number(values.cases);
  const db = await drillDatabase({ database: values.database, reset: values.reset });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-backup-drill-'));
  const scratch = db.databaseUrl ? await scratchDatabase(db.databaseUrl) : null;
  const target = { DATABASE_URL: scratch?.url ?? '', DATA_DIR: path.join(work, 'restored') };
  process.stdout.write(
    `backup drill on ${db.kind === 'pglite' ? `PGlite (${db.dataDir})` : `PostgreSQL (${redact(db.databaseUrl ?? '')} → ${redact(scratch?.url ?? '')})`}: ${caseCount} cases\n`,
  );
  let first: ServerProcess | undefined;
  let second: ServerProcess | undefined;
  try {
    first = await startServer({ env: db.env, timeoutMs: 120_000 });
    const ws = await newWorkspace(first, 'backup drill');
    await createDrillTemplate(ws.client);
    const ids: string[] = [];
    let uploads = 0;
    for (let n = 0; n < caseCount; n++) {
      const created = await ws.client.post('/v1/cases', caseGraph(`backup-${n}`, n).body);
      if (created.status !== 201)
        throw new Error(`POST /v1/cases: ${created.status} ${JSON.stringify(created.body)}`);
      ids.push(created.body.id);
      const check = await ws.client.post('/v1/checks/id_document', {
        individual_id: created.body.individuals[0].id,
        data: {
          front_upload_ref: await upload(ws.client, fileBytes(n, 'front'), 'front.png'),
          back_upload_ref: await upload(ws.client, fileBytes(n, 'back'), 'back.png'),
        },
      });
      uploads += 2;
      if (check.status !== 201)
        throw new Error(`POST /v1/checks/id_document: ${check.status} ${JSON.stringify(check.body)}`);
      const note = await ws.client.post('/v1/notes', {
        case_id: created.body.id,
        content: `<p>Drill note ${n}</p>`,
      });
      if (note.status !== 201) throw new Error(`POST /v1/notes: ${note.status}`);
    }
    const settled = await waitUntil(
      async () => {
        for (const id of ids) {
          const res = await ws.client.get(`/v1/cases/${id}`);
          const checks = [...res.body.companies, ...res.body.individuals].flatMap((e: any) => e.checks);
          if (checks.some((k: any) => k.status === 'processing')) return false;
        }
        return true;
      },
      120_000,
      1000,
    );
    if (!settled) throw new Error('checks still processing after 120 s');
    const before = new Map<string, CaseReadBack>();
    for (const id of ids) before.set(id, await readCaseBack(ws.client, id));
    const stopCode = await first.stop();

    const archive = path.join(work, 'vericase-backup.tar.gz');
    const backup = await cli(['db', 'backup', '--out', archive], db.env);
    if (backup.code !== 0) throw new Error(`db backup failed (${backup.code}): ${backup.stderr}`);
    const restore = await cli(['db', 'restore', '--in', archive], target);
    if (restore.code !== 0) throw new Error(`db restore failed (${restore.code}): ${restore.stderr}`);
    const refused = await cli(['db', 'restore', '--in', archive], target);

    second = await startServer({ env: target, timeoutMs: 120_000 });
    const api = new HttpClient(second.base, ws.client.headers);
    const different: string[] = [];
    let files = 0;
    let badFiles = 0;
    for (const id of ids) {
      const after = await readCaseBack(api, id);
      files += Object.keys(after.files).length;
      badFiles += Object.values(after.files).filter((h) => !/^[0-9a-f]{64}$/.test(h)).length;
      if (!isDeepStrictEqual(after, before.get(id))) different.push(id);
    }
    const listed = await api.get('/v1/cases?limit=1');
    const writable = await api.post('/v1/cases', caseGraph('after-restore', 1).body);
    await second.stop();

    printTable('figures', [
      { figure: 'database', value: db.kind },
      { figure: 'cases (graphs with checks, documents, notes)', value: ids.length },
      { figure: 'files uploaded / compared after restore', value: `${uploads} / ${files}` },
      { figure: 'archive size', value: `${Math.round(fs.statSync(archive).size / 1024)} KB` },
      { figure: 'db backup (CLI, server stopped)', value: `${Math.round(backup.ms)} ms` },
      { figure: 'db restore (CLI, into a new place)', value: `${Math.round(restore.ms)} ms` },
      { figure: 'case graphs different after restore', value: different.length },
    ]);
    const v = new Verdicts();
    v.check('the server stopped cleanly before the backup', stopCode === 0, String(stopCode));
    v.check(
      'every case lists after restore',
      listed.body?.pagination?.count === ids.length,
      listed.body?.pagination?.count,
    );
    v.check(
      'every case graph, document list and note list is equal',
      different.length === 0,
      different.length,
    );
    v.check(
      'every document file downloads with the same bytes',
      badFiles === 0 && files === uploads,
      `${files - badFiles} of ${uploads}`,
    );
    v.check(
      'restore refuses a non-empty target without --force',
      refused.code === 1 && /Refusing to overwrite/.test(refused.stderr),
      `exit ${refused.code}`,
    );
    v.check('the restored service takes writes', writable.status === 201, writable.status);
    return v.finish();
  } finally {
    await first?.kill9();
    await second?.kill9();
    await scratch?.drop();
    fs.rmSync(work, { recursive: true, force: true });
    db.cleanup();
  }
}
