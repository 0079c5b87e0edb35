import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { downloadFile, makePng, uploadRef } from './helpers/files.ts';
import { type Client, eventually, getHarness, newWorkspace } from './helpers/harness.ts';
import { caseWithPerson, passportPng, td3Mrz } from './helpers/id-documents.ts';

async function settled(api: Client, id: string) {
  return eventually(async () => {
    const r = await api.get(`/v1/checks/id_document/${id}`);
    return r.body.status !== 'processing' && r.body;
  });
}

/** Where the local storage keeps a file's bytes (src/files/storage.ts). */
async function storedPath(api: Client, fileId: string) {
  const { config } = await getHarness();
  return path.join(config.dataDir, 'files', api.workspaceId, fileId);
}

describe('permanent case deletion erases the case files', () => {
  test('check files (every attempt) and reports go; a file another case references stays', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const { caseId, individualId } = await caseWithPerson(api);
    const shared = await uploadRef(api, makePng({ width: 4, height: 4 }));
    const created = await api.post('/v1/checks/id_document', {
      individual_id: individualId,
      data: {
        front_upload_ref: await uploadRef(api, passportPng({ outcome: 'rejected' })),
        back_upload_ref: shared,
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const first = await settled(api, created.body.id);
    assert.equal(first.status, 'rejected');
    assert.equal(
      (
        await api.post(`/v1/checks/id_document/${first.id}/add_files`, {
          front_upload_ref: await uploadRef(api, passportPng({ mrz: td3Mrz() })),
        })
      ).status,
      201,
    );
    const current = await settled(api, first.id);
    assert.equal((await api.post(`/v1/cases/${caseId}/generate-report`, {})).status, 204);
    const report = await eventually(async () => {
      const res = await api.get(`/v1/cases/${caseId}/documents?type=case_report`);
      return res.body.data[0];
    }, 30_000);
    // a second case's check references the same upload (its upload_ref is still valid)
    const second = await caseWithPerson(api);
    const reuse = await api.post('/v1/checks/id_document', {
      individual_id: second.individualId,
      data: { front_upload_ref: shared },
    });
    assert.equal(reuse.status, 201, JSON.stringify(reuse.body));
    const sharedId =
      reuse.body.data?.information?.front_file_id ??
      (await settled(api, reuse.body.id)).data.information.front_file_id;
    assert.equal(sharedId, current.data.information.back_file_id ?? first.data.information.back_file_id);

    const erased = [
      first.data.information.front_file_id,
      current.data.information.front_file_id,
      ...report.file_ids,
    ];
    assert.equal(new Set(erased).size, 3);
    for (const id of [...erased, sharedId]) {
      assert.equal((await downloadFile(api, id)).status, 200);
      assert.ok(fs.existsSync(await storedPath(api, id)));
    }
    assert.equal((await other.delete(`/v1/cases/${caseId}?permanent=true`)).status, 404);

    assert.equal((await api.delete(`/v1/cases/${caseId}?permanent=true`)).status, 204);
    for (const id of erased) {
      const res = await downloadFile(api, id);
      assert.equal(res.status, 404, `${id} is still downloadable`);
      assert.equal(fs.existsSync(await storedPath(api, id)), false, `${id}'s bytes are still stored`);
    }
    assert.equal((await downloadFile(api, sharedId)).status, 200);
    assert.ok(fs.existsSync(await storedPath(api, sharedId)));
    const { ctx } = await getHarness();
    const rows = await ctx.db.selectFrom('files').select('id').where('id', 'in', erased).execute();
    assert.deepEqual(rows, []);
  });

  test('a soft-deleted case can still be erased by its id (not by its external_id)', async () => {
    const api = await newWorkspace();
    const kase = (await api.post('/v1/cases', { name: 'Soft then hard', external_id: 'erase-me' })).body;
    assert.equal((await api.delete('/v1/cases/erase-me')).status, 204);
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).status, 404);
    assert.equal((await api.delete('/v1/cases/erase-me?permanent=true')).status, 404);
    assert.equal((await api.delete(`/v1/cases/${kase.id}`)).status, 404, 'a soft delete happens once');
    assert.equal((await api.delete(`/v1/cases/${kase.id}?permanent=true`)).status, 204);
    const { ctx } = await getHarness();
    assert.equal(
      await ctx.db.selectFrom('cases').select('id').where('id', '=', kase.id).executeTakeFirst(),
      undefined,
    );
    const deletions = await ctx.db
      .selectFrom('events')
      .select('payload')
      .where('workspace_id', '=', api.workspaceId)
      .where('type', '=', 'Case.Deleted')
      .orderBy('seq')
      .execute();
    assert.deepEqual(
      deletions.map((e) => (e.payload as { case: { permanent: boolean } }).case.permanent),
      [false, true],
    );
    assert.equal((await api.delete(`/v1/cases/${kase.id}?permanent=true`)).status, 404);
  });
});
