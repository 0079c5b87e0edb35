import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ADMIN_TOKEN, HttpClient, newWorkspace, startServer, waitUntil } from '../drills/_lib.ts';
import { SHARED_DATA_DIR } from './helpers/harness.ts';
import { cleanupsAfter, ownDatabaseEnv, startOwnServer } from './helpers/own-server.ts';

/**
 * A service started before any sanctions list was loaded: an aml check resolves with result error
 * and a comment saying nothing was screened. Once they are loaded as it says (files in the reference
 * directory, then POST /admin/screening/reload), a monitored check is re-screened like on any list
 * version change (docs/screening.md, "Monitoring"). Before, only a change from one recorded version
 * set to another started the re-screening: the first lists ever loaded left such checks in error.
 */

test('the first lists loaded re-screen a monitored aml check that ran without lists', {
  timeout: 120_000,
}, async (t) => {
  const cleanups = cleanupsAfter((fn) => t.after(fn));
  const referenceDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-no-lists-'));
  cleanups.push(() => fs.rmSync(referenceDir, { recursive: true, force: true }));
  const server = await startOwnServer('aml-first-lists', { VERICASE_REFERENCE_DIR: referenceDir }, cleanups);
  const { client: api } = await newWorkspace(server, 'aml first lists');

  const created = await api.post('/v1/cases', {
    name: 'Screened before the lists',
    companies: [
      { type: 'main', name: 'TNK Trading International S.A.', country: 'CH' },
      { type: 'affiliated', name: 'Acme Widgets SAS', country: 'FR' },
    ],
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const check = await api.post('/v1/checks/aml', { company_id: created.body.companies[0].id });
  assert.equal(check.status, 201, JSON.stringify(check.body));
  const url = `/v1/checks/aml/${check.body.id}`;
  // a company on no list: its re-screening finds nothing and approves it
  const clean = await api.post('/v1/checks/aml', { company_id: created.body.companies[1].id });
  assert.equal(clean.status, 201, JSON.stringify(clean.body));
  const cleanUrl = `/v1/checks/aml/${clean.body.id}`;
  for (const u of [url, cleanUrl]) {
    assert.ok(
      await waitUntil(async () => (await api.get(u)).body.data?.result === 'error', 30_000),
      'the check in error',
    );
    const inError = (await api.get(u)).body;
    assert.equal(inError.status, 'need_review');
    // nothing screened yet: not no_match (a subject screened clean)
    assert.equal(inError.data.match_status, 'potential_match');
    assert.match(
      inError.data.review.comment,
      /no sanctions list is loaded on this service\. Nothing was screened/,
    );
    const monitored = await api.patch(`${u}/monitoring`, { is_monitored: true });
    assert.equal(monitored.status, 200, JSON.stringify(monitored.body));
  }

  // the lists arrive as the comment says: files in the reference directory, then a reload
  fs.cpSync(
    path.join(SHARED_DATA_DIR, 'sanctions/ofac-sample'),
    path.join(referenceDir, 'sanctions/ofac-sdn-sample'),
    { recursive: true },
  );
  const admin = new HttpClient(server.base, { authorization: `Bearer ${ADMIN_TOKEN}` });
  const reload = await admin.post('/admin/screening/reload', {});
  assert.equal(reload.status, 200, JSON.stringify(reload.body));

  assert.ok(
    await waitUntil(async () => Boolean((await api.get(url)).body.data?.vendor?.monitored_at), 30_000),
    `not re-screened: ${JSON.stringify((await api.get(url)).body.data)}`,
  );
  const after = (await api.get(url)).body;
  assert.equal(after.status, 'need_review');
  assert.equal(after.data.result, null);
  assert.equal(after.data.match_status, 'potential_match');
  assert.ok(
    after.data.hits.some(
      (h: { name: string; vendor: { updated_by_monitoring_status: string } }) =>
        /TNK TRADING/.test(h.name) && h.vendor.updated_by_monitoring_status === 'new',
    ),
    JSON.stringify(after.data.hits),
  );
  assert.equal(after.data.vendor.list_versions.length, 1);

  // the clean one is approved by the system, with a comment saying what decided: aml has no
  // automatic_approval setting, so the comment must not name that rule (docs/sandbox.md, aml)
  assert.ok(
    await waitUntil(async () => (await api.get(cleanUrl)).body.status === 'approved', 30_000),
    `not approved: ${JSON.stringify((await api.get(cleanUrl)).body.data)}`,
  );
  const approved = (await api.get(cleanUrl)).body;
  assert.equal(approved.data.result, 'approved');
  // screened now, and clean
  assert.equal(approved.data.match_status, 'no_match');
  assert.equal(approved.data.review.reviewer_type, 'system');
  assert.equal(
    approved.data.review.comment,
    'Approved automatically: the re-screening after a list update found no match on the sanctions and watch lists (lists: ofac_sdn)',
  );
});

test('lists back after a start without them, the very ones recorded before, re-screen a monitored check that ran in error', {
  timeout: 180_000,
}, async (t) => {
  const cleanups = cleanupsAfter((fn) => t.after(fn));
  const referenceDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-lists-back-'));
  cleanups.push(() => fs.rmSync(referenceDir, { recursive: true, force: true }));
  const lists = path.join(referenceDir, 'sanctions/ofac-sdn-sample');
  fs.cpSync(path.join(SHARED_DATA_DIR, 'sanctions/ofac-sample'), lists, { recursive: true });
  const env = { ...(await ownDatabaseEnv('aml-lists-back', cleanups)), VERICASE_REFERENCE_DIR: referenceDir };
  const admin = (base: string) => new HttpClient(base, { authorization: `Bearer ${ADMIN_TOKEN}` });

  // 1. a service with the lists: their versions are recorded
  const first = await startServer({ env });
  cleanups.push(() => first.kill9());
  // a reload queues behind the start-up load, its recording included
  const loaded = await admin(first.base).post('/admin/screening/reload', {});
  assert.equal(loaded.status, 200, JSON.stringify(loaded.body));
  const key = loaded.body.versions_key;
  assert.ok(key);
  await first.stop();

  // 2. restarted without them (the directory moved away): a check screened now is in error
  const away = `${referenceDir}-away`; // out of the directory: its loaders look into every folder
  cleanups.push(() => fs.rmSync(away, { recursive: true, force: true }));
  fs.renameSync(lists, away);
  const second = await startServer({ env });
  cleanups.push(() => second.kill9());
  const { client: api } = await newWorkspace(second, 'aml lists back');
  const created = await api.post('/v1/cases', {
    name: 'Screened while the lists were away',
    companies: [{ type: 'main', name: 'TNK Trading International S.A.', country: 'CH' }],
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const check = await api.post('/v1/checks/aml', { company_id: created.body.companies[0].id });
  assert.equal(check.status, 201, JSON.stringify(check.body));
  const url = `/v1/checks/aml/${check.body.id}`;
  assert.ok(
    await waitUntil(async () => (await api.get(url)).body.data?.result === 'error', 30_000),
    'the check in error',
  );
  assert.equal((await api.patch(`${url}/monitoring`, { is_monitored: true })).status, 200);

  // 3. the same lists come back: before, the same version set as recorded was no change, and the
  // check stayed in error until the next real list update
  fs.renameSync(away, lists);
  const back = await admin(second.base).post('/admin/screening/reload', {});
  assert.equal(back.status, 200, JSON.stringify(back.body));
  assert.equal(back.body.versions_key, key);
  assert.ok(
    await waitUntil(async () => Boolean((await api.get(url)).body.data?.vendor?.monitored_at), 30_000),
    `not re-screened: ${JSON.stringify((await api.get(url)).body.data)}`,
  );
  const after = (await api.get(url)).body;
  assert.equal(after.data.result, null);
  assert.equal(after.data.match_status, 'potential_match');
});
