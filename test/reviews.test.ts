import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { confirmCaseReview } from '../src/reviews/confirm-case-review.ts';
import { type Client, eventually, getHarness, newWorkspace } from './helpers/harness.ts';

async function newCase(api: Client) {
  const res = await api.post('/v1/cases', { name: 'Case' });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function eventsOf(workspaceId: string) {
  const { ctx } = await getHarness();
  return ctx.db
    .selectFrom('events')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('seq')
    .execute();
}

const today = () => new Date().toISOString().slice(0, 10);

describe('case reviews', () => {
  test('an approving review decides the case: stored review, case status, snapshot and events', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const kase = await newCase(api);
    assert.equal(kase.status, 'open');
    const res = await api.post(`/v1/cases/${kase.id}/reviews`, {
      status: 'approved',
      comment: 'all good',
      reviewed_at: '2024-03-15T10:00:00.000Z',
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const review = res.body;
    assert.deepEqual(
      { ...review, id: undefined },
      {
        id: undefined,
        status: 'approved',
        comment: 'all good',
        reviewer_type: 'api',
        user: null,
        reviewed_at: '2024-03-15T10:00:00.000Z',
        next_review_at: '2025-03-15', // no risk: not_defined, 12 months by default
      },
    );
    const row = await ctx.db
      .selectFrom('case_reviews')
      .selectAll()
      .where('id', '=', review.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.case_id, kase.id);
    assert.equal(row.workspace_id, api.workspaceId);
    assert.equal(row.reviewer_type, 'api');
    assert.equal(row.next_review_at, '2025-03-15');

    const read = (await api.get(`/v1/cases/${kase.id}`)).body;
    assert.equal(read.status, 'approved');
    assert.deepEqual(read.review, review);
    assert.equal(read.next_review_at, '2025-03-15');

    const events = await eventsOf(api.workspaceId);
    const status = events.filter((e) => e.sub_event === 'Case.StatusUpdated');
    assert.equal(status.length, 1);
    assert.equal(status[0].type, 'Case.Updated');
    assert.equal((status[0].payload as any).case.status, 'approved');
    const confirmed = events.filter((e) => e.type === 'Case.ReviewConfirmed');
    assert.equal(confirmed.length, 1);
    assert.equal(confirmed[0].case_id, kase.id);
    assert.deepEqual((confirmed[0].payload as any).case_review, review);
    assert.equal((confirmed[0].payload as any).case.status, 'approved');
    assert.deepEqual((confirmed[0].payload as any).case.review, review);

    // approving again: a new review and ReviewConfirmed, but the status did not change
    const again = await api.post(`/v1/cases/${kase.id}/reviews`, { status: 'approved' });
    assert.equal(again.status, 201);
    assert.equal(again.body.comment, null);
    assert.equal(again.body.next_review_at, addMonthsUtc(today(), 12));
    const after = await eventsOf(api.workspaceId);
    assert.equal(after.filter((e) => e.type === 'Case.ReviewConfirmed').length, 2);
    assert.equal(after.filter((e) => e.sub_event === 'Case.StatusUpdated').length, 1);
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).body.review.id, again.body.id);
  });

  test('next_review_at follows the case risk level and the workspace frequencies', async () => {
    const api = await newWorkspace();
    const reviewed_at = '2024-01-31T23:30:00Z';
    const expectations: [string | null, string | null][] = [
      [null, '2025-01-31'], // no risk: not_defined (12)
      ['not_defined', '2025-01-31'],
      ['low', '2027-01-31'], // 36
      ['medium', '2026-01-31'], // 24
      ['high', '2025-01-31'], // 12
      ['critical', '2024-07-31'], // 6
      ['prohibited', null], // null: no review due
    ];
    for (const [level, expected] of expectations) {
      const kase = await newCase(api);
      if (level) assert.equal((await api.post(`/v1/cases/${kase.id}/risks`, { level })).status, 201);
      const res = await api.post(`/v1/cases/${kase.id}/reviews`, { status: 'approved', reviewed_at });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.next_review_at, expected, `level ${level}`);
      assert.equal((await api.get(`/v1/cases/${kase.id}`)).body.next_review_at, expected);
    }

    // workspace frequencies; the day is clamped to the end of a shorter month
    const patched = await api.patch('/v1/workspace/settings', {
      case_review: { frequency_in_months: { medium: 1, high: null } },
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const medium = await newCase(api);
    await api.post(`/v1/cases/${medium.id}/risks`, { level: 'medium' });
    const m = await api.post(`/v1/cases/${medium.id}/reviews`, { status: 'approved', reviewed_at });
    assert.equal(m.body.next_review_at, '2024-02-29');
    const high = await newCase(api);
    await api.post(`/v1/cases/${high.id}/risks`, { level: 'high' });
    assert.equal(
      (await api.post(`/v1/cases/${high.id}/reviews`, { status: 'approved', reviewed_at })).body
        .next_review_at,
      null,
    );

    // the latest risk counts
    await api.post(`/v1/cases/${high.id}/risks`, { level: 'critical' });
    const c = await api.post(`/v1/cases/${high.id}/reviews`, {
      status: 'approved',
      reviewed_at: '2024-05-10T08:00:00Z',
    });
    assert.equal(c.body.next_review_at, '2024-11-10');
  });

  test('next_review_at can be overridden (or cleared) on every variant, and is computed on each otherwise', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const kase = await newCase(api);
    const set = await api.post(`/v1/cases/${kase.id}/reviews`, {
      status: 'approved',
      next_review_at: '2030-01-01',
    });
    assert.equal(set.status, 201);
    assert.equal(set.body.next_review_at, '2030-01-01');
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).body.next_review_at, '2030-01-01');
    const cleared = await api.post(`/v1/cases/${kase.id}/reviews`, {
      status: 'approved',
      next_review_at: null,
    });
    assert.equal(cleared.status, 201);
    assert.equal(cleared.body.next_review_at, null);

    await api.post(`/v1/cases/${kase.id}/reviews`, { status: 'approved' });
    for (const status of ['rejected', 'closed']) {
      const res = await api.post(`/v1/cases/${kase.id}/reviews`, { status, comment: `now ${status}` });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.status, status);
      // no risk: not_defined, 12 months by default
      assert.equal(res.body.next_review_at, addMonthsUtc(today(), 12));
      const read = (await api.get(`/v1/cases/${kase.id}`)).body;
      assert.equal(read.status, status);
      assert.equal(read.next_review_at, addMonthsUtc(today(), 12));
      assert.equal(read.review.comment, `now ${status}`);
    }
    const events = await eventsOf(api.workspaceId);
    assert.deepEqual(
      events.filter((e) => e.sub_event === 'Case.StatusUpdated').map((e) => (e.payload as any).case.status),
      ['approved', 'rejected', 'closed'],
    );
    assert.equal(events.filter((e) => e.type === 'Case.ReviewConfirmed').length, 5);
    const stored = await ctx.db
      .selectFrom('case_reviews')
      .select('status')
      .where('case_id', '=', kase.id)
      .execute();
    assert.equal(stored.length, 5);

    const rejected = await api.post(`/v1/cases/${kase.id}/reviews`, {
      status: 'rejected',
      next_review_at: '2030-01-01',
    });
    assert.equal(rejected.status, 201, JSON.stringify(rejected.body));
    assert.equal(rejected.body.next_review_at, '2030-01-01');
    const closed = await api.post(`/v1/cases/${kase.id}/reviews`, { status: 'closed', next_review_at: null });
    assert.equal(closed.status, 201, JSON.stringify(closed.body));
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).body.next_review_at, null);
    const bad = await api.post(`/v1/cases/${kase.id}/reviews`, {
      status: 'closed',
      next_review_at: '2030-02-30',
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.details[0].path, 'next_review_at');
  });

  test('next_review_at before the review is refused; a backdated review may set one from its own day', async () => {
    const api = await newWorkspace();
    const kase = await newCase(api);
    const past = await api.post(`/v1/cases/${kase.id}/reviews`, {
      status: 'approved',
      next_review_at: '2020-01-01',
    });
    assert.equal(past.status, 400, JSON.stringify(past.body));
    assert.equal(past.body.details[0].path, 'next_review_at');
    assert.match(
      past.body.message,
      /^next_review_at must not be before the review \(\d{4}-\d{2}-\d{2}\): it is 2020-01-01$/,
    );
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).body.status, 'open', 'nothing was decided');
    const backdated = await api.post(`/v1/cases/${kase.id}/reviews`, {
      status: 'approved',
      reviewed_at: '2019-06-01T10:00:00Z',
      next_review_at: '2019-06-01',
    });
    assert.equal(backdated.status, 201, JSON.stringify(backdated.body));
    assert.equal(backdated.body.next_review_at, '2019-06-01');
    const before = await api.post(`/v1/cases/${kase.id}/reviews`, {
      status: 'approved',
      reviewed_at: '2019-06-01T10:00:00Z',
      next_review_at: '2019-05-31',
    });
    assert.equal(before.status, 400);
    assert.equal(before.body.details[0].path, 'next_review_at');
  });

  test('a comment of blanks is no comment: stored null, on case and check reviews', async () => {
    const api = await newWorkspace();
    const kase = await newCase(api);
    const res = await api.post(`/v1/cases/${kase.id}/reviews`, { status: 'approved', comment: '  \n\t ' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.comment, null);
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).body.review.comment, null);
    const { ctx } = await getHarness();
    const row = await ctx.db
      .selectFrom('case_reviews')
      .select('comment')
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.comment, null);
    // a comment with words is kept as written
    const kept = await api.post(`/v1/cases/${kase.id}/reviews`, { status: 'closed', comment: ' done ' });
    assert.equal(kept.body.comment, ' done ');
    // a check review
    const company = await api.post('/v1/companies', {
      case_id: kase.id,
      type: 'main',
      name: 'High Risk Trading SAS',
      country: 'FR',
    });
    assert.equal(company.status, 201, JSON.stringify(company.body));
    const check = await api.post('/v1/checks/online_reputation', { company_id: company.body.id });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    await eventually(async () => {
      const k = await api.get(`/v1/checks/online_reputation/${check.body.id}`);
      return k.body.status === 'need_review' || null;
    });
    const reviewed = await api.patch(`/v1/checks/online_reputation/${check.body.id}/review`, {
      action: 'approve',
      comment: '   ',
    });
    assert.equal(reviewed.status, 200, JSON.stringify(reviewed.body));
    assert.equal(reviewed.body.data.review.comment, null);
    // a review's time is its transaction's: never after the updated_at it stamps
    assert.ok(
      reviewed.body.data.review.reviewed_at <= reviewed.body.updated_at,
      JSON.stringify(reviewed.body),
    );
    const decided = (await api.get(`/v1/cases/${kase.id}`)).body;
    assert.ok(decided.review.reviewed_at <= decided.updated_at, JSON.stringify(decided));
  });

  test('next_review_at is taken as a timestamp too (the spec types it so): its UTC day is kept', async () => {
    const api = await newWorkspace();
    const kase = await newCase(api);
    for (const [given, day] of [
      ['2030-05-01T00:00:00.000Z', '2030-05-01'],
      ['2030-05-01T23:30:00-05:00', '2030-05-02'],
      ['2030-05-01T12:00:00+02:00', '2030-05-01'],
    ]) {
      const res = await api.post(`/v1/cases/${kase.id}/reviews`, {
        status: 'approved',
        next_review_at: given,
      });
      assert.equal(res.status, 201, `${given}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.next_review_at, day, given);
      assert.equal((await api.get(`/v1/cases/${kase.id}`)).body.next_review_at, day, given);
    }
    for (const bad of ['2030-05-01T25:00:00Z', '2030-05-01T10:00:00', 'tomorrow', '']) {
      const res = await api.post(`/v1/cases/${kase.id}/reviews`, { status: 'approved', next_review_at: bad });
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.details[0].path, 'next_review_at');
      assert.match(res.body.details[0].message, /date \(yyyy-MM-dd\) or an ISO 8601 date-time/);
    }
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).body.next_review_at, '2030-05-01');
  });

  test('a mandatory comment is enforced when the workspace asks for it', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const kase = await newCase(api);
    const patched = await api.patch('/v1/workspace/settings', { case_review: { comment_mandatory: true } });
    assert.equal(patched.status, 200);
    for (const body of [
      { status: 'approved' },
      { status: 'rejected', comment: '' },
      { status: 'closed', comment: '   ' },
      // invisible characters alone are no comment either (walk: "\u200b" gave 201)
      { status: 'approved', comment: '\u200b' },
      { status: 'rejected', comment: '\u2060\u00ad \u034f' },
    ]) {
      const res = await api.post(`/v1/cases/${kase.id}/reviews`, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.code, 'BAD_REQUEST');
      assert.equal(res.body.details[0].path, 'comment');
    }
    const stored = await ctx.db
      .selectFrom('case_reviews')
      .select('id')
      .where('case_id', '=', kase.id)
      .execute();
    assert.equal(stored.length, 0);
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).body.status, 'open');
    assert.equal(
      (await eventsOf(api.workspaceId)).filter((e) => e.type === 'Case.ReviewConfirmed').length,
      0,
    );
    const ok = await api.post(`/v1/cases/${kase.id}/reviews`, { status: 'approved', comment: 'checked' });
    assert.equal(ok.status, 201);
  });

  test('bad bodies and ids are 400; unknown and foreign cases are 404', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const kase = await newCase(api);
    const bodies: [unknown, string][] = [
      [{}, 'status'],
      [{ status: 'open' }, 'status'],
      [{ status: 'approved', reviewed_at: 'yesterday' }, 'reviewed_at'],
      [{ status: 'approved', next_review_at: '2030-13-01' }, 'next_review_at'],
      [{ status: 'approved', reviewed_at: new Date(Date.now() + 86_400_000).toISOString() }, 'reviewed_at'],
    ];
    for (const [body, path] of bodies) {
      const res = await api.post(`/v1/cases/${kase.id}/reviews`, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.ok(
        res.body.details.some((d: any) => d.path === path),
        `${path} in ${JSON.stringify(res.body)}`,
      );
    }
    const badId = await api.post('/v1/cases/nope/reviews', { status: 'approved' });
    assert.equal(badId.status, 400);
    assert.equal(badId.body.details[0].path, 'id');
    assert.equal((await api.post(`/v1/cases/${randomUUID()}/reviews`, { status: 'approved' })).status, 404);
    assert.equal((await other.post(`/v1/cases/${kase.id}/reviews`, { status: 'rejected' })).status, 404);
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).body.status, 'open');
    assert.equal((await eventsOf(other.workspaceId)).length, 0);
  });

  test('a backdated review older than the case latest review is refused: it would make the older decision current', async () => {
    const api = await newWorkspace();
    const kase = await newCase(api);
    const first = await api.post(`/v1/cases/${kase.id}/reviews`, {
      status: 'rejected',
      reviewed_at: '2024-05-10T08:00:00Z',
    });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    // history imported oldest first: a later backdated review is taken
    const later = await api.post(`/v1/cases/${kase.id}/reviews`, {
      status: 'approved',
      reviewed_at: '2024-06-01T08:00:00Z',
    });
    assert.equal(later.status, 201, JSON.stringify(later.body));
    const before = await eventsOf(api.workspaceId);
    const older = await api.post(`/v1/cases/${kase.id}/reviews`, {
      status: 'closed',
      reviewed_at: '1900-01-01T00:00:00Z',
    });
    assert.equal(older.status, 400, JSON.stringify(older.body));
    assert.equal(older.body.details[0].path, 'reviewed_at');
    assert.match(older.body.message, /latest review \(2024-06-01T08:00:00\.000Z\)/);
    const read = (await api.get(`/v1/cases/${kase.id}`)).body;
    assert.equal(read.status, 'approved');
    assert.equal(read.review.reviewed_at, '2024-06-01T08:00:00.000Z');
    assert.equal((await eventsOf(api.workspaceId)).length, before.length);
    // a review without a date is now: always after the latest
    const now = await api.post(`/v1/cases/${kase.id}/reviews`, { status: 'closed' });
    assert.equal(now.status, 201);
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).body.status, 'closed');
  });

  test('confirmCaseReview runs inside a caller transaction as the system reviewer', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const kase = await newCase(api);
    await api.patch('/v1/workspace/settings', { case_review: { comment_mandatory: true } });
    const out = await ctx.db.transaction().execute((trx) =>
      confirmCaseReview(trx, {
        workspaceId: api.workspaceId,
        caseId: kase.id,
        status: 'approved',
        reviewerType: 'system',
      }),
    );
    assert.equal(out.review.reviewer_type, 'system');
    assert.equal(out.review.comment, null);
    assert.equal(out.case.status, 'approved');
    const read = (await api.get(`/v1/cases/${kase.id}`)).body;
    assert.equal(read.review.reviewer_type, 'system');
    // rolled back with the caller's transaction
    const other = await newCase(api);
    await assert.rejects(
      ctx.db.transaction().execute(async (trx) => {
        await confirmCaseReview(trx, {
          workspaceId: api.workspaceId,
          caseId: other.id,
          status: 'approved',
          reviewerType: 'system',
        });
        throw new Error('caller fails');
      }),
      /caller fails/,
    );
    assert.equal((await api.get(`/v1/cases/${other.id}`)).body.status, 'open');
    const stored = await ctx.db
      .selectFrom('case_reviews')
      .select('id')
      .where('case_id', '=', other.id)
      .execute();
    assert.equal(stored.length, 0);
  });
});

function addMonthsUtc(day: string, months: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), last));
  return target.toISOString().slice(0, 10);
}
