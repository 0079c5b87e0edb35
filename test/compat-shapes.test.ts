import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { reviewCheck } from '../src/checks/engine/review-check.ts';
import { checkTypeDefinition } from '../src/checks/registry.ts';
import { reviewAmlHits } from '../src/checks/types/aml/review-hits.ts';
import { confirmCaseReview } from '../src/reviews/confirm-case-review.ts';
import { type Client, eventually, getHarness, newWorkspace, sampleCaseBody } from './helpers/harness.ts';
import { assertReference, referenceResponse } from './helpers/reference-shapes.ts';

// Response shapes the reference product declares and vericase now fills: console users named as
// NestedUser (case assignee, case and check reviewers, note authors, activity authors), case
// controls and client portal, the aml vendor block, webhook logs before their first attempt,
// activity authors and tag activities. Every answer goes through HTTP and is checked against the
// reference's OpenAPI document where it has the same vendor names.

async function db() {
  return (await getHarness()).ctx.db;
}

async function insertUser(workspaceId: string, first = 'Grace', last = 'Hopper') {
  const id = randomUUID();
  await (await db())
    .insertInto('users')
    .values({
      id,
      workspace_id: workspaceId,
      first_name: first,
      last_name: last,
      email: `${id.slice(0, 8)}@example.com`,
      role: 'member',
      password_hash: null,
    })
    .execute();
  return { id, first_name: first, last_name: last, email: `${id.slice(0, 8)}@example.com` };
}

async function apiKeyId(workspaceId: string) {
  const row = await (await db())
    .selectFrom('api_keys')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return row.id;
}

const individual = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  birth_date: '1985-12-10',
  address: { country: 'FR' },
  relations: [{ roles: ['legal_representative'], position: 'CEO' }],
};

async function newCase(api: Client, body: Record<string, unknown> = {}) {
  const res = await api.post('/v1/cases', {
    name: 'Shapes',
    companies: [{ type: 'main', name: 'Acme SAS', country: 'FR' }],
    individuals: [individual],
    ...body,
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** Counts the SQL statements run while `fn` runs, by the table they read. */
async function countQueries(fn: () => Promise<void>) {
  const { ctx } = await getHarness();
  const executor = ctx.db.getExecutor() as any;
  const original = executor.executeQuery;
  const seen: string[] = [];
  executor.executeQuery = function (this: unknown, query: { sql: string }, ...rest: unknown[]) {
    seen.push(query.sql);
    return original.call(this, query, ...rest);
  };
  try {
    await fn();
  } finally {
    executor.executeQuery = original;
  }
  return seen;
}

describe('reference shapes: users named in cases, reviews and notes', () => {
  test('case assignee: the user assignee_id names, or null; controls empty; client_portal null', async () => {
    const api = await newWorkspace();
    const user = await insertUser(api.workspaceId);
    const created = await newCase(api, { assignee_id: user.id });
    assert.deepEqual(created.assignee, user);
    assert.deepEqual(created.controls, []);
    assert.equal(created.client_portal, null);
    assertReference(created, 'CaseCreateResponse');

    const got = await api.get(`/v1/cases/${created.id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body.assignee, user);
    assertReference(got.body, 'CaseDetailed');

    // a free-text assignee, and a user of another workspace, are no user of this one: refused
    const other = await newWorkspace();
    const foreign = await insertUser(other.workspaceId);
    for (const assignee_id of ['crm-owner-42', foreign.id]) {
      const refused = await api.patch(`/v1/cases/${created.id}`, { assignee_id });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.details[0].path, 'assignee_id');
      const refusedAtCreation = await api.post('/v1/cases', { name: 'Assigned', assignee_id });
      assert.equal(refusedAtCreation.status, 400);
      assert.equal(refusedAtCreation.body.details[0].path, 'assignee_id');
    }
    assert.equal((await api.get(`/v1/cases/${created.id}`)).body.assignee_id, user.id);
    // one stored before assignees were checked names no user
    await (await db())
      .updateTable('cases')
      .set({ assignee_id: 'crm-owner-42' })
      .where('id', '=', created.id)
      .execute();
    const legacy = await api.get(`/v1/cases/${created.id}`);
    assert.equal(legacy.body.assignee_id, 'crm-owner-42');
    assert.equal(legacy.body.assignee, null);
    assertReference(legacy.body, 'CaseDetailed');
    const second = await insertUser(api.workspaceId, 'Ada', 'Lovelace');
    assert.equal((await api.patch(`/v1/cases/${created.id}`, { assignee_id: second.id })).status, 200);
    assert.equal((await api.patch(`/v1/cases/${created.id}`, { assignee_id: null })).status, 200);
    // each assignee activity says who had the case and who has it now
    const activities = await api.get(`/v1/activities?case_id=${created.id}&type=api__updated_assignee__case`);
    assertReference(activities.body, 'ActivityList');
    assert.deepEqual(
      activities.body.data.map((a: { changes: unknown }) => a.changes),
      [
        [{ name: 'assignee_id', previous: 'crm-owner-42', next: second.id }],
        [{ name: 'assignee_id', previous: second.id, next: null }],
      ],
    );
    const unassigned = await newCase(api);
    assert.equal(unassigned.assignee, null);
  });

  test('a case review by API names no user; one by a console user names them, in the case and its activity', async () => {
    const api = await newWorkspace();
    const kase = await newCase(api);
    const review = await api.post(`/v1/cases/${kase.id}/reviews`, { status: 'closed', comment: 'done' });
    assert.equal(review.status, 201, JSON.stringify(review.body));
    assert.equal(review.body.user, null);
    assert.equal(review.body.reviewer_type, 'api');
    assertReference(review.body, 'CaseReview');
    const afterApi = await api.get(`/v1/cases/${kase.id}`);
    assert.equal(afterApi.body.review.user, null);
    assertReference(afterApi.body, 'CaseDetailed');

    // the console (not built yet) confirms reviews through the same use case, naming its user
    const user = await insertUser(api.workspaceId, 'Katherine', 'Johnson');
    const { ctx } = await getHarness();
    await ctx.db.transaction().execute((trx) =>
      confirmCaseReview(trx, {
        workspaceId: api.workspaceId,
        caseId: kase.id,
        status: 'approved',
        comment: 'checked by hand',
        reviewerType: 'user',
        userId: user.id,
      }),
    );
    const afterUser = await api.get(`/v1/cases/${kase.id}`);
    assert.equal(afterUser.body.review.reviewer_type, 'user');
    assert.deepEqual(afterUser.body.review.user, user);
    assertReference(afterUser.body, 'CaseDetailed');
    const listed = await api.get(`/v1/cases?limit=100`);
    const inList = listed.body.data.find((c: { id: string }) => c.id === kase.id);
    assert.deepEqual(inList.review.user, user);
    assertReference(listed.body, referenceResponse('/v1/cases'));

    const activities = await api.get(`/v1/activities?case_id=${kase.id}&type=user__confirmed_review__case`);
    assert.equal(activities.status, 200, JSON.stringify(activities.body));
    assert.equal(activities.body.data.length, 1);
    assert.equal(activities.body.data[0].author_type, 'user');
    assert.equal(activities.body.data[0].author_id, user.id);
    assert.deepEqual(activities.body.data[0].user, user);
    assertReference(activities.body, 'ActivityList');

    // a reviewer who is not a user of the workspace is refused
    const other = await newWorkspace();
    const stranger = await insertUser(other.workspaceId);
    await assert.rejects(
      ctx.db.transaction().execute((trx) =>
        confirmCaseReview(trx, {
          workspaceId: api.workspaceId,
          caseId: kase.id,
          status: 'closed',
          reviewerType: 'user',
          userId: stranger.id,
        }),
      ),
      /not a user of this workspace/,
    );
  });

  test('note and comment authors: null through the API, the user when a console user wrote them; one query per page', async () => {
    const api = await newWorkspace();
    const kase = await newCase(api);
    const note = await api.post('/v1/notes', { case_id: kase.id, content: 'by the API' });
    assert.equal(note.status, 201);
    assert.equal(note.body.author, null);
    assertReference(note.body, 'Note');
    const comment = await api.post(`/v1/notes/${note.body.id}/comments`, { content: 'also by the API' });
    assert.equal(comment.body.author, null);
    assertReference(comment.body, 'NoteComment');

    // notes written in the console (not built yet) carry their author's id
    const writer = await insertUser(api.workspaceId, 'Mary', 'Jackson');
    const replier = await insertUser(api.workspaceId, 'Dorothy', 'Vaughan');
    const d = await db();
    const consoleNotes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const n = (await api.post('/v1/notes', { case_id: kase.id, content: `console ${i}` })).body;
      const c = (await api.post(`/v1/notes/${n.id}/comments`, { content: `reply ${i}` })).body;
      await d
        .updateTable('notes')
        .set({ author_id: writer.id, author_type: 'user' })
        .where('id', '=', n.id)
        .execute();
      await d
        .updateTable('note_comments')
        .set({ author_id: replier.id, author_type: 'user' })
        .where('id', '=', c.id)
        .execute();
      consoleNotes.push(n.id);
    }
    let page: { data: Record<string, any>[] } = { data: [] };
    const seen = await countQueries(async () => {
      const res = await api.get(`/v1/cases/${kase.id}/notes?limit=100`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assertReference(res.body, 'CaseNotePaginateList');
      page = res.body;
    });
    assert.equal(seen.filter((s) => /from "users"/.test(s)).length, 1, seen.join('\n'));
    for (const n of page.data) {
      if (consoleNotes.includes(n.id)) {
        assert.deepEqual(n.author, writer);
        assert.equal(n.author_type, 'user');
        assert.deepEqual(n.comments[0].author, replier);
      } else {
        assert.equal(n.author, null);
        assert.equal(n.comments[0].author, null);
      }
    }
  });
});

describe('reference shapes: banking information', () => {
  test('an individual without bank details answers banking_information {iban: null, bic: null}, never null', async () => {
    const api = await newWorkspace();
    const created = await api.post('/v1/cases', sampleCaseBody());
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const empty = { iban: null, bic: null };
    for (const i of created.body.individuals) assert.deepEqual(i.banking_information, empty);
    const id = created.body.individuals[0].id;
    assert.deepEqual((await api.get(`/v1/individuals/${id}`)).body.banking_information, empty);
    assert.deepEqual(
      (await api.get(`/v1/cases/${created.body.id}`)).body.individuals[0].banking_information,
      empty,
    );
    const listed = await api.get(`/v1/individuals?case_id=${created.body.id}`);
    for (const i of listed.body.data) assert.deepEqual(i.banking_information, empty);
    const set = await api.patch(`/v1/individuals/${id}`, {
      banking_information: { iban: 'FR7630006000011234567890189' },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual(set.body.banking_information, { iban: 'FR7630006000011234567890189', bic: null });
    const cleared = await api.patch(`/v1/individuals/${id}`, { banking_information: null });
    assert.deepEqual(cleared.body.banking_information, empty);
  });
});

describe('reference shapes: checks', () => {
  test('document_type_key is absent on other types; a one-target type has its target id; review.user null', async () => {
    const api = await newWorkspace();
    const kase = await newCase(api);
    const check = await api.post('/v1/checks/ekyc', { individual_id: kase.individuals[0].id });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    assert.equal('document_type_key' in check.body, false);
    const done = await eventually(async () => {
      const r = await api.get(`/v1/checks/ekyc/${check.body.id}`);
      return r.body.status !== 'processing' && r.body.status !== 'in_progress' ? r.body : undefined;
    });
    assert.equal(done.individual_id, kase.individuals[0].id);
    assert.equal(done.data.review.user, null);
    const reviewed = await api.patch(`/v1/checks/ekyc/${check.body.id}/review`, {
      action: 'reject',
      comment: 'no',
      override: true,
    });
    assert.equal(reviewed.status, 200, JSON.stringify(reviewed.body));
    assert.equal(reviewed.body.data.review.reviewer_type, 'api');
    assert.equal(reviewed.body.data.review.user, null);

    // a console user's review (the console is not built yet: its use case, read back through HTTP)
    const user = await insertUser(api.workspaceId, 'Annie', 'Easley');
    const { ctx } = await getHarness();
    const def = checkTypeDefinition('ekyc');
    assert.ok(def);
    await reviewCheck(ctx, api.workspaceId, def, check.body.id, { action: 'approve', override: true }, user);
    const byUser = await api.get(`/v1/checks/ekyc/${check.body.id}`);
    assert.equal(byUser.body.data.review.reviewer_type, 'user');
    assert.deepEqual(byUser.body.data.review.user, user);

    const list = await api.get('/v1/checks');
    assert.equal(list.status, 200);
    assertReference(list.body, referenceResponse('/v1/checks'));
    for (const c of list.body.data) assert.equal('document_type_key' in c, false);
    const detailed = await api.get(`/v1/cases/${kase.id}`);
    assertReference(detailed.body, 'CaseDetailed');
    assert.equal('document_type_key' in detailed.body.individuals[0].checks[0], false);
  });

  test('aml: results_count per kind of list, case_url, each hit’s risk_id', async () => {
    const api = await newWorkspace('aml');
    const kase = await newCase(api, {
      individuals: [
        {
          first_name: 'Elvis',
          middle_name: 'Angus',
          last_name: 'Logan Morey',
          birth_date: '1963-07-28',
          nationalities: ['BZ'],
          relations: [{ roles: ['legal_representative'] }],
        },
      ],
    });
    const created = await api.post('/v1/checks/aml', { individual_id: kase.individuals[0].id });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body.data.vendor.results_count, { watchlist: 0, mediacheck: 0 });
    assert.equal(created.body.data.vendor.case_url, `/v1/checks/aml/${created.body.id}`);
    assert.equal(created.body.data.vendor.case_url, created.body.data.vendor.search_url);
    const done = await eventually(async () => {
      const r = await api.get(`/v1/checks/aml/${created.body.id}`);
      return r.body.status !== 'processing' ? r.body : undefined;
    });
    assert.ok(done.data.hits.length > 0);
    const onWatchlists = done.data.hits.filter((h: { list_types: string[] }) =>
      h.list_types.some((t) => t !== 'adverse_media'),
    ).length;
    const inMedia = done.data.hits.filter((h: { list_types: string[] }) =>
      h.list_types.includes('adverse_media'),
    ).length;
    assert.deepEqual(done.data.vendor.results_count, { watchlist: onWatchlists, mediacheck: inMedia });
    for (const h of done.data.hits) {
      assert.equal(h.vendor.risk_id, h.vendor.hit_id);
      assert.equal(h.review.user, null);
    }
    const byApi = await api.patch(`/v1/checks/aml/${created.body.id}/hits/review`, {
      action: 'ignore',
      hit_ids: [done.data.hits[0].id],
    });
    assert.equal(byApi.status, 200, JSON.stringify(byApi.body));
    assert.equal(byApi.body.data.hits[0].review.reviewer_type, 'api');
    assert.equal(byApi.body.data.hits[0].review.user, null);
    // a console user's hit review (its use case, read back through HTTP)
    const user = await insertUser(api.workspaceId, 'Dorothy', 'Vaughan');
    const { ctx } = await getHarness();
    await reviewAmlHits(
      ctx,
      api.workspaceId,
      created.body.id,
      { action: 'confirm', hit_ids: [done.data.hits[0].id] },
      user,
    );
    const reread = await api.get(`/v1/checks/aml/${created.body.id}`);
    assert.equal(reread.body.data.hits[0].review.reviewer_type, 'user');
    assert.deepEqual(reread.body.data.hits[0].review.user, user);
    // the reference's schema apart from the vendor names, which are ours (docs/compatibility.md)
    const asReference = structuredClone(reread.body);
    asReference.data.settings.vendor = 'worldcheck';
    asReference.data.vendor.name = 'worldcheck';
    for (const h of asReference.data.hits) h.vendor.name = 'worldcheck';
    assertReference(asReference, 'AmlCheck');
  });
});

describe('reference shapes: webhook logs and activities', () => {
  test('a log before its first attempt has status_code 0 and last_attempt_at its creation; NoteComment context names the note', async () => {
    const api = await newWorkspace();
    const hook = await api.post('/v1/webhooks', {
      url: 'https://example.com/hooks',
      events: ['*'],
      status: 'offline',
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const kase = await newCase(api);
    const note = (await api.post('/v1/notes', { case_id: kase.id, content: 'n' })).body;
    assert.equal((await api.post(`/v1/notes/${note.id}/comments`, { content: 'c' })).status, 201);
    const logs = await eventually(async () => {
      const r = await api.get('/v1/webhook-logs?event=NoteComment.Created');
      return r.body.data?.length ? r.body : undefined;
    });
    const log = logs.data[0];
    assert.equal(log.status, 'pending_offline');
    assert.deepEqual(log.attempts, []);
    assert.equal(log.status_code, 0);
    assert.equal(log.last_attempt_at, log.created_at);
    assert.deepEqual(log.payload.context.note, { id: note.id, author: null });
    assertReference(logs, referenceResponse('/v1/webhook-logs'));
    const all = await api.get('/v1/webhook-logs');
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assertReference(all.body, referenceResponse('/v1/webhook-logs'));
  });

  test('Case events carry the detailed case (companies, individuals with checks, assignee), Case.Deleted the case only', async () => {
    const api = await newWorkspace();
    const user = await insertUser(api.workspaceId, 'Evelyn', 'Boyd');
    const hook = await api.post('/v1/webhooks', {
      url: 'https://example.com/hooks',
      events: ['Case.*'],
      status: 'offline',
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const kase = await newCase(api, { assignee_id: user.id });
    const check = await api.post('/v1/checks/ekyc', { individual_id: kase.individuals[0].id });
    assert.equal(check.status, 201);
    const other = await newCase(api);
    assert.equal((await api.patch(`/v1/cases/${kase.id}`, { name: 'Renamed' })).status, 200);
    assert.equal((await api.patch(`/v1/cases/${other.id}`, { name: 'Other renamed' })).status, 200);
    assert.equal((await api.delete(`/v1/cases/${other.id}`)).status, 204);

    const renamed = await eventually(async () => {
      const r = await api.get('/v1/webhook-logs?event=Case.InfoUpdated');
      return r.body.data?.length === 2 ? r.body.data : undefined;
    });
    const mine = renamed.find((l: { case_id: string }) => l.case_id === kase.id).payload;
    assert.equal(mine.case.name, 'Renamed');
    assert.deepEqual(mine.case.assignee, user);
    assert.deepEqual(mine.case.controls, []);
    assert.equal(mine.case.client_portal, null);
    assert.deepEqual(
      mine.case.companies.map((c: { id: string }) => c.id),
      kase.companies.map((c: { id: string }) => c.id),
    );
    assert.deepEqual(
      mine.case.individuals[0].checks.map((c: { id: string }) => c.id),
      [check.body.id],
    );
    assertReference(mine, 'CaseWebhook');
    const theirs = renamed.find((l: { case_id: string }) => l.case_id === other.id).payload;
    assert.equal(theirs.case.assignee, null);
    assertReference(theirs, 'CaseWebhook');

    const deleted = await eventually(async () => {
      const r = await api.get('/v1/webhook-logs?event=Case.Deleted');
      return r.body.data?.length ? r.body.data[0] : undefined;
    });
    assert.equal(deleted.payload.case.id, other.id);
    assert.equal('companies' in deleted.payload.case, false);
    assertReference(deleted.payload, 'CaseDeletedWebhook');
  });

  test('a custom property change is Case.Updated / Case.InfoUpdated, a sub-event the reference knows; the old name still subscribes', async () => {
    const api = await newWorkspace();
    const hooks: Record<string, string> = {};
    for (const events of [['Case.Updated'], ['Case.CustomPropertiesUpdated'], ['Case.InfoUpdated']]) {
      const hook = await api.post('/v1/webhooks', {
        url: 'https://example.com/hooks',
        events,
        status: 'offline',
      });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      hooks[events[0]] = hook.body.id;
    }
    const kase = await newCase(api);
    const changed = await api.patch(`/v1/cases/${kase.id}`, { custom_properties: { segment: 'retail' } });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    // name and custom properties in one PATCH: one information change
    const both = await api.patch(`/v1/cases/${kase.id}`, {
      name: 'Renamed',
      custom_properties: { segment: 'sme' },
    });
    assert.equal(both.status, 200, JSON.stringify(both.body));

    for (const [subscribed, id] of Object.entries(hooks)) {
      const logs = await eventually(async () => {
        const r = await api.get(`/v1/webhook-logs?webhook_id=${id}&case_id=${kase.id}&sort=created_at`);
        const infos = r.body.data?.filter(
          (l: { payload: { event: string } }) => l.payload.event === 'Case.Updated',
        );
        return infos?.length === 2 ? infos : undefined;
      });
      assert.ok(logs, `${subscribed}: two Case.Updated deliveries`);
      for (const log of logs) {
        assert.equal(log.event, 'Case.InfoUpdated', subscribed);
        assert.equal(log.payload.sub_event, 'Case.InfoUpdated', subscribed);
        assertReference(log.payload, 'CaseWebhook');
      }
      assert.deepEqual(
        logs.map(
          (l: { payload: { case: { custom_properties: unknown } } }) => l.payload.case.custom_properties,
        ),
        [{ segment: 'retail' }, { segment: 'sme' }],
      );
    }
    assert.equal(
      (await api.get('/v1/webhook-logs?event=Case.CustomPropertiesUpdated')).body.pagination.count,
      0,
    );
  });

  test('API activities name their key; tag changes are added/removed tag activities', async () => {
    const api = await newWorkspace();
    const keyId = await apiKeyId(api.workspaceId);
    const kase = await newCase(api, { tags: ['vip'] });
    assert.equal((await api.post(`/v1/cases/${kase.id}/tags`, { tags: ['urgent'] })).status, 201);
    assert.equal((await api.delete(`/v1/cases/${kase.id}/tags`, { tags: ['vip'] })).status, 200);
    // a PATCH replacing the list both adds and removes: one event, one activity (added)
    assert.equal((await api.patch(`/v1/cases/${kase.id}`, { tags: ['fast-track'] })).status, 200);
    assert.equal((await api.patch(`/v1/cases/${kase.id}`, { tags: [] })).status, 200);
    // renaming a tag everywhere is no activity of the case
    assert.equal((await api.patch(`/v1/cases/${kase.id}`, { tags: ['gold'] })).status, 200);
    const tag = (await api.get('/v1/tags?limit=100')).body.data.find(
      (t: { label: string }) => t.label === 'gold',
    );
    assert.equal((await api.patch(`/v1/tags/${tag.id}`, { label: 'platinum' })).status, 200);
    // deleting the tag takes it off the case: an activity naming it
    assert.equal((await api.delete(`/v1/tags/${tag.id}`)).status, 204);

    const res = await api.get(`/v1/activities?case_id=${kase.id}&limit=100`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertReference(res.body, 'ActivityList');
    const tagActivities = res.body.data.filter((a: { type: string }) => a.type.includes('tags'));
    assert.deepEqual(
      tagActivities.map((a: { type: string; changes: unknown }) => [a.type, a.changes]),
      [
        ['api__added_tags__case', [{ name: 'tags', previous: null, next: 'urgent' }]],
        ['api__removed_tags__case', [{ name: 'tags', previous: 'vip', next: null }]],
        [
          'api__added_tags__case',
          [
            { name: 'tags', previous: null, next: 'fast-track' },
            { name: 'tags', previous: 'urgent', next: null },
          ],
        ],
        ['api__removed_tags__case', [{ name: 'tags', previous: 'fast-track', next: null }]],
        ['api__added_tags__case', [{ name: 'tags', previous: null, next: 'gold' }]],
        ['api__removed_tags__case', [{ name: 'tags', previous: 'platinum', next: null }]],
      ],
    );
    // the others have no field-level changes
    for (const a of res.body.data.filter((x: { type: string }) => !x.type.includes('tags'))) {
      assert.equal(a.changes, null, a.type);
    }
    for (const a of res.body.data) {
      assert.equal(a.author_type, 'api');
      assert.equal(a.author_id, keyId, a.type);
      assert.equal(a.user, null);
    }
    const byKey = await api.get(`/v1/activities?author_id=${keyId}&limit=100`);
    assert.equal(byKey.body.pagination.count, res.body.pagination.count);
  });
});
