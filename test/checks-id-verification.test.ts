import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extractText, getDocumentProxy } from 'unpdf';
import {
  cardPng,
  pairSelfiePng,
  printedMrzCardPng,
  selfiePng,
  sidewaysCardPng,
  sidewaysSelfieJpeg,
} from './helpers/face-images.ts';
import { downloadFile, makePng, multipartBody } from './helpers/files.ts';
import { type Client, eventually, getHarness, newWorkspace } from './helpers/harness.ts';
import { swissLicenceMrz, td3Mrz } from './helpers/id-documents.ts';
import {
  ADA_MRZ,
  captureThroughPortal,
  create,
  settled,
  tokenOf,
  verified,
} from './helpers/id-verification.ts';
import { portal, portalCase, portalUpload } from './helpers/portal.ts';

async function eventTypes(workspaceId: string, checkId: string) {
  const { ctx } = await getHarness();
  const rows = await ctx.db
    .selectFrom('events')
    .select(['type', 'payload'])
    .where('workspace_id', '=', workspaceId)
    .where('type', 'like', 'Check.%')
    .orderBy('seq')
    .execute();
  return rows
    .filter((r) => (r.payload as { check?: { id: string } }).check?.id === checkId)
    .map((r) => r.type);
}

async function pdfText(api: Client, fileId: string): Promise<string> {
  const file = await downloadFile(api, fileId);
  assert.equal(file.status, 200);
  assert.equal(file.bytes.subarray(0, 5).toString('latin1'), '%PDF-');
  const pdf = await getDocumentProxy(new Uint8Array(file.bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return text;
}

describe('id_verification: create', { timeout: 120_000 }, () => {
  test('defaults: in_progress, the reference data shape, a working check-scoped portal link', async () => {
    const api = await newWorkspace();
    const { caseId, contactId } = await portalCase(api);
    const before = Date.now();
    const check = await create(api, { individual_id: contactId });
    assert.equal(check.type, 'id_verification');
    assert.equal(check.status, 'in_progress');
    assert.equal(check.individual_id, contactId);
    assert.equal(check.subtype, null);
    assert.equal(check.is_internal, false);
    const d = check.data;
    assert.equal(d.result, null);
    assert.deepEqual(d.settings, {
      vendor: 'idv_provider_1',
      mode: 'auto',
      automatic_approval: true,
      automatic_rejection: true,
      redirect_url: null,
    });
    assert.deepEqual(Object.keys(d.vendor).sort(), [
      'comment',
      'ended_at',
      'name',
      'report_file_id',
      'sdk_token',
      'started_at',
      'verification_ref',
      'verification_status',
      'verification_url',
      'verification_url_expires_at',
    ]);
    assert.equal(d.vendor.name, 'idv_provider_1');
    assert.match(d.vendor.verification_ref, /^idv_[0-9a-f-]{36}$/);
    assert.equal(d.vendor.verification_status, 'awaiting_capture');
    assert.equal(d.vendor.started_at, null);
    assert.equal(d.vendor.report_file_id, null);
    const expires = Date.parse(d.vendor.verification_url_expires_at);
    const { config } = await getHarness();
    assert.ok(Math.abs(expires - (before + config.portalLinkTtlHours * 3_600_000)) < 60_000);
    assert.deepEqual(d.detailed_results.face, {
      face_comparison: null,
      image_integrity: null,
      visual_authenticity: null,
    });
    assert.equal(d.detailed_results.document.data_validation, null);
    assert.deepEqual(Object.keys(d.information).sort(), [
      'back_file_id',
      'birth_country',
      'birth_date',
      'birth_place',
      'document_number',
      'document_type',
      'expiration_date',
      'face_file_id',
      'first_name',
      'front_file_id',
      'gender',
      'ip_address',
      'issuing_country',
      'issuing_date',
      'last_name',
      'mrz',
      'nationality',
      'signature_file_id',
      'video_file_id',
    ]);
    assert.ok(Object.values(d.information).every((v) => v === null));
    assert.deepEqual(d.review, { comment: null, reviewed_at: null, reviewer_type: null, user: null });

    // the link row: scoped to this check, its contact and case, only the hash stored
    const { ctx } = await getHarness();
    const links = await ctx.db
      .selectFrom('client_portal_links')
      .selectAll()
      .where('check_id', '=', check.id)
      .execute();
    assert.equal(links.length, 1);
    assert.equal(links[0].case_id, caseId);
    assert.equal(links[0].individual_id, contactId);
    assert.equal(links[0].revoked_at, null);
    const token = tokenOf(d.vendor.verification_url);
    assert.notEqual(links[0].token_hash, token);
    // the link is on the service's base (VERICASE_PUBLIC_URL, else the listen address), never on
    // the host the API client named (test/link-origin.test.ts)
    assert.notEqual(new URL(d.vendor.verification_url).host, 'idv.example.test:8443');

    // the portal opens from the URL alone and shows exactly this check
    const session = await portal(token, 'GET', '/session');
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.equal(session.body.scope, 'check');
    assert.deepEqual(
      session.body.actions.map((a: { id: string; type: string; state: string }) => [a.id, a.type, a.state]),
      [[check.id, 'id_verification', 'todo']],
    );
    // no English text from the server: the portal page names and describes the step in its language
    assert.equal(session.body.actions[0].label, null);
    assert.equal(session.body.actions[0].description, null);
    const slots = session.body.actions[0].slots.map((s: Record<string, unknown>) => [
      s.key,
      s.required,
      s.capture,
    ]);
    assert.deepEqual(slots, [
      ['front', true, 'environment'],
      ['back', false, 'environment'],
      ['face', true, 'user'],
      ['video', false, 'user'],
    ]);
    assert.deepEqual(await eventTypes(api.workspaceId, check.id), ['Check.Started']);
    const got = await api.get(`/v1/checks/id_verification/${check.id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, check);
  });

  test('every setting is kept; redirect_url reaches the portal session', async () => {
    const api = await newWorkspace();
    const { contactId } = await portalCase(api);
    const settings = {
      vendor: 'idv_provider_1',
      mode: 'liveness',
      automatic_approval: false,
      automatic_rejection: false,
      redirect_url: 'https://example.com/done?x=1',
    };
    const check = await create(api, { individual_id: contactId, settings });
    assert.deepEqual(check.data.settings, settings);
    const session = await portal(tokenOf(check.data.vendor.verification_url), 'GET', '/session');
    assert.equal(session.body.redirect_url, 'https://example.com/done?x=1');
    const video = session.body.actions[0].slots.find((s: { key: string }) => s.key === 'video');
    assert.equal(video.required, true, 'liveness asks for the video');
    assert.equal(video.accept, 'video/webm,video/mp4,video/quicktime');
  });

  test('bad bodies → 400 naming the field; unknown or foreign individual → 404', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const { contactId } = await portalCase(api);
    const foreign = await portalCase(other);
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'individual_id'],
      [{ individual_id: 'nope' }, 'individual_id'],
      [{ individual_id: contactId, settings: { mode: 'fast' } }, 'settings.mode'],
      [{ individual_id: contactId, settings: { vendor: 'checkout' } }, 'settings.vendor'],
      [{ individual_id: contactId, settings: { automatic_approval: 'yes' } }, 'settings.automatic_approval'],
      [
        { individual_id: contactId, settings: { redirect_url: 'javascript:alert(1)' } },
        'settings.redirect_url',
      ],
      [{ individual_id: contactId, settings: { redirect_url: 'not a url' } }, 'settings.redirect_url'],
      [{ individual_id: contactId, settings: { colour: 'red' } }, 'settings'],
      [{ individual_id: contactId, data: {} }, 'data'],
    ];
    for (const [body, field] of cases) {
      const res = await api.post('/v1/checks/id_verification', body);
      assert.equal(res.status, 400, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`);
      assert.ok(
        JSON.stringify(res.body).includes(field),
        `${JSON.stringify(body)} names ${field}: ${JSON.stringify(res.body)}`,
      );
    }
    const company = await api.post('/v1/checks/id_verification', {
      company_id: (await portalCase(api)).companyId,
    });
    assert.equal(company.status, 400);
    for (const id of ['00000000-0000-4000-8000-000000000000', foreign.contactId]) {
      const res = await api.post('/v1/checks/id_verification', { individual_id: id });
      assert.equal(res.status, 404, JSON.stringify(res.body));
    }
    const { ctx } = await getHarness();
    const n = await ctx.db
      .selectFrom('checks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', api.workspaceId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(n.n), 0, 'nothing was created');
  });
});

describe('id_verification: refresh_url', { timeout: 120_000 }, () => {
  test('a new URL; the old one stops working; only while in_progress; walls', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const { contactId } = await portalCase(api);
    const check = await create(api, {
      individual_id: contactId,
      settings: { redirect_url: 'https://example.com/' },
    });
    const oldToken = tokenOf(check.data.vendor.verification_url);
    const res = await api.post(`/v1/checks/id_verification/${check.id}/refresh_url`);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.id, check.id);
    assert.equal(res.body.status, 'in_progress');
    const newToken = tokenOf(res.body.data.vendor.verification_url);
    assert.notEqual(newToken, oldToken);
    assert.ok(res.body.data.vendor.verification_url_expires_at);
    assert.equal(res.body.data.vendor.verification_ref, check.data.vendor.verification_ref);
    const old = await portal(oldToken, 'GET', '/session');
    assert.equal(old.status, 401, JSON.stringify(old.body));
    const fresh = await portal(newToken, 'GET', '/session');
    assert.equal(fresh.status, 200);
    assert.equal(fresh.body.actions[0].id, check.id);
    assert.deepEqual((await api.get(`/v1/checks/id_verification/${check.id}`)).body, res.body);

    assert.equal((await other.post(`/v1/checks/id_verification/${check.id}/refresh_url`)).status, 404);
    assert.equal(
      (await api.post('/v1/checks/id_verification/00000000-0000-4000-8000-000000000000/refresh_url')).status,
      404,
    );
    assert.equal((await api.post('/v1/checks/id_verification/nope/refresh_url')).status, 400);
    assert.equal((await other.get(`/v1/checks/id_verification/${check.id}`)).status, 404);

    // once submitted, no refresh
    await captureThroughPortal(
      newToken,
      check.id,
      cardPng('alice', ADA_MRZ),
      selfiePng('alice', { sandbox_outcome: 'approved' }),
    );
    const done = await settled(api, check.id);
    assert.equal(done.status, 'approved');
    const late = await api.post(`/v1/checks/id_verification/${check.id}/refresh_url`);
    assert.equal(late.status, 400);
    assert.match(late.body.message, /in_progress/);
    assert.deepEqual(
      late.body.details.map((d: { path: string }) => d.path),
      ['status'],
    );
  });
});

describe('id_verification: refresh_url while the portal is offline', { timeout: 120_000 }, () => {
  test('is refused naming client_portal_id (as sharing the case link is); online again, it works', async () => {
    const api = await newWorkspace();
    const { contactId } = await portalCase(api);
    const check = await create(api, { individual_id: contactId });
    const portals = (await api.get('/v1/client-portals')).body;
    const list = Array.isArray(portals) ? portals : portals.data;
    const portalId = (list.find((p: { is_default: boolean }) => p.is_default) ?? list[0]).id;
    assert.equal((await api.patch(`/v1/client-portals/${portalId}`, { status: 'offline' })).status, 200);
    const refused = await api.post(`/v1/checks/id_verification/${check.id}/refresh_url`);
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.match(refused.body.message, /offline/);
    assert.deepEqual(
      refused.body.details.map((d: { path: string }) => d.path),
      ['client_portal_id'],
    );
    // nothing changed: the check keeps its URL
    const kept = await api.get(`/v1/checks/id_verification/${check.id}`);
    assert.equal(kept.body.data.vendor.verification_url, check.data.vendor.verification_url);
    assert.equal((await api.patch(`/v1/client-portals/${portalId}`, { status: 'online' })).status, 200);
    const fresh = await api.post(`/v1/checks/id_verification/${check.id}/refresh_url`);
    assert.equal(fresh.status, 201, JSON.stringify(fresh.body));
    const session = await portal(tokenOf(fresh.body.data.vendor.verification_url), 'GET', '/session');
    assert.equal(session.status, 200);
  });
});

describe('id_verification: a closed case', { timeout: 120_000 }, () => {
  test('issues no verification link: refresh_url and a new check are refused; reopened, both work again', async () => {
    const api = await newWorkspace();
    const { caseId, contactId } = await portalCase(api);
    const check = await create(api, { individual_id: contactId });
    const closed = await api.post(`/v1/cases/${caseId}/reviews`, { status: 'closed' });
    assert.equal(closed.status, 201, JSON.stringify(closed.body));
    // the check's link was revoked with the case's links
    const old = await portal(tokenOf(check.data.vendor.verification_url), 'GET', '/session');
    assert.equal(old.status, 401);
    assert.equal(old.body.code, 'PORTAL_LINK_REVOKED');
    // a new link would reopen the case to its contact (a security walk found this)
    const refresh = await api.post(`/v1/checks/id_verification/${check.id}/refresh_url`);
    assert.equal(refresh.status, 400, JSON.stringify(refresh.body));
    assert.deepEqual(
      refresh.body.details.map((d: { path: string }) => d.path),
      ['id'],
    );
    assert.match(refresh.body.message, /The case is closed/);
    const again = await api.post('/v1/checks/id_verification', { individual_id: contactId });
    assert.equal(again.status, 400, JSON.stringify(again.body));
    assert.equal(again.body.details[0].path, 'individual_id');
    // nothing stored: the check's URL is the revoked one, and no second check exists
    const stored = (await api.get(`/v1/checks/id_verification/${check.id}`)).body;
    assert.equal(stored.data.vendor.verification_url, check.data.vendor.verification_url);
    const listed = await api.get(`/v1/checks?case_id=${caseId}&type=id_verification`);
    assert.equal(listed.body.data.length, 1);
    // reopened: a new link works
    assert.equal((await api.patch(`/v1/cases/${caseId}`, { status: 'open' })).status, 200);
    const fresh = await api.post(`/v1/checks/id_verification/${check.id}/refresh_url`);
    assert.equal(fresh.status, 201, JSON.stringify(fresh.body));
    const session = await portal(tokenOf(fresh.body.data.vendor.verification_url), 'GET', '/session');
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.equal(session.body.actions[0].id, check.id);
  });
});

describe('id_verification: sandbox outcomes through the portal', { timeout: 180_000 }, () => {
  const front = () => cardPng(null, ADA_MRZ);
  const rows: [string, Record<string, unknown>, string, string | null][] = [
    ['approved', {}, 'approved', 'approved'],
    ['rejected', {}, 'rejected', 'rejected'],
    ['undecided', {}, 'need_review', null],
    ['error', {}, 'need_review', 'error'],
    ['approved', { automatic_approval: false }, 'need_review', null],
    ['rejected', { automatic_rejection: false }, 'need_review', null],
    ['approved', { mode: 'expert' }, 'need_review', null],
    ['rejected', { mode: 'expert' }, 'need_review', null],
  ];
  for (const [outcome, settings, status, result] of rows) {
    test(`sandbox_outcome ${outcome} with ${JSON.stringify(settings)} → ${status}`, async () => {
      const api = await newWorkspace();
      const { created, done, caseId } = await verified(
        api,
        front(),
        selfiePng('bella', { sandbox_outcome: outcome }),
        settings,
      );
      assert.equal(created.status, 'in_progress');
      assert.equal(done.status, status, JSON.stringify(done.data));
      assert.equal(done.data.result, result);
      assert.equal(done.data.vendor.verification_status, outcome);
      assert.ok(done.data.vendor.started_at && done.data.vendor.ended_at);
      assert.ok(done.data.information.front_file_id && done.data.information.face_file_id);
      assert.equal(done.data.information.back_file_id, null);
      // the device that completed the capture, as the service saw it (the test's loopback client)
      assert.equal(done.data.information.ip_address, '127.0.0.1');
      // the document half is read in the sandbox too
      assert.equal(done.data.information.last_name, 'Lovelace');
      assert.equal(done.data.information.document_type, 'passport');
      assert.equal(done.data.information.mrz, ADA_MRZ.join('\n'));
      assert.equal(done.data.detailed_results.document.data_validation, 'approved');
      assert.equal(done.data.detailed_results.document.data_comparison, 'approved');
      assert.equal(done.data.review.reviewer_type, status === 'need_review' ? null : 'system');
      // why a person must look: what the verifier said, and the rule or the mode that left it open
      if (status === 'need_review') {
        const expected = {
          undecided: /^Needs a review: the verifier could not decide: sandbox_outcome undecided$/,
          error:
            /^Needs a review: The verification could not run: the sandbox verifier failed, as its selfie asked \(sandbox_outcome error\)$/,
          approved: settings.mode
            ? /^Needs a review: the verifier approved the identity; mode expert has a person decide$/
            : /^Needs a review \(automatic_approval is off\): the verifier approved the identity$/,
          rejected: settings.mode
            ? /^Needs a review: the verifier rejected the identity: sandbox_outcome rejected; mode expert has a person decide$/
            : /^Needs a review \(automatic_rejection is off\): the verifier rejected the identity: sandbox_outcome rejected$/,
        }[outcome];
        assert.match(done.data.review.comment, expected as RegExp);
      }
      const events = await eventTypes(api.workspaceId, created.id);
      const last = {
        approved: 'Check.Approved',
        rejected: 'Check.Rejected',
        need_review: 'Check.ReviewNeeded',
      }[status];
      assert.deepEqual(events, ['Check.Started', last]);
      const text = await pdfText(api, done.data.vendor.report_file_id);
      assert.match(text, /Identity verification report/);
      assert.match(text, new RegExp(`sandbox_outcome ${outcome}`));
      // a rejected verification is offered again in the portal (a new capture): the contact has
      // that to do; otherwise nothing
      const kase = (await api.get(`/v1/cases/${caseId}`)).body;
      assert.equal(kase.contact_has_actions, status === 'rejected');
    });
  }

  test('certified and liveness ask for the video: submitting without it → 400 naming video', async () => {
    const api = await newWorkspace();
    const { contactId } = await portalCase(api);
    for (const mode of ['certified', 'liveness']) {
      const check = await create(api, { individual_id: contactId, settings: { mode } });
      const token = tokenOf(check.data.vendor.verification_url);
      assert.equal((await portalUpload(token, check.id, 'front', front(), 'f.png', 'image/png')).status, 201);
      assert.equal(
        (await portalUpload(token, check.id, 'face', selfiePng('bella'), 's.png', 'image/png')).status,
        201,
      );
      const sub = await portal(token, 'POST', `/actions/${check.id}/submit`);
      assert.equal(sub.status, 400, JSON.stringify(sub.body));
      assert.ok(JSON.stringify(sub.body).includes('video'));
      assert.equal((await api.get(`/v1/checks/id_verification/${check.id}`)).body.status, 'in_progress');
      // a PNG is not a video; the document slots take no video
      const notVideo = await portalUpload(token, check.id, 'video', front(), 'v.png', 'image/png');
      assert.equal(notVideo.status, 400, JSON.stringify(notVideo.body));
      const videoInFront = await portalUpload(token, check.id, 'front', tinyMp4(), 'v.mp4', 'video/mp4');
      assert.equal(videoInFront.status, 400, JSON.stringify(videoInFront.body));
      assert.equal(videoInFront.body.details[0].path, 'file');
      const clip = await portalUpload(token, check.id, 'video', tinyMp4(), 'clip.mp4', 'video/mp4');
      assert.equal(clip.status, 201, JSON.stringify(clip.body));
      const submitted = await portal(token, 'POST', `/actions/${check.id}/submit`);
      assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
      const after = (await api.get(`/v1/checks/id_verification/${check.id}`)).body;
      assert.notEqual(after.status, 'in_progress');
      assert.ok(after.data.information.video_file_id, 'the video is kept with the capture');
      const stored = await downloadFile(api, after.data.information.video_file_id);
      assert.equal(stored.status, 200);
      assert.deepEqual(stored.bytes, tinyMp4());
    }
    // the public upload endpoint still takes no video
    const { app } = await getHarness();
    const { payload, contentType } = multipartBody([
      { name: 'file', filename: 'clip.mp4', data: tinyMp4(), contentType: 'video/mp4' },
    ]);
    const direct = await app.inject({
      method: 'POST',
      url: '/v1/files/upload',
      headers: { 'x-service-api-key': api.key, 'content-type': contentType },
      payload,
    });
    assert.equal(direct.statusCode, 415, direct.body);
  });

  test('pending stays processing until force_review; then a review decides', async () => {
    const api = await newWorkspace();
    const { contactId } = await portalCase(api);
    const check = await create(api, { individual_id: contactId });
    await captureThroughPortal(
      tokenOf(check.data.vendor.verification_url),
      check.id,
      front(),
      selfiePng('bella', { sandbox_outcome: 'pending' }),
    );
    const { ctx } = await getHarness();
    // the run happened (the job is gone) and left the check processing
    await eventually(async () => {
      const jobs = await ctx.db
        .selectFrom('checks')
        .select('status')
        .where('id', '=', check.id)
        .executeTakeFirstOrThrow();
      return jobs.status === 'processing';
    });
    const forced = await api.post(`/v1/checks/id_verification/${check.id}/force_review`, {});
    assert.equal(forced.status, 200, JSON.stringify(forced.body));
    assert.equal(forced.body.status, 'need_review');
    const reviewed = await api.patch(`/v1/checks/id_verification/${check.id}/review`, {
      action: 'approve',
      comment: 'checked by hand',
    });
    assert.equal(reviewed.status, 200, JSON.stringify(reviewed.body));
    assert.equal(reviewed.body.status, 'approved');
    assert.equal(reviewed.body.data.review.comment, 'checked by hand');
    const other = await newWorkspace();
    assert.equal(
      (await other.patch(`/v1/checks/id_verification/${check.id}/review`, { action: 'reject' })).status,
      404,
    );
  });

  test('a rejected check takes a new capture: a new attempt, Check.Started again', async () => {
    const api = await newWorkspace();
    const { contactId, caseId } = await portalCase(api);
    const check = await create(api, { individual_id: contactId });
    const token = tokenOf(check.data.vendor.verification_url);
    await captureThroughPortal(token, check.id, front(), selfiePng('bella', { sandbox_outcome: 'rejected' }));
    assert.equal((await settled(api, check.id)).status, 'rejected');
    const again = await portal(token, 'GET', '/session');
    assert.equal(again.body.actions[0].state, 'retry');
    await captureThroughPortal(token, check.id, front(), selfiePng('bella', { sandbox_outcome: 'approved' }));
    const done = await settled(api, check.id);
    assert.equal(done.status, 'approved');
    assert.deepEqual(await eventTypes(api.workspaceId, check.id), [
      'Check.Started',
      'Check.Rejected',
      'Check.Started',
      'Check.Approved',
    ]);
    const { ctx } = await getHarness();
    const row = await ctx.db
      .selectFrom('checks')
      .selectAll()
      .where('id', '=', check.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.attempt, 2);
    assert.equal((row.history as unknown[]).length, 1);
    assert.equal(row.case_id, caseId);
  });
});

describe('id_verification: the on-device model', { timeout: 300_000 }, () => {
  test('the same person on the selfie and the document → approved, with the report', async () => {
    const api = await newWorkspace();
    const { done } = await verified(api, cardPng('alice', ADA_MRZ), selfiePng('alice'));
    assert.equal(done.status, 'approved', JSON.stringify(done.data));
    assert.equal(done.data.result, 'approved');
    assert.equal(done.data.vendor.verification_status, 'approved');
    assert.equal(done.data.vendor.comment, null);
    assert.deepEqual(done.data.detailed_results.face, {
      face_comparison: 'approved',
      image_integrity: 'approved',
      visual_authenticity: null,
    });
    assert.deepEqual(done.data.detailed_results.document, {
      data_validation: 'approved',
      data_consistency: 'approved',
      image_integrity: null,
      visual_authenticity: null,
      compromised_document: null,
      data_comparison: 'approved',
    });
    assert.equal(done.data.information.first_name, 'Ada');
    assert.equal(done.data.information.birth_date, '1985-12-10');
    assert.equal(done.data.information.expiration_date, '2034-12-31');
    assert.equal(done.data.information.nationality, 'FR');
    const { ctx } = await getHarness();
    const row = await ctx.db
      .selectFrom('checks')
      .selectAll()
      .where('id', '=', done.id)
      .executeTakeFirstOrThrow();
    const analysis = (row.internal as { analysis: Record<string, number> }).analysis;
    assert.equal(analysis.selfie_faces, 1);
    assert.equal(analysis.document_faces, 1);
    assert.ok(analysis.distance < 0.4, `distance ${analysis.distance}`);
    const text = await pdfText(api, done.data.vendor.report_file_id);
    assert.match(text, /Check status\s*approved/);
    assert.match(text, /Face match\s*approved/);
    assert.match(text, new RegExp(`Descriptor distance\\s*${analysis.distance.toFixed(3)}`));
    // another workspace cannot read the report
    const other = await newWorkspace();
    assert.equal((await downloadFile(other, done.data.vendor.report_file_id)).status, 404);
  });

  test('a phone JPEG stored sideways (EXIF orientation 6) and a card shot in portrait → approved', async () => {
    // neither image shows an upright face as stored: the detector finds none on them as they are
    // (measured); the JPEG is turned per its EXIF tag, the card by the quarter-turn retries
    const api = await newWorkspace();
    const { contactId } = await portalCase(api);
    const check = await create(api, { individual_id: contactId });
    const token = tokenOf(check.data.vendor.verification_url);
    const front = await portalUpload(
      token,
      check.id,
      'front',
      sidewaysCardPng('alice', ADA_MRZ),
      'card.png',
      'image/png',
    );
    assert.equal(front.status, 201, JSON.stringify(front.body));
    const face = await portalUpload(
      token,
      check.id,
      'face',
      sidewaysSelfieJpeg('alice'),
      'selfie.jpg',
      'image/jpeg',
    );
    assert.equal(face.status, 201, JSON.stringify(face.body));
    assert.equal((await portal(token, 'POST', `/actions/${check.id}/submit`)).status, 200);
    const done = await settled(api, check.id);
    assert.equal(done.status, 'approved', JSON.stringify(done.data));
    assert.equal(done.data.detailed_results.face.face_comparison, 'approved');
  });

  test('an MRZ printed on the card only is read by OCR → approved', async () => {
    const api = await newWorkspace();
    const { done } = await verified(api, printedMrzCardPng('bella', ADA_MRZ), selfiePng('bella'));
    assert.equal(done.status, 'approved', JSON.stringify(done.data));
    assert.equal(done.data.information.mrz, ADA_MRZ.join('\n'));
    assert.equal(done.data.information.last_name, 'Lovelace');
    assert.equal(done.data.information.birth_date, '1985-12-10');
    assert.equal(done.data.detailed_results.document.data_validation, 'approved');
  });

  test('a Swiss driving licence (no expiry in its MRZ): read as a driving licence, expiry not evaluated → approved', async () => {
    const api = await newWorkspace();
    const mrz = swissLicenceMrz({ lastName: 'LOVELACE', firstName: 'ADA', birth: '851210' });
    const { done } = await verified(api, cardPng('alice', mrz), selfiePng('alice'));
    assert.equal(done.status, 'approved', JSON.stringify(done.data));
    assert.equal(done.data.vendor.comment, null);
    assert.equal(done.data.information.document_type, 'driving_license');
    assert.equal(done.data.information.document_number, '123456789001');
    assert.equal(done.data.information.issuing_country, 'CH');
    assert.equal(done.data.information.expiration_date, null);
    assert.equal(done.data.information.nationality, null);
    assert.equal(done.data.information.mrz, mrz.join('\n'));
    assert.deepEqual(done.data.detailed_results.document, {
      data_validation: 'approved',
      data_consistency: null,
      image_integrity: null,
      visual_authenticity: null,
      compromised_document: null,
      data_comparison: 'approved',
    });
    const text = await pdfText(api, done.data.vendor.report_file_id);
    assert.match(text, /Document not expired\s*not evaluated/);
  });

  test('the document image itself sent as the selfie → rejected; a copy of its photo → a person decides (security walk)', async () => {
    const api = await newWorkspace();
    // one file as both: the selfie's face "matched" the document's at distance 0 and was approved
    const doc = selfiePng('alice', { mrz: ADA_MRZ.join('\n') });
    const same = (await verified(api, doc, doc)).done;
    assert.equal(same.status, 'rejected', JSON.stringify(same.data));
    assert.equal(same.data.detailed_results.face.image_integrity, 'rejected');
    assert.match(
      same.data.vendor.comment,
      /^The selfie is the document image itself, not a photograph of the person\.$/,
    );
    // the same picture in another file (not the same bytes): its face is at distance 0, no photograph
    const copy = (await verified(api, doc, selfiePng('alice'))).done;
    assert.equal(copy.status, 'need_review', JSON.stringify(copy.data));
    assert.equal(copy.data.detailed_results.face.image_integrity, 'approved');
    assert.equal(copy.data.detailed_results.face.face_comparison, null);
    assert.match(
      copy.data.vendor.comment,
      /selfie.s face is nearly identical to the document photo \(distance 0\.0\d\d < 0\.05\)/,
    );
  });

  test('another person on the document → rejected, saying why', async () => {
    const api = await newWorkspace();
    const { done } = await verified(api, cardPng('bella', ADA_MRZ), selfiePng('alice'));
    assert.equal(done.status, 'rejected', JSON.stringify(done.data));
    assert.equal(done.data.result, 'rejected');
    assert.equal(done.data.detailed_results.face.face_comparison, 'rejected');
    assert.equal(done.data.detailed_results.face.image_integrity, 'approved');
    assert.match(done.data.vendor.comment, /does not match the document photo/);
    const text = await pdfText(api, done.data.vendor.report_file_id);
    assert.match(text, /Check status\s*rejected/);
  });

  test('a selfie of two people → rejected for its faces; the holder among them is not called a mismatch', async () => {
    const api = await newWorkspace();
    // the stranger first: whichever face the detector lists first, the holder's must be compared
    const { done, created } = await verified(api, cardPng('alice', ADA_MRZ), pairSelfiePng('bella', 'alice'));
    assert.equal(done.status, 'rejected', JSON.stringify(done.data));
    assert.equal(done.data.detailed_results.face.image_integrity, 'rejected');
    assert.equal(done.data.detailed_results.face.face_comparison, 'approved');
    assert.match(done.data.vendor.comment, /several faces/);
    assert.doesNotMatch(done.data.vendor.comment, /does not match/);
    // the portal asks for a new selfie, not a new photo of the document (which was read fine)
    const session = await portal(tokenOf(created.data.vendor.verification_url), 'GET', '/session');
    assert.equal(session.body.actions[0].state, 'retry');
    assert.equal(session.body.actions[0].retry_reason, 'selfie_unusable');
  });

  test('no MRZ, no face on the document and none on the selfie → rejected; the portal asks for both again, never "the document was fine"', async () => {
    const api = await newWorkspace();
    const blank = makePng({ width: 400, height: 400, color: [224, 182, 160] });
    const { done, created } = await verified(api, cardPng(null, null), blank);
    assert.equal(done.status, 'rejected', JSON.stringify(done.data));
    assert.equal(done.data.detailed_results.face.image_integrity, 'rejected');
    assert.equal(done.data.detailed_results.document.data_validation, null);
    assert.match(done.data.vendor.comment, /No machine-readable zone could be read/);
    // the document was not read: its front is asked again, and the reason says both halves failed
    const session = await portal(tokenOf(created.data.vendor.verification_url), 'GET', '/session');
    const step = session.body.actions[0];
    assert.equal(step.state, 'retry');
    assert.equal(step.retry_reason, 'document_and_selfie_unusable');
    const front = step.slots.find((s: { key: string }) => s.key === 'front');
    assert.equal(front.required, true);
    assert.deepEqual(front.files, []);
  });

  test('no face on the document, and a name that is not the individual’s → rejected', async () => {
    const api = await newWorkspace();
    const mrz = td3Mrz({ lastName: 'BYRON', firstName: 'ADA', birth: '851210', expiry: '341231' });
    const { done } = await verified(api, cardPng(null, mrz), selfiePng('bella'));
    assert.equal(done.status, 'rejected');
    assert.equal(done.data.detailed_results.face.face_comparison, 'rejected');
    assert.equal(done.data.detailed_results.document.data_comparison, 'rejected');
    assert.match(done.data.vendor.comment, /no face photo was found on the document/);
    assert.match(done.data.vendor.comment, /last_name/);
  });

  test('no MRZ: the faces match but the document cannot be read → need_review', async () => {
    const api = await newWorkspace();
    const { done } = await verified(api, cardPng('bella', null), selfiePng('bella'));
    assert.equal(done.status, 'need_review', JSON.stringify(done.data));
    assert.equal(done.data.result, null);
    assert.equal(done.data.vendor.verification_status, 'undecided');
    assert.equal(done.data.detailed_results.face.face_comparison, 'approved');
    assert.equal(done.data.detailed_results.document.data_validation, null);
    assert.match(done.data.vendor.comment, /machine-readable zone/);
  });
});

describe('id_verification: workspace defaults', { timeout: 60_000 }, () => {
  test('checks.id_verification settings are the defaults a request overrides field by field', async () => {
    const api = await newWorkspace();
    const bad = await api.patch('/v1/workspace/settings', {
      checks: { id_verification: { redirect_url: 'javascript:alert(1)' } },
    });
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    assert.ok(JSON.stringify(bad.body).includes('redirect_url'));
    const ok = await api.patch('/v1/workspace/settings', {
      checks: {
        id_verification: {
          mode: 'expert',
          automatic_rejection: false,
          redirect_url: 'https://example.com/back',
        },
      },
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const { contactId } = await portalCase(api);
    const check = await create(api, { individual_id: contactId, settings: { automatic_approval: false } });
    assert.deepEqual(check.data.settings, {
      vendor: 'idv_provider_1',
      mode: 'expert',
      automatic_approval: false,
      automatic_rejection: false,
      redirect_url: 'https://example.com/back',
    });
  });
});

describe('id_verification: templates', { timeout: 60_000 }, () => {
  test('a template creates the check with its own portal link, started by the template', async () => {
    const api = await newWorkspace();
    const tpl = await api.post('/v1/templates', {
      key: 'kyc-live',
      name: 'KYC live',
      checks: [{ type: 'id_verification', targets: ['business_contacts'], settings: { mode: 'expert' } }],
    });
    assert.equal(tpl.status, 201, JSON.stringify(tpl.body));
    const kase = await api.post('/v1/cases', {
      name: 'Templated',
      template_key: 'kyc-live',
      companies: [{ type: 'main', name: 'Acme SAS', country: 'FR' }],
      individuals: [
        { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', is_business_contact: true },
        { first_name: 'Alan', last_name: 'Turing' },
      ],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const ada = kase.body.individuals.find((i: { first_name: string }) => i.first_name === 'Ada');
    assert.equal(ada.checks.length, 1);
    const check = (await api.get(`/v1/checks/id_verification/${ada.checks[0].id}`)).body;
    assert.equal(check.status, 'in_progress');
    assert.equal(check.data.settings.mode, 'expert');
    const session = await portal(tokenOf(check.data.vendor.verification_url), 'GET', '/session');
    assert.equal(session.status, 200);
    assert.deepEqual(
      session.body.actions.map((a: { id: string }) => a.id),
      [check.id],
    );
    const { ctx } = await getHarness();
    const started = await ctx.db
      .selectFrom('events')
      .select(['actor_type', 'actor_id'])
      .where('workspace_id', '=', api.workspaceId)
      .where('type', '=', 'Check.Started')
      .execute();
    assert.deepEqual(started, [{ actor_type: 'system', actor_id: tpl.body.id }]);
  });
});

describe('id_verification: templates refuse a bad redirect_url when written', { timeout: 60_000 }, () => {
  test('create and update: 400 naming checks[0].settings and redirect_url; nothing stored; an https URL is kept', async () => {
    const api = await newWorkspace();
    const spec = (redirect_url: unknown) => [
      { type: 'id_verification', targets: ['business_contacts'], settings: { redirect_url } },
    ];
    for (const bad of ['javascript:alert(1)', 'data:text/html,hi', 'not a url']) {
      const res = await api.post('/v1/templates', { key: 'kyc-redirect', name: 'KYC', checks: spec(bad) });
      assert.equal(res.status, 400, `${bad} → ${JSON.stringify(res.body)}`);
      assert.equal(res.body.details[0].path, 'checks[0].settings');
      assert.match(
        res.body.message,
        /^checks\[0\]\.settings: redirect_url must be an (absolute )?http or https URL$/,
      );
    }
    assert.equal((await api.get('/v1/templates')).body.data.length, 0, 'nothing stored');
    const ok = await api.post('/v1/templates', {
      key: 'kyc-redirect',
      name: 'KYC',
      checks: spec('https://example.com/done'),
    });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    const patched = await api.patch(`/v1/templates/${ok.body.id}`, { checks: spec('javascript:alert(1)') });
    assert.equal(patched.status, 400, JSON.stringify(patched.body));
    assert.equal(patched.body.details[0].path, 'checks[0].settings');
    const kept = await api.get(`/v1/templates/${ok.body.id}`);
    assert.equal(kept.body.checks[0].settings.redirect_url, 'https://example.com/done');
  });
});

describe('id_verification: the case report', { timeout: 120_000 }, () => {
  test("shows the check but never its verification URL (the link's token is a credential)", async () => {
    const api = await newWorkspace();
    const { caseId, contactId } = await portalCase(api);
    const check = await create(api, { individual_id: contactId });
    const token = tokenOf(check.data.vendor.verification_url);
    assert.equal((await api.post(`/v1/cases/${caseId}/generate-report`, {})).status, 204);
    const entry = await eventually(async () => {
      const res = await api.get(`/v1/cases/${caseId}/documents?type=case_report`);
      return res.body.data?.[0];
    }, 30_000);
    const text = await pdfText(api, entry.file_ids[0]);
    assert.match(text, /Id verification/i);
    assert.match(text, /awaiting capture|awaiting_capture/i);
    assert.ok(!text.includes(token.slice(0, 12)), 'no token in the report');
    assert.ok(!text.includes('#token='), 'no portal link in the report');
  });
});

/** The smallest MP4 a sniffer recognises: an `ftyp` box (brand isom) and an empty `mdat`. */
function tinyMp4(): Buffer {
  const ftyp = Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypisom', 'latin1'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2', 'latin1'),
  ]);
  const mdat = Buffer.concat([Buffer.from([0, 0, 0, 0x10]), Buffer.from('mdat', 'latin1'), Buffer.alloc(8)]);
  return Buffer.concat([ftyp, mdat]);
}
