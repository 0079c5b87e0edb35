/**
 * Conditional writes (docs/compatibility.md, "Conditional writes"): a check and a case answer their
 * version as `ETag`, and their review writes take `If-Match`. A stale version is a 412 that writes
 * nothing; the current one goes through; two writes racing with the same version are one success and
 * one 412. The walk's finding: a stale tab's "Ignore" replaced a hit another reviewer had confirmed,
 * and the check was then rejected on a hit recorded as "not them".
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import pg from 'pg';
import { type Client, eventually, getHarness, newWorkspace, type Res } from './helpers/harness.ts';

// on OFAC's SDN list, in the reference data the tests screen against (test/checks-aml.test.ts)
const LISTED_PERSON = {
  first_name: 'Elvis',
  middle_name: 'Angus',
  last_name: 'Logan Morey',
  birth_date: '1963-07-28',
  nationalities: ['BZ'],
};

const url = process.env.DATABASE_URL;

/**
 * Runs `requests` at once. On PostgreSQL a connection of the test holds the case's row while they
 * start and lets go once each waits for it (every write under a case locks the case first), so they
 * overlap for certain: each has read what it reads before the lock. The embedded database runs one
 * transaction at a time: the second then starts after the first committed.
 */
async function race(caseId: string, requests: (() => Promise<Res>)[]): Promise<Res[]> {
  if (!url) return Promise.all(requests.map((r) => r()));
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query('select id from cases where id = $1 for update', [caseId]);
    const running = requests.map((r) => r());
    for (;;) {
      const { rows } = await holder.query(
        `select count(*)::int as n from pg_locks where not granted and pid <> pg_backend_pid() and pid in
           (select pid from pg_stat_activity where datname = current_database())`,
      );
      if (rows[0].n >= requests.length) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await holder.query('commit');
    return await Promise.all(running);
  } finally {
    await holder.end();
  }
}

/** A case with the listed person, screened: need_review with at least one potential match. */
async function screenedCase(api: Client) {
  const created = await api.post('/v1/cases', {
    name: 'Conditional writes',
    companies: [{ name: 'Acme Widgets SAS', country: 'FR' }],
    individuals: [{ ...LISTED_PERSON, relations: [{ roles: ['legal_representative'] }] }],
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const aml = await api.post('/v1/checks/aml', { individual_id: created.body.individuals[0].id });
  assert.equal(aml.status, 201, JSON.stringify(aml.body));
  const check = await eventually(async () => {
    const res = await api.get(`/v1/checks/aml/${aml.body.id}`);
    return res.body.status !== 'processing' ? res.body : undefined;
  });
  assert.equal(check.status, 'need_review');
  assert.ok(check.data.hits.length >= 1);
  return { caseId: created.body.id as string, checkId: check.id as string };
}

const tag = (updatedAt: string) => `"${updatedAt}"`;

/** The check as read, with its ETag (asserted to be its updated_at, quoted). */
async function readCheck(api: Client, id: string) {
  const res = await api.get(`/v1/checks/aml/${id}`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.etag, tag(res.body.updated_at));
  return { check: res.body, etag: String(res.headers.etag) };
}

function assertPreconditionFailed(res: Res, what: 'check' | 'case') {
  assert.equal(res.status, 412, JSON.stringify(res.body));
  assert.equal(res.body.code, 'PRECONDITION_FAILED');
  assert.match(
    res.body.message,
    new RegExp(`^The ${what} changed since it was read \\(now updated_at .+\\): read it again$`),
  );
  assert.equal(res.body.details[0].path, 'If-Match');
}

before(async () => {
  const { ctx } = await getHarness();
  await eventually(async () => ctx.screening?.available, 120_000);
});

describe('conditional writes on checks', () => {
  test('finding 1: a stale tab ignoring a hit confirmed meanwhile is a 412; the confirmation and its reason stay', async () => {
    const api = await newWorkspace('if-match');
    const { checkId } = await screenedCase(api);
    // two tabs read the check: the hit is a potential match in both
    const tabA = await readCheck(api, checkId);
    const tabB = await readCheck(api, checkId);
    const hitId = tabA.check.data.hits[0].id as string;

    // B confirms it with a reason: the hit review moves the check's version
    const confirmed = await api.patch(
      `/v1/checks/aml/${checkId}/hits/review`,
      { action: 'confirm', hit_ids: [hitId], comment: 'True match on OFAC SDN' },
      { 'if-match': tabB.etag },
    );
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    assert.notEqual(confirmed.body.updated_at, tabB.check.updated_at);
    assert.equal(confirmed.headers.etag, tag(confirmed.body.updated_at));

    // A, still showing a potential match, ignores it: refused, nothing written
    const stale = await api.patch(
      `/v1/checks/aml/${checkId}/hits/review`,
      { action: 'ignore', hit_ids: [hitId], comment: 'not them' },
      { 'if-match': tabA.etag },
    );
    assertPreconditionFailed(stale, 'check');
    const after = await readCheck(api, checkId);
    assert.equal(after.check.updated_at, confirmed.body.updated_at);
    const hit = after.check.data.hits.find((h: { id: string }) => h.id === hitId);
    assert.equal(hit.status, 'true_positive');
    assert.equal(hit.review.comment, 'True match on OFAC SDN');

    // A's stale approval of the check is refused too; B's rejection, on what B saw, goes through
    const staleReview = await api.patch(
      `/v1/checks/aml/${checkId}/review`,
      { action: 'approve', comment: 'clean' },
      { 'if-match': tabA.etag },
    );
    assertPreconditionFailed(staleReview, 'check');
    assert.equal((await api.get(`/v1/checks/aml/${checkId}`)).body.status, 'need_review');
    // the rest of the hits first (a check is decided once every hit is)
    let etag = String(confirmed.headers.etag);
    const others = after.check.data.hits
      .filter((h: { id: string }) => h.id !== hitId)
      .map((h: { id: string }) => h.id);
    if (others.length) {
      const ignored = await api.patch(
        `/v1/checks/aml/${checkId}/hits/review`,
        { action: 'ignore', hit_ids: others },
        { 'if-match': etag },
      );
      assert.equal(ignored.status, 200, JSON.stringify(ignored.body));
      etag = String(ignored.headers.etag);
    }
    const rejected = await api.patch(
      `/v1/checks/aml/${checkId}/review`,
      { action: 'reject', comment: 'True match on OFAC SDN' },
      { 'if-match': etag },
    );
    assert.equal(rejected.status, 200, JSON.stringify(rejected.body));
    assert.equal(rejected.body.status, 'rejected');
    assert.equal(rejected.headers.etag, tag(rejected.body.updated_at));
    assert.equal(rejected.body.data.hits.find((h: { id: string }) => h.id === hitId).status, 'true_positive');
  });

  test('a decided check: a stale override is a 412, the current version, * and no header go through', async () => {
    const api = await newWorkspace('if-match-review');
    const { checkId } = await screenedCase(api);
    const read = await readCheck(api, checkId);
    const hitIds = read.check.data.hits.map((h: { id: string }) => h.id);
    const ignored = await api.patch(`/v1/checks/aml/${checkId}/hits/review`, {
      action: 'ignore',
      hit_ids: hitIds,
    });
    assert.equal(ignored.status, 200);
    // the check's version before the hit review is stale now
    assertPreconditionFailed(
      await api.patch(`/v1/checks/aml/${checkId}/review`, { action: 'approve' }, { 'if-match': read.etag }),
      'check',
    );
    const approved = await api.patch(
      `/v1/checks/aml/${checkId}/review`,
      { action: 'approve' },
      { 'if-match': String(ignored.headers.etag) },
    );
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    // a weak tag never matches (strong comparison), even of the current version: said as such,
    // not as a change (it read "The check changed since it was read" of an unchanged check)
    const weak = await api.patch(
      `/v1/checks/aml/${checkId}/review`,
      { action: 'reject', override: true },
      { 'if-match': `W/${approved.headers.etag}` },
    );
    assert.equal(weak.status, 412, JSON.stringify(weak.body));
    assert.equal(weak.body.code, 'PRECONDITION_FAILED');
    assert.match(
      weak.body.message,
      /^A weak entity tag \(W\/".+"\) never matches a write's If-Match: send the ETag as it was given/,
    );
    assert.equal(weak.body.details[0].path, 'If-Match');
    // one of a list matches; * matches any version; no header is the reference's unconditional write
    const listed = await api.patch(
      `/v1/checks/aml/${checkId}/review`,
      { action: 'reject', override: true },
      { 'if-match': `${read.etag}, ${approved.headers.etag}` },
    );
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    const any = await api.patch(
      `/v1/checks/aml/${checkId}/review`,
      { action: 'approve', override: true },
      { 'if-match': '*' },
    );
    assert.equal(any.status, 200, JSON.stringify(any.body));
    const plain = await api.patch(`/v1/checks/aml/${checkId}/review`, { action: 'reject', override: true });
    assert.equal(plain.status, 200);
    assert.equal(plain.body.status, 'rejected');
  });

  test('a malformed If-Match is a 400 naming the header; nothing written', async () => {
    const api = await newWorkspace('if-match-bad');
    const { checkId } = await screenedCase(api);
    const read = await readCheck(api, checkId);
    for (const value of [read.check.updated_at, '"unterminated', 'W/', '""x']) {
      const res = await api.patch(
        `/v1/checks/aml/${checkId}/hits/review`,
        { action: 'ignore', hit_ids: [read.check.data.hits[0].id] },
        { 'if-match': value },
      );
      assert.equal(res.status, 400, `${value}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.details[0].path, 'If-Match');
    }
    assert.equal((await readCheck(api, checkId)).check.updated_at, read.check.updated_at);
  });

  test('two hit reviews racing with the same If-Match: one 200, one 412, one decision recorded', async () => {
    const api = await newWorkspace('if-match-race');
    const { caseId, checkId } = await screenedCase(api);
    const read = await readCheck(api, checkId);
    const hitId = read.check.data.hits[0].id;
    const send = (action: string) => () =>
      api.patch(
        `/v1/checks/aml/${checkId}/hits/review`,
        { action, hit_ids: [hitId], comment: action },
        { 'if-match': read.etag },
      );
    const res = await race(caseId, [send('confirm'), send('ignore')]);
    assert.deepEqual(res.map((r) => r.status).sort(), [200, 412], JSON.stringify(res.map((r) => r.body)));
    const won = res.find((r) => r.status === 200) as Res;
    const after = await readCheck(api, checkId);
    assert.equal(after.check.updated_at, won.body.updated_at);
    const hit = after.check.data.hits.find((h: { id: string }) => h.id === hitId);
    assert.equal(hit.review.comment, hit.status === 'true_positive' ? 'confirm' : 'ignore');
    // one activity: the refused review recorded none
    const { ctx } = await getHarness();
    const events = await ctx.db
      .selectFrom('events')
      .select('type')
      .where('case_id', '=', caseId)
      .where('type', 'in', ['AmlHit.Confirmed', 'AmlHit.Ignored'])
      .execute();
    assert.equal(events.length, 1);
  });
});

describe('conditional writes on cases', () => {
  test('finding 2: a stale tab rejecting a case approved meanwhile is a 412; one review recorded', async () => {
    const api = await newWorkspace('if-match-case');
    const created = await api.post('/v1/cases', { name: 'Two tabs', companies: [{ name: 'Main' }] });
    const id = created.body.id as string;
    const read = await api.get(`/v1/cases/${id}`);
    assert.equal(read.status, 200);
    assert.equal(read.headers.etag, tag(read.body.updated_at));
    const etag = String(read.headers.etag);

    const approved = await api.post(
      `/v1/cases/${id}/reviews`,
      { status: 'approved', comment: 'all good' },
      { 'if-match': etag },
    );
    assert.equal(approved.status, 201, JSON.stringify(approved.body));
    const stale = await api.post(
      `/v1/cases/${id}/reviews`,
      { status: 'rejected', comment: 'no' },
      { 'if-match': etag },
    );
    assertPreconditionFailed(stale, 'case');
    const after = await api.get(`/v1/cases/${id}`);
    assert.equal(after.body.status, 'approved');
    assert.equal(after.body.review.comment, 'all good');
    assert.notEqual(after.headers.etag, etag, 'a case review moves the case version');
    const { ctx } = await getHarness();
    const reviews = await ctx.db
      .selectFrom('case_reviews')
      .select('status')
      .where('case_id', '=', id)
      .execute();
    assert.deepEqual(
      reviews.map((r) => r.status),
      ['approved'],
    );
    // with the version read again, the decision is taken
    const rejected = await api.post(
      `/v1/cases/${id}/reviews`,
      { status: 'rejected', comment: 'on second thought' },
      { 'if-match': String(after.headers.etag) },
    );
    assert.equal(rejected.status, 201, JSON.stringify(rejected.body));
  });

  test('PATCH of a case: a stale If-Match is a 412 and changes nothing; the current one answers the new ETag', async () => {
    const api = await newWorkspace('if-match-patch');
    const id = (await api.post('/v1/cases', { name: 'Patch me', companies: [{ name: 'Main' }] })).body.id;
    const etag = String((await api.get(`/v1/cases/${id}`)).headers.etag);
    const renamed = await api.patch(`/v1/cases/${id}`, { name: 'Renamed' }, { 'if-match': etag });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.headers.etag, tag(renamed.body.updated_at));
    assert.notEqual(renamed.headers.etag, etag);
    assertPreconditionFailed(
      await api.patch(`/v1/cases/${id}`, { name: 'Stale' }, { 'if-match': etag }),
      'case',
    );
    assert.equal((await api.get(`/v1/cases/${id}`)).body.name, 'Renamed');
    const bad = await api.patch(`/v1/cases/${id}`, { name: 'Bad' }, { 'if-match': 'yesterday' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.details[0].path, 'If-Match');
  });

  test('an Idempotency-Key refused with a 412 is free again: the retry read again goes through', async () => {
    const api = await newWorkspace('if-match-idempotency');
    const id = (await api.post('/v1/cases', { name: 'Retry', companies: [{ name: 'Main' }] })).body.id;
    const stale = String((await api.get(`/v1/cases/${id}`)).headers.etag);
    assert.equal((await api.patch(`/v1/cases/${id}`, { name: 'Renamed' })).status, 200);
    const body = { status: 'approved', comment: 'ok' };
    const key = { 'idempotency-key': `review-${id}` };
    assertPreconditionFailed(
      await api.post(`/v1/cases/${id}/reviews`, body, { ...key, 'if-match': stale }),
      'case',
    );
    const current = String((await api.get(`/v1/cases/${id}`)).headers.etag);
    const retried = await api.post(`/v1/cases/${id}/reviews`, body, { ...key, 'if-match': current });
    assert.equal(retried.status, 201, JSON.stringify(retried.body));
    assert.equal(retried.headers['idempotent-replayed'], undefined);
  });

  test('two case reviews racing with the same If-Match: one 201, one 412', async () => {
    const api = await newWorkspace('if-match-case-race');
    const id = (await api.post('/v1/cases', { name: 'Race', companies: [{ name: 'Main' }] })).body.id;
    const etag = String((await api.get(`/v1/cases/${id}`)).headers.etag);
    const send = (status: string) => () =>
      api.post(`/v1/cases/${id}/reviews`, { status, comment: status }, { 'if-match': etag });
    const res = await race(id, [send('approved'), send('rejected')]);
    assert.deepEqual(res.map((r) => r.status).sort(), [201, 412], JSON.stringify(res.map((r) => r.body)));
    const won = (res.find((r) => r.status === 201) as Res).body;
    const after = (await api.get(`/v1/cases/${id}`)).body;
    assert.equal(after.status, won.status);
    const { ctx } = await getHarness();
    const reviews = await ctx.db.selectFrom('case_reviews').select('id').where('case_id', '=', id).execute();
    assert.equal(reviews.length, 1);
  });
});
