/**
 * The portal says what happens to a step after it was sent: `checking` while the check verifies it,
 * and `retry_reason` when an automatic decision sent it back (src/portal/retry-reasons.ts). A
 * person's rejection, and a result that points at fraud, give no reason.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { settledDocument } from './helpers/document-checks.ts';
import { cardPng, selfiePng } from './helpers/face-images.ts';
import { makePdf } from './helpers/files.ts';
import { type Client, eventually, newWorkspace } from './helpers/harness.ts';
import { td3Mrz } from './helpers/id-documents.ts';
import { portal, portalCase, portalToken, portalUpload } from './helpers/portal.ts';
import { kbisPdf } from './helpers/sample-documents.ts';

/** A passport for the portal case's contact, Ada Lovelace (born 1985-12-10), valid unless told. */
const adaPassport = (opts: { lastName?: string; expiry?: string } = {}) =>
  cardPng(
    null,
    td3Mrz({
      lastName: opts.lastName ?? 'LOVELACE',
      firstName: 'ADA',
      birth: '851210',
      sex: 'F',
      expiry: opts.expiry ?? '341231',
    }),
  );

const tokenOf = (url: string) => new URL(url).hash.replace(/^#token=/, '');

async function idVerification(api: Client, settings: Record<string, unknown> = {}) {
  const ids = await portalCase(api);
  const res = await api.post('/v1/checks/id_verification', { individual_id: ids.contactId, settings });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { ...ids, id: res.body.id as string, token: tokenOf(res.body.data.vendor.verification_url) };
}

/** Uploads the capture and submits it; returns the submission's answer. */
async function capture(token: string, id: string, front: Buffer, face: Buffer) {
  for (const [slot, bytes] of [
    ['front', front],
    ['face', face],
  ] as const) {
    const up = await portalUpload(token, id, slot, bytes, `${slot}.png`, 'image/png');
    assert.equal(up.status, 201, JSON.stringify(up.body));
  }
  const sent = await portal(token, 'POST', `/actions/${id}/submit`);
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  return sent.body;
}

/** The action as the portal's session shows it once its check has left `processing`. */
async function settledAction(token: string, id: string) {
  return eventually(async () => {
    const session = await portal(token, 'GET', '/session');
    assert.equal(session.status, 200, JSON.stringify(session.body));
    const action = session.body.actions.find((a: { id: string }) => a.id === id);
    assert.ok(action, JSON.stringify(session.body.actions));
    return !action.checking && action;
  }, 60_000);
}

describe('portal: a step being checked, and why it came back', { timeout: 180_000 }, () => {
  test('id_verification: checking after the capture; a face that does not match → retry, face_mismatch; a new capture approved', async () => {
    const api = await newWorkspace();
    const { id, token } = await idVerification(api);
    const before = (await portal(token, 'GET', '/session')).body.actions[0];
    assert.equal(before.state, 'todo');
    assert.equal(before.checking, false);
    assert.equal(before.retry_reason, null);

    const sent = await capture(token, id, adaPassport(), selfiePng('bella', { sandbox_outcome: 'rejected' }));
    // the submission answers while the verification runs (a job after the sandbox delay)
    assert.equal(sent.state, 'submitted');
    assert.equal(sent.checking, true);
    assert.equal(sent.retry_reason, null);

    const rejected = await settledAction(token, id);
    assert.equal(rejected.state, 'retry');
    assert.equal(rejected.retry_reason, 'face_mismatch');
    const check = (await api.get(`/v1/checks/id_verification/${id}`)).body;
    assert.equal(check.status, 'rejected');
    assert.equal(check.data.detailed_results.face.face_comparison, 'rejected');

    await capture(token, id, adaPassport(), selfiePng('bella', { sandbox_outcome: 'approved' }));
    const approved = await settledAction(token, id);
    assert.equal(approved.state, 'approved');
    assert.equal(approved.retry_reason, null);
  });

  test('id_verification: the document comes first: an expired passport → expired; another name → details_mismatch', async () => {
    const api = await newWorkspace();
    const rejectedSelfie = () => selfiePng('bella', { sandbox_outcome: 'rejected' });
    const expired = await idVerification(api);
    await capture(expired.token, expired.id, adaPassport({ expiry: '200101' }), rejectedSelfie());
    assert.equal((await settledAction(expired.token, expired.id)).retry_reason, 'expired');

    const other = await idVerification(api);
    await capture(other.token, other.id, adaPassport({ lastName: 'BYRON' }), rejectedSelfie());
    const action = await settledAction(other.token, other.id);
    assert.equal(action.state, 'retry');
    assert.equal(action.retry_reason, 'details_mismatch');
  });

  test("a person's rejection gives no reason; a step waiting for a review is received, not checking", async () => {
    const api = await newWorkspace();
    const { id, token } = await idVerification(api, { automatic_rejection: false });
    await capture(token, id, adaPassport(), selfiePng('bella', { sandbox_outcome: 'rejected' }));
    const waiting = await settledAction(token, id);
    assert.equal(waiting.state, 'submitted');
    assert.equal(waiting.checking, false);
    assert.equal((await api.get(`/v1/checks/id_verification/${id}`)).body.status, 'need_review');

    const review = await api.patch(`/v1/checks/id_verification/${id}/review`, {
      action: 'reject',
      comment: 'Internal: the selfie looks like a printed photo',
    });
    assert.equal(review.status, 200, JSON.stringify(review.body));
    const action = (await portal(token, 'GET', '/session')).body.actions[0];
    assert.equal(action.state, 'retry');
    assert.equal(action.retry_reason, null);
    // nothing of the reviewer's comment reaches the contact
    assert.doesNotMatch(JSON.stringify(action), /printed photo/);
  });

  test('document: an extract older than 3 months → too_old; a Kbis for a proof of address → wrong_document; a sandbox rejection → no reason', async () => {
    const api = await newWorkspace();
    const ids = await portalCase(api);
    const automatic = { document_analysis: { automatic_rejection: true } };
    const create = async (body: Record<string, unknown>) => {
      const res = await api.post('/v1/checks/document', body);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.id as string;
    };
    const kbis = await create({
      company_id: ids.companyId,
      settings: { document_type_key: 'registration_certificate', ...automatic },
    });
    const address = await create({
      individual_id: ids.contactId,
      settings: { document_type_key: 'proof_of_address', ...automatic },
    });
    const forced = await create({
      company_id: ids.companyId,
      settings: { document_type_key: 'registration_certificate', ...automatic },
    });
    const { token } = await portalToken(api, ids.caseId, ids.contactId);
    const old = new Date(Date.now() - 120 * 86_400_000).toISOString().slice(0, 10);
    const today = new Date().toISOString().slice(0, 10);
    const sends: [string, Buffer][] = [
      [kbis, await kbisPdf({ name: 'Acme SAS', siren: '552100554', date: old })],
      [address, await kbisPdf({ name: 'Acme SAS', siren: '552100554', date: today })],
      [forced, makePdf({ text: 'sandbox_outcome: rejected' })],
    ];
    for (const [id, pdf] of sends) {
      const up = await portalUpload(token, id, 'files', pdf, 'doc.pdf', 'application/pdf');
      assert.equal(up.status, 201, JSON.stringify(up.body));
      const sent = await portal(token, 'POST', `/actions/${id}/submit`);
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      assert.equal(sent.body.checking, true);
    }
    const expected: Record<string, string | null> = {
      [kbis]: 'too_old',
      [address]: 'wrong_document',
      [forced]: null,
    };
    for (const [id, reason] of Object.entries(expected)) {
      const check = await settledDocument(api, id);
      assert.equal(check.status, 'rejected', JSON.stringify(check.data));
      const action = await settledAction(token, id);
      assert.equal(action.state, 'retry');
      assert.equal(action.retry_reason, reason, JSON.stringify(check.data.detailed_results));
    }
    // the API's own view is unchanged: the reason is the portal's wording of the results
    assert.equal(
      (await settledDocument(api, kbis)).data.detailed_results.document_analysis.valid_age_in_days.result,
      'rejected',
    );
  });
});
