/**
 * force_review takes no body (spec: "Body of force_review: not shown"; the reference has none). A
 * field it would not record is refused by name rather than accepted and dropped: a `comment` sent
 * here was once answered 200 and stored nowhere.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { uploadRef } from './helpers/files.ts';
import { eventually, getHarness, newWorkspace } from './helpers/harness.ts';
import { caseWithPerson, passportPng } from './helpers/id-documents.ts';

test('force_review: a comment (nowhere recorded) → 400 naming it, nothing changes; no body or {} works', async () => {
  const api = await newWorkspace();
  const { individualId } = await caseWithPerson(api);
  const pending = async () => {
    const ref = await uploadRef(api, passportPng({ outcome: 'pending' }));
    const res = await api.post('/v1/checks/id_document', {
      individual_id: individualId,
      data: { front_upload_ref: ref },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    // the sandbox's `pending` never answers: the submission is sent, the check stays processing
    await eventually(async () => {
      const r = await api.get(`/v1/checks/id_document/${res.body.id}`);
      return r.body.data.vendor.verification_status === 'submitted' && r.body.status === 'processing';
    });
    return res.body.id as string;
  };

  const id = await pending();
  const refused = await api.post(`/v1/checks/id_document/${id}/force_review`, { comment: 'stuck' });
  assert.equal(refused.status, 400, JSON.stringify(refused.body));
  assert.equal(refused.body.details[0].path, 'comment');
  assert.equal((await api.get(`/v1/checks/id_document/${id}`)).body.status, 'processing');

  const empty = await api.post(`/v1/checks/id_document/${id}/force_review`, {});
  assert.equal(empty.status, 200, JSON.stringify(empty.body));
  assert.equal(empty.body.status, 'need_review');

  const other = await pending();
  const { app } = await getHarness();
  const bare = await app.inject({
    method: 'POST',
    url: `/v1/checks/id_document/${other}/force_review`,
    headers: { 'x-service-api-key': api.key },
  });
  assert.equal(bare.statusCode, 200, bare.body);
  assert.equal(bare.json().status, 'need_review');
});
