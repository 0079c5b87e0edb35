import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { purgeExpiredUploads } from '../src/files/purge-expired-uploads.ts';
import { getStorage } from '../src/files/storage.ts';
import { buildApp } from '../src/http/app.ts';
import { settledDocument } from './helpers/document-checks.ts';
import { makePdf, makePng, pngHeader, uploadRef } from './helpers/files.ts';
import { type Client, eventually, getHarness, newWorkspace } from './helpers/harness.ts';
import { passportPng, td3Mrz } from './helpers/id-documents.ts';
import { caseEvents, portal, portalCase, portalToken, portalUpload } from './helpers/portal.ts';

const png = (text: Record<string, string> = {}) => makePng({ width: 6, height: 4, text });

async function createCheck(api: Client, type: string, body: Record<string, unknown>) {
  const res = await api.post(`/v1/checks/${type}`, body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.status, 'in_progress');
  return res.body.id as string;
}

/** A case with a company document check, a proof of address and an id_document for the contact, and one for Alan. */
async function world(api: Client) {
  const ids = await portalCase(api);
  const kbis = await createCheck(api, 'document', {
    company_id: ids.companyId,
    settings: { document_type_key: 'registration_certificate' },
  });
  const address = await createCheck(api, 'document', {
    individual_id: ids.contactId,
    settings: { document_type_key: 'proof_of_address' },
  });
  const adaId = await createCheck(api, 'id_document', { individual_id: ids.contactId });
  const alanId = await createCheck(api, 'id_document', { individual_id: ids.alanId });
  const { token, linkId } = await portalToken(api, ids.caseId, ids.contactId);
  return { ...ids, kbis, address, adaId, alanId, token, linkId };
}

async function caseRow(caseId: string) {
  const { ctx } = await getHarness();
  return ctx.db.selectFrom('cases').selectAll().where('id', '=', caseId).executeTakeFirstOrThrow();
}

describe('portal API: session', () => {
  test('the link alone gives the portal, the case, the contact and the actions with their slots', async () => {
    const api = await newWorkspace();
    const w = await world(api);
    const res = await portal(w.token, 'GET', '/session');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.headers['cache-control'], 'no-store');
    const s = res.body;
    assert.deepEqual(s.portal, {
      name: 'Client portal',
      default_language: 'en',
      accent_color: '#2f6fed',
      logo_url: null,
    });
    assert.deepEqual(s.case, { name: 'Portal case', company_name: 'Acme SAS' });
    assert.deepEqual(s.contact, { first_name: 'Ada', last_name: 'Lovelace' });
    assert.equal(s.scope, 'case');
    assert.ok(Date.parse(s.expires_at) > Date.now() + 160 * 3_600_000, 'default lifetime 168 h');
    assert.equal(s.redirect_url, null);
    assert.equal(s.all_submitted, false);
    assert.equal(s.wait_step, null);
    assert.deepEqual(
      s.actions.map((a: any) => [a.id, a.type, a.state, a.entity.kind, a.entity.name, a.label, a.can_submit]),
      [
        [w.kbis, 'document', 'todo', 'company', 'Acme SAS', 'Registration certificate', false],
        [w.address, 'document', 'todo', 'individual', 'Ada Lovelace', 'Proof of address', false],
        [w.adaId, 'id_document', 'todo', 'individual', 'Ada Lovelace', null, false],
        [w.alanId, 'id_document', 'todo', 'individual', 'Alan Turing', null, false],
      ],
    );
    const kbis = s.actions[0];
    assert.equal(kbis.description, null);
    assert.deepEqual(kbis.slots, [
      {
        key: 'files',
        required: true,
        min_files: 1,
        max_files: 10,
        accept: 'application/pdf,image/jpeg,image/png',
        capture: null,
        files: [],
      },
    ]);
    assert.deepEqual(
      s.actions[2].slots.map((x: any) => [x.key, x.required, x.min_files, x.max_files, x.files.length]),
      [
        ['front', true, 1, 1, 0],
        ['back', false, 0, 1, 0],
      ],
    );
    // the link's use is recorded
    const { ctx } = await getHarness();
    const link = await ctx.db
      .selectFrom('client_portal_links')
      .select('last_used_at')
      .where('id', '=', w.linkId)
      .executeTakeFirstOrThrow();
    assert.ok(link.last_used_at);
  });

  test('not shown: checks of entities marked not relevant, internal checks, checks the contact supplies nothing for', async () => {
    const api = await newWorkspace();
    const ids = await portalCase(api);
    const shown = await createCheck(api, 'id_document', { individual_id: ids.contactId });
    await createCheck(api, 'id_document', { individual_id: ids.graceId });
    const rel = await api.post(`/v1/individuals/${ids.graceId}/set-relevant`, { is_relevant: false });
    assert.equal(rel.status, 200, JSON.stringify(rel.body));
    const type = await api.post('/v1/document_types', {
      key: 'internal_memo',
      label: 'Internal memo',
      target_entities: ['company'],
      is_internal: true,
    });
    assert.equal(type.status, 201, JSON.stringify(type.body));
    const internal = await createCheck(api, 'document', {
      company_id: ids.companyId,
      settings: { document_type_key: 'internal_memo' },
    });
    const { token } = await portalToken(api, ids.caseId, ids.contactId);
    const s = (await portal(token, 'GET', '/session')).body;
    assert.deepEqual(
      s.actions.map((a: any) => a.id),
      [shown],
    );
    const refused = await portalUpload(token, internal, 'files', png());
    assert.equal(refused.status, 404, JSON.stringify(refused.body));
  });
});

describe('portal API: what the case shows of the contact', () => {
  /** The case's events in commit order, with what their case payload says. */
  async function recorded(workspaceId: string, caseId: string) {
    const { ctx } = await getHarness();
    const rows = await ctx.db
      .selectFrom('events')
      .select(['seq', 'type', 'sub_event', 'actor_type', 'payload'])
      .where('workspace_id', '=', workspaceId)
      .where('case_id', '=', caseId)
      .orderBy('seq')
      .execute();
    return rows.map((e) => ({ ...e, case: (e.payload as any).case ?? null }));
  }

  test("sharing the first link is a Case.Updated; a contact action moves updated_at; a submission's events carry it", async () => {
    const api = await newWorkspace();
    const ids = await portalCase(api);
    const kbis = await createCheck(api, 'document', {
      company_id: ids.companyId,
      settings: { document_type_key: 'registration_certificate' },
    });
    const created = await caseRow(ids.caseId);
    const before = (await recorded(api.workspaceId, ids.caseId)).length;

    // the case now shows a client portal: receivers hear of it (an API change, no activity)
    await portalToken(api, ids.caseId, ids.contactId);
    const shared = await caseRow(ids.caseId);
    assert.ok(shared.updated_at > created.updated_at);
    const afterShare = await recorded(api.workspaceId, ids.caseId);
    assert.deepEqual(
      afterShare.slice(before).map((e) => [e.type, e.sub_event, e.actor_type]),
      [['Case.Updated', null, 'api']],
    );
    assert.equal(afterShare.at(-1)?.case.updated_at, shared.updated_at.toISOString());
    // the same portal again (a new link, the first one withdrawn): nothing of the case changed
    const { token } = await portalToken(api, ids.caseId, ids.contactId);
    assert.equal((await recorded(api.workspaceId, ids.caseId)).length, afterShare.length);

    // an upload is a change of the case (last_contact_action_at): updated_at moves with it
    assert.equal((await portalUpload(token, kbis, 'files', png())).status, 201);
    const uploaded = await caseRow(ids.caseId);
    assert.ok(uploaded.updated_at > shared.updated_at);
    assert.equal(uploaded.updated_at.getTime(), uploaded.last_contact_action_at?.getTime());
    const since = encodeURIComponent(shared.updated_at.toISOString());
    const polled = await api.get(`/v1/cases?updated_at.gt=${since}`);
    assert.deepEqual(
      polled.body.data.map((c: { id: string }) => c.id),
      [ids.caseId],
    );

    // the submission: the contact's act first, then what it caused, every payload with its time
    const mark = (await recorded(api.workspaceId, ids.caseId)).length;
    assert.equal((await portal(token, 'POST', `/actions/${kbis}/submit`)).status, 200);
    const submitted = await caseRow(ids.caseId);
    const events = (await recorded(api.workspaceId, ids.caseId)).slice(mark);
    assert.equal(events[0].type, 'Case.Updated');
    assert.equal(events[0].actor_type, 'contact');
    assert.ok(events.length > 1, JSON.stringify(events.map((e) => e.type)));
    for (const e of events.filter((x) => x.case && 'last_contact_action_at' in x.case))
      assert.equal(
        e.case.last_contact_action_at,
        submitted.last_contact_action_at?.toISOString(),
        `${e.type} ${e.sub_event}`,
      );
  });
});

describe('portal API: pending files', () => {
  test('an upload is kept as a pending file of the step, survives a new session, and can be removed', async () => {
    const api = await newWorkspace();
    const w = await world(api);
    const up = await portalUpload(w.token, w.kbis, 'files', png(), 'kbis.png', 'image/png');
    assert.equal(up.status, 201, JSON.stringify(up.body));
    assert.equal(up.body.id, w.kbis);
    assert.equal(up.body.state, 'todo');
    assert.equal(up.body.can_submit, true);
    const [file] = up.body.slots[0].files;
    assert.equal(file.name, 'kbis.png');
    assert.equal(file.size, png().length);
    assert.match(file.id, /^[0-9a-f-]{36}$/);

    // a new session (the page reopened) shows it
    const again = (await portal(w.token, 'GET', '/session')).body;
    assert.deepEqual(again.actions[0].slots[0].files, [file]);

    // stored: the pending row, its upload kept as long as the link
    const { ctx } = await getHarness();
    const row = await ctx.db
      .selectFrom('client_portal_pending_files as p')
      .innerJoin('files as f', 'f.id', 'p.file_id')
      .select(['p.check_id', 'p.slot', 'p.workspace_id', 'p.file_id', 'f.expires_at', 'f.attached_at'])
      .where('p.id', '=', file.id)
      .executeTakeFirstOrThrow();
    const link = await ctx.db
      .selectFrom('client_portal_links')
      .select('expires_at')
      .where('id', '=', w.linkId)
      .executeTakeFirstOrThrow();
    assert.equal(row.check_id, w.kbis);
    assert.equal(row.slot, 'files');
    assert.equal(row.workspace_id, api.workspaceId);
    assert.equal(row.attached_at, null);
    assert.equal(row.expires_at.getTime(), link.expires_at.getTime());

    // the check itself is untouched until the step is submitted
    const check = await api.get(`/v1/checks/document/${w.kbis}`);
    assert.equal(check.body.status, 'in_progress');
    assert.deepEqual(check.body.data.document_file_ids, []);

    // every write is a contact action on the case
    const c = await caseRow(w.caseId);
    assert.ok(c.last_contact_action_at);
    const updated = await caseEvents(api.workspaceId, w.caseId, 'Case.Updated');
    const mine = updated.filter((e) => e.actor_type === 'contact');
    assert.equal(mine.length, 1);
    assert.equal(mine[0].sub_event, null);
    assert.equal(mine[0].actor_id, w.contactId);
    assert.equal(
      (mine[0].payload as any).case.last_contact_action_at,
      c.last_contact_action_at?.toISOString(),
    );

    const del = await portal(w.token, 'DELETE', `/actions/${w.kbis}/files/${file.id}`);
    assert.equal(del.status, 200, JSON.stringify(del.body));
    assert.deepEqual(del.body.slots[0].files, []);
    assert.equal(del.body.can_submit, false);
    const gone = await ctx.db
      .selectFrom('client_portal_pending_files')
      .select('id')
      .where('id', '=', file.id)
      .executeTakeFirst();
    assert.equal(gone, undefined);
    // its upload expires now: the hourly purge deletes it
    const dropped = await ctx.db
      .selectFrom('files')
      .select('expires_at')
      .where('id', '=', row.file_id)
      .executeTakeFirstOrThrow();
    assert.ok(dropped.expires_at.getTime() <= Date.now());
    const twice = await portal(w.token, 'DELETE', `/actions/${w.kbis}/files/${file.id}`);
    assert.equal(twice.status, 404);
    assert.equal(
      (await caseEvents(api.workspaceId, w.caseId, 'Case.Updated')).filter((e) => e.actor_type === 'contact')
        .length,
      2,
    );
  });

  test('a single-file slot is replaced; a full slot, an unknown slot and a missing slot are 400 naming slot', async () => {
    const api = await newWorkspace();
    const w = await world(api);
    const first = await portalUpload(w.token, w.adaId, 'front', passportPng(), 'one.png');
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const second = await portalUpload(w.token, w.adaId, 'front', passportPng(), 'two.png');
    assert.equal(second.status, 201, JSON.stringify(second.body));
    assert.deepEqual(
      second.body.slots[0].files.map((f: any) => f.name),
      ['two.png'],
    );
    assert.equal(second.body.can_submit, true, 'back is optional');

    for (let i = 0; i < 10; i++) {
      const r = await portalUpload(w.token, w.kbis, 'files', png(), `p${i}.png`);
      assert.equal(r.status, 201, JSON.stringify(r.body));
    }
    const full = await portalUpload(w.token, w.kbis, 'files', png(), 'p10.png');
    assert.equal(full.status, 400);
    assert.equal(full.body.details[0].path, 'slot');
    assert.match(full.body.message, /10 files/);

    const unknown = await portalUpload(w.token, w.adaId, 'selfie', png());
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.details[0].path, 'slot');
    assert.match(unknown.body.message, /front, back/);

    const { app } = await getHarness();
    const noSlot = await app.inject({
      method: 'POST',
      url: `/portal/api/actions/${w.adaId}/files`,
      headers: { authorization: `Bearer ${w.token}`, 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--\r\n',
    });
    assert.equal(noSlot.statusCode, 400);
    assert.equal(JSON.parse(noSlot.body).details[0].path, 'slot');
    const json = await app.inject({
      method: 'POST',
      url: `/portal/api/actions/${w.adaId}/files?slot=front`,
      headers: { authorization: `Bearer ${w.token}`, 'content-type': 'application/json' },
      payload: '{}',
    });
    assert.equal(json.statusCode, 415);
    const noFile = await app.inject({
      method: 'POST',
      url: `/portal/api/actions/${w.adaId}/files?slot=front`,
      headers: { authorization: `Bearer ${w.token}`, 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--x--\r\n',
    });
    assert.equal(noFile.statusCode, 400, noFile.body);
    assert.equal(JSON.parse(noFile.body).details[0].path, 'file');
  });

  test('a new link for the contact keeps the pending files as long as it: the purge spares them, the step submits', async () => {
    const api = await newWorkspace();
    const w = await world(api);
    const up = await portalUpload(w.token, w.kbis, 'files', png(), 'kbis.png', 'image/png');
    assert.equal(up.status, 201, JSON.stringify(up.body));
    const { ctx } = await getHarness();
    // the first link was shared six days and a half ago: it (and so the upload) ends in half a day
    const soon = new Date(Date.now() + 12 * 3_600_000);
    await ctx.db
      .updateTable('client_portal_links')
      .set({ expires_at: soon })
      .where('id', '=', w.linkId)
      .execute();
    const pending = await ctx.db
      .selectFrom('client_portal_pending_files')
      .select('file_id')
      .where('check_id', '=', w.kbis)
      .executeTakeFirstOrThrow();
    await ctx.db.updateTable('files').set({ expires_at: soon }).where('id', '=', pending.file_id).execute();

    // the operator shares a new link (the first is revoked); the contact comes back with it a day later
    const renewed = await portalToken(api, w.caseId, w.contactId);
    const renewedLink = await ctx.db
      .selectFrom('client_portal_links')
      .select('expires_at')
      .where('id', '=', renewed.linkId)
      .executeTakeFirstOrThrow();
    const upload = await ctx.db
      .selectFrom('files')
      .select('expires_at')
      .where('id', '=', pending.file_id)
      .executeTakeFirstOrThrow();
    assert.equal(
      upload.expires_at.getTime(),
      renewedLink.expires_at.getTime(),
      'kept as long as the new link',
    );
    // the hourly purge once the first link is over (uploads of other tests ending later are spared)
    await purgeExpiredUploads(ctx.db, getStorage(ctx), new Date(soon.getTime() + 60_000));
    const session = (await portal(renewed.token, 'GET', '/session')).body;
    const kbis = session.actions.find((a: any) => a.id === w.kbis);
    assert.deepEqual(
      kbis.slots[0].files.map((f: any) => f.name),
      ['kbis.png'],
    );
    const submitted = await portal(renewed.token, 'POST', `/actions/${w.kbis}/submit`);
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    assert.equal(submitted.body.state, 'submitted');
  });

  test('concurrent writes: uploads to a one-file slot leave one file; of two submissions one wins', async () => {
    const api = await newWorkspace();
    const w = await world(api);
    const ups = await Promise.all(
      ['a.png', 'b.png', 'c.png'].map((n) => portalUpload(w.token, w.adaId, 'front', passportPng(), n)),
    );
    assert.deepEqual(
      ups.map((u) => u.status),
      [201, 201, 201],
    );
    const { ctx } = await getHarness();
    const rows = await ctx.db
      .selectFrom('client_portal_pending_files')
      .select('file_id')
      .where('check_id', '=', w.adaId)
      .execute();
    assert.equal(rows.length, 1);
    const session = (await portal(w.token, 'GET', '/session')).body;
    assert.equal(session.actions[2].slots[0].files.length, 1);
    const sends = await Promise.all([
      portal(w.token, 'POST', `/actions/${w.adaId}/submit`),
      portal(w.token, 'POST', `/actions/${w.adaId}/submit`),
    ]);
    assert.deepEqual(sends.map((r) => r.status).sort(), [200, 400]);
    const check = await api.get(`/v1/checks/id_document/${w.adaId}`);
    assert.equal(check.body.data.information.front_file_id, rows[0].file_id);
  });

  test('over 20 MB → 413; a format the service or the slot does not take → 400 naming file; nothing kept', async () => {
    const api = await newWorkspace();
    const w = await world(api);
    const big = Buffer.concat([png(), Buffer.alloc(20 * 1024 * 1024 + 1, 0x61)]);
    const tooBig = await portalUpload(w.token, w.kbis, 'files', big, 'big.png');
    assert.equal(tooBig.status, 413, JSON.stringify(tooBig.body));
    assert.equal(tooBig.body.details[0].path, 'file');

    const text = await portalUpload(w.token, w.kbis, 'files', Buffer.from('hello, not a document'), 'a.txt');
    assert.equal(text.status, 400, JSON.stringify(text.body));
    assert.equal(text.body.details[0].path, 'file');
    // the message says what this slot takes, not every format /v1/files/upload knows (HEIC, TIFF...)
    assert.equal(
      text.body.message,
      'file format is not accepted: slot files takes application/pdf,image/jpeg,image/png',
    );
    assert.equal(text.body.details[0].message, text.body.message);

    const lying = await portalUpload(w.token, w.kbis, 'files', png(), 'scan.pdf', 'application/pdf');
    assert.equal(lying.status, 400, JSON.stringify(lying.body));
    assert.equal(lying.body.details[0].path, 'file');
    // a format the slot takes, under a name that says another: the message says so, rather than
    // listing as accepted the very format the file is
    const misnamed = await portalUpload(w.token, w.kbis, 'files', png(), 'scan.pdf');
    assert.equal(misnamed.status, 400, JSON.stringify(misnamed.body));
    assert.equal(
      misnamed.body.message,
      'file content is PNG but its name "scan.pdf" says .pdf (slot files takes application/pdf,image/jpeg,image/png)',
    );
    assert.equal(misnamed.body.details[0].message, misnamed.body.message);
    assert.equal(misnamed.body.code, 'FILE_NAME_MISMATCH');
    assert.equal(lying.body.code, 'FILE_NAME_MISMATCH');

    // a small file of too many pixels: a 413 with a code of its own (the page said it was over
    // 20 MB), the message as /v1/files/upload has it
    const huge = await portalUpload(w.token, w.kbis, 'files', pngHeader(11_000, 10_000), 'huge-scan.png');
    assert.equal(huge.status, 413, JSON.stringify(huge.body));
    assert.equal(huge.body.code, 'IMAGE_TOO_MANY_PIXELS');
    assert.equal(
      huge.body.message,
      'image is 11000 × 10000 pixels (110 megapixels); the limit is 100 megapixels',
    );
    assert.deepEqual(huge.body.details, [{ path: 'file', message: huge.body.message }]);
    // the size limit's 413 keeps the per-status code
    assert.equal(tooBig.body.code, 'PAYLOAD_TOO_LARGE');

    // WebP is an accepted upload of the files module but not a format these slots take
    const webp = Buffer.concat([
      Buffer.from('RIFF'),
      Buffer.from([0x1a, 0, 0, 0]),
      Buffer.from('WEBPVP8L'),
      Buffer.from([0x0d, 0, 0, 0, 0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0]),
    ]);
    const slotRefused = await portalUpload(w.token, w.kbis, 'files', webp, 'photo.webp');
    assert.equal(slotRefused.status, 400, JSON.stringify(slotRefused.body));
    assert.equal(slotRefused.body.details[0].path, 'file');
    assert.match(slotRefused.body.message, /image\/webp/);

    const { ctx } = await getHarness();
    const pending = await ctx.db
      .selectFrom('client_portal_pending_files')
      .select('id')
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    assert.equal(pending.length, 0);
    const files = await ctx.db
      .selectFrom('files')
      .select('id')
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    assert.equal(files.length, 0, 'a refused upload leaves no file behind');
  });
});

describe('portal API: strict input', () => {
  test('an unknown query parameter or a body sent to a route that takes none is a 400 naming it; nothing changes', async () => {
    const api = await newWorkspace();
    const w = await world(api);
    const { app } = await getHarness();
    const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
      app.inject({
        method,
        url: `/portal/api${url}`,
        headers: {
          authorization: `Bearer ${w.token}`,
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
        ...(payload ? { payload: JSON.stringify(payload) } : {}),
      });
    for (const url of ['/session?lang=fr', '/logo?size=2']) {
      const res = await call('GET', url);
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.equal(JSON.parse(res.body).details[0].path, url.split('?')[1].split('=')[0]);
    }
    const up = await portalUpload(w.token, w.kbis, 'files', png(), 'kbis.png', 'image/png');
    assert.equal(up.status, 201, JSON.stringify(up.body));
    const withQuery = await call('POST', `/actions/${w.kbis}/submit?force=true`);
    assert.equal(withQuery.statusCode, 400, withQuery.body);
    assert.equal(JSON.parse(withQuery.body).details[0].path, 'force');
    const withBody = await call('POST', `/actions/${w.kbis}/submit`, { slot: 'files' });
    assert.equal(withBody.statusCode, 400, withBody.body);
    assert.equal(JSON.parse(withBody.body).details[0].path, 'slot');
    // refused before anything happened: the step still waits with its file
    const session = (await portal(w.token, 'GET', '/session')).body;
    const kbis = session.actions.find((a: any) => a.id === w.kbis);
    assert.equal(kbis.state, 'todo');
    assert.equal(kbis.slots[0].files.length, 1);
    // the documented calls still work: no body, or an empty JSON object (a generic client)
    assert.equal((await call('POST', `/actions/${w.kbis}/submit`, {})).statusCode, 200);
  });

  test('an upload whose form holds more than the one file (a second file, a field after it) is a 400 naming the part; nothing kept', async () => {
    const api = await newWorkspace();
    const w = await world(api);
    const { app } = await getHarness();
    const part = (name: string, file: string | null, body: Buffer) =>
      Buffer.concat([
        Buffer.from(
          `--x\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"` : ''}\r\n` +
            `${file ? 'Content-Type: image/png\r\n' : ''}\r\n`,
        ),
        body,
        Buffer.from('\r\n'),
      ]);
    const send = (...parts: Buffer[]) =>
      app.inject({
        method: 'POST',
        url: `/portal/api/actions/${w.kbis}/files?slot=files`,
        headers: { authorization: `Bearer ${w.token}`, 'content-type': 'multipart/form-data; boundary=x' },
        payload: Buffer.concat([...parts, Buffer.from('--x--\r\n')]),
      });
    // the /v1/files/upload rule (docs/files.md): the form is the file and nothing else, whatever
    // comes after it; a part accepted and silently dropped would leave the sender believing it went
    for (const [label, extra, named] of [
      ['a second file', part('file', 'two.png', png()), 'file'],
      ['a field after the file', part('note', null, Buffer.from('hello')), 'note'],
    ] as const) {
      const res = await send(part('file', 'one.png', png()), extra);
      assert.equal(res.statusCode, 400, `${label}: ${res.body}`);
      assert.equal(JSON.parse(res.body).details[0].path, named, label);
    }
    const { ctx } = await getHarness();
    const pending = await ctx.db
      .selectFrom('client_portal_pending_files')
      .select('id')
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    assert.equal(pending.length, 0, 'no pending file');
    const files = await ctx.db
      .selectFrom('files')
      .select('id')
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    assert.equal(files.length, 0, 'a refused upload leaves no file behind');
    assert.equal((await caseRow(w.caseId)).last_contact_action_at, null, 'not a contact action');
    // the one file alone is taken
    const one = await send(part('file', 'one.png', png()));
    assert.equal(one.statusCode, 201, one.body);
  });
});

describe('portal API: submit', () => {
  test('document and id_document steps go to processing through their check types; the case follows', async () => {
    const api = await newWorkspace();
    const w = await world(api);
    // nothing pending: 400 naming the slot
    const empty = await portal(w.token, 'POST', `/actions/${w.kbis}/submit`);
    assert.equal(empty.status, 400);
    assert.equal(empty.body.details[0].path, 'files');

    const up = await portalUpload(w.token, w.kbis, 'files', png({ sandbox_outcome: 'approved' }), 'kbis.png');
    const pendingId = up.body.slots[0].files[0].id;
    const { ctx } = await getHarness();
    const fileId = (
      await ctx.db
        .selectFrom('client_portal_pending_files')
        .select('file_id')
        .where('id', '=', pendingId)
        .executeTakeFirstOrThrow()
    ).file_id;
    const sent = await portal(w.token, 'POST', `/actions/${w.kbis}/submit`);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.state, 'submitted');
    assert.equal(sent.body.can_submit, false);
    assert.deepEqual(sent.body.slots[0].files, []);
    // read afterwards: the sandbox may have decided already on a busy machine (20 ms delay)
    const check = await api.get(`/v1/checks/document/${w.kbis}`);
    assert.ok(['processing', 'approved'].includes(check.body.status), check.body.status);
    assert.deepEqual(check.body.data.document_file_ids, [fileId]);
    const left = await ctx.db
      .selectFrom('client_portal_pending_files')
      .select('id')
      .where('check_id', '=', w.kbis)
      .execute();
    assert.equal(left.length, 0);
    assert.equal((await settledDocument(api, w.kbis)).status, 'approved');
    // a step no longer accepting files says so
    const late = await portalUpload(w.token, w.kbis, 'files', png());
    assert.equal(late.status, 400);
    assert.match(late.body.message, /already approved/);

    // id_document: nothing pending at all names `files`, as for any step (docs/client-portal.md)
    const emptyId = await portal(w.token, 'POST', `/actions/${w.adaId}/submit`);
    assert.equal(emptyId.status, 400);
    assert.equal(emptyId.body.details[0].path, 'files');
    // id_document: front required
    const backOnly = await portalUpload(w.token, w.adaId, 'back', passportPng());
    assert.equal(backOnly.status, 201, JSON.stringify(backOnly.body));
    assert.equal(backOnly.body.can_submit, false);
    const noFront = await portal(w.token, 'POST', `/actions/${w.adaId}/submit`);
    assert.equal(noFront.status, 400);
    assert.equal(noFront.body.details[0].path, 'front');
    assert.match(noFront.body.message, /front/);
    const front = await portalUpload(
      w.token,
      w.adaId,
      'front',
      passportPng({ mrz: td3Mrz({ lastName: 'LOVELACE', firstName: 'ADA', birth: '851210', sex: 'F' }) }),
      'front.png',
    );
    assert.equal(front.body.can_submit, true);
    const frontFile = await ctx.db
      .selectFrom('client_portal_pending_files')
      .select(['file_id', 'slot'])
      .where('check_id', '=', w.adaId)
      .orderBy('slot')
      .execute();
    const idSent = await portal(w.token, 'POST', `/actions/${w.adaId}/submit`);
    assert.equal(idSent.status, 200, JSON.stringify(idSent.body));
    // the answer is the step as the submission left it, whenever the sandbox decides
    assert.equal(idSent.body.state, 'submitted');
    // read afterwards: the sandbox decides 20 ms after (tests' VERICASE_SANDBOX_DELAY_MS), so a
    // busy machine may read the check already approved
    const idCheck = await api.get(`/v1/checks/id_document/${w.adaId}`);
    assert.ok(['processing', 'approved'].includes(idCheck.body.status), idCheck.body.status);
    assert.equal(
      idCheck.body.data.information.front_file_id,
      frontFile.find((f) => f.slot === 'front')?.file_id,
    );
    assert.equal(
      idCheck.body.data.information.back_file_id,
      frontFile.find((f) => f.slot === 'back')?.file_id,
    );

    // the contact's actions: Check.Started is not repeated for the same attempt; Case.Updated by the contact
    const contactUpdates = (await caseEvents(api.workspaceId, w.caseId, 'Case.Updated')).filter(
      (e) => e.actor_type === 'contact' && e.sub_event === null,
    );
    assert.equal(contactUpdates.length, 5, 'one per write that succeeded: three uploads, two submissions');
    const c = await caseRow(w.caseId);
    assert.ok(c.last_contact_action_at);
    assert.equal(c.contact_has_actions, true, 'the proof of address and Alan’s id are still to do');

    const s = (await portal(w.token, 'GET', '/session')).body;
    const states = s.actions.map((a: any) => a.state);
    assert.ok(['submitted', 'approved'].includes(states[2]), `Ada's id_document: ${states[2]}`);
    assert.deepEqual([states[0], states[1], states[3]], ['approved', 'todo', 'todo']);
    assert.equal(s.all_submitted, false);
  });

  test('after the last submission: all_submitted, contact_has_actions false with its event', async () => {
    const api = await newWorkspace();
    const ids = await portalCase(api);
    const only = await createCheck(api, 'document', {
      individual_id: ids.contactId,
      settings: { document_type_key: 'proof_of_address' },
    });
    assert.equal((await caseRow(ids.caseId)).contact_has_actions, true);
    const portals = await api.get('/v1/client-portals');
    assert.equal(portals.status, 200, JSON.stringify(portals.body));
    const patched = await api.patch(`/v1/client-portals/${portals.body.data[0].id}`, {
      wait_steps: [{ key: 'review', title: 'We review your documents' }],
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const { token } = await portalToken(api, ids.caseId, ids.contactId);
    assert.equal((await portal(token, 'GET', '/session')).body.wait_step, null);
    await portalUpload(token, only, 'files', png({ sandbox_outcome: 'undecided' }));
    const sent = await portal(token, 'POST', `/actions/${only}/submit`);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const s = (await portal(token, 'GET', '/session')).body;
    assert.equal(s.all_submitted, true);
    assert.deepEqual(s.wait_step, { key: 'review', title: 'We review your documents' });
    const c = (await api.get(`/v1/cases/${ids.caseId}`)).body;
    assert.equal(c.contact_has_actions, false);
    assert.ok(c.last_contact_action_at);
    const subs = (await caseEvents(api.workspaceId, ids.caseId, 'Case.Updated')).map((e) => e.sub_event);
    assert.ok(subs.includes('Case.ContactHasActionsUpdated'), JSON.stringify(subs));
    // the check moves on without the contact
    await eventually(
      async () => (await api.get(`/v1/checks/document/${only}`)).body.status === 'need_review',
    );
  });

  test("a step's first submission is the contact's activity (contact__started__check), delivered to no webhook", async () => {
    const api = await newWorkspace();
    const ids = await portalCase(api);
    const id = await createCheck(api, 'document', {
      company_id: ids.companyId,
      settings: { document_type_key: 'registration_certificate' },
    });
    const { token } = await portalToken(api, ids.caseId, ids.contactId);
    await portalUpload(token, id, 'files', makePdf({ text: 'sandbox_outcome: approved' }), 'k.pdf');
    assert.equal((await portal(token, 'POST', `/actions/${id}/submit`)).status, 200);
    assert.equal((await settledDocument(api, id)).status, 'approved');

    // started by the API, sent by the contact, approved by the system: in that order
    const activities = await api.get(`/v1/activities?case_id=${ids.caseId}`);
    assert.equal(activities.status, 200, JSON.stringify(activities.body));
    const aboutCheck = activities.body.data
      .filter((a: any) => a.context?.check?.id === id)
      .sort((a: any, b: any) => a.created_at.localeCompare(b.created_at));
    assert.deepEqual(
      aboutCheck.map((a: any) => a.type),
      ['api__started__check', 'contact__started__check', 'system__approved__check'],
    );
    const sent = aboutCheck[1];
    assert.equal(sent.author_type, 'contact');
    assert.equal(sent.author_id, ids.contactId);
    assert.equal(sent.context.check.id, id);
    assert.equal(sent.context.check.type, 'document');

    // webhooks as before: the check started once (its creation), and the sending has no outbox row
    const started = await caseEvents(api.workspaceId, ids.caseId, 'Check.Started');
    assert.deepEqual(
      started.map((e) => e.actor_type),
      ['api'],
    );
    const { ctx } = await getHarness();
    const queued = await ctx.db
      .selectFrom('events as e')
      .innerJoin('event_outbox as o', 'o.seq', 'e.seq')
      .select('e.type')
      .where('e.workspace_id', '=', api.workspaceId)
      .where('e.type', '=', 'ClientPortal.CheckSent')
      .execute();
    assert.deepEqual(queued, []);
  });

  test('a rejected step is a retry: its submission opens a new attempt, started by the contact', async () => {
    const api = await newWorkspace();
    const ids = await portalCase(api);
    const id = await createCheck(api, 'document', {
      company_id: ids.companyId,
      settings: {
        document_type_key: 'registration_certificate',
        document_analysis: { automatic_rejection: true },
      },
    });
    const { token } = await portalToken(api, ids.caseId, ids.contactId);
    await portalUpload(token, id, 'files', png({ sandbox_outcome: 'rejected' }));
    assert.equal((await portal(token, 'POST', `/actions/${id}/submit`)).status, 200);
    assert.equal((await settledDocument(api, id)).status, 'rejected');
    const before = (await portal(token, 'GET', '/session')).body.actions[0];
    assert.equal(before.state, 'retry');
    assert.equal(before.can_submit, false);
    const up = await portalUpload(
      token,
      id,
      'files',
      makePdf({ text: 'sandbox_outcome: approved' }),
      'k.pdf',
    );
    assert.equal(up.status, 201, JSON.stringify(up.body));
    assert.equal(up.body.state, 'retry');
    assert.equal(up.body.can_submit, true);
    const sent = await portal(token, 'POST', `/actions/${id}/submit`);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.state, 'submitted');
    const done = await settledDocument(api, id);
    assert.equal(done.status, 'approved');
    const { ctx } = await getHarness();
    const row = await ctx.db
      .selectFrom('checks')
      .select(['attempt', 'history'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(row.attempt, 2);
    assert.equal(row.history.length, 1);
    const started = await caseEvents(api.workspaceId, ids.caseId, 'Check.Started');
    // the first attempt was started by the API (creation), the second by the contact
    assert.deepEqual(
      started.map((e) => e.actor_type),
      ['api', 'contact'],
    );
    assert.equal(started[1].actor_id, ids.contactId);
    const activities = await api.get(`/v1/activities?case_id=${ids.caseId}`);
    assert.equal(activities.status, 200, JSON.stringify(activities.body));
    assert.ok(
      activities.body.data.some((a: any) => a.type === 'contact__started__check'),
      JSON.stringify(activities.body.data.map((a: any) => a.type)),
    );
  });
});

describe('portal API: authorisation', () => {
  test('401 for a missing, unknown, expired or revoked token, each saying which; the API key is refused', async () => {
    const api = await newWorkspace();
    const ids = await portalCase(api);
    const check = await createCheck(api, 'id_document', { individual_id: ids.contactId });
    const { token, linkId } = await portalToken(api, ids.caseId, ids.contactId);

    const missing = await portal(null, 'GET', '/session');
    assert.equal(missing.status, 401);
    assert.equal(missing.body.code, 'PORTAL_LINK_MISSING');
    assert.equal(missing.body.status_code, 401);
    assert.ok(missing.body.timestamp);

    const garbage = await portal('vcp_garbage', 'GET', '/session');
    assert.equal(garbage.status, 401);
    assert.equal(garbage.body.code, 'PORTAL_LINK_UNKNOWN');

    const keyHeader = await portal(null, 'GET', '/session', { 'x-service-api-key': api.key });
    assert.equal(keyHeader.status, 401);
    assert.equal(keyHeader.body.code, 'PORTAL_LINK_MISSING');
    const keyBearer = await portal(api.key, 'GET', '/session');
    assert.equal(keyBearer.status, 401);
    assert.equal(keyBearer.body.code, 'PORTAL_LINK_UNKNOWN');
    const keyUpload = await portal(api.key, 'POST', `/actions/${check}/submit`);
    assert.equal(keyUpload.status, 401);
    // and the token opens nothing under /v1
    const { app } = await getHarness();
    const tokenOnV1 = await app.inject({
      method: 'GET',
      url: `/v1/cases/${ids.caseId}`,
      headers: { authorization: `Bearer ${token}`, 'x-service-api-key': token },
    });
    assert.equal(tokenOnV1.statusCode, 401);

    assert.equal((await portal(token, 'GET', '/session')).status, 200);
    const { ctx } = await getHarness();
    await ctx.db
      .updateTable('client_portal_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', linkId)
      .execute();
    const expired = await portal(token, 'GET', '/session');
    assert.equal(expired.status, 401);
    assert.equal(expired.body.code, 'PORTAL_LINK_EXPIRED');
    assert.match(expired.body.message, /expired/);

    // a new link for the same contact revokes the earlier one
    const second = await portalToken(api, ids.caseId, ids.contactId);
    assert.equal((await portal(second.token, 'GET', '/session')).status, 200);
    const third = await portalToken(api, ids.caseId, ids.contactId);
    const revoked = await portalUpload(second.token, check, 'front', passportPng());
    assert.equal(revoked.status, 401);
    assert.equal(revoked.body.code, 'PORTAL_LINK_REVOKED');
    assert.match(revoked.body.message, /new one/);
    assert.equal((await portal(third.token, 'GET', '/session')).status, 200);
  });

  test('a token reaches only its case: checks of another case or workspace are 404 for every route', async () => {
    const api = await newWorkspace();
    const a = await world(api);
    const b = await world(api);
    const other = await newWorkspace('other');
    const c = await world(other);
    const bFile = await portalUpload(b.token, b.kbis, 'files', png());
    const cFile = await portalUpload(c.token, c.kbis, 'files', png());
    for (const [target, fileId] of [
      [b.kbis, bFile.body.slots[0].files[0].id],
      [c.kbis, cFile.body.slots[0].files[0].id],
    ]) {
      const up = await portalUpload(a.token, target, 'files', png());
      assert.equal(up.status, 404, JSON.stringify(up.body));
      assert.equal(up.body.message, 'Action not found');
      assert.equal((await portal(a.token, 'DELETE', `/actions/${target}/files/${fileId}`)).status, 404);
      assert.equal((await portal(a.token, 'POST', `/actions/${target}/submit`)).status, 404);
      // another action's pending file through one's own action: 404 too
      assert.equal((await portal(a.token, 'DELETE', `/actions/${a.kbis}/files/${fileId}`)).status, 404);
    }
    // nothing of B's or C's changed
    const { ctx } = await getHarness();
    const pending = await ctx.db
      .selectFrom('client_portal_pending_files')
      .select('check_id')
      .where('check_id', 'in', [b.kbis, c.kbis])
      .execute();
    assert.equal(pending.length, 2);
    assert.equal((await api.get(`/v1/checks/document/${b.kbis}`)).body.status, 'in_progress');
    const bEvents = (await caseEvents(api.workspaceId, b.caseId, 'Case.Updated')).filter(
      (e) => e.actor_type === 'contact',
    );
    assert.equal(bEvents.length, 1, 'only B’s own upload');
    // an unknown id and a malformed one
    assert.equal((await portal(a.token, 'POST', `/actions/${crypto.randomUUID()}/submit`)).status, 404);
    const bad = await portal(a.token, 'POST', '/actions/not-an-id/submit');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.details[0].path, 'id');
  });

  test('a check link shows its one check and reaches no other', async () => {
    const api = await newWorkspace();
    const w = await world(api);
    const { token } = await portalToken(api, w.caseId, w.contactId, w.adaId);
    const s = (await portal(token, 'GET', '/session')).body;
    assert.equal(s.scope, 'check');
    assert.deepEqual(
      s.actions.map((a: any) => a.id),
      [w.adaId],
    );
    assert.equal(s.redirect_url, null);
    assert.equal((await portalUpload(token, w.adaId, 'front', passportPng())).status, 201);
    for (const id of [w.kbis, w.alanId]) {
      assert.equal((await portalUpload(token, id, 'files', png())).status, 404);
      assert.equal((await portal(token, 'POST', `/actions/${id}/submit`)).status, 404);
    }
    // the case-wide link of the same contact still works: the check link is another scope
    assert.equal((await portal(w.token, 'GET', '/session')).status, 200);
  });

  test('rate limit per link, like an API key: 429 with Retry-After; another link is counted apart', async () => {
    const { ctx } = await getHarness();
    const limited = await buildApp({ ...ctx, config: { ...ctx.config, rateLimitPerMinute: 3 } });
    const api = await newWorkspace();
    const a = await portalCase(api);
    const b = await portalCase(api);
    const ta = (await portalToken(api, a.caseId, a.contactId)).token;
    const tb = (await portalToken(api, b.caseId, b.contactId)).token;
    const get = (token: string) =>
      limited.inject({
        method: 'GET',
        url: '/portal/api/session',
        headers: { authorization: `Bearer ${token}` },
      });
    for (let i = 0; i < 3; i++) assert.equal((await get(ta)).statusCode, 200);
    const over = await get(ta);
    assert.equal(over.statusCode, 429);
    assert.equal(over.json().code, 'TOO_MANY_REQUESTS');
    assert.ok(Number(over.headers['retry-after']) > 0);
    assert.equal((await get(tb)).statusCode, 200);
    await limited.close();
  });

  test('the portal routes are not in /v1/openapi.json; an offline portal answers 403; no logo is 404', async () => {
    const api = await newWorkspace();
    const w = await world(api);
    const doc = await api.get('/v1/openapi.json');
    assert.equal(doc.status, 200);
    assert.ok(!Object.keys(doc.body.paths).some((p) => p.startsWith('/portal')));
    assert.equal((await portal(w.token, 'GET', '/logo')).status, 404);
    // branding set by the operator: name, colour, logo
    const logo = makePng({ width: 16, height: 8, color: [10, 20, 30] });
    const portalId = (await api.get('/v1/client-portals')).body.data[0].id;
    const patched = await api.patch(`/v1/client-portals/${portalId}`, {
      name: 'Acme onboarding',
      accent_color: '#123abc',
      default_language: 'fr',
      logo_upload_ref: await uploadRef(api, logo),
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const branded = (await portal(w.token, 'GET', '/session')).body.portal;
    assert.deepEqual(branded, {
      name: 'Acme onboarding',
      default_language: 'fr',
      accent_color: '#123abc',
      logo_url: '/portal/api/logo',
    });
    const { app } = await getHarness();
    const bytes = await app.inject({
      method: 'GET',
      url: '/portal/api/logo',
      headers: { authorization: `Bearer ${w.token}` },
    });
    assert.equal(bytes.statusCode, 200);
    assert.equal(bytes.headers['content-type'], 'image/png');
    assert.equal(bytes.headers['x-content-type-options'], 'nosniff');
    assert.deepEqual(bytes.rawPayload, logo);
    assert.equal((await portal(null, 'GET', '/logo')).status, 401);
    const { ctx } = await getHarness();
    await ctx.db
      .updateTable('client_portals')
      .set({ status: 'offline' })
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    const off = await portal(w.token, 'GET', '/session');
    assert.equal(off.status, 403);
    assert.equal(off.body.code, 'PORTAL_OFFLINE');
  });
});
