import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createConsoleUser, signInHeaders } from './helpers/console-session.ts';
import { type Client, eventually, getHarness, newWorkspace } from './helpers/harness.ts';

const LISTED_PERSON = {
  first_name: 'Elvis',
  middle_name: 'Angus',
  last_name: 'Logan Morey',
  birth_date: '1963-07-28',
  nationalities: ['BZ'],
};

async function caseWith(api: Client, name: string, person: Record<string, unknown>, extra = {}) {
  const res = await api.post('/v1/cases', {
    name,
    companies: [{ name: `${name} SAS`, country: 'FR' }],
    individuals: [{ ...person, relations: [{ roles: ['legal_representative'] }] }],
    ...extra,
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; individuals: { id: string }[]; companies: { id: string }[] };
}

async function screened(api: Client, individualId: string) {
  const started = await api.post('/v1/checks/aml', { individual_id: individualId });
  assert.equal(started.status, 201, JSON.stringify(started.body));
  return eventually(async () => {
    const res = await api.get(`/v1/checks/aml/${started.body.id}`);
    return res.body.status !== 'processing' ? res.body : undefined;
  });
}

describe('case counts', () => {
  test('GET /v1/case-counts: all and per status in one call, with the list filters; malformed filters 400 naming the field', async () => {
    const api = await newWorkspace('counts');
    const ids: string[] = [];
    for (const [i, tags] of [[], ['vip'], ['vip'], []].entries()) {
      const res = await api.post('/v1/cases', { name: `Case ${i}`, tags });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      ids.push(res.body.id);
    }
    assert.equal((await api.patch(`/v1/cases/${ids[0]}`, { status: 'open' })).status, 200);
    assert.equal((await api.patch(`/v1/cases/${ids[1]}`, { status: 'open' })).status, 200);
    assert.equal(
      (await api.post(`/v1/cases/${ids[2]}/reviews`, { status: 'approved', comment: 'ok' })).status,
      201,
    );
    const byList = async (q: string) => (await api.get(`/v1/cases?limit=1${q}`)).body.pagination.count;

    const counts = await api.get('/v1/case-counts');
    assert.equal(counts.status, 200, JSON.stringify(counts.body));
    const expected = {
      all: await byList(''),
      draft: await byList('&status=draft'),
      open: await byList('&status=open'),
      approved: await byList('&status=approved'),
      rejected: 0,
      closed: 0,
    };
    assert.deepEqual(counts.body, expected);
    assert.deepEqual(counts.body, { all: 4, draft: 0, open: 3, approved: 1, rejected: 0, closed: 0 });

    const vip = await api.get('/v1/case-counts?tags.array_contains=vip');
    assert.deepEqual(vip.body, { all: 2, draft: 0, open: 1, approved: 1, rejected: 0, closed: 0 });
    const named = await api.get('/v1/case-counts?name.ilike=case%201');
    assert.deepEqual(named.body, { all: 1, draft: 0, open: 1, approved: 0, rejected: 0, closed: 0 });

    const other = await newWorkspace('counts-other');
    assert.deepEqual((await other.get('/v1/case-counts')).body, {
      all: 0,
      draft: 0,
      open: 0,
      approved: 0,
      rejected: 0,
      closed: 0,
    });
    for (const [q, field] of [
      ['status=open', 'status'],
      ['created_at.gte=soon', 'created_at.gte'],
      ['page=2', 'page'],
      ['tags.between=a', 'tags.between'],
    ]) {
      const res = await api.get(`/v1/case-counts?${q}`);
      assert.equal(res.status, 400, `${q}: ${JSON.stringify(res.body)}`);
      assert.match(JSON.stringify(res.body), new RegExp(field.replace('.', '\\.')), q);
    }
  });
});

describe('review queue', () => {
  let api: Client;
  let flagged: Awaited<ReturnType<typeof caseWith>>;
  let flaggedCheck: { id: string; status: string; updated_at: string };
  let second: Awaited<ReturnType<typeof caseWith>>;
  let secondCheck: { id: string; status: string };
  let clean: Awaited<ReturnType<typeof caseWith>>;
  // the reviewer the flagged case is assigned to, and one with no case
  let anna: string;
  let bob: string;

  before(async () => {
    const { ctx } = await getHarness();
    await eventually(async () => ctx.screening?.available, 120_000);
    api = await newWorkspace('queue');
    anna = (await createConsoleUser(ctx, api.workspaceId, { role: 'reviewer' })).id;
    bob = (await createConsoleUser(ctx, api.workspaceId, { role: 'reviewer' })).id;
    flagged = await caseWith(api, 'Flagged', LISTED_PERSON, { tags: ['vip'], assignee_id: anna });
    flaggedCheck = await screened(api, flagged.individuals[0].id);
    second = await caseWith(api, 'Second', { ...LISTED_PERSON });
    secondCheck = await screened(api, second.individuals[0].id);
    clean = await caseWith(api, 'Clean', {
      first_name: 'Marie',
      last_name: 'Curie',
      birth_date: '1967-11-07',
    });
    const cleanCheck = await screened(api, clean.individuals[0].id);
    assert.equal(flaggedCheck.status, 'need_review');
    assert.equal(secondCheck.status, 'need_review');
    assert.notEqual(cleanCheck.status, 'need_review');
  });

  test('checks in need_review across the workspace, each with its case and person, longest waiting first', async () => {
    const res = await api.get('/v1/review-queue/checks');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.pagination.count, 2);
    assert.deepEqual(
      res.body.data.map((r: { check: { id: string } }) => r.check.id),
      [flaggedCheck.id, secondCheck.id],
    );
    const [first] = res.body.data;
    assert.equal(first.check.type, 'aml');
    assert.equal(first.check.status, 'need_review');
    assert.equal(first.check.updated_at, flaggedCheck.updated_at);
    // it entered need_review when it was screened, which is when it was last updated
    assert.equal(first.waiting_since, flaggedCheck.updated_at);
    assert.deepEqual(first.case, {
      id: flagged.id,
      name: 'Flagged',
      external_id: null,
      status: (await api.get(`/v1/cases/${flagged.id}`)).body.status,
      assignee_id: anna,
      tags: ['vip'],
    });
    assert.deepEqual(first.subject, {
      kind: 'individual',
      id: flagged.individuals[0].id,
      name: 'Elvis Logan Morey',
    });

    // filters and sort
    const vip = await api.get('/v1/review-queue/checks?tags.array_contains=vip');
    assert.deepEqual(
      vip.body.data.map((r: { case: { id: string } }) => r.case.id),
      [flagged.id],
    );
    const assigned = await api.get(`/v1/review-queue/checks?assignee_id=${anna}`);
    assert.equal(assigned.body.pagination.count, 1);
    const ofCase = await api.get(`/v1/review-queue/checks?case_id=${second.id}`);
    assert.deepEqual(
      ofCase.body.data.map((r: { check: { id: string } }) => r.check.id),
      [secondCheck.id],
    );
    assert.equal((await api.get('/v1/review-queue/checks?type=id_document')).body.pagination.count, 0);
    const newest = await api.get('/v1/review-queue/checks?sort=updated_at.desc&limit=1');
    assert.deepEqual(
      newest.body.data.map((r: { check: { id: string } }) => r.check.id),
      [secondCheck.id],
    );
    assert.deepEqual(newest.body.pagination, { page: 1, limit: 1, count: 2 });

    // another workspace has an empty queue; a viewer may read the queue
    const other = await newWorkspace('queue-other');
    assert.equal((await other.get('/v1/review-queue/checks')).body.pagination.count, 0);
    const { app, ctx } = await getHarness();
    const viewer = await createConsoleUser(ctx, api.workspaceId, { role: 'viewer' });
    const headers = await signInHeaders(app, viewer.email, viewer.password);
    const asViewer = await app.inject({ method: 'GET', url: '/v1/review-queue/checks', headers });
    assert.equal(asViewer.statusCode, 200);
    assert.equal(asViewer.json().pagination.count, 2);

    for (const [q, field] of [
      ['type=passport', 'type'],
      ['case_id=nope', 'case_id'],
      ['sort=name', 'sort'],
      ['status=open', 'status'],
    ]) {
      const bad = await api.get(`/v1/review-queue/checks?${q}`);
      assert.equal(bad.status, 400, `${q}: ${JSON.stringify(bad.body)}`);
      assert.match(JSON.stringify(bad.body), new RegExp(field), q);
    }
  });

  test("a hit's review moves the check's updated_at, not its place in the queue", async () => {
    const before = (await api.get('/v1/review-queue/checks')).body.data;
    const waitingSince = before[0].waiting_since;
    const check = (await api.get(`/v1/checks/aml/${flaggedCheck.id}`)).body;
    const reviewed = await api.patch(`/v1/checks/aml/${flaggedCheck.id}/hits/review`, {
      hit_ids: [check.data.hits[0].id],
      action: 'ignore',
      comment: 'not the same person',
    });
    assert.equal(reviewed.status, 200, JSON.stringify(reviewed.body));
    assert.equal(reviewed.body.status, 'need_review');
    assert.ok(reviewed.body.updated_at > flaggedCheck.updated_at);

    const after = await api.get('/v1/review-queue/checks');
    assert.deepEqual(
      after.body.data.map((r: { check: { id: string } }) => r.check.id),
      [flaggedCheck.id, secondCheck.id],
    );
    assert.equal(after.body.data[0].check.updated_at, reviewed.body.updated_at);
    assert.equal(after.body.data[0].waiting_since, waitingSince);
    // sorted by updated_at, the reviewed one is now the most recent
    const byUpdate = await api.get('/v1/review-queue/checks?sort=updated_at');
    assert.deepEqual(
      byUpdate.body.data.map((r: { check: { id: string } }) => r.check.id),
      [secondCheck.id, flaggedCheck.id],
    );
    const newestWaiting = await api.get('/v1/review-queue/checks?sort=waiting_since.desc');
    assert.deepEqual(
      newestWaiting.body.data.map((r: { check: { id: string } }) => r.check.id),
      [secondCheck.id, flaggedCheck.id],
    );
    const since = await api.get(
      `/v1/review-queue/checks?waiting_since.gt=${encodeURIComponent(waitingSince)}`,
    );
    assert.deepEqual(
      since.body.data.map((r: { check: { id: string } }) => r.check.id),
      [secondCheck.id],
    );
  });

  test("a date filter under the other date's order (the indexes of migration 0033)", async () => {
    const { ctx } = await getHarness();
    const ids = (res: { body: { data: { check: { id: string } }[] } }) =>
      res.body.data.map((r) => r.check.id);
    const original = await ctx.db
      .selectFrom('checks')
      .select('created_at')
      .where('id', '=', flaggedCheck.id)
      .executeTakeFirstOrThrow();
    // the flagged check was opened 100 days ago and is still waiting
    await ctx.db
      .updateTable('checks')
      .set({ created_at: new Date(Date.now() - 100 * 86_400_000) })
      .where('id', '=', flaggedCheck.id)
      .execute();
    try {
      const fiftyDaysAgo = new Date(Date.now() - 50 * 86_400_000).toISOString();
      const yesterday = new Date(Date.now() - 86_400_000).toISOString();
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
      const get = (q: string) => api.get(`/v1/review-queue/checks?${q}`);
      for (const sort of ['updated_at', 'updated_at.desc']) {
        assert.deepEqual(
          ids(await get(`created_at.gte=${fiftyDaysAgo}&sort=${sort}`)),
          [secondCheck.id],
          sort,
        );
        assert.deepEqual(
          ids(await get(`created_at.lt=${fiftyDaysAgo}&sort=${sort}`)),
          [flaggedCheck.id],
          sort,
        );
      }
      assert.deepEqual(ids(await get(`updated_at.gte=${yesterday}&sort=created_at`)), [
        flaggedCheck.id,
        secondCheck.id,
      ]);
      assert.deepEqual(ids(await get(`updated_at.gte=${yesterday}&sort=created_at.desc`)), [
        secondCheck.id,
        flaggedCheck.id,
      ]);
      const none = await get(`updated_at.gte=${tomorrow}&sort=created_at`);
      assert.deepEqual([ids(none), none.body.pagination.count], [[], 0]);
    } finally {
      await ctx.db
        .updateTable('checks')
        .set({ created_at: original.created_at })
        .where('id', '=', flaggedCheck.id)
        .execute();
    }
  });

  test('cases whose reviewer has actions, with how many checks wait; a reviewed check leaves the queue', async () => {
    const res = await api.get('/v1/review-queue/cases');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.data.map((c: { id: string; checks_need_review: number }) => [c.id, c.checks_need_review]),
      // least recently active first: the flagged case's hit review (above) is its latest activity
      [
        [second.id, 1],
        [flagged.id, 1],
      ],
    );
    assert.deepEqual(
      (await api.get('/v1/review-queue/cases?tags.array_contains=vip')).body.data.map(
        (c: { id: string }) => c.id,
      ),
      [flagged.id],
    );
    assert.equal((await api.get('/v1/review-queue/cases?status=closed')).body.pagination.count, 0);
    assert.equal((await api.get('/v1/review-queue/cases?status=nope')).status, 400);
    // a reviewer's own queue (migration 0033's index), in every order
    for (const sort of ['last_activity_at', 'last_activity_at.desc', 'created_at', 'created_at.desc']) {
      const mine = await api.get(`/v1/review-queue/cases?assignee_id=${anna}&sort=${sort}`);
      assert.deepEqual(
        [mine.body.data.map((c: { id: string }) => c.id), mine.body.pagination.count],
        [[flagged.id], 1],
        sort,
      );
    }
    assert.equal((await api.get(`/v1/review-queue/cases?assignee_id=${bob}`)).body.pagination.count, 0);

    // deciding the second case's check takes it out of both queues
    await api.patch(`/v1/checks/aml/${secondCheck.id}/hits/review`, {
      action: 'ignore',
      hit_ids: (await api.get(`/v1/checks/aml/${secondCheck.id}`)).body.data.hits.map(
        (h: { id: string }) => h.id,
      ),
    });
    const reviewed = await api.patch(`/v1/checks/aml/${secondCheck.id}/review`, { action: 'approve' });
    assert.equal(reviewed.status, 200, JSON.stringify(reviewed.body));
    assert.deepEqual(
      (await api.get('/v1/review-queue/checks')).body.data.map((r: { check: { id: string } }) => r.check.id),
      [flaggedCheck.id],
    );
    assert.deepEqual(
      (await api.get('/v1/review-queue/cases')).body.data.map((c: { id: string }) => c.id),
      [flagged.id],
    );
    // a deleted case leaves too
    assert.equal((await api.delete(`/v1/cases/${flagged.id}`)).status, 204);
    assert.equal((await api.get('/v1/review-queue/checks')).body.pagination.count, 0);
    assert.equal((await api.get('/v1/review-queue/cases')).body.pagination.count, 0);
    assert.equal((await api.get(`/v1/review-queue/cases?assignee_id=${anna}`)).body.pagination.count, 0);
  });
});
