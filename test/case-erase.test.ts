import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { downloadFile, makePng, uploadRef } from './helpers/files.ts';
import { type Client, eventually, getHarness, newWorkspace, sampleCaseBody } from './helpers/harness.ts';
import { caseWithPerson, passportPng, td3Mrz } from './helpers/id-documents.ts';
import { type Receiver, startReceiver } from './helpers/receiver.ts';

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

  test('files of checks deleted before the case (alone, or with their individual) are withheld and erased with it', async () => {
    const { ctx } = await getHarness();
    // a case with two people, each with an ID document check; then both checks go before the case
    const twoPeople = async () => {
      const res = await api.post('/v1/cases', {
        name: 'Deleted checks',
        companies: [{ name: 'Main', country: 'FR' }],
        individuals: [
          { first_name: 'Marie', last_name: 'Curie', relations: [{ roles: ['legal_representative'] }] },
          { first_name: 'Pierre', last_name: 'Curie', relations: [{ roles: ['shareholder'] }] },
        ],
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const fileIds: string[] = [];
      for (const person of res.body.individuals) {
        const created = await api.post('/v1/checks/id_document', {
          individual_id: person.id,
          data: { front_upload_ref: await uploadRef(api, passportPng({ mrz: td3Mrz() })) },
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const done = await settled(api, created.body.id);
        fileIds.push(done.data.information.front_file_id);
        if (person.first_name === 'Marie') {
          assert.equal((await api.delete(`/v1/checks/${created.body.id}`)).status, 204);
        } else {
          assert.equal((await api.delete(`/v1/individuals/${person.id}`)).status, 204);
        }
      }
      // the case lives: its files are still served
      for (const id of fileIds) assert.equal((await downloadFile(api, id)).status, 200);
      return { caseId: res.body.id as string, fileIds };
    };
    const api = await newWorkspace();

    // soft deleted: withheld (read as absent), rows and bytes kept until the erasure
    const soft = await twoPeople();
    assert.equal((await api.delete(`/v1/cases/${soft.caseId}`)).status, 204);
    for (const id of soft.fileIds) {
      assert.equal((await downloadFile(api, id)).status, 404, `${id} is still served`);
      assert.ok(fs.existsSync(await storedPath(api, id)));
    }
    // erased (that one, and one erased straight away): rows and bytes go
    const hard = await twoPeople();
    for (const caseId of [soft.caseId, hard.caseId])
      assert.equal((await api.delete(`/v1/cases/${caseId}?permanent=true`)).status, 204);
    for (const id of [...soft.fileIds, ...hard.fileIds]) {
      assert.equal((await downloadFile(api, id)).status, 404, `${id} is still downloadable`);
      assert.equal(fs.existsSync(await storedPath(api, id)), false, `${id}'s bytes are still stored`);
    }
    const rows = await ctx.db
      .selectFrom('files')
      .select('id')
      .where('id', 'in', [...soft.fileIds, ...hard.fileIds])
      .execute();
    assert.deepEqual(rows, []);
    assert.deepEqual(
      await ctx.db
        .selectFrom('deleted_check_files')
        .select('file_id')
        .where('case_id', 'in', [soft.caseId, hard.caseId])
        .execute(),
      [],
    );
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
    // the soft delete's event went with the case's history; the erasure's is kept
    assert.deepEqual(
      deletions.map((e) => (e.payload as { case: { permanent: boolean } }).case.permanent),
      [true],
    );
    assert.equal((await api.delete(`/v1/cases/${kase.id}?permanent=true`)).status, 404);
  });
});

describe('permanent case deletion erases the case history', () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(async () => receiver.stop());

  test('its events, activities and webhook deliveries go; Case.Deleted is delivered; a replay brings nothing back', async () => {
    const api = await newWorkspace();
    const hook = await api.post('/v1/webhooks', {
      name: 'erase',
      url: receiver.url(`/${api.workspaceId}`),
      events: ['*'],
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const kept = (await api.post('/v1/cases', { name: 'Kept case' })).body;
    const erased = (await api.post('/v1/cases', sampleCaseBody('erase-me'))).body;
    assert.equal((await api.patch(`/v1/cases/${erased.id}`, { name: 'Renamed' })).status, 200);
    await receiver.waitFor(() =>
      receiver.deliveries(`/${api.workspaceId}`).some((d) => d.json?.case?.name === 'Renamed'),
    );
    const { ctx } = await getHarness();
    const eventsOf = (caseId: string) =>
      ctx.db
        .selectFrom('events')
        .select('type')
        .where('workspace_id', '=', api.workspaceId)
        .where('case_id', '=', caseId)
        .execute();
    assert.ok((await eventsOf(erased.id)).length > 3);

    assert.equal((await api.delete(`/v1/cases/${erased.id}?permanent=true`)).status, 204);
    assert.deepEqual(
      (await eventsOf(erased.id)).map((e) => e.type).filter((t) => t !== 'Case.Deleted'),
      [],
    );
    const deleted = await ctx.db
      .selectFrom('events')
      .select('payload')
      .where('workspace_id', '=', api.workspaceId)
      .where('type', '=', 'Case.Deleted')
      .execute();
    assert.deepEqual(
      deleted.map((e) => (e.payload as { case: { id: string } }).case.id),
      [erased.id],
    );
    assert.ok((await eventsOf(kept.id)).length > 0, 'another case keeps its history');
    const deliveries = await ctx.db
      .selectFrom('webhook_deliveries')
      .select('event')
      .where('workspace_id', '=', api.workspaceId)
      .where('case_id', '=', erased.id)
      .execute();
    assert.deepEqual(
      deliveries.map((d) => d.event).filter((e) => e !== 'Case.Deleted'),
      [],
    );
    const activities = await api.get(`/v1/activities?case_id=${erased.id}`);
    assert.equal(activities.status, 200, JSON.stringify(activities.body));
    assert.ok(
      activities.body.data.every(
        (a: { type?: string; event?: string }) => !JSON.stringify(a).includes('Renamed'),
      ),
    );
    const logs = await api.get('/v1/webhook-logs?limit=50');
    assert.ok(!JSON.stringify(logs.body).includes('Acme onboarding'));
    await receiver.waitFor(() =>
      receiver.deliveries(`/${api.workspaceId}`).some((d) => d.json?.event === 'Case.Deleted'),
    );
    // a replay of everything re-sends the kept case's events and the erasure, nothing of the case
    const before = receiver.deliveries(`/${api.workspaceId}`).length;
    const replay = await api.post(`/v1/webhooks/${hook.body.id}/replay`, { since: '2000-01-01T00:00:00Z' });
    assert.equal(replay.status, 202, JSON.stringify(replay.body));
    await receiver.waitFor(
      () => receiver.deliveries(`/${api.workspaceId}`).length >= before + replay.body.deliveries,
    );
    const replayed = receiver.deliveries(`/${api.workspaceId}`).slice(before);
    assert.ok(replayed.some((d) => d.json?.event === 'Case.Deleted'));
    for (const d of replayed) {
      if (d.json?.event === 'Case.Deleted') continue;
      assert.notEqual(d.json?.context?.case?.id, erased.id, `replayed ${d.json?.event} of the erased case`);
    }
  });
});
