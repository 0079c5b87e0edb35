import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { uploadRef } from './helpers/files.ts';
import { type Client, eventually, getHarness, newWorkspace } from './helpers/harness.ts';
import { caseWithPerson, passportPng } from './helpers/id-documents.ts';

/** Case flags follow the checks (reference set), and automatic decisions say why. */

const flagsOf = async (api: Client, caseId: string) =>
  ((await api.get(`/v1/cases/${caseId}`)).body.flags as string[]).slice().sort();

async function settled(api: Client, id: string) {
  return eventually(async () => {
    const r = await api.get(`/v1/checks/id_document/${id}`);
    return r.body.status !== 'processing' && r.body;
  });
}

async function flagEvents(workspaceId: string, caseId: string) {
  const { ctx } = await getHarness();
  const rows = await ctx.db
    .selectFrom('events')
    .select(['type', 'sub_event', 'payload'])
    .where('workspace_id', '=', workspaceId)
    .where('case_id', '=', caseId)
    .where('sub_event', '=', 'Case.FlagsUpdated')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => [...((r.payload as { case: { flags: string[] } }).case.flags as string[])].sort());
}

describe('case flags', () => {
  test('first collect → recollection → approved, each change a Case.Updated event', async () => {
    const api = await newWorkspace();
    const { caseId, individualId } = await caseWithPerson(api);
    assert.deepEqual(await flagsOf(api, caseId), []);

    const waiting = await api.post('/v1/checks/id_document', { individual_id: individualId });
    assert.equal(waiting.status, 201, JSON.stringify(waiting.body));
    assert.equal(waiting.body.status, 'in_progress');
    assert.deepEqual(await flagsOf(api, caseId), ['for_first_collect']);

    const rejectedRef = await uploadRef(api, passportPng({ outcome: 'rejected' }));
    const sent = await api.post(`/v1/checks/id_document/${waiting.body.id}/add_files`, {
      front_upload_ref: rejectedRef,
    });
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    assert.equal((await settled(api, waiting.body.id)).status, 'rejected');
    assert.deepEqual(await flagsOf(api, caseId), ['first_collect_completed', 'for_recollection']);

    const approvedRef = await uploadRef(api, passportPng({ outcome: 'approved' }));
    const again = await api.post(`/v1/checks/id_document/${waiting.body.id}/add_files`, {
      front_upload_ref: approvedRef,
    });
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal((await settled(api, waiting.body.id)).status, 'approved');
    assert.deepEqual(await flagsOf(api, caseId), ['all_checks_approved', 'first_collect_completed']);
    // as stored and shown: one order whatever the history (the enum's), not the order they came in
    // (first_collect_completed, set first, led: another case with the same flags showed them the
    // other way round)
    const shown = (await api.get(`/v1/cases/${caseId}`)).body.flags;
    assert.deepEqual(shown, ['all_checks_approved', 'first_collect_completed']);
    assert.deepEqual((await api.get('/v1/cases')).body.data[0].flags, shown);

    // files received: first collect completed while they are processed; rejected: recollection
    assert.deepEqual(await flagEvents(api.workspaceId, caseId), [
      ['for_first_collect'],
      ['first_collect_completed'],
      ['first_collect_completed', 'for_recollection'],
      ['first_collect_completed'],
      ['all_checks_approved', 'first_collect_completed'],
    ]);
  });

  test('for_review while a check needs review, all_checks_approved once reviewed', async () => {
    const api = await newWorkspace();
    const { caseId, individualId } = await caseWithPerson(api);
    const ref = await uploadRef(api, passportPng({ outcome: 'undecided' }));
    const check = await api.post('/v1/checks/id_document', {
      individual_id: individualId,
      data: { front_upload_ref: ref },
    });
    assert.equal((await settled(api, check.body.id)).status, 'need_review');
    assert.deepEqual(await flagsOf(api, caseId), ['for_review']);
    const reviewed = await api.patch(`/v1/checks/id_document/${check.body.id}/review`, {
      action: 'approve',
      comment: 'seen',
    });
    assert.equal(reviewed.status, 200, JSON.stringify(reviewed.body));
    assert.deepEqual(await flagsOf(api, caseId), ['all_checks_approved']);
  });

  test('a template creating several checks records the case flags once, not each intermediate state', async () => {
    // the template's ekyc check is approved synchronously, its online_reputation check is still
    // processing: the case committed with flags [] must not have announced all_checks_approved
    const api = await newWorkspace();
    const tpl = await api.post('/v1/templates', {
      key: 'kyc-and-reputation',
      name: 'KYC and reputation',
      checks: [
        { type: 'ekyc', targets: ['individuals'] },
        { type: 'online_reputation', targets: ['main_company'] },
      ],
    });
    assert.equal(tpl.status, 201, JSON.stringify(tpl.body));
    const created = await api.post('/v1/cases', {
      name: 'Template case',
      template_key: 'kyc-and-reputation',
      companies: [{ type: 'main', name: 'Acme', country: 'FR' }],
      individuals: [
        {
          first_name: 'Jean',
          last_name: 'Smith',
          birth_date: '1980-01-02',
          address: { country: 'FR' },
          relations: [{ roles: ['legal_representative'] }],
        },
      ],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const caseId = created.body.id as string;
    assert.deepEqual(created.body.flags, []);
    assert.deepEqual(await flagEvents(api.workspaceId, caseId), []);
    const reputation = created.body.companies[0].checks[0];
    assert.equal(reputation.status, 'processing');
    await eventually(async () => {
      const r = await api.get(`/v1/checks/online_reputation/${reputation.id}`);
      return r.body.status === 'approved';
    });
    assert.deepEqual(await flagsOf(api, caseId), ['all_checks_approved']);
    assert.deepEqual(await flagEvents(api.workspaceId, caseId), [['all_checks_approved']]);
  });

  test('deleting an entity, or marking it not relevant, takes its checks out of the case flags', async () => {
    const api = await newWorkspace();
    const person = (last_name: string) => ({
      first_name: 'Jean',
      last_name,
      birth_date: '1980-01-02',
      address: { country: 'FR' },
      relations: [{ roles: ['shareholder'] }],
    });
    const created = await api.post('/v1/cases', {
      name: 'Entities leaving',
      companies: [{ type: 'main', name: 'Acme', country: 'FR' }],
      individuals: [person('Inconclusive'), person('Smith'), person('Inconclusive')],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const caseId = created.body.id as string;
    const [undecided, decided, undecided2] = created.body.individuals.map((i: { id: string }) => i.id);
    const checkIds: string[] = [];
    for (const id of [undecided, decided, undecided2]) {
      const res = await api.post('/v1/checks/ekyc', { individual_id: id });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      checkIds.push(res.body.id);
    }
    const caseNow = async () => (await api.get(`/v1/cases/${caseId}`)).body;
    assert.deepEqual((await caseNow()).flags, ['for_review']);
    assert.equal((await caseNow()).reviewer_has_actions, true);

    // one person needing review is deleted (with its check); the other is marked not relevant
    assert.equal((await api.delete(`/v1/individuals/${undecided}`)).status, 204);
    assert.deepEqual((await caseNow()).flags, ['for_review']);
    const hidden = await api.post(`/v1/individuals/${undecided2}/set-relevant`, { is_relevant: false });
    assert.equal(hidden.status, 200, JSON.stringify(hidden.body));
    let k = await caseNow();
    assert.deepEqual(k.flags, ['all_checks_approved']);
    assert.equal(k.reviewer_has_actions, false);

    // relevant again: its check counts again
    const shown = await api.post(`/v1/individuals/${undecided2}/set-relevant`, { is_relevant: true });
    assert.equal(shown.status, 200, JSON.stringify(shown.body));
    k = await caseNow();
    assert.deepEqual(k.flags, ['for_review']);
    assert.equal(k.reviewer_has_actions, true);
    assert.equal((await api.delete(`/v1/individuals/${undecided2}`)).status, 204);
    k = await caseNow();
    assert.deepEqual(k.flags, ['all_checks_approved']);
    assert.equal(k.reviewer_has_actions, false);
    assert.deepEqual(await flagEvents(api.workspaceId, caseId), [
      ['for_review'],
      ['all_checks_approved'],
      ['for_review'],
      ['all_checks_approved'],
    ]);

    // a company deleted with its check needing review
    const company = await api.post('/v1/companies', {
      case_id: caseId,
      type: 'affiliated',
      name: 'High Risk Holding',
      country: 'FR',
    });
    assert.equal(company.status, 201, JSON.stringify(company.body));
    const reputation = await api.post('/v1/checks/online_reputation', { company_id: company.body.id });
    assert.equal(reputation.status, 201, JSON.stringify(reputation.body));
    await eventually(async () => (await caseNow()).flags.includes('for_review'));
    assert.equal((await api.delete(`/v1/companies/${company.body.id}`)).status, 204);
    k = await caseNow();
    assert.deepEqual(k.flags, ['all_checks_approved']);
    assert.equal(k.reviewer_has_actions, false);

    // each check that went with its company or individual is announced, as DELETE /v1/checks/{id} does
    const { ctx } = await getHarness();
    const deleted = await ctx.db
      .selectFrom('events')
      .select(['payload'])
      .where('workspace_id', '=', api.workspaceId)
      .where('type', '=', 'Check.Deleted')
      .orderBy('seq')
      .execute();
    const deletedChecks = deleted.map((e) => (e.payload as { check: { id: string; status: string } }).check);
    assert.deepEqual(
      deletedChecks.map((c) => [c.id, c.status]),
      [
        [checkIds[0], 'need_review'],
        [checkIds[2], 'need_review'],
        [reputation.body.id, 'need_review'],
      ],
    );
  });

  test('a first collect that ends with nothing collected (check deleted, entity set aside) sets no first_collect_completed', async () => {
    const api = await newWorkspace();
    for (const end of ['delete check', 'not relevant', 'delete individual'] as const) {
      const { caseId, individualId } = await caseWithPerson(api);
      const waiting = await api.post('/v1/checks/id_document', { individual_id: individualId });
      assert.equal(waiting.status, 201, JSON.stringify(waiting.body));
      assert.deepEqual(await flagsOf(api, caseId), ['for_first_collect'], end);
      const ended =
        end === 'delete check'
          ? await api.delete(`/v1/checks/${waiting.body.id}`)
          : end === 'not relevant'
            ? await api.post(`/v1/individuals/${individualId}/set-relevant`, { is_relevant: false })
            : await api.delete(`/v1/individuals/${individualId}`);
      assert.ok(ended.status === 200 || ended.status === 204, `${end}: ${JSON.stringify(ended.body)}`);
      assert.deepEqual(await flagsOf(api, caseId), [], `${end}: the contact supplied nothing`);
      assert.deepEqual(await flagEvents(api.workspaceId, caseId), [['for_first_collect'], []], end);
    }
    // a first collect that ends with one check supplied and another deleted: everything still asked
    // was supplied
    const { caseId, individualId } = await caseWithPerson(api);
    const first = await api.post('/v1/checks/id_document', { individual_id: individualId });
    const second = await api.post('/v1/checks/id_document', { individual_id: individualId });
    const ref = await uploadRef(api, passportPng({ outcome: 'approved' }));
    const sent = await api.post(`/v1/checks/id_document/${first.body.id}/add_files`, {
      front_upload_ref: ref,
    });
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    assert.equal((await settled(api, first.body.id)).status, 'approved');
    assert.deepEqual(await flagsOf(api, caseId), ['for_first_collect']);
    assert.equal((await api.delete(`/v1/checks/${second.body.id}`)).status, 204);
    assert.deepEqual(await flagsOf(api, caseId), ['all_checks_approved', 'first_collect_completed']);
  });

  test('GET case shows a check and the flags it moved from one snapshot', async () => {
    // the check's new status and the case flags are committed together; a reader polling the case
    // while the provider job finishes must never see one without the other
    const api = await newWorkspace();
    const { caseId, individualId } = await caseWithPerson(api);
    let torn = 0;
    let seenApproved = 0;
    for (let round = 0; round < 6; round++) {
      const ref = await uploadRef(api, passportPng({ outcome: 'approved' }));
      const check = await api.post('/v1/checks/id_document', {
        individual_id: individualId,
        data: { front_upload_ref: ref },
      });
      assert.equal(check.status, 201, JSON.stringify(check.body));
      const poll = async () => {
        for (;;) {
          const k = (await api.get(`/v1/cases/${caseId}`)).body;
          const statuses = k.individuals.flatMap((i: any) => i.checks.map((c: any) => c.status));
          const allApproved = statuses.every((s: string) => s === 'approved');
          if (allApproved !== k.flags.includes('all_checks_approved')) torn++;
          if (allApproved) return void seenApproved++;
        }
      };
      await Promise.all([poll(), poll(), poll(), poll()]);
    }
    assert.equal(seenApproved, 24);
    assert.equal(torn, 0, `${torn} reads showed checks and flags that disagree`);
  });
});

describe('automatic decisions record their reason', () => {
  test('an automatic rejection has data.review.comment (reviewer system) and the vendor comment', async () => {
    const api = await newWorkspace();
    const { individualId } = await caseWithPerson(api);
    const ref = await uploadRef(api, passportPng({ outcome: 'rejected' }));
    const check = await api.post('/v1/checks/id_document', {
      individual_id: individualId,
      data: { front_upload_ref: ref },
    });
    const done = await settled(api, check.body.id);
    assert.equal(done.data.review.reviewer_type, 'system');
    assert.equal(typeof done.data.vendor.comment, 'string');
    assert.match(done.data.review.comment, /Rejected automatically \(automatic_rejection\)/);
    assert.ok(done.data.review.comment.includes(done.data.vendor.comment));
  });

  test('an automatic eKYC approval says which rule decided', async () => {
    const api = await newWorkspace();
    const { individualId } = await caseWithPerson(api);
    const res = await api.post('/v1/checks/ekyc', { individual_id: individualId });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.status, 'approved');
    assert.equal(res.body.data.review.reviewer_type, 'system');
    assert.match(
      res.body.data.review.comment,
      /Approved automatically by the ekyc check's automatic_approval rule/,
    );
  });

  test('reviewer_has_actions: each change is a Case.Updated event (Case.ReviewerHasActionsUpdated)', async () => {
    const api = await newWorkspace();
    const { caseId, individualId } = await caseWithPerson(api, { last_name: 'Inconclusive' });
    const subEvents = async () => {
      const { ctx } = await getHarness();
      const rows = await ctx.db
        .selectFrom('events')
        .select(['type', 'payload'])
        .where('workspace_id', '=', api.workspaceId)
        .where('case_id', '=', caseId)
        .where('sub_event', '=', 'Case.ReviewerHasActionsUpdated')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((r) => [
        r.type,
        (r.payload as { case: { reviewer_has_actions: boolean } }).case.reviewer_has_actions,
      ]);
    };
    const created = await api.post('/v1/checks/ekyc', { individual_id: individualId });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.status, 'need_review');
    assert.equal((await api.get(`/v1/cases/${caseId}`)).body.reviewer_has_actions, true);
    assert.deepEqual(await subEvents(), [['Case.Updated', true]]);
    // a second check to review does not change it
    const second = await api.post('/v1/checks/ekyc', { individual_id: individualId });
    assert.equal(second.body.status, 'need_review');
    assert.deepEqual(await subEvents(), [['Case.Updated', true]]);
    for (const id of [created.body.id, second.body.id]) {
      const reviewed = await api.patch(`/v1/checks/ekyc/${id}/review`, { action: 'approve' });
      assert.equal(reviewed.status, 200, JSON.stringify(reviewed.body));
    }
    assert.equal((await api.get(`/v1/cases/${caseId}`)).body.reviewer_has_actions, false);
    assert.deepEqual(await subEvents(), [
      ['Case.Updated', true],
      ['Case.Updated', false],
    ]);
  });
});
