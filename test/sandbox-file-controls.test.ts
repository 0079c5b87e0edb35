import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { outcomePdf, submitDocument } from './helpers/document-checks.ts';
import { cardPng, printedMrzCardPng, selfiePng } from './helpers/face-images.ts';
import { uploadRef } from './helpers/files.ts';
import { type Client, eventually, getHarness, newWorkspace } from './helpers/harness.ts';
import { caseWithPerson, passportPng, td3Mrz } from './helpers/id-documents.ts';
import { ADA_MRZ, verified } from './helpers/id-verification.ts';

// VERICASE_SANDBOX_FILE_CONTROLS=off: what a file carries as text (a `sandbox_outcome` keyword, an
// MRZ typed into a PNG tEXt chunk) steers nothing, so a person in the portal cannot approve their
// own check with crafted metadata. Each test runs the same upload with the controls on first: the
// controls do steer then, so the test would fail if turning them off changed nothing.

/** A valid passport of the default person (Marie Curie, 1967-11-07) whose PNG also asks for approval. */
const craftedPassport = () => passportPng({ mrz: td3Mrz(), outcome: 'approved', width: 320, height: 200 });

async function idDocument(api: Client, front: Buffer, person: Record<string, unknown> = {}) {
  const { individualId } = await caseWithPerson(api, person);
  const res = await api.post('/v1/checks/id_document', {
    individual_id: individualId,
    data: { front_upload_ref: await uploadRef(api, front) },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return eventually(async () => {
    const r = await api.get(`/v1/checks/id_document/${res.body.id}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.status !== 'processing' && r.body;
  }, 60_000);
}

/** Runs `fn` with the harness's sandbox file controls set to `on`, restoring them after. */
async function withControls<T>(on: boolean, fn: () => Promise<T>): Promise<T> {
  const { ctx } = await getHarness();
  const saved = ctx.config.sandboxFileControls;
  ctx.config.sandboxFileControls = on;
  try {
    return await fn();
  } finally {
    ctx.config.sandboxFileControls = saved;
  }
}

describe('sandbox file controls', { timeout: 300_000 }, () => {
  before(async () => {
    assert.equal((await getHarness()).ctx.config.sandboxFileControls, true, 'on by default');
  });
  after(async () => {
    (await getHarness()).ctx.config.sandboxFileControls = true;
  });

  test('id_document: an MRZ and sandbox_outcome typed into a PNG → approved with them on, a person decides with them off', async () => {
    const api = await newWorkspace();
    const on = await withControls(true, () => idDocument(api, craftedPassport()));
    assert.equal(on.status, 'approved', JSON.stringify(on.data));
    assert.equal(on.data.information.document_number, '18AB12345');

    const off = await withControls(false, () => idDocument(api, craftedPassport()));
    assert.equal(off.status, 'need_review', JSON.stringify(off.data));
    assert.equal(off.data.result, null);
    assert.match(off.data.vendor.comment, /No machine-readable zone could be read/);
    // nothing was read: no field comes from the tEXt chunk, nor from the individual
    assert.equal(off.data.information.document_number, null);
    assert.equal(off.data.information.last_name, null);
    assert.deepEqual(off.data.detailed_results.document, {
      data_validation: null,
      data_consistency: null,
      data_comparison: null,
      image_integrity: null,
      visual_authenticity: null,
      compromised_document: null,
    });
  });

  test("id_document with them off: an MRZ printed on the card is read by OCR; a match goes to a person, an expired or another person's document is rejected", async () => {
    const api = await newWorkspace();
    const person = { first_name: 'Ada', last_name: 'Lovelace', birth_date: '1985-12-10' };
    const read = await withControls(false, () =>
      idDocument(api, printedMrzCardPng('bella', ADA_MRZ), person),
    );
    // an MRZ anyone can draw proves nothing about the document: read, compared, left to a person
    assert.equal(read.status, 'need_review', JSON.stringify(read.data));
    assert.equal(read.data.result, null);
    assert.equal(read.data.information.last_name, 'Lovelace');
    assert.equal(read.data.information.birth_date, '1985-12-10');
    assert.equal(read.data.information.expiration_date, '2034-12-31');
    assert.equal(read.data.detailed_results.document.data_validation, 'approved');
    assert.equal(read.data.detailed_results.document.data_consistency, 'approved');
    assert.equal(read.data.detailed_results.document.data_comparison, 'approved');
    assert.equal(read.data.detailed_results.document.visual_authenticity, null);
    assert.equal(
      read.data.vendor.comment,
      "The machine-readable zone was read and matches the individual; the document's authenticity is not evaluated: a person must look at it",
    );
    assert.equal(
      read.data.review.comment,
      `Needs a review: the document provider could not decide on the document: ${read.data.vendor.comment}`,
    );
    // the birth date is under a check digit: another person's document is rejected
    const other = await withControls(false, () =>
      idDocument(api, printedMrzCardPng('bella', ADA_MRZ), { first_name: 'Marie', last_name: 'Curie' }),
    );
    assert.equal(other.status, 'rejected', JSON.stringify(other.data));
    assert.equal(other.data.detailed_results.document.data_comparison, 'rejected');
    assert.match(
      other.data.vendor.comment,
      /the birth date read \(1985-12-10\) is not the individual's \(1967-11-07\)/,
    );
    const expired = td3Mrz({ lastName: 'LOVELACE', firstName: 'ADA', birth: '851210', expiry: '200101' });
    const old = await withControls(false, () => idDocument(api, printedMrzCardPng('bella', expired), person));
    assert.equal(old.status, 'rejected', JSON.stringify(old.data));
    assert.equal(old.data.detailed_results.document.data_consistency, 'rejected');
    assert.match(old.data.vendor.comment, /expired on 2020-01-01/);
  });

  test('id_verification: a selfie asking for approval and an MRZ in tEXt → approved with them on; with them off the model runs and the MRZ is not taken', async () => {
    const api = await newWorkspace();
    // the document shows alice, the selfie bella: only the sandbox keyword could approve this
    const on = await withControls(true, () =>
      verified(api, cardPng('alice', ADA_MRZ), selfiePng('bella', { sandbox_outcome: 'approved' })),
    );
    assert.equal(on.done.status, 'approved', JSON.stringify(on.done.data));

    const off = await withControls(false, () =>
      verified(api, cardPng('alice', ADA_MRZ), selfiePng('bella', { sandbox_outcome: 'approved' })),
    );
    assert.equal(off.done.status, 'rejected', JSON.stringify(off.done.data));
    assert.equal(off.done.data.detailed_results.face.face_comparison, 'rejected');
    assert.equal(off.done.data.detailed_results.document.data_validation, null);
    assert.equal(off.done.data.information.mrz, null);
    assert.match(off.done.data.vendor.comment, /no machine-readable zone could be read/i);
    assert.match(off.done.data.vendor.comment, /does not match the document photo/i);
    const { ctx } = await getHarness();
    const row = await ctx.db
      .selectFrom('checks')
      .select('internal')
      .where('id', '=', off.done.id)
      .executeTakeFirstOrThrow();
    const analysis = (row.internal as { analysis: Record<string, unknown> }).analysis;
    assert.equal(analysis.sandbox_outcome, null);
    assert.equal(analysis.selfie_faces, 1);
  });

  test('document: a PDF whose text says sandbox_outcome approved → approved with them on; analysed with them off', async () => {
    const api = await newWorkspace();
    const on = await withControls(true, () => submitDocument(api, [outcomePdf('approved')]));
    assert.equal(on.done.status, 'approved', JSON.stringify(on.done.data));
    assert.match(on.done.data.review.comment, /sandbox_outcome approved/);

    const off = await withControls(false, () => submitDocument(api, [outcomePdf('approved')]));
    assert.notEqual(off.done.status, 'approved', JSON.stringify(off.done.data));
    assert.doesNotMatch(JSON.stringify(off.done.data), /sandbox_outcome/);
  });
});
