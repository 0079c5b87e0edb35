import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { createConsoleUser, signInHeaders } from './helpers/console-session.ts';
import { type Client, getHarness, newWorkspace } from './helpers/harness.ts';

async function newCase(api: Client) {
  const res = await api.post('/v1/cases', { name: 'Case' });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function riskEvents(workspaceId: string) {
  const { ctx } = await getHarness();
  return ctx.db
    .selectFrom('events')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('sub_event', '=', 'Case.RiskUpdated')
    .orderBy('seq')
    .execute();
}

describe('risks', () => {
  test('creates an automatic risk, stores it and snapshots it on the case', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const kase = await newCase(api);
    const body = {
      level: 'high',
      score: 4200,
      components: { customer_score: 1400, geography_score: 2000 },
      flags: { prohibited_country_ubo: true, complex_company_alert: false },
      comment: 'computed by our engine',
    };
    const res = await api.post(`/v1/cases/${kase.id}/risks`, body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const risk = res.body;
    assert.equal(risk.mode, 'automatic');
    assert.equal(risk.level, 'high');
    assert.equal(risk.score, 4200);
    assert.deepEqual(risk.components, body.components);
    assert.deepEqual(risk.flags, body.flags);
    assert.equal(risk.comment, 'computed by our engine');
    assert.ok(risk.id && risk.created_at && risk.updated_at);

    const row = await ctx.db
      .selectFrom('risks')
      .selectAll()
      .where('id', '=', risk.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.case_id, kase.id);
    assert.equal(row.workspace_id, api.workspaceId);
    assert.equal(row.level, 'high');
    const read = await api.get(`/v1/cases/${kase.id}`);
    assert.deepEqual(read.body.risk, risk);

    const events = await riskEvents(api.workspaceId);
    assert.equal(events.length, 1);
    assert.equal(events[0].case_id, kase.id);
    assert.deepEqual((events[0].payload as any).risk, risk);
    assert.deepEqual((events[0].payload as any).case.risk, risk);

    // a minimal body; the newest risk becomes the case risk, and a change is announced
    const low = await api.post(`/v1/cases/${kase.id}/risks`, { level: 'low' });
    assert.equal(low.status, 201);
    assert.equal(low.body.score, null);
    assert.equal(low.body.components, null);
    assert.equal(low.body.flags, null);
    assert.equal(low.body.comment, null);
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).body.risk.level, 'low');
    // the same risk again is recorded, but the case's risk does not change: no event
    assert.equal((await api.post(`/v1/cases/${kase.id}/risks`, { level: 'low' })).status, 201);
    assert.equal((await riskEvents(api.workspaceId)).length, 2);
    const stored = await ctx.db.selectFrom('risks').select('id').where('case_id', '=', kase.id).execute();
    assert.equal(stored.length, 3);
    // a comment of blanks says nothing: stored as null, like a review's
    const blank = await api.post(`/v1/cases/${kase.id}/risks`, { level: 'medium', comment: ' \n ' });
    assert.equal(blank.status, 201);
    assert.equal(blank.body.comment, null);
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).body.risk.comment, null);
  });

  test("the reference's bounds: score and components from -2^31 to 2^31-1, components any number", async () => {
    const api = await newWorkspace();
    const kase = await newCase(api);
    const body = {
      level: 'low',
      score: -(2 ** 31),
      components: { lowest: -(2 ** 31), highest: 2 ** 31 - 1, share: 1666.67 },
    };
    const res = await api.post(`/v1/cases/${kase.id}/risks`, body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.score, body.score);
    assert.deepEqual(res.body.components, body.components);
    for (const [over, path] of [
      [{ score: -(2 ** 31) - 1 }, 'score'],
      [{ components: { a: -(2 ** 31) - 1 } }, 'components.a'],
      [{ components: { a: 2 ** 31 } }, 'components.a'],
    ] as const) {
      const refused = await api.post(`/v1/cases/${kase.id}/risks`, { level: 'low', ...over });
      assert.equal(refused.status, 400, JSON.stringify(over));
      assert.equal(refused.body.details[0].path, path);
    }
  });

  test('bad bodies are 400 naming the field; unknown cases are 404', async () => {
    const api = await newWorkspace();
    const kase = await newCase(api);
    const bodies: [unknown, string][] = [
      [{}, 'level'],
      [{ level: 'extreme' }, 'level'],
      [{ level: 'low', score: 1.5 }, 'score'],
      [{ level: 'low', score: 2 ** 31 }, 'score'],
      [{ level: 'low', components: { a: 'x' } }, 'components.a'],
      [{ level: 'low', flags: { a: 'yes' } }, 'flags.a'],
    ];
    for (const [body, path] of bodies) {
      const res = await api.post(`/v1/cases/${kase.id}/risks`, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.ok(
        res.body.details.some((d: any) => d.path === path),
        `${path} in ${JSON.stringify(res.body)}`,
      );
    }
    const badId = await api.post('/v1/cases/nope/risks', { level: 'low' });
    assert.equal(badId.status, 400);
    assert.equal(badId.body.details[0].path, 'id');
    assert.equal((await api.post(`/v1/cases/${randomUUID()}/risks`, { level: 'low' })).status, 404);
    assert.equal((await riskEvents(api.workspaceId)).length, 0);
  });

  test('a workspace with online risk engines refuses automatic risks', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const kase = await newCase(api);
    assert.equal((await api.patch('/v1/workspace/settings', { risk: { online_engines: true } })).status, 200);
    const res = await api.post(`/v1/cases/${kase.id}/risks`, { level: 'low' });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'BAD_REQUEST');
    assert.match(res.body.message, /online engines/);
    const stored = await ctx.db.selectFrom('risks').select('id').where('case_id', '=', kase.id).execute();
    assert.equal(stored.length, 0);
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).body.risk, null);
    assert.equal((await riskEvents(api.workspaceId)).length, 0);
  });

  test('a risk set by a person in the console is manual, also where online engines refuse automatic ones', async () => {
    const api = await newWorkspace();
    const { app, ctx } = await getHarness();
    const kase = await newCase(api);
    assert.equal((await api.patch('/v1/workspace/settings', { risk: { online_engines: true } })).status, 200);
    const officer = await createConsoleUser(ctx, api.workspaceId, {
      role: 'reviewer',
      firstName: 'Rita',
      lastName: 'Risk',
    });
    const headers = await signInHeaders(app, officer.email, officer.password);
    const res = await app.inject({
      method: 'POST',
      url: `/v1/cases/${kase.id}/risks`,
      headers,
      payload: { level: 'medium', comment: 'Cash-intensive business' },
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().mode, 'manual');
    const read = (await api.get(`/v1/cases/${kase.id}`)).body.risk;
    assert.equal(read.mode, 'manual');
    assert.equal(read.level, 'medium');
    // the API key's own assessment stays automatic, and refused here
    assert.equal((await api.post(`/v1/cases/${kase.id}/risks`, { level: 'low' })).status, 400);
  });

  test('an assessment identical to the current risk is recorded but changes nothing on the case', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const kase = await newCase(api);
    const url = `/v1/cases/${kase.id}/risks`;
    const body = {
      level: 'high',
      score: 4200,
      components: { customer_score: 1400, geography_score: 2000.5 },
      flags: { prohibited_country_ubo: true, complex_company_alert: false },
      comment: 'computed by our engine',
    };
    const first = await api.post(url, body);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const current = (await api.get(`/v1/cases/${kase.id}`)).body;
    assert.deepEqual(current.risk, first.body);
    const stamps = async () =>
      ctx.db
        .selectFrom('cases')
        .select([
          sql<string>`updated_at::text`.as('updated_at'),
          sql<string>`last_activity_at::text`.as('last_activity_at'),
        ])
        .where('id', '=', kase.id)
        .executeTakeFirstOrThrow();
    const stampsBefore = await stamps();
    const activities = (await api.get('/v1/activities?limit=100')).body.data.length;

    // the same values, keys in another order: recorded (201, a new risk), the case keeps its risk
    const again = await api.post(url, {
      comment: 'computed by our engine',
      flags: { complex_company_alert: false, prohibited_country_ubo: true },
      components: { geography_score: 2000.5, customer_score: 1400 },
      score: 4200,
      level: 'high',
    });
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.notEqual(again.body.id, first.body.id);
    assert.equal(again.body.level, 'high');
    assert.deepEqual(again.body.components, body.components);
    const after = (await api.get(`/v1/cases/${kase.id}`)).body;
    assert.deepEqual(after.risk, first.body, 'the case keeps its current risk');
    assert.equal(after.updated_at, current.updated_at);
    assert.deepEqual(await stamps(), stampsBefore, 'updated_at and last_activity_at unchanged');
    assert.equal((await riskEvents(api.workspaceId)).length, 1, 'no second Case.RiskUpdated');
    assert.equal((await api.get('/v1/activities?limit=100')).body.data.length, activities, 'no activity');
    const stored = await ctx.db.selectFrom('risks').select('id').where('case_id', '=', kase.id).execute();
    assert.equal(stored.length, 2, 'both assessments are recorded');

    // any one value differing is a change of the case's risk: one event each
    for (const change of [
      { score: 4201 },
      { flags: { prohibited_country_ubo: true } },
      { components: { customer_score: 1400 } },
      { comment: 'recomputed' },
      { level: 'medium' },
    ]) {
      const res = await api.post(url, { ...body, ...change });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual((await api.get(`/v1/cases/${kase.id}`)).body.risk, res.body, JSON.stringify(change));
    }
    assert.equal((await riskEvents(api.workspaceId)).length, 6);
  });

  test("another workspace's case is not found", async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const kase = await newCase(api);
    assert.equal((await other.post(`/v1/cases/${kase.id}/risks`, { level: 'high' })).status, 404);
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).body.risk, null);
    assert.equal((await riskEvents(other.workspaceId)).length, 0);
  });
});
