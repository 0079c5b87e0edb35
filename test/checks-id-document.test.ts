import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { expireDueChecks } from '../src/checks/engine/expire-checks.ts';
import { REFUSAL_COMMENTS } from '../src/checks/types/id_document/decide.ts';
import { downloadFile, makeJpeg, makePdf, makePng, uploadRef } from './helpers/files.ts';
import { type Client, eventually, getHarness, newWorkspace } from './helpers/harness.ts';
import {
  caseWithPerson,
  frenchIdCardMrz,
  idCardMrz,
  padPng,
  passportPng,
  swissLicenceMrz,
  td3Mrz,
} from './helpers/id-documents.ts';

const MB = 1024 * 1024;

async function checkRow(id: string) {
  const { ctx } = await getHarness();
  return ctx.db.selectFrom('checks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function checkEvents(workspaceId: string) {
  const { ctx } = await getHarness();
  const rows = await ctx.db
    .selectFrom('events')
    .select(['type', 'payload'])
    .where('workspace_id', '=', workspaceId)
    .where('type', 'like', 'Check.%')
    .orderBy('seq')
    .execute();
  return rows;
}

const eventTypes = async (workspaceId: string) => (await checkEvents(workspaceId)).map((e) => e.type);

/** Waits until the check left `processing`; returns it as the API shows it. */
async function settled(api: Client, id: string) {
  return eventually(async () => {
    const r = await api.get(`/v1/checks/id_document/${id}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.status !== 'processing' && r.body;
  });
}

/** Creates an id_document check with the given front image (and settings) for a fresh person. */
async function submit(
  api: Client,
  front: Buffer,
  settings: Record<string, unknown> = {},
  person: Record<string, unknown> = {},
) {
  const { individualId, caseId } = await caseWithPerson(api, person);
  const ref = await uploadRef(api, front);
  const res = await api.post('/v1/checks/id_document', {
    individual_id: individualId,
    settings,
    data: { front_upload_ref: ref },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.status, 'processing');
  return { created: res.body, individualId, caseId, done: await settled(api, res.body.id) };
}

describe('id_document: transition rows', () => {
  test('(none) → in_progress: created without files, waits for images', async () => {
    const api = await newWorkspace();
    const { individualId, caseId } = await caseWithPerson(api);
    const res = await api.post('/v1/checks/id_document', { individual_id: individualId });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.status, 'in_progress');
    assert.equal(res.body.type, 'id_document');
    assert.equal(res.body.subtype, null);
    assert.equal(res.body.is_internal, false);
    assert.equal(res.body.data.result, null);
    assert.deepEqual(res.body.data.settings, {
      vendor: 'idd_provider_1',
      automatic_approval: true,
      automatic_rejection: true,
    });
    assert.equal(res.body.data.vendor.name, 'idd_provider_1');
    assert.equal(res.body.data.vendor.verification_ref, null);
    assert.equal(res.body.data.information.front_file_id, null);
    assert.equal(res.body.data.detailed_results.document.data_validation, null);
    assert.deepEqual(await eventTypes(api.workspaceId), ['Check.Started']);
    const c = (await api.get(`/v1/cases/${caseId}`)).body;
    assert.equal(c.individuals[0].checks[0].status, 'in_progress');
  });

  test('processing with its file not in storage (a worker without the shared files directory): retried, not sent to review in error; decided once the file is there', async () => {
    const { ctx } = await getHarness();
    const api = await newWorkspace();
    const { individualId } = await caseWithPerson(api);
    const ref = await uploadRef(api, passportPng({ mrz: td3Mrz() }));
    // the workspace's files out of reach, as on a process whose DATA_DIR/files is not the shared one
    const dir = path.join(ctx.config.dataDir, 'files', api.workspaceId);
    fs.renameSync(dir, `${dir}.away`);
    let created: { id: string };
    try {
      const res = await api.post('/v1/checks/id_document', {
        individual_id: individualId,
        data: { front_upload_ref: ref },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      created = res.body;
      // the job failed at least once on the missing bytes, and is waiting for its retry
      await eventually(async () => {
        const jobs = await sql<{ retry_count: number }>`
          select retry_count from pgboss.job where data->>'checkId' = ${created.id}`.execute(ctx.db);
        return jobs.rows.some((j) => j.retry_count >= 1);
      });
      const meanwhile = await api.get(`/v1/checks/id_document/${created.id}`);
      assert.equal(meanwhile.body.status, 'processing', JSON.stringify(meanwhile.body.data));
    } finally {
      fs.renameSync(`${dir}.away`, dir);
    }
    const done = await settled(api, created.id);
    assert.equal(done.status, 'approved', JSON.stringify(done.data));
    assert.equal(done.data.result, 'approved');
  });

  test('(none) → processing → approved: MRZ read, automatic approval by system, expiry from the document, file downloadable', async () => {
    const api = await newWorkspace();
    const png = passportPng({ mrz: td3Mrz() });
    const { created, done } = await submit(api, png);
    assert.ok(created.data.information.front_file_id);
    assert.equal(created.data.vendor.verification_status, 'submitted');
    assert.ok(created.data.vendor.started_at);
    assert.equal(done.status, 'approved');
    assert.equal(done.data.result, 'approved');
    assert.equal(done.data.review.reviewer_type, 'system');
    assert.ok(done.data.review.reviewed_at);
    assert.equal(done.data.vendor.verification_status, 'approved');
    assert.equal(done.data.vendor.comment, null);
    assert.deepEqual(done.data.information, {
      document_type: 'passport',
      document_number: '18AB12345',
      first_name: 'Marie',
      last_name: 'Curie',
      maiden_name: null,
      gender: 'female',
      nationality: 'FR',
      birth_date: '1967-11-07',
      birth_country: null,
      expiration_date: '2034-12-31',
      issuing_date: null,
      issuing_country: 'FR',
      front_file_id: created.data.information.front_file_id,
      back_file_id: null,
    });
    assert.deepEqual(done.data.detailed_results.document, {
      data_validation: 'approved',
      data_consistency: 'approved',
      image_integrity: null,
      visual_authenticity: null,
      compromised_document: null,
      data_comparison: 'approved',
    });
    const row = await checkRow(done.id);
    assert.equal(row.expires_at?.toISOString(), '2035-01-01T00:00:00.000Z');
    const file = await downloadFile(api, done.data.information.front_file_id);
    assert.equal(file.status, 200);
    assert.ok(Buffer.from(file.bytes).equals(png));
    const events = await checkEvents(api.workspaceId);
    assert.deepEqual(
      events.map((e) => e.type),
      ['Check.Started', 'Check.Approved'],
    );
    const approvedPayload = (events[1].payload as any).check;
    assert.equal(approvedPayload.data.result, 'approved');
    assert.equal(approvedPayload.data.information.last_name, 'Curie');
  });

  test('without MRZ or sandbox_outcome: approved with information taken from the individual', async () => {
    const api = await newWorkspace();
    const { done } = await submit(api, makePng({ width: 10, height: 10 }), {}, { nationalities: ['PL'] });
    assert.equal(done.status, 'approved');
    assert.equal(done.data.information.first_name, 'Marie');
    assert.equal(done.data.information.birth_date, '1967-11-07');
    assert.equal(done.data.information.nationality, 'PL');
    assert.equal(done.data.information.document_type, null);
    assert.equal(done.data.detailed_results.document.data_comparison, 'approved');
    assert.equal((await checkRow(done.id)).expires_at, null);
  });

  test('processing → approved needs automatic_approval: false → need_review', async () => {
    const api = await newWorkspace();
    const { done } = await submit(api, passportPng({ mrz: td3Mrz() }), { automatic_approval: false });
    assert.equal(done.status, 'need_review');
    assert.equal(done.data.result, null);
    assert.equal(done.data.review.reviewer_type, null);
    assert.equal(
      done.data.review.comment,
      'Needs a review (automatic_approval is off): the document provider approved the document',
    );
    assert.equal(done.data.vendor.verification_status, 'approved');
    assert.deepEqual(await eventTypes(api.workspaceId), ['Check.Started', 'Check.ReviewNeeded']);
  });

  test('processing → rejected: sandbox_outcome rejected with automatic_rejection', async () => {
    const api = await newWorkspace();
    const { done } = await submit(api, passportPng({ outcome: 'rejected' }));
    assert.equal(done.status, 'rejected');
    assert.equal(done.data.result, 'rejected');
    assert.equal(done.data.review.reviewer_type, 'system');
    assert.match(done.data.vendor.comment, /visual authenticity/);
    assert.equal(done.data.detailed_results.document.visual_authenticity, 'rejected');
    assert.deepEqual(await eventTypes(api.workspaceId), ['Check.Started', 'Check.Rejected']);
  });

  test('processing → rejected from the MRZ: wrong check digit (data_validation), expired document (data_consistency)', async () => {
    const api = await newWorkspace();
    const bad = (await submit(api, passportPng({ mrz: td3Mrz({ badCheckDigit: true }) }))).done;
    assert.equal(bad.status, 'rejected');
    assert.equal(bad.data.detailed_results.document.data_validation, 'rejected');
    assert.match(bad.data.vendor.comment, /check digit/i);
    const expired = (await submit(api, passportPng({ mrz: td3Mrz({ expiry: '200101' }) }))).done;
    assert.equal(expired.status, 'rejected');
    assert.equal(expired.data.detailed_results.document.data_validation, 'approved');
    assert.equal(expired.data.detailed_results.document.data_consistency, 'rejected');
    assert.match(expired.data.vendor.comment, /expired on 2020-01-01/);
    assert.equal((await checkRow(expired.id)).expires_at, null);
  });

  test('processing → need_review: rejected with automatic_rejection false', async () => {
    const api = await newWorkspace();
    const { done } = await submit(api, passportPng({ outcome: 'rejected' }), { automatic_rejection: false });
    assert.equal(done.status, 'need_review');
    assert.equal(done.data.result, null);
    assert.equal(done.data.vendor.verification_status, 'rejected');
    assert.equal(
      done.data.review.comment,
      `Needs a review (automatic_rejection is off): ${done.data.vendor.comment}`,
    );
    assert.match(done.data.review.comment, /visual authenticity/);
  });

  test('processing → rejected: approved but data comparison failed, automatic_rejection true', async () => {
    const api = await newWorkspace();
    const mrz = td3Mrz({ lastName: 'SKLODOWSKA', firstName: 'MARIA', birth: '671108' });
    const { done } = await submit(api, passportPng({ mrz }));
    assert.equal(done.status, 'rejected');
    assert.equal(done.data.result, 'rejected');
    assert.equal(done.data.vendor.verification_status, 'approved');
    assert.equal(done.data.detailed_results.document.data_validation, 'approved');
    assert.equal(done.data.detailed_results.document.data_comparison, 'rejected');
    assert.match(done.data.vendor.comment, /data comparison/);
    assert.equal(done.data.information.last_name, 'Sklodowska');
    // the same document, comparison failed but automatic_rejection false → a person decides
    const manual = (await submit(api, passportPng({ mrz }), { automatic_rejection: false })).done;
    assert.equal(manual.status, 'need_review');
    assert.match(
      manual.data.review.comment,
      /^Needs a review \(automatic_rejection is off\): .*data comparison/,
    );
  });

  test('data comparison tolerates ICAO spellings and the maiden name', async () => {
    const api = await newWorkspace();
    const mrz = td3Mrz({ lastName: 'MUELLER', firstName: 'JOSE MARIA' });
    const { done } = await submit(api, passportPng({ mrz }), {}, { first_name: 'José', last_name: 'Müller' });
    assert.equal(done.data.detailed_results.document.data_comparison, 'approved');
    assert.equal(done.status, 'approved');
    const maiden = (
      await submit(
        api,
        passportPng({ mrz: td3Mrz({ lastName: 'SKLODOWSKA' }) }),
        {},
        { maiden_name: 'Skłodowska' },
      )
    ).done;
    assert.equal(maiden.status, 'approved');
    // an apostrophe is omitted in the MRZ (ICAO 9303): N'Diaye is NDIAYE, D’Alembert DALEMBERT
    for (const [lastName, onMrz] of [
      ["N'Diaye", 'NDIAYE'],
      ['D’Alembert', 'DALEMBERT'],
      ["O'Neil", 'O<NEIL'],
    ]) {
      const named = (
        await submit(api, passportPng({ mrz: td3Mrz({ lastName: onMrz }) }), {}, { last_name: lastName })
      ).done;
      assert.equal(named.data.detailed_results.document.data_comparison, 'approved', lastName);
      assert.equal(named.status, 'approved', lastName);
    }
    // born 1925: the MRZ's 25 is read as 2025, the declared century is taken when the rest agrees
    const centenarian = (
      await submit(api, passportPng({ mrz: td3Mrz({ birth: '250304' }) }), {}, { birth_date: '1925-03-04' })
    ).done;
    assert.equal(centenarian.data.detailed_results.document.data_comparison, 'approved');
    assert.equal(centenarian.data.information.birth_date, '1925-03-04');
    const otherDay = (
      await submit(api, passportPng({ mrz: td3Mrz({ birth: '250305' }) }), {}, { birth_date: '1925-03-04' })
    ).done;
    assert.equal(otherDay.data.detailed_results.document.data_comparison, 'rejected');
    // the French identity card of 1988–2021 has no expiry in its MRZ: its validity follows from its
    // issue month (15 years for an adult's card from 2004, else 10), and it is issued to French
    // nationals only
    const thisYear = new Date().getUTCFullYear();
    const yymm = (year: number, month: number) => `${String(year % 100).padStart(2, '0')}${month}`;
    const adultCard = (
      await submit(api, passportPng({ mrz: frenchIdCardMrz({ issued: yymm(thisYear - 12, 10) }) }))
    ).done;
    assert.equal(adultCard.status, 'approved', JSON.stringify(adultCard.data));
    assert.equal(adultCard.data.information.expiration_date, `${thisYear + 3}-09-30`);
    assert.equal(adultCard.data.information.nationality, 'FR');
    assert.equal(adultCard.data.information.document_type, 'identity_card');
    assert.equal(adultCard.data.information.document_number, `${yymm(thisYear - 12, 10)}75012345`);
    // the same card issued to a minor (born 2000, issued at 14) is valid 10 years: expired
    const minorCard = (
      await submit(
        api,
        passportPng({ mrz: frenchIdCardMrz({ issued: '1410', birth: '000101' }) }),
        {},
        { birth_date: '2000-01-01' },
      )
    ).done;
    assert.equal(minorCard.status, 'rejected');
    assert.equal(minorCard.data.information.expiration_date, '2024-09-30');
    assert.equal(minorCard.data.detailed_results.document.data_consistency, 'rejected');
    // an adult's card of 2003 was valid 10 years
    const before2004 = (await submit(api, passportPng({ mrz: frenchIdCardMrz({ issued: '0312' }) }))).done;
    assert.equal(before2004.data.information.expiration_date, '2013-11-30');
    assert.equal(before2004.status, 'rejected');
    // an apostrophe is no wildcard: another name still differs
    const other = (
      await submit(api, passportPng({ mrz: td3Mrz({ lastName: 'DIAYE' }) }), {}, { last_name: "N'Diaye" })
    ).done;
    assert.equal(other.data.detailed_results.document.data_comparison, 'rejected');
  });

  // A name written in Cyrillic or Greek had no Latin letter left once normalised: it matched no
  // MRZ, and not even itself (no MRZ: the information is the individual's own, yet "rejected").
  test('data comparison romanises Cyrillic and Greek names as ICAO 9303 does (and the common way)', async () => {
    const api = await newWorkspace();
    for (const [first, last, onMrz] of [
      ['Иван', 'Петров', { firstName: 'IVAN', lastName: 'PETROV' }],
      ['Юлия', 'Щукина', { firstName: 'IULIIA', lastName: 'SHCHUKINA' }],
      ['Юлия', 'Щукина', { firstName: 'YULIYA', lastName: 'SHCHUKINA' }],
      // soft and hard signs: omitted by ICAO's table (NATALIA, PODIEIACHEV), and by the common
      // spelling too (NATALYA, PODYACHEV), where they were kept as apostrophes and rejected
      ['Наталья', 'Подъячева', { firstName: 'NATALIA', lastName: 'PODIEIACHEVA' }],
      ['Наталья', 'Подъячева', { firstName: 'NATALYA', lastName: 'PODYACHEVA' }],
      ['Ζωή', 'Παπαδοπούλου', { firstName: 'ZOI', lastName: 'PAPADOPOULOU' }],
    ] as const) {
      const { done } = await submit(
        api,
        passportPng({ mrz: td3Mrz(onMrz) }),
        {},
        { first_name: first, last_name: last },
      );
      assert.equal(done.data.detailed_results.document.data_comparison, 'approved', `${first} ${last}`);
      assert.equal(done.status, 'approved', `${first} ${last}`);
    }
    // still no wildcard: another name in Cyrillic differs
    const other = (
      await submit(
        api,
        passportPng({ mrz: td3Mrz({ firstName: 'IVAN', lastName: 'SIDOROV' }) }),
        {},
        {
          first_name: 'Иван',
          last_name: 'Петров',
        },
      )
    ).done;
    assert.equal(other.data.detailed_results.document.data_comparison, 'rejected');
    // no MRZ: the information is the individual's own, and compares equal in any script
    for (const [first, last] of [
      ['Иван', 'Петров'],
      ['Ζωή', 'Παπαδοπούλου'],
      ['محمد', 'العلي'],
    ]) {
      const own = (await submit(api, passportPng({}), {}, { first_name: first, last_name: last })).done;
      assert.equal(own.data.information.last_name, last);
      assert.equal(own.data.detailed_results.document.data_comparison, 'approved', last);
      assert.equal(own.status, 'approved', last);
    }
  });

  test('processing → need_review: no result (sandbox_outcome undecided), whatever the settings', async () => {
    const api = await newWorkspace();
    const { done } = await submit(api, passportPng({ outcome: 'undecided', mrz: td3Mrz() }));
    assert.equal(done.status, 'need_review');
    assert.equal(done.data.result, null);
    assert.equal(done.data.vendor.verification_status, 'undecided');
    assert.equal(done.data.information.document_number, '18AB12345');
    assert.equal(
      done.data.review.comment,
      'Needs a review: the document provider could not decide on the document',
    );
    const c = (await api.get(`/v1/cases/${(await checkRow(done.id)).case_id}`)).body;
    assert.equal(c.reviewer_has_actions, true);
    // a person reviews it
    const reviewed = await api.patch(`/v1/checks/id_document/${done.id}/review`, { action: 'approve' });
    assert.equal(reviewed.status, 200);
    assert.equal(reviewed.body.data.review.reviewer_type, 'api');
    assert.deepEqual(await eventTypes(api.workspaceId), [
      'Check.Started',
      'Check.ReviewNeeded',
      'Check.Approved',
    ]);
  });

  test('processing → need_review: provider error gives data.result error', async () => {
    const api = await newWorkspace();
    const { done } = await submit(api, passportPng({ outcome: 'error' }));
    assert.equal(done.status, 'need_review');
    assert.equal(done.data.result, 'error');
    assert.equal(done.data.vendor.verification_status, 'error');
    assert.equal(
      done.data.review.comment,
      'Needs a review: the document provider failed to verify the document',
    );
  });

  test('processing → rejected / need_review: provider refusal with the "different document" comment', async () => {
    const api = await newWorkspace();
    const auto = (await submit(api, passportPng({ outcome: 'refused' }))).done;
    assert.equal(auto.status, 'rejected');
    assert.equal(auto.data.result, 'rejected');
    assert.equal(auto.data.vendor.verification_status, 'refused');
    assert.equal(auto.data.vendor.comment, REFUSAL_COMMENTS.unprocessable);
    assert.match(auto.data.vendor.comment, /could not be processed.*different document/);
    const manual = (await submit(api, passportPng({ outcome: 'refused' }), { automatic_rejection: false }))
      .done;
    assert.equal(manual.status, 'need_review');
    assert.equal(manual.data.result, null);
    assert.equal(manual.data.vendor.comment, REFUSAL_COMMENTS.unprocessable);
    assert.equal(
      manual.data.review.comment,
      `Needs a review (automatic_rejection is off): ${REFUSAL_COMMENTS.unprocessable}`,
    );
  });

  test('one upload as both front and back is a 400 naming the back, at creation and in add_files; nothing stored', async () => {
    const api = await newWorkspace();
    const { individualId } = await caseWithPerson(api);
    const ref = await uploadRef(api, passportPng({ mrz: td3Mrz() }));
    const created = await api.post('/v1/checks/id_document', {
      individual_id: individualId,
      data: { front_upload_ref: ref, back_upload_ref: ref },
    });
    assert.equal(created.status, 400, JSON.stringify(created.body));
    assert.equal(created.body.details[0].path, 'data.back_upload_ref');
    assert.match(created.body.message, /is the same upload as data\.front_upload_ref/);
    assert.equal((await api.get(`/v1/checks?individual_id=${individualId}`)).body.data.length, 0);
    const empty = (await api.post('/v1/checks/id_document', { individual_id: individualId })).body;
    const added = await api.post(`/v1/checks/id_document/${empty.id}/add_files`, {
      front_upload_ref: ref,
      back_upload_ref: ref,
    });
    assert.equal(added.status, 400);
    assert.equal(added.body.details[0].path, 'back_upload_ref');
    // the upload is still unused: it can be the front alone
    const front = await api.post(`/v1/checks/id_document/${empty.id}/add_files`, { front_upload_ref: ref });
    assert.equal(front.status, 201, JSON.stringify(front.body));
  });

  test('in_progress → (add files) in_progress → processing → approved, same attempt', async () => {
    const api = await newWorkspace();
    const { individualId } = await caseWithPerson(api);
    const created = (await api.post('/v1/checks/id_document', { individual_id: individualId })).body;
    const front = await uploadRef(api, passportPng({ mrz: td3Mrz() }));
    const back = await uploadRef(api, makePng({ width: 5, height: 5 }));
    const res = await api.post(`/v1/checks/id_document/${created.id}/add_files`, {
      front_upload_ref: front,
      back_upload_ref: back,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.id, created.id);
    assert.equal(res.body.status, 'processing');
    assert.ok(res.body.data.information.front_file_id);
    assert.ok(res.body.data.information.back_file_id);
    assert.ok(res.body.data.vendor.verification_ref);
    const done = await settled(api, created.id);
    assert.equal(done.status, 'approved');
    assert.equal(done.data.information.back_file_id, res.body.data.information.back_file_id);
    const row = await checkRow(created.id);
    assert.equal(row.attempt, 1);
    assert.deepEqual(row.history, []);
    assert.deepEqual(await eventTypes(api.workspaceId), ['Check.Started', 'Check.Approved']);
  });

  test('rejected → (add files) processing: new attempt, history, Check.Started again, id unchanged', async () => {
    const api = await newWorkspace();
    const { done: first } = await submit(api, passportPng({ outcome: 'rejected' }));
    assert.equal(first.status, 'rejected');
    const ref = await uploadRef(api, passportPng({ mrz: td3Mrz() }));
    const res = await api.post(`/v1/checks/id_document/${first.id}/add_files`, { front_upload_ref: ref });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.id, first.id);
    assert.equal(res.body.status, 'processing');
    assert.equal(res.body.data.result, null);
    assert.equal(res.body.data.review.reviewer_type, null);
    assert.equal(res.body.data.vendor.comment, null);
    assert.notEqual(res.body.data.information.front_file_id, first.data.information.front_file_id);
    assert.notEqual(res.body.data.vendor.verification_ref, first.data.vendor.verification_ref);
    const row = await checkRow(first.id);
    assert.equal(row.attempt, 2);
    const history = row.history as any[];
    assert.equal(history.length, 1);
    assert.equal(history[0].attempt, 1);
    assert.equal(history[0].status, 'rejected');
    assert.equal(history[0].data.result, 'rejected');
    assert.equal(history[0].data.information.front_file_id, first.data.information.front_file_id);
    const done = await settled(api, first.id);
    assert.equal(done.status, 'approved');
    const events = await checkEvents(api.workspaceId);
    assert.deepEqual(
      events.map((e) => e.type),
      ['Check.Started', 'Check.Rejected', 'Check.Started', 'Check.Approved'],
    );
    assert.equal((events[2].payload as any).check.id, first.id);
    // the old attempt's file stays downloadable
    assert.equal((await downloadFile(api, first.data.information.front_file_id)).status, 200);
  });

  test('approved → expired (document expiry) → (add files) processing: new attempt', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const { done } = await submit(api, passportPng({ mrz: td3Mrz() }));
    assert.equal(done.status, 'approved');
    await ctx.db
      .updateTable('checks')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', done.id)
      .execute();
    assert.ok((await expireDueChecks(ctx)) >= 1);
    assert.equal((await api.get(`/v1/checks/id_document/${done.id}`)).body.status, 'expired');
    const ref = await uploadRef(api, passportPng({ mrz: td3Mrz({ expiry: '401231' }) }));
    const res = await api.post(`/v1/checks/id_document/${done.id}/add_files`, { front_upload_ref: ref });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.status, 'processing');
    const row = await checkRow(done.id);
    assert.equal(row.attempt, 2);
    assert.equal(row.expires_at, null);
    assert.equal((row.history as any[])[0].status, 'expired');
    const again = await settled(api, done.id);
    assert.equal(again.status, 'approved');
    assert.equal(again.data.information.expiration_date, '2040-12-31');
    assert.deepEqual(await eventTypes(api.workspaceId), [
      'Check.Started',
      'Check.Approved',
      'Check.Expired',
      'Check.Started',
      'Check.Approved',
    ]);
  });

  test('the third automatic rejection in a row goes to need_review (automatic_rejection disregarded)', async () => {
    const api = await newWorkspace();
    const rejectPng = passportPng({ outcome: 'rejected' });
    const { done: first } = await submit(api, rejectPng);
    assert.equal(first.status, 'rejected');
    const again = async () => {
      const ref = await uploadRef(api, rejectPng);
      const res = await api.post(`/v1/checks/id_document/${first.id}/add_files`, { front_upload_ref: ref });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return settled(api, first.id);
    };
    assert.equal((await again()).status, 'rejected');
    const third = await again();
    assert.equal(third.status, 'need_review');
    assert.equal(third.data.result, null);
    assert.equal(third.data.settings.automatic_rejection, true);
    // the reason a person must look, and the provider's reason for the rejection
    assert.equal(third.data.review.reviewer_type, null);
    assert.equal(
      third.data.review.comment,
      `Needs a review: a third automatic rejection in a row is left to a person: ${third.data.vendor.comment}`,
    );
    assert.match(third.data.review.comment, /visual authenticity/);
    const row = await checkRow(first.id);
    assert.equal(row.attempt, 3);
    assert.equal((row.history as any[]).length, 2);
    assert.deepEqual(
      (row.internal as any).submissions.map((s: any) => s.resolution),
      ['rejected_automatically', 'rejected_automatically', 'need_review'],
    );
    assert.deepEqual(await eventTypes(api.workspaceId), [
      'Check.Started',
      'Check.Rejected',
      'Check.Started',
      'Check.Rejected',
      'Check.Started',
      'Check.ReviewNeeded',
    ]);
  });

  test('a manual review between submissions is not a submission: the third automatic rejection (a refusal) still goes to review', async () => {
    const api = await newWorkspace();
    const rejectPng = passportPng({ outcome: 'rejected' });
    const { done: first } = await submit(api, rejectPng);
    const add = async (png: Buffer) => {
      const ref = await uploadRef(api, png);
      await api.post(`/v1/checks/id_document/${first.id}/add_files`, { front_upload_ref: ref });
      return settled(api, first.id);
    };
    assert.equal((await add(rejectPng)).status, 'rejected');
    // a manual decision does not count as a submission; the next automatic rejection is the third
    await api.patch(`/v1/checks/id_document/${first.id}/review`, { action: 'reject', override: true });
    assert.equal((await add(passportPng({ outcome: 'refused' }))).status, 'need_review');
  });

  test('a submission pushed to review, or decided by a person while processing, is not an automatic rejection: the next automatic rejection stands', async () => {
    const api = await newWorkspace();
    const rejectPng = passportPng({ outcome: 'rejected' });
    const { done: first } = await submit(api, rejectPng);
    assert.equal(first.status, 'rejected');
    const add = async (png: Buffer) => {
      const ref = await uploadRef(api, png);
      const res = await api.post(`/v1/checks/id_document/${first.id}/add_files`, { front_upload_ref: ref });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    };
    await add(rejectPng);
    assert.equal((await settled(api, first.id)).status, 'rejected');
    // the third submission: the provider never answers; pushed to review, a person rejects it
    await add(passportPng({ outcome: 'pending' }));
    assert.equal((await api.post(`/v1/checks/id_document/${first.id}/force_review`, {})).status, 200);
    const manual = await api.patch(`/v1/checks/id_document/${first.id}/review`, { action: 'reject' });
    assert.equal(manual.status, 200, JSON.stringify(manual.body));
    // the fourth: its two preceding submissions were not both rejected automatically
    await add(rejectPng);
    const fourth = await settled(api, first.id);
    assert.equal(fourth.status, 'rejected');
    assert.equal(fourth.data.result, 'rejected');
    assert.equal(fourth.data.review.reviewer_type, 'system');
    // the fifth: rejected by a person while still processing (the provider never answers)
    await add(passportPng({ outcome: 'pending' }));
    assert.equal(
      (await api.patch(`/v1/checks/id_document/${first.id}/review`, { action: 'reject' })).body.status,
      'rejected',
    );
    // the sixth: preceded by the fourth (automatic) and the fifth (a person's): rejected again
    await add(rejectPng);
    assert.equal((await settled(api, first.id)).status, 'rejected');
    // the seventh: preceded by the fifth (a person's) and the sixth: rejected
    await add(rejectPng);
    assert.equal((await settled(api, first.id)).status, 'rejected');
    const row = await checkRow(first.id);
    assert.equal(row.attempt, 7);
    assert.deepEqual(
      (row.internal as any).submissions.map((s: any) => [s.attempt, s.resolution]),
      [
        [1, 'rejected_automatically'],
        [2, 'rejected_automatically'],
        [3, 'pending'],
        [4, 'rejected_automatically'],
        [5, 'pending'],
        [6, 'rejected_automatically'],
        [7, 'rejected_automatically'],
      ],
    );
    // the eighth: preceded by two automatic rejections (the sixth and seventh)
    await add(rejectPng);
    assert.equal((await settled(api, first.id)).status, 'need_review');
  });

  test('processing → need_review by force_review (provider never answers)', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const { individualId } = await caseWithPerson(api);
    const ref = await uploadRef(api, passportPng({ outcome: 'pending' }));
    const created = (
      await api.post('/v1/checks/id_document', {
        individual_id: individualId,
        data: { front_upload_ref: ref },
      })
    ).body;
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await api.get(`/v1/checks/id_document/${created.id}`)).body.status, 'processing');
    assert.equal((await other.post(`/v1/checks/id_document/${created.id}/force_review`, {})).status, 404);
    const res = await api.post(`/v1/checks/id_document/${created.id}/force_review`, {});
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'need_review');
    // why it waits, for whoever opens it (it was null: the console had nothing to say)
    const read = (await api.get(`/v1/checks/id_document/${created.id}`)).body;
    assert.deepEqual(read.data.review, {
      comment:
        'Needs a review: pushed to review (force_review) while its analysis had not finished: the files are to be judged by a person',
      reviewed_at: null,
      reviewer_type: null,
      user: null,
    });
    const again = await api.post(`/v1/checks/id_document/${created.id}/force_review`, {});
    assert.equal(again.status, 400);
    assert.equal(again.body.details[0].path, 'status');
    assert.deepEqual(await eventTypes(api.workspaceId), ['Check.Started', 'Check.ReviewNeeded']);
  });
});

describe('id_document: MRZ sources', () => {
  test('MRZ from a JPEG comment, from PDF text, and from the back side', async () => {
    const api = await newWorkspace();
    const mrz = td3Mrz({ number: 'JPG123456' });
    const jpeg = (await submit(api, makeJpeg({ width: 16, height: 16, comment: mrz.join('\n') }))).done;
    assert.equal(jpeg.status, 'approved');
    assert.equal(jpeg.data.information.document_number, 'JPG123456');
    const pdf = (
      await submit(api, makePdf({ text: ['REPUBLIQUE FRANCAISE', ...td3Mrz({ number: 'PDF123456' })] }))
    ).done;
    assert.equal(pdf.status, 'approved');
    assert.equal(pdf.data.information.document_number, 'PDF123456');
    assert.equal(pdf.data.information.document_type, 'passport');
    // the text as pdf-lib writes it (hex strings, `<503C46...> Tj`), as most generators do: it was
    // not read, and the sandbox approved the document with the individual's own data
    const drawn = await PDFDocument.create();
    const courier = await drawn.embedFont(StandardFonts.Courier);
    const page = drawn.addPage([600, 300]);
    for (const [i, line] of td3Mrz({ number: 'HEX123456' }).entries())
      page.drawText(line, { x: 20, y: 60 - i * 20, size: 10, font: courier });
    const hexPdf = Buffer.from(await drawn.save());
    assert.match(hexPdf.toString('latin1'), /FlateDecode|<503C/);
    const hex = (await submit(api, hexPdf)).done;
    assert.equal(hex.status, 'approved');
    assert.equal(hex.data.information.document_number, 'HEX123456');

    const { individualId } = await caseWithPerson(api);
    const front = await uploadRef(api, makePng({ width: 4, height: 4 }));
    const back = await uploadRef(api, passportPng({ mrz: td3Mrz({ number: 'BCK123456' }) }));
    const res = await api.post('/v1/checks/id_document', {
      individual_id: individualId,
      data: { front_upload_ref: front, back_upload_ref: back },
    });
    const done = await settled(api, res.body.id);
    assert.equal(done.data.information.document_number, 'BCK123456');
  });
});

describe('id_document: sandbox_outcome (docs/sandbox.md, step 2)', () => {
  test('read from the back when the front has none; an unknown value is ignored; approved/rejected/undecided still read the MRZ, refused and error nothing', async () => {
    const api = await newWorkspace();
    const { individualId } = await caseWithPerson(api);
    const res = await api.post('/v1/checks/id_document', {
      individual_id: individualId,
      data: {
        front_upload_ref: await uploadRef(api, passportPng({ mrz: td3Mrz() })),
        back_upload_ref: await uploadRef(api, passportPng({ outcome: 'rejected' })),
      },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const back = await settled(api, res.body.id);
    assert.equal(back.status, 'rejected');
    assert.equal(back.data.detailed_results.document.visual_authenticity, 'rejected');
    assert.equal(back.data.information.document_number, '18AB12345');

    const unknown = (await submit(api, passportPng({ mrz: td3Mrz(), outcome: 'maybe' }))).done;
    assert.equal(unknown.status, 'approved', JSON.stringify(unknown.data));
    assert.equal(unknown.data.information.document_type, 'passport');

    // undecided with an MRZ: read and compared, the outcome decides
    const undecided = (await submit(api, passportPng({ mrz: td3Mrz(), outcome: 'undecided' }))).done;
    assert.equal(undecided.status, 'need_review');
    assert.equal(undecided.data.information.document_number, '18AB12345');
    assert.equal(undecided.data.detailed_results.document.data_validation, 'approved');
    assert.equal(undecided.data.detailed_results.document.data_comparison, 'approved');
    // approved without an MRZ: the individual's own data, compared approved
    const approved = (await submit(api, passportPng({ outcome: 'approved' }))).done;
    assert.equal(approved.status, 'approved');
    assert.equal(approved.data.information.last_name, 'Curie');
    assert.equal(approved.data.information.document_type, null);
    assert.equal(approved.data.detailed_results.document.data_comparison, 'approved');
    assert.equal(approved.data.detailed_results.document.data_validation, null);
    // and says that nothing was read (an approval looked like a document compared with the person)
    assert.match(
      approved.data.vendor.comment,
      /No machine-readable zone .* the individual’s own data, not read from the document/,
    );
    // refused and error read nothing, even with an MRZ
    for (const outcome of ['refused', 'error']) {
      const done = (await submit(api, passportPng({ mrz: td3Mrz(), outcome }))).done;
      assert.equal(done.data.information.document_number, null, outcome);
      assert.equal(done.data.information.last_name, null, outcome);
      assert.ok(done.data.information.front_file_id, outcome);
      assert.deepEqual(
        Object.values(done.data.detailed_results.document),
        [null, null, null, null, null, null],
        outcome,
      );
    }
  });
});

describe('id_document: document types (docs/sandbox.md, MRZ step)', () => {
  test('TD1 and TD2 MRZs are read; the document code gives the type; D is Germany', async () => {
    const api = await newWorkspace();
    const rows: [string[], string, string][] = [
      [idCardMrz('TD1', 'I'), 'identity_card', 'FR'],
      [idCardMrz('TD1', 'AC'), 'identity_card', 'FR'],
      [idCardMrz('TD1', 'IR'), 'residence_permit', 'FR'],
      [idCardMrz('TD1', 'R'), 'residence_permit', 'FR'],
      [idCardMrz('TD1', 'X'), 'other', 'FR'],
      [idCardMrz('TD1', 'ID', 'D<<'), 'identity_card', 'DE'],
      [idCardMrz('TD2', 'CR'), 'residence_permit', 'FR'],
      [idCardMrz('TD2', 'V'), 'visa', 'FR'],
      [[`V<${td3Mrz()[0].slice(2)}`, td3Mrz()[1]], 'visa', 'FR'],
    ];
    for (const [mrz, type, country] of rows) {
      const { done } = await submit(api, passportPng({ mrz }));
      const seen = JSON.stringify({ mrz, data: done.data });
      assert.equal(done.status, 'approved', seen);
      assert.equal(done.data.information.document_type, type, seen);
      assert.equal(done.data.information.issuing_country, country, seen);
      assert.equal(done.data.information.nationality, country, seen);
      assert.equal(done.data.information.expiration_date, '2034-12-31', seen);
      assert.equal(done.data.detailed_results.document.data_validation, 'approved', seen);
    }
  });
});

describe('id_document: the Swiss driving licence (docs/sandbox.md, MRZ step)', () => {
  test('9 + 30 + 30 read as a driving licence: names, birth date, number, CH; no expiry, not evaluated, no expiry time', async () => {
    const api = await newWorkspace();
    const { created, done } = await submit(
      api,
      passportPng({ mrz: swissLicenceMrz({ firstName: 'MARIE SALOMEA' }) }),
    );
    assert.equal(done.status, 'approved', JSON.stringify(done.data));
    assert.equal(done.data.result, 'approved');
    assert.equal(done.data.vendor.comment, null);
    assert.deepEqual(done.data.information, {
      document_type: 'driving_license',
      document_number: '123456789001',
      first_name: 'Marie Salomea',
      last_name: 'Curie',
      maiden_name: null,
      gender: null,
      nationality: null,
      birth_date: '1967-11-07',
      birth_country: null,
      expiration_date: null,
      issuing_date: null,
      issuing_country: 'CH',
      front_file_id: created.data.information.front_file_id,
      back_file_id: null,
    });
    assert.deepEqual(done.data.detailed_results.document, {
      data_validation: 'approved',
      data_consistency: null,
      image_integrity: null,
      visual_authenticity: null,
      compromised_document: null,
      data_comparison: 'approved',
    });
    // no expiry date: the check never expires by date
    assert.equal((await checkRow(done.id)).expires_at, null);
    assert.deepEqual(await eventTypes(api.workspaceId), ['Check.Started', 'Check.Approved']);

    // Liechtenstein issues the same format
    const li = (await submit(api, passportPng({ mrz: swissLicenceMrz({ state: 'LIE' }) }))).done;
    assert.equal(li.status, 'approved', JSON.stringify(li.data));
    assert.equal(li.data.information.issuing_country, 'LI');
  });

  test('no check digit: a malformed fixed field rejects (data_validation); the data is still compared', async () => {
    const api = await newWorkspace();
    const bad = (await submit(api, passportPng({ mrz: swissLicenceMrz({ code: 'FB', state: 'FRA' }) }))).done;
    assert.equal(bad.status, 'rejected', JSON.stringify(bad.data));
    assert.equal(bad.data.detailed_results.document.data_validation, 'rejected');
    assert.equal(bad.data.detailed_results.document.data_consistency, null);
    assert.equal(
      bad.data.vendor.comment,
      'The document was rejected: malformed MRZ fields (Document code, Issuing state)',
    );
    const other = (await submit(api, passportPng({ mrz: swissLicenceMrz({ birth: '671108' }) }))).done;
    assert.equal(other.status, 'rejected');
    assert.equal(other.data.detailed_results.document.data_validation, 'approved');
    assert.equal(other.data.detailed_results.document.data_comparison, 'rejected');
    assert.equal(other.data.information.document_type, 'driving_license');
  });
});

describe('id_document: vendor limits (refusals, not HTTP errors)', () => {
  test('idd_provider_1 refuses a file over 4 MB with the size comment; idd_provider_2 takes it', async () => {
    const api = await newWorkspace();
    const big = padPng(passportPng({ mrz: td3Mrz() }), 4 * MB + 1);
    const p1 = (await submit(api, big)).done;
    assert.equal(p1.status, 'rejected');
    assert.equal(p1.data.vendor.verification_status, 'refused');
    assert.equal(p1.data.vendor.comment, REFUSAL_COMMENTS.size);
    assert.match(p1.data.vendor.comment, /exceeds the maximum allowed size.*smaller file/);
    assert.ok(p1.data.information.front_file_id, 'the file is attached even when refused');
    const p1manual = (await submit(api, big, { automatic_rejection: false })).done;
    assert.equal(p1manual.status, 'need_review');
    assert.equal(p1manual.data.vendor.comment, REFUSAL_COMMENTS.size);
    const exactly4 = (await submit(api, padPng(passportPng({ mrz: td3Mrz() }), 4 * MB))).done;
    assert.equal(exactly4.status, 'approved');
    const p2 = (await submit(api, big, { vendor: 'idd_provider_2' })).done;
    assert.equal(p2.status, 'approved');
    assert.equal(p2.data.vendor.name, 'idd_provider_2');
  });

  test('idd_provider_2 refuses over 17 MB, an image 1920 px or more on its longer side, and a PDF embedding one', async () => {
    const api = await newWorkspace();
    const p2 = { vendor: 'idd_provider_2' };
    const huge = (await submit(api, padPng(passportPng(), 17 * MB + 1), p2)).done;
    assert.equal(huge.status, 'rejected');
    assert.equal(huge.data.vendor.comment, REFUSAL_COMMENTS.size);
    const wide = (await submit(api, makePng({ width: 2000, height: 10 }), p2)).done;
    assert.equal(wide.status, 'rejected');
    assert.equal(wide.data.vendor.comment, REFUSAL_COMMENTS.size);
    const tall = (await submit(api, makeJpeg({ width: 16, height: 1920 }), p2)).done;
    assert.equal(tall.status, 'rejected');
    const pdf = (await submit(api, makePdf({ image: { width: 2000, height: 1200 } }), p2)).done;
    assert.equal(pdf.status, 'rejected');
    assert.equal(pdf.data.vendor.comment, REFUSAL_COMMENTS.size);
    // under the limits: accepted
    assert.equal((await submit(api, makePng({ width: 1919, height: 10 }), p2)).done.status, 'approved');
    assert.equal(
      (await submit(api, makePdf({ image: { width: 1000, height: 1900 } }), p2)).done.status,
      'approved',
    );
    // provider 1 has no pixel limit
    assert.equal((await submit(api, makePng({ width: 2000, height: 10 }))).done.status, 'approved');
  });
});

describe('id_document: errors', () => {
  test('unknown or expired upload_ref → 400 naming the field; nothing created, nothing attached', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const { ctx } = await getHarness();
    const { individualId } = await caseWithPerson(api);
    const good = await uploadRef(api, passportPng());
    const cases: [Record<string, unknown>, string][] = [
      [{ front_upload_ref: 'upl_nope' }, 'data.front_upload_ref'],
      [{ front_upload_ref: good, back_upload_ref: 'upl_nope' }, 'data.back_upload_ref'],
      [{ front_upload_ref: await uploadRef(other, passportPng()) }, 'data.front_upload_ref'],
      [{ back_upload_ref: good }, 'data.front_upload_ref'],
    ];
    for (const [data, path] of cases) {
      const res = await api.post('/v1/checks/id_document', { individual_id: individualId, data });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.details[0].path, path, JSON.stringify(res.body));
    }
    const expired = await uploadRef(api, passportPng());
    await ctx.db
      .updateTable('files')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('upload_ref', '=', expired)
      .execute();
    const res = await api.post('/v1/checks/id_document', {
      individual_id: individualId,
      data: { front_upload_ref: expired },
    });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /expired/);
    const rows = await ctx.db
      .selectFrom('checks')
      .select('id')
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    assert.equal(rows.length, 0);
    const file = await ctx.db
      .selectFrom('files')
      .select('attached_at')
      .where('upload_ref', '=', good)
      .executeTakeFirstOrThrow();
    assert.equal(file.attached_at, null, 'the front upload of the failed creation stays unattached');
    assert.deepEqual(await eventTypes(api.workspaceId), []);
    const badVendor = await api.post('/v1/checks/id_document', {
      individual_id: individualId,
      settings: { vendor: 'veriff' },
    });
    assert.equal(badVendor.status, 400);
  });

  test('add_files: refused in processing, need_review and approved; bad ref → 400, check unchanged', async () => {
    const api = await newWorkspace();
    const { individualId } = await caseWithPerson(api);
    const ref = await uploadRef(api, passportPng({ outcome: 'pending' }));
    const processing = (
      await api.post('/v1/checks/id_document', {
        individual_id: individualId,
        data: { front_upload_ref: ref },
      })
    ).body;
    const review = (await submit(api, passportPng({ outcome: 'undecided' }))).done;
    const approved = (await submit(api, passportPng())).done;
    for (const [check, status] of [
      [processing, 'processing'],
      [review, 'need_review'],
      [approved, 'approved'],
    ] as const) {
      assert.equal((await api.get(`/v1/checks/id_document/${check.id}`)).body.status, status);
      const res = await api.post(`/v1/checks/id_document/${check.id}/add_files`, {
        front_upload_ref: await uploadRef(api, passportPng()),
      });
      assert.equal(res.status, 400, status);
      assert.match(res.body.message, new RegExp(`this one is ${status}`));
      assert.deepEqual(res.body.details, [{ path: 'status', message: res.body.message }]);
      assert.equal((await checkRow(check.id)).attempt, 1);
    }
    const inProgress = (await api.post('/v1/checks/id_document', { individual_id: individualId })).body;
    const bad = await api.post(`/v1/checks/id_document/${inProgress.id}/add_files`, {
      front_upload_ref: 'upl_x',
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.details[0].path, 'front_upload_ref');
    const badBack = await api.post(`/v1/checks/id_document/${inProgress.id}/add_files`, {
      front_upload_ref: await uploadRef(api, passportPng()),
      back_upload_ref: 'upl_x',
    });
    assert.equal(badBack.body.details[0].path, 'back_upload_ref');
    const missing = await api.post(`/v1/checks/id_document/${inProgress.id}/add_files`, {});
    assert.equal(missing.status, 400);
    const row = await checkRow(inProgress.id);
    assert.equal(row.status, 'in_progress');
    assert.equal((row.data as any).information.front_file_id, null);
    assert.equal(
      (await api.post('/v1/checks/id_document/not-a-uuid/add_files', { front_upload_ref: ref })).status,
      400,
    );
  });

  test('another workspace → 404 on get, add_files, review, force_review, and its file ids', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const { done } = await submit(api, passportPng({ outcome: 'rejected' }));
    const ref = await uploadRef(other, passportPng());
    assert.equal((await other.get(`/v1/checks/id_document/${done.id}`)).status, 404);
    assert.equal(
      (await other.post(`/v1/checks/id_document/${done.id}/add_files`, { front_upload_ref: ref })).status,
      404,
    );
    assert.equal(
      (await other.patch(`/v1/checks/id_document/${done.id}/review`, { action: 'approve' })).status,
      404,
    );
    assert.equal((await other.post(`/v1/checks/id_document/${done.id}/force_review`, {})).status, 404);
    assert.equal((await downloadFile(other, done.data.information.front_file_id)).status, 404);
    const { individualId } = await caseWithPerson(api);
    assert.equal((await other.post('/v1/checks/id_document', { individual_id: individualId })).status, 404);
    // an ekyc id on the id_document path is not found
    assert.equal((await api.get(`/v1/checks/ekyc/${done.id}`)).status, 404);
  });
});
