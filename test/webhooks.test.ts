import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { emitDueReviews } from '../src/events/emit-review-due.ts';
import { recordEvents } from '../src/events/record-event.ts';
import { isPrivateAddress, isPrivateHostName } from '../src/webhooks/address-guard.ts';
import { vacuumOutbox } from '../src/webhooks/build-deliveries.ts';
import { webhookTuning } from '../src/webhooks/tuning.ts';
import { type Client, eventually, getHarness, newWorkspace } from './helpers/harness.ts';
import { type Received, Receiver, startReceiver } from './helpers/receiver.ts';

const defaults = { ...webhookTuning };
let receiver: Receiver;

before(async () => {
  receiver = await startReceiver();
});
after(async () => {
  Object.assign(webhookTuning, defaults);
  await receiver.stop();
});

async function hook(api: Client, body: Record<string, unknown>) {
  const res = await api.post('/v1/webhooks', body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; secret: string; url: string; events: string[] };
}

async function eventsOf(workspaceId: string) {
  const { ctx } = await getHarness();
  return ctx.db
    .selectFrom('events')
    .select(['id', 'type', 'sub_event'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('seq')
    .execute();
}

function verify(r: Received, secret: string) {
  const wh = new StandardWebhook(secret);
  return wh.verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });
}

const uniquePath = () => `/h/${Math.random().toString(36).slice(2, 10)}`;

async function createCase(api: Client, name = 'Webhook case') {
  const res = await api.post('/v1/cases', { name, status: 'draft' });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}

describe('webhooks CRUD', () => {
  test('create generates a whsec_ secret; get, list, patch, delete', async () => {
    const api = await newWorkspace();
    const created = await api.post('/v1/webhooks', {
      name: 'Main',
      url: 'https://example.com/hooks',
      events: ['Case.Created', 'Check.*'],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const w = created.body;
    assert.match(w.secret, /^whsec_[A-Za-z0-9+/]+={0,2}$/);
    assert.equal(Buffer.from(w.secret.slice(6), 'base64').length, 24);
    assert.deepEqual(
      { name: w.name, status: w.status, type: w.type, url: w.url, events: w.events },
      {
        name: 'Main',
        status: 'online',
        type: 'user',
        url: 'https://example.com/hooks',
        events: ['Case.Created', 'Check.*'],
      },
    );
    assert.equal(w.previous_secret_expires_at, null);

    const got = await api.get(`/v1/webhooks/${w.id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, w);

    const second = await hook(api, {
      url: 'https://example.org/x',
      events: ['Case.StatusUpdated'],
      status: 'offline',
      secret: 'my-own-secret-of-some-length',
    });
    assert.equal(second.secret, 'my-own-secret-of-some-length');
    assert.equal((second as { name?: string }).name, 'example.org');

    const list = await api.get('/v1/webhooks');
    assert.equal(list.status, 200);
    assert.equal(list.body.pagination.count, 2);
    assert.deepEqual(
      (await api.get('/v1/webhooks?status=offline')).body.data.map((x: { id: string }) => x.id),
      [second.id],
    );
    assert.deepEqual(
      (await api.get('/v1/webhooks?events=Check.*')).body.data.map((x: { id: string }) => x.id),
      [w.id],
    );
    // a value no subscription can hold is refused, not an empty page
    const bogus = await api.get('/v1/webhooks?events=Bogus.Event');
    assert.equal(bogus.status, 400, JSON.stringify(bogus.body));
    assert.equal(bogus.body.details[0].path, 'events');
    assert.deepEqual(
      (await api.get('/v1/webhooks?url.like=%25example.org%25')).body.data.map((x: { id: string }) => x.id),
      [second.id],
    );
    assert.deepEqual(
      (await api.get('/v1/webhooks?sort=created_at.desc')).body.data.map((x: { name: string }) => x.name),
      ['example.org', 'Main'],
    );
    assert.equal((await api.get('/v1/webhooks?status=maybe')).status, 400);

    const patched = await api.patch(`/v1/webhooks/${w.id}`, { name: 'Renamed', events: ['*'] });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.name, 'Renamed');
    assert.deepEqual(patched.body.events, ['*']);
    assert.equal(patched.body.secret, w.secret);

    assert.equal((await api.delete(`/v1/webhooks/${w.id}`)).status, 204);
    assert.equal((await api.get(`/v1/webhooks/${w.id}`)).status, 404);
    assert.equal((await api.delete(`/v1/webhooks/${w.id}`)).status, 404);
  });

  test('validation', async () => {
    const api = await newWorkspace();
    const bad = async (body: Record<string, unknown>, path: string) => {
      const res = await api.post('/v1/webhooks', body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.ok(
        res.body.details?.some((d: { path: string }) => d.path.startsWith(path)),
        `${path} in ${JSON.stringify(res.body)}`,
      );
    };
    await bad({ events: ['Case.Created'] }, 'url');
    await bad({ url: 'https://example.com' }, 'events');
    await bad({ url: 'https://example.com', events: ['Case.Exploded'] }, 'events[0]');
    await bad({ url: 'ftp://example.com/x', events: ['*'] }, 'url');
    await bad({ url: 'not a url', events: ['*'] }, 'url');
    // URLs the parser would repair or that no receiver can answer: refused, not stored as given
    for (const url of [
      'http:/127.0.0.1/x',
      'https:example.com/x',
      ' https://example.com/x',
      'https://example.com/x ',
      'https://example.com/a b',
      'https://example.com/a\tb',
      'https://example.com:0/x',
      // credentials would be stored and shown in every log, and no delivery sends them
      'https://user:secret@example.com/x',
      'https://user@example.com/x',
    ]) {
      await bad({ url, events: ['*'] }, 'url');
    }
    await bad({ url: 'https://example.com', events: ['*'], secret: 'short' }, 'secret');
    await bad({ url: 'https://example.com', events: ['*'], secret: 'whsec_!!!notbase64!!!' }, 'secret');
    await bad({ url: 'https://example.com', events: ['*'], status: 'paused' }, 'status');
    await bad({ url: 'https://example.com', events: ['*'], colour: 'blue' }, 'colour');
    // a hex signature in a header the delivery sets itself replaced it (webhook-id, content-type)
    for (const header of ['webhook-id', 'Content-Type', 'webhook-timestamp', 'host']) {
      await bad(
        { url: 'https://example.com', events: ['*'], signature: 'hmac_sha256_hex', signature_header: header },
        'signature_header',
      );
    }
    const hex = await hook(api, {
      url: 'https://example.com/hex',
      events: ['*'],
      signature: 'hmac_sha256_hex',
      signature_header: 'X-Signature',
    });
    const reserved = await api.patch(`/v1/webhooks/${hex.id}`, { signature_header: 'webhook-id' });
    assert.equal(reserved.status, 400, JSON.stringify(reserved.body));
    assert.equal(reserved.body.details[0].path, 'signature_header');
    assert.equal((await api.get(`/v1/webhooks/${hex.id}`)).body.signature_header, 'x-signature');
    const badId = await api.get('/v1/webhooks/not-a-uuid');
    assert.equal(badId.status, 400);
    assert.equal(badId.body.details[0].path, 'id');
    assert.equal(
      (await api.patch('/v1/webhooks/5b0c6f0e-8c2a-4a8e-9d57-3b3f5f0a8a11', { name: 'x' })).status,
      404,
    );
    // 1 to 100, as every list (the spec), though the reference stops at 50
    assert.equal((await api.get('/v1/webhook-logs?limit=100')).status, 200);
    assert.equal((await api.get('/v1/webhook-logs?limit=101')).status, 400);
    assert.equal((await api.get('/v1/webhook-logs?case_id=nope')).status, 400);
  });

  test('at most 50 webhooks per workspace', async () => {
    const api = await newWorkspace();
    for (let i = 0; i < 50; i++) await hook(api, { url: `https://example.com/${i}`, events: ['*'] });
    const res = await api.post('/v1/webhooks', { url: 'https://example.com/50', events: ['*'] });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /at most 50/);
    assert.equal((await api.get('/v1/webhooks?limit=100')).body.pagination.count, 50);
  });

  test("another workspace's webhook is not found", async () => {
    const a = await newWorkspace('a');
    const b = await newWorkspace('b');
    const w = await hook(a, { url: 'https://example.com/a', events: ['*'] });
    assert.equal((await b.get(`/v1/webhooks/${w.id}`)).status, 404);
    assert.equal((await b.patch(`/v1/webhooks/${w.id}`, { name: 'stolen' })).status, 404);
    assert.equal((await b.delete(`/v1/webhooks/${w.id}`)).status, 404);
    assert.equal((await b.post(`/v1/webhooks/${w.id}/rotate-secret`, {})).status, 404);
    assert.equal(
      (await b.post(`/v1/webhooks/${w.id}/replay`, { since: '2020-01-01T00:00:00Z' })).status,
      404,
    );
    assert.equal((await b.get('/v1/webhooks')).body.pagination.count, 0);
    assert.equal((await a.get(`/v1/webhooks/${w.id}`)).body.name, 'example.com');
  });
});

describe('webhook delivery', () => {
  test('case events reach a Check.* + Case.* subscriber, signed per Standard Webhooks', async () => {
    const api = await newWorkspace();
    const path = uniquePath();
    const w = await hook(api, { url: receiver.url(path), events: ['Check.*', 'Case.*'] });
    const caseId = await createCase(api);
    assert.equal((await api.patch(`/v1/cases/${caseId}`, { status: 'open' })).status, 200);
    const review = await api.post(`/v1/cases/${caseId}/reviews`, { status: 'approved', comment: 'fine' });
    assert.equal(review.status, 201, JSON.stringify(review.body));

    const events = await eventsOf(api.workspaceId);
    const expected = events.filter((e) => e.type.startsWith('Case.'));
    assert.deepEqual(
      expected.map((e) => [e.type, e.sub_event]),
      [
        ['Case.Created', null],
        ['Case.Updated', 'Case.StatusUpdated'],
        ['Case.Updated', 'Case.StatusUpdated'],
        ['Case.ReviewConfirmed', null],
      ],
    );
    await receiver.waitFor(() => receiver.deliveries(path).length >= expected.length);
    const got = receiver
      .deliveries(path)
      .sort(
        (x, y) =>
          expected.findIndex((e) => e.id === x.json.context.event_id) -
          expected.findIndex((e) => e.id === y.json.context.event_id),
      );
    assert.deepEqual(
      got.map((r) => r.json.context.event_id),
      expected.map((e) => e.id),
    );
    for (const r of got) {
      assert.equal(r.headers['content-type'], 'application/json');
      assert.match(String(r.headers['webhook-id']), /^msg_[0-9a-f-]{36}$/);
      assert.match(String(r.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);
      const verified = verify(r, w.secret) as Record<string, unknown>;
      assert.deepEqual(verified, r.json);
      assert.throws(() => verify(r, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'));
      const ctxObj = r.json.context;
      assert.equal(typeof ctxObj.timestamp, 'number');
      assert.equal(String(ctxObj.timestamp), r.headers['webhook-timestamp']);
      assert.equal(ctxObj.retry_count, 0);
      assert.equal(ctxObj.remaining_retry_count, 8);
      assert.equal(ctxObj.workspace.id, api.workspaceId);
      assert.equal(typeof ctxObj.workspace.name, 'string');
      assert.equal(ctxObj.case.id, caseId);
      assert.equal(ctxObj.case.client_portal, null);
      assert.equal(r.json.case.id, caseId);
    }
    assert.equal(got[0].json.event, 'Case.Created');
    assert.equal('sub_event' in got[0].json, false);
    assert.deepEqual([got[1].json.event, got[1].json.sub_event], ['Case.Updated', 'Case.StatusUpdated']);
    assert.equal(got[1].json.case.status, 'open');
    assert.equal(got[3].json.event, 'Case.ReviewConfirmed');
    assert.equal(got[3].json.case_review.status, 'approved');
    // the context holds the case as it is at dispatch; the entity is the event's own snapshot
    assert.equal(got[3].json.context.case.status, 'approved');

    const logs = await eventually(async () => {
      const res = await api.get('/v1/webhook-logs');
      return res.body.data?.every((l: { status: string }) => l.status === 'delivered') ? res : undefined;
    });
    assert.equal(logs.status, 200);
    assert.equal(logs.body.pagination.count, 4);
    const log = logs.body.data.find((l: { event: string }) => l.event === 'Case.Created');
    assert.equal(log.status, 'delivered');
    assert.equal(log.status_code, 200);
    assert.equal(log.endpoint, receiver.url(path));
    assert.equal(log.case_id, caseId);
    assert.equal(log.webhook_id, w.id);
    assert.equal(log.retry_count, 0);
    assert.equal(log.next_retry_at, null);
    assert.equal(log.payload.context.event_id, expected[0].id);
    assert.equal(log.attempts.length, 1);
    assert.equal(log.attempts[0].type, 'first_call');
    assert.equal(log.attempts[0].status_code, 200);
    assert.equal(log.attempts[0].response_body, 'ok');
    assert.equal(log.attempts[0].request_headers['webhook-id'], `msg_${log.id}`);
    assert.equal(log.attempts[0].response_headers['content-type'], 'text/plain');
    const filtered = await api.get(`/v1/webhook-logs?event=Case.StatusUpdated&case_id=${caseId}`);
    assert.equal(filtered.body.pagination.count, 2);
    // one event's deliveries, one case's in event order, and the other cases'
    const byEvent = await api.get(`/v1/webhook-logs?event_id=${expected[0].id}`);
    assert.deepEqual(
      byEvent.body.data.map((l: { id: string }) => l.id),
      [log.id],
    );
    const byCase = (await api.get(`/v1/webhook-logs?case_id=${caseId}&sort=created_at`)).body.data.map(
      (l: { event: string }) => l.event,
    );
    assert.equal(byCase.length, 4);
    // the review's events share their transaction's time: only the first is placed for sure
    assert.equal(byCase[0], 'Case.Created');
    assert.ok(byCase.includes('Case.ReviewConfirmed'), byCase.join());
    assert.equal((await api.get(`/v1/webhook-logs?case_id.not_eq=${caseId}`)).body.pagination.count, 0);
    assert.equal((await api.get(`/v1/webhook-logs?case_id=${w.id}`)).body.pagination.count, 0);
    assert.equal(
      (await api.get('/v1/webhook-logs?event.in=Case.Created,Case.ReviewConfirmed')).body.pagination.count,
      2,
    );
    // a log holds an event name: an unknown one, or a subscription pattern, is refused naming the filter
    for (const q of ['event=Bogus.Event', 'event=Case.*', 'event.in=Case.Created,Nope']) {
      const bad = await api.get(`/v1/webhook-logs?${q}`);
      assert.equal(bad.status, 400, `${q}: ${JSON.stringify(bad.body)}`);
      assert.equal(bad.body.details[0].path, q.split('=')[0]);
    }
    // an event stands for its sub-events too, as in a subscription (a reference client asks for
    // Case.Updated): the two Case.StatusUpdated logs
    const count = async (q: string) => (await api.get(`/v1/webhook-logs?${q}`)).body.pagination.count;
    assert.equal(await count('event=Case.Updated'), 2);
    assert.equal(await count('event.not_eq=Case.Updated'), 2);
    assert.equal(await count('event.in=Case.Created,Case.Updated'), 3);
    assert.equal(await count('event.not_in=Case.Created,Case.Updated'), 1);
  });

  test('a check taken from creation to approval: Check.Started then Check.Approved, with the full check', async () => {
    const api = await newWorkspace();
    const path = uniquePath();
    const w = await hook(api, { url: receiver.url(path), events: ['Check.*', 'Case.*'] });
    const created = await api.post('/v1/cases', {
      name: 'eKYC',
      companies: [{ name: 'Main', country: 'FR' }],
      individuals: [
        {
          first_name: 'Marie',
          last_name: 'Curie',
          birth_date: '1967-11-07',
          address: { country: 'FR', city: 'Paris' },
          relations: [{ roles: ['legal_representative'] }],
        },
      ],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const individualId = created.body.individuals[0].id;
    const check = await api.post('/v1/checks/ekyc', { individual_id: individualId });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    assert.equal(check.body.status, 'approved');
    await receiver.waitFor(
      () => receiver.deliveries(path).filter((r) => r.json.event.startsWith('Check.')).length >= 2,
    );
    const checks = receiver.deliveries(path).filter((r) => r.json.event.startsWith('Check.'));
    const events = await eventsOf(api.workspaceId);
    const order = (r: Received) => events.findIndex((e) => e.id === r.json.context.event_id);
    checks.sort((x, y) => order(x) - order(y));
    assert.deepEqual(
      checks.map((r) => r.json.event),
      ['Check.Started', 'Check.Approved'],
    );
    for (const r of checks) {
      verify(r, w.secret);
      assert.equal(r.json.check.id, check.body.id);
      assert.ok(r.json.check.data, 'the check carries its data');
      assert.deepEqual(r.json.context.individual, {
        id: individualId,
        first_name: 'Marie',
        last_name: 'Curie',
      });
      assert.equal(r.json.context.company, null);
      assert.equal(r.json.context.case.id, created.body.id);
    }
    assert.equal(checks[1].json.check.status, 'approved');
    assert.deepEqual(checks[1].json.check.data, check.body.data);
  });

  test('sub-event subscriptions: Case.Updated gets every sub-event, Case.StatusUpdated only its own', async () => {
    const api = await newWorkspace();
    const family = uniquePath();
    const only = uniquePath();
    await hook(api, { url: receiver.url(family), events: ['Case.Updated'] });
    await hook(api, { url: receiver.url(only), events: ['Case.StatusUpdated'] });
    const caseId = await createCase(api);
    await api.patch(`/v1/cases/${caseId}`, { tags: ['vip'] });
    await api.patch(`/v1/cases/${caseId}`, { status: 'open' });
    await receiver.waitFor(
      () => receiver.deliveries(family).length >= 2 && receiver.deliveries(only).length >= 1,
    );
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(
      receiver
        .deliveries(family)
        .map((r) => r.json.sub_event)
        .sort(),
      ['Case.StatusUpdated', 'Case.TagsUpdated'],
    );
    assert.deepEqual(
      receiver.deliveries(only).map((r) => [r.json.event, r.json.sub_event]),
      [['Case.Updated', 'Case.StatusUpdated']],
    );
  });

  test('events [] is a dormant subscription: created, receives nothing, a PATCH wakes it', async () => {
    const api = await newWorkspace();
    const dormantPath = uniquePath();
    const allPath = uniquePath();
    const dormant = await hook(api, { url: receiver.url(dormantPath), events: [] });
    assert.deepEqual(dormant.events, []);
    assert.deepEqual((await api.get(`/v1/webhooks/${dormant.id}`)).body.events, []);
    await hook(api, { url: receiver.url(allPath), events: ['*'] });
    await createCase(api);
    // one dispatch makes every webhook's deliveries of an event: once `*` has its, [] had its chance
    await receiver.waitFor(() => receiver.deliveries(allPath).length >= 1);
    const logs = await api.get(`/v1/webhook-logs?webhook_id=${dormant.id}`);
    assert.equal(logs.body.pagination.count, 0, JSON.stringify(logs.body));
    const replay = await api.post(`/v1/webhooks/${dormant.id}/replay`, { since: '2000-01-01T00:00:00Z' });
    assert.equal(replay.body.deliveries, 0, JSON.stringify(replay.body));
    const woken = await api.patch(`/v1/webhooks/${dormant.id}`, { events: ['Case.*'] });
    assert.equal(woken.status, 200, JSON.stringify(woken.body));
    await createCase(api, 'Second');
    await receiver.waitFor(() => receiver.deliveries(dormantPath).length >= 1);
    assert.equal(receiver.deliveries(dormantPath)[0].json.event, 'Case.Created');
    assert.equal(receiver.deliveries(dormantPath)[0].json.case.name, 'Second');
    const back = await api.patch(`/v1/webhooks/${dormant.id}`, { events: [] });
    assert.deepEqual(back.body.events, []);
  });

  test("workspace A's events never reach workspace B's webhooks", async () => {
    const a = await newWorkspace('a');
    const b = await newWorkspace('b');
    const pathA = uniquePath();
    const pathB = uniquePath();
    await hook(a, { url: receiver.url(pathA), events: ['*'] });
    await hook(b, { url: receiver.url(pathB), events: ['*'] });
    const caseA = await createCase(a);
    await a.patch(`/v1/cases/${caseA}`, { status: 'open' });
    await receiver.waitFor(() => receiver.deliveries(pathA).length >= 2);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(receiver.deliveries(pathB).length, 0);
    for (const r of receiver.deliveries(pathA)) assert.equal(r.json.context.workspace.id, a.workspaceId);
    assert.equal((await b.get('/v1/webhook-logs')).body.pagination.count, 0);
    // and B's own events go to B only
    await createCase(b);
    await receiver.waitFor(() => receiver.deliveries(pathB).length >= 1);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(receiver.deliveries(pathA).length, 2);
    assert.equal(receiver.deliveries(pathB)[0].json.context.workspace.id, b.workspaceId);
    // a replay of B's webhook cannot pull A's events either
    const bHook = (await b.get('/v1/webhooks')).body.data[0];
    const replay = await b.post(`/v1/webhooks/${bHook.id}/replay`, { since: '2000-01-01T00:00:00Z' });
    assert.equal(replay.body.deliveries, 1);
  });

  test('the outbox: written with the events in their transaction, emptied by the dispatcher', async () => {
    const { ctx } = await getHarness();
    const api = await newWorkspace('outbox');
    const outboxOf = async (db: typeof ctx.db) =>
      (
        await sql<{ type: string }>`
          select e.type from event_outbox o join events e on e.seq = o.seq
          where o.workspace_id = ${api.workspaceId} order by o.seq`.execute(db)
      ).rows.map((r) => r.type);
    // inside the transaction that records them the rows are there; a rollback takes both away
    const rolledBack = new Error('rolled back on purpose');
    await assert.rejects(
      ctx.db.transaction().execute(async (trx) => {
        await recordEvents(trx, api.workspaceId, [
          { type: 'Case.Created', payload: { case: { id: 'x' } } },
          { type: 'Case.Updated', payload: { case: { id: 'x' } } },
        ]);
        assert.deepEqual(await outboxOf(trx), ['Case.Created', 'Case.Updated']);
        throw rolledBack;
      }),
      rolledBack,
    );
    assert.deepEqual(await eventsOf(api.workspaceId), []);
    assert.deepEqual(await outboxOf(ctx.db), []);
    // committed, with no webhook in the workspace: the dispatcher still takes them off the outbox,
    // and the events stay as they were written
    const caseId = await createCase(api);
    await eventually(async () => (await outboxOf(ctx.db)).length === 0);
    const events = await eventsOf(api.workspaceId);
    assert.deepEqual(
      events.map((e) => e.type),
      ['Case.Created'],
    );
    const stored = await ctx.db
      .selectFrom('events')
      .select(['case_id'])
      .where('id', '=', events[0].id)
      .executeTakeFirstOrThrow();
    assert.equal(stored.case_id, caseId);
    // the embedded database's own maintenance of the outbox runs outside any transaction
    await vacuumOutbox(ctx.db);
  });

  test('the dispatcher vacuums the outbox once it has dispatched `outboxVacuumEvents` events', async () => {
    const { ctx } = await getHarness();
    const vacuums = async () =>
      Number(
        (
          await sql<{ n: string }>`
            select coalesce(sum(vacuum_count), 0)::text as n from pg_stat_user_tables where relname = 'event_outbox'
          `.execute(ctx.db)
        ).rows[0].n,
      );
    const outboxLeft = async () =>
      Number(
        (await sql<{ n: string }>`select count(*)::text as n from event_outbox`.execute(ctx.db)).rows[0].n,
      );
    Object.assign(webhookTuning, { outboxVacuumEvents: 3 });
    try {
      const api = await newWorkspace();
      await eventually(async () => (await outboxLeft()) === 0);
      const before = await vacuums();
      // three cases, one Case.Created each: the third reaches the threshold (or the minute passed)
      await createCase(api);
      await createCase(api);
      await createCase(api);
      await eventually(async () => (await outboxLeft()) === 0 && (await vacuums()) > before);
    } finally {
      Object.assign(webhookTuning, defaults);
    }
  });

  test('receiver down, 100 changes, receiver back: every event arrives, retries in the logs', async () => {
    // short backoff, but a retry window longer than the outage below: 100 ms, 600 ms, then 4 s apart,
    // at least 19 s in all with the jitter (at 1.5 s apart, ~8 s: on a loaded machine the 99 changes
    // took longer, and the first events ran out of retries before the receiver came back)
    Object.assign(webhookTuning, { retryBaseMs: 100, retryMaxMs: 4000 });
    try {
      const down = new Receiver();
      await down.start(0);
      const port = down.port;
      await down.stop();
      const api = await newWorkspace();
      const w = await hook(api, { url: `http://127.0.0.1:${port}/hook`, events: ['Case.*'] });
      const caseId = await createCase(api);
      for (let i = 0; i < 99; i++) {
        const res = await api.patch(`/v1/cases/${caseId}`, { name: `Name ${i}` });
        assert.equal(res.status, 200);
      }
      const events = await eventsOf(api.workspaceId);
      assert.equal(events.length, 100);
      // failures are being logged while the receiver is down
      await eventually(async () => {
        const logs = await api.get('/v1/webhook-logs?status=pending&limit=50');
        return logs.body.pagination.count > 0 && logs.body.data[0].attempts.length >= 1;
      });
      await down.start(port);
      await down.waitFor(
        () => new Set(down.deliveries().map((r) => r.json.context.event_id)).size === 100,
        30_000,
      );
      const ids = new Set(down.deliveries().map((r) => r.json.context.event_id));
      assert.deepEqual([...ids].sort(), events.map((e) => e.id).sort());
      for (const r of down.deliveries()) verify(r, w.secret);
      // duplicates (if any) carry the same event id and webhook-id
      const byEvent = new Map<string, string>();
      for (const r of down.deliveries()) {
        const prev = byEvent.get(r.json.context.event_id);
        if (prev) assert.equal(prev, r.headers['webhook-id']);
        byEvent.set(r.json.context.event_id, String(r.headers['webhook-id']));
      }
      const retried = down.deliveries().filter((r) => r.json.context.retry_count > 0);
      assert.ok(retried.length > 0, 'deliveries after the outage are retries');
      await eventually(async () => {
        const res = await api.get('/v1/webhook-logs?status=delivered&limit=50');
        return res.body.pagination.count === 100;
      }, 15_000);
      const logs = await api.get('/v1/webhook-logs?limit=50');
      const withRetries = logs.body.data.filter((l: { retry_count: number }) => l.retry_count > 0);
      assert.ok(withRetries.length > 0);
      const l = withRetries[0];
      assert.equal(l.attempts.length, l.retry_count + 1);
      assert.equal(l.attempts.at(-1).type, 'first_call');
      assert.equal(l.attempts.at(-1).status_code, 0);
      assert.match(l.attempts.at(-1).error, /ECONNREFUSED/);
      assert.equal(l.attempts[0].type, 'automatic_retry');
      assert.equal(l.attempts[0].status_code, 200);
      assert.equal(l.payload.context.retry_count, l.retry_count);
      assert.equal((await api.get(`/v1/webhooks/${w.id}`)).body.status, 'online');
      await down.stop();
    } finally {
      Object.assign(webhookTuning, defaults);
    }
  });

  test('a webhook failing continuously goes offline, keeps its deliveries, and resumes when set online', async () => {
    Object.assign(webhookTuning, { retryBaseMs: 60_000, offlineAfterFailures: 3, offlineMinStreakMs: 0 });
    const r = await startReceiver();
    try {
      r.mode = { kind: 'fail', status: 503 };
      const api = await newWorkspace();
      const w = await hook(api, { url: r.url(), events: ['Case.*'] });
      const caseId = await createCase(api);
      await api.patch(`/v1/cases/${caseId}`, { name: 'one' });
      await api.patch(`/v1/cases/${caseId}`, { name: 'two' });
      await eventually(async () => (await api.get(`/v1/webhooks/${w.id}`)).body.status === 'offline');
      assert.equal(r.requests.length, 3);
      // while offline: nothing is sent, new events are kept
      await api.patch(`/v1/cases/${caseId}`, { name: 'three' });
      await eventually(
        async () => (await api.get('/v1/webhook-logs?status=pending_offline')).body.pagination.count === 4,
      );
      assert.equal(r.requests.length, 3);
      const retry = await api.post(
        `/v1/webhook-logs/${(await api.get('/v1/webhook-logs')).body.data[0].id}/retry`,
      );
      assert.equal(retry.status, 409);
      r.mode = { kind: 'ok' };
      const online = await api.patch(`/v1/webhooks/${w.id}`, { status: 'online' });
      assert.equal(online.body.status, 'online');
      await r.waitFor(
        () =>
          new Set(
            r
              .deliveries()
              .filter((x) => x.headers['webhook-id'])
              .map((x) => x.json.context.event_id),
          ).size === 4 && r.requests.length >= 7,
      );
      await eventually(
        async () => (await api.get('/v1/webhook-logs?status=delivered')).body.pagination.count === 4,
      );
    } finally {
      Object.assign(webhookTuning, defaults);
      await r.stop();
    }
  });

  test('secret rotation: both signatures during the grace period', async () => {
    const api = await newWorkspace();
    const path = uniquePath();
    const w = await hook(api, { url: receiver.url(path), events: ['Case.Created'] });
    const rotated = await api.post(`/v1/webhooks/${w.id}/rotate-secret`, { grace_period_seconds: 3600 });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    assert.notEqual(rotated.body.secret, w.secret);
    assert.match(rotated.body.secret, /^whsec_/);
    const until = Date.parse(rotated.body.previous_secret_expires_at);
    assert.ok(Math.abs(until - (Date.now() + 3600_000)) < 60_000);
    await createCase(api);
    const [r] = await receiver
      .waitFor(() => receiver.deliveries(path).length >= 1)
      .then(() => receiver.deliveries(path));
    const sigs = String(r.headers['webhook-signature']).split(' ');
    assert.equal(sigs.length, 2);
    verify(r, rotated.body.secret);
    verify(r, w.secret);
    // without a grace period only the new secret signs
    const again = await api.post(`/v1/webhooks/${w.id}/rotate-secret`, { grace_period_seconds: 0 });
    assert.equal(again.body.previous_secret_expires_at, null);
    await createCase(api);
    await receiver.waitFor(() => receiver.deliveries(path).length >= 2);
    const second = receiver.deliveries(path)[1];
    assert.equal(String(second.headers['webhook-signature']).split(' ').length, 1);
    verify(second, again.body.secret);
    assert.throws(() => verify(second, rotated.body.secret));
  });

  test('replay re-sends events since a date as new deliveries with the same event ids', async () => {
    const api = await newWorkspace();
    const path = uniquePath();
    const w = await hook(api, { url: receiver.url(path), events: ['Case.Created', 'Case.StatusUpdated'] });
    const caseId = await createCase(api);
    await api.patch(`/v1/cases/${caseId}`, { status: 'open' });
    await api.patch(`/v1/cases/${caseId}`, { tags: ['not-subscribed'] });
    await receiver.waitFor(() => receiver.deliveries(path).length >= 2);
    const first = receiver.deliveries(path).slice();
    const res = await api.post(`/v1/webhooks/${w.id}/replay`, {
      since: new Date(Date.now() - 60_000).toISOString(),
    });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.deepEqual(res.body, { webhook_id: w.id, deliveries: 2, has_more: false, next_since: null });
    await receiver.waitFor(() => receiver.deliveries(path).length >= 4);
    const replayed = receiver.deliveries(path).slice(2);
    assert.deepEqual(
      replayed.map((r) => r.json.context.event_id).sort(),
      first.map((r) => r.json.context.event_id).sort(),
    );
    for (const r of replayed) {
      assert.ok(!first.some((f) => f.headers['webhook-id'] === r.headers['webhook-id']));
      verify(r, w.secret);
    }
    const none = await api.post(`/v1/webhooks/${w.id}/replay`, {
      since: new Date(Date.now() + 60_000).toISOString(),
    });
    assert.equal(none.body.deliveries, 0);
    // a day, as the list filters take it: from its start (UTC); tomorrow has nothing yet
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const byDay = await api.post(`/v1/webhooks/${w.id}/replay`, { since: tomorrow });
    assert.equal(byDay.status, 202, JSON.stringify(byDay.body));
    assert.equal(byDay.body.deliveries, 0);
    const untilDay = await api.post(`/v1/webhooks/${w.id}/replay`, { since: '2020-01-01', until: tomorrow });
    assert.equal(untilDay.status, 202, JSON.stringify(untilDay.body));
    assert.equal(untilDay.body.deliveries, 2);
    assert.equal((await api.post(`/v1/webhooks/${w.id}/replay`, { since: '2026-13-01' })).status, 400);
    assert.equal((await api.post(`/v1/webhooks/${w.id}/replay`, {})).status, 400);
    const reversed = await api.post(`/v1/webhooks/${w.id}/replay`, {
      since: '2026-01-02T00:00:00Z',
      until: '2026-01-01T00:00:00Z',
    });
    assert.equal(reversed.status, 400, JSON.stringify(reversed.body));
    assert.equal(reversed.body.details[0].path, 'until');
  });

  test('replay: the limit counts the events sent, and says where to continue', async () => {
    // with the limit at 3: events the webhook does not subscribe to come first and must not use it up
    Object.assign(webhookTuning, { replayMax: 3 });
    try {
      const api = await newWorkspace();
      const path = uniquePath();
      const w = await hook(api, { url: receiver.url(path), events: ['Case.StatusUpdated'] });
      const since = new Date(Date.now() - 60_000).toISOString();
      const cases = [];
      for (let i = 0; i < 4; i++) cases.push(await createCase(api, `Replay ${i}`));
      for (const id of cases) await api.patch(`/v1/cases/${id}`, { status: 'open' });
      await receiver.waitFor(() => receiver.deliveries(path).length >= 4);
      const live = receiver.deliveries(path).map((r) => r.json.context.event_id);
      const first = await api.post(`/v1/webhooks/${w.id}/replay`, { since });
      assert.equal(first.status, 202, JSON.stringify(first.body));
      assert.equal(first.body.deliveries, 3);
      assert.equal(first.body.has_more, true);
      const rest = await api.post(`/v1/webhooks/${w.id}/replay`, { since: first.body.next_since });
      assert.equal(rest.status, 202, JSON.stringify(rest.body));
      assert.equal(rest.body.has_more, false);
      assert.equal(rest.body.next_since, null);
      assert.ok(rest.body.deliveries >= 1);
      await receiver.waitFor(
        () => receiver.deliveries(path).length >= 4 + first.body.deliveries + rest.body.deliveries,
      );
      const replayed = new Set(
        receiver
          .deliveries(path)
          .slice(4)
          .map((r) => r.json.context.event_id),
      );
      assert.deepEqual([...replayed].sort(), [...live].sort(), 'every status change replayed');
    } finally {
      Object.assign(webhookTuning, defaults);
    }
  });

  test('manual retry re-sends the same delivery now', async () => {
    Object.assign(webhookTuning, { retryBaseMs: 600_000 });
    const r = await startReceiver();
    try {
      r.mode = { kind: 'fail', status: 500, body: 'x'.repeat(10_000) };
      const api = await newWorkspace();
      const w = await hook(api, { url: r.url(), events: ['Case.Created'] });
      await createCase(api);
      const failed = await eventually(async () => {
        const logs = await api.get('/v1/webhook-logs');
        // the delivery and its attempts are read by two queries: wait until both show the outcome
        const l = logs.body.data[0];
        return l?.attempts.length === 1 && l.status === 'pending' ? l : undefined;
      });
      assert.equal(failed.status, 'pending');
      assert.equal(failed.status_code, 500);
      assert.equal(failed.attempts[0].response_body.length, 4096);
      assert.ok(Date.parse(failed.next_retry_at) > Date.now() + 60_000);
      // a manual retry that fails too: a retry (retry_count 1), but none of the 8 automatic ones
      const retry = await api.post(`/v1/webhook-logs/${failed.id}/retry`);
      assert.equal(retry.status, 202, JSON.stringify(retry.body));
      assert.equal(retry.body.id, failed.id);
      await r.waitFor(() => r.requests.length >= 2);
      assert.equal(r.requests[1].json.context.retry_count, 1);
      assert.equal(r.requests[1].json.context.remaining_retry_count, 8);
      const stillPending = await eventually(async () => {
        const l = (await api.get('/v1/webhook-logs')).body.data[0];
        return l?.attempts.length === 2 && l.status === 'pending' ? l : undefined;
      });
      assert.equal(stillPending.retry_count, 1);
      assert.equal(stillPending.payload.context.remaining_retry_count, 8);
      assert.ok(Date.parse(stillPending.next_retry_at) > Date.now() + 60_000, 'the automatic schedule holds');
      r.mode = { kind: 'ok' };
      assert.equal((await api.post(`/v1/webhook-logs/${failed.id}/retry`)).status, 202);
      await r.waitFor(() => r.requests.length >= 3);
      assert.equal(r.requests[2].headers['webhook-id'], r.requests[0].headers['webhook-id']);
      assert.equal(r.requests[2].json.context.event_id, r.requests[0].json.context.event_id);
      assert.equal(r.requests[2].json.context.retry_count, 2);
      assert.equal(r.requests[2].json.context.remaining_retry_count, 8);
      verify(r.requests[2], w.secret);
      const done = await eventually(async () => {
        const l = (await api.get('/v1/webhook-logs')).body.data[0];
        return l.status === 'delivered' ? l : undefined;
      });
      assert.deepEqual(
        done.attempts.map((a: { type: string; status_code: number }) => [a.type, a.status_code]),
        [
          ['manual_retry', 200],
          ['manual_retry', 500],
          ['first_call', 500],
        ],
      );
      const other = await newWorkspace();
      assert.equal((await other.post(`/v1/webhook-logs/${failed.id}/retry`)).status, 404);
    } finally {
      Object.assign(webhookTuning, defaults);
      await r.stop();
    }
  });

  test('an answer whose body holds NUL bytes (binary, compressed) is recorded like any other', async () => {
    const r = await startReceiver();
    try {
      // PostgreSQL text refuses U+0000: the outcome failed to record and the delivery stayed `sending`
      r.mode = { kind: 'ok', body: 'ok\u0000\u001f\u008b' };
      const api = await newWorkspace();
      await hook(api, { url: r.url(), events: ['Case.Created'] });
      await createCase(api);
      const log = await eventually(async () => {
        const l = (await api.get('/v1/webhook-logs')).body.data[0];
        return l?.status === 'delivered' && l.attempts.length === 1 ? l : undefined;
      });
      assert.equal(log.status_code, 200);
      assert.equal(log.attempts[0].response_body, 'ok\uFFFD\u001f\u008b');
      assert.equal(r.requests.length, 1);
    } finally {
      await r.stop();
    }
  });
});

describe('outbound safety', () => {
  test('private, loopback and link-local addresses are recognised (IPv4 and IPv6)', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      // IPv4-compatible (as the URL parser writes http://[::127.0.0.1]/) and SIIT-translated forms
      '::7f00:1',
      '::127.0.0.1',
      '::a00:1',
      '::808:808',
      '::ffff:0:7f00:1',
      '::ffff:0:127.0.0.1',
    ])
      assert.equal(isPrivateAddress(ip), true, ip);
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      assert.equal(isPrivateAddress(ip), false, ip);
    // reserved names by name; names that merely contain one are public
    for (const host of [
      'localhost',
      'a.b.localhost',
      'LocalHost.',
      'metadata.google.internal',
      'x.local',
      'nas.home.arpa',
    ])
      assert.equal(isPrivateHostName(host), true, host);
    for (const host of [
      'mylocalhost.com',
      'internal.example.com',
      'local.example',
      'localhost.example.org',
      'home.arpa.example',
    ])
      assert.equal(isPrivateHostName(host), false, host);
  });

  test('private URLs are refused at creation and at delivery unless allowed', async () => {
    const { ctx } = await getHarness();
    const api = await newWorkspace();
    const r = await startReceiver();
    // created while allowed (the test config): by IP literal and by a name resolving to loopback
    await hook(api, { url: r.url(), events: ['Case.Created'] });
    const w = await hook(api, { url: `http://localhost:${r.port}/by-name`, events: ['Case.Created'] });
    ctx.config.webhookAllowPrivate = false;
    try {
      for (const url of [
        'http://127.0.0.1/x',
        'http://localhost:8080/x',
        'http://[::1]/x',
        'http://169.254.169.254/latest',
        'http://10.0.0.5/',
        'http://[::ffff:127.0.0.1]/',
        'http://[::127.0.0.1]/',
        'http://[::ffff:0:127.0.0.1]/',
        // reserved names, refused by name whether or not this machine resolves them
        'http://receiver.localhost/x',
        'http://LOCALHOST./x',
        'http://metadata.google.internal/computeMetadata/v1/',
        'http://printer.local/',
        'http://nas.home.arpa/',
      ]) {
        const res = await api.post('/v1/webhooks', { url, events: ['*'] });
        assert.equal(res.status, 400, url);
        assert.equal(res.body.details[0].path, 'url');
        // it says how a local receiver is allowed
        assert.match(res.body.message, /non-public address .*VERICASE_WEBHOOK_ALLOW_PRIVATE=true/, url);
      }
      assert.equal((await api.patch(`/v1/webhooks/${w.id}`, { url: 'http://localhost/x' })).status, 400);
      await createCase(api);
      const attempts = await eventually(async () => {
        const logs = (await api.get('/v1/webhook-logs')).body.data;
        return logs.length === 2 && logs.every((l: { attempts: unknown[] }) => l.attempts.length === 1)
          ? logs.map((l: { attempts: { status_code: number; error: string }[] }) => l.attempts[0])
          : undefined;
      });
      for (const a of attempts) {
        assert.equal(a.status_code, 0);
        assert.match(a.error, /non-public address/);
      }
      assert.ok(
        attempts.some((a: { error: string }) => /localhost is a local or private network name/.test(a.error)),
      );
      assert.equal(r.requests.length, 0);
    } finally {
      ctx.config.webhookAllowPrivate = true;
      await r.stop();
    }
  });

  test('redirects are not followed; a slow receiver neither blocks nor delays others', async () => {
    Object.assign(webhookTuning, { retryBaseMs: 600_000, timeoutMs: 1500 });
    const target = await startReceiver();
    const redirector = await startReceiver();
    const slow = await startReceiver();
    redirector.mode = { kind: 'redirect', location: target.url() };
    slow.mode = { kind: 'hang' };
    try {
      const api = await newWorkspace();
      await hook(api, { url: redirector.url(), events: ['Case.Created'] });
      await hook(api, { url: slow.url(), events: ['Case.Created'] });
      const fastPath = uniquePath();
      await hook(api, { url: receiver.url(fastPath), events: ['Case.Created'] });
      const t0 = Date.now();
      await createCase(api);
      await receiver.waitFor(() => receiver.deliveries(fastPath).length === 1);
      assert.ok(Date.now() - t0 < 1000, 'the fast receiver is served while the slow one hangs');
      await eventually(async () => {
        const logs = (await api.get('/v1/webhook-logs')).body.data;
        return logs.length === 3 && logs.every((l: { attempts: unknown[] }) => l.attempts.length === 1);
      });
      const logs = (await api.get('/v1/webhook-logs')).body.data;
      const byUrl = (u: string) => logs.find((l: { endpoint: string }) => l.endpoint === u);
      const redirected = byUrl(redirector.url());
      assert.equal(redirected.status, 'pending');
      assert.equal(redirected.attempts[0].status_code, 307);
      assert.equal(redirected.attempts[0].response_headers.location, target.url());
      assert.equal(target.requests.length, 0);
      const hung = byUrl(slow.url());
      assert.equal(hung.attempts[0].status_code, 0);
      assert.match(hung.attempts[0].error, /timed out after 1500 ms/);
      assert.ok(hung.attempts[0].duration_ms >= 1400);
      assert.equal(byUrl(receiver.url(fastPath)).status, 'delivered');
    } finally {
      Object.assign(webhookTuning, defaults);
      await Promise.all([target.stop(), redirector.stop(), slow.stop()]);
    }
  });
});

describe('Case.ReviewDue', () => {
  test('emitted once per next_review_at value once the day has come', async () => {
    const { ctx } = await getHarness();
    const api = await newWorkspace();
    const path = uniquePath();
    await hook(api, { url: receiver.url(path), events: ['Case.ReviewDue'] });
    const due = await createCase(api, 'due');
    const later = await createCase(api, 'later');
    await ctx.db.updateTable('cases').set({ next_review_at: '2020-01-01' }).where('id', '=', due).execute();
    await ctx.db.updateTable('cases').set({ next_review_at: '2999-01-01' }).where('id', '=', later).execute();
    await emitDueReviews(ctx.db, { workspaceId: api.workspaceId });
    await emitDueReviews(ctx.db, { workspaceId: api.workspaceId });
    const emitted = (await eventsOf(api.workspaceId)).filter((e) => e.type === 'Case.ReviewDue');
    assert.equal(emitted.length, 1);
    await receiver.waitFor(() => receiver.deliveries(path).length === 1);
    const r = receiver.deliveries(path)[0];
    assert.equal(r.json.event, 'Case.ReviewDue');
    assert.equal(r.json.case.id, due);
    assert.equal(r.json.case.next_review_at, '2020-01-01');
    // a new date: due again when it comes
    await ctx.db.updateTable('cases').set({ next_review_at: '2021-06-01' }).where('id', '=', due).execute();
    await emitDueReviews(ctx.db, { workspaceId: api.workspaceId });
    assert.equal((await eventsOf(api.workspaceId)).filter((e) => e.type === 'Case.ReviewDue').length, 2);
    await emitDueReviews(ctx.db, { today: '2999-01-01', workspaceId: api.workspaceId });
    assert.equal((await eventsOf(api.workspaceId)).filter((e) => e.type === 'Case.ReviewDue').length, 3);
  });
});
