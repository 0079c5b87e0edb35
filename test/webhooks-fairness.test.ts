import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'kysely';
import { webhookTuning } from '../src/webhooks/tuning.ts';
import { type Client, eventually, getHarness, newWorkspace } from './helpers/harness.ts';
import { type Receiver, startReceiver } from './helpers/receiver.ts';

/**
 * Fairness of webhook delivery between workspaces and between one workspace's webhooks: a
 * workspace whose endpoints hang, with a backlog of thousands of due deliveries older than anyone
 * else's, must not hold back another workspace's fresh events, nor its own healthy webhook.
 */
const defaults = { ...webhookTuning };
const receivers: Receiver[] = [];
after(async () => {
  Object.assign(webhookTuning, defaults);
  for (const r of receivers) await r.stop();
});

async function receiver(mode: Receiver['mode']): Promise<Receiver> {
  const r = await startReceiver();
  r.mode = mode;
  receivers.push(r);
  return r;
}

async function hook(api: Client, url: string, events: string[]): Promise<string> {
  const res = await api.post('/v1/webhooks', { url, events });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}

async function createCase(api: Client, name: string): Promise<string> {
  const res = await api.post('/v1/cases', { name, status: 'draft' });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}

/** `count` due deliveries spread over `webhookIds`, due a minute ago (older than any new event). */
async function insertBacklog(workspaceId: string, webhookIds: string[], count: number): Promise<void> {
  const { ctx } = await getHarness();
  const payload = JSON.stringify({ event: 'Case.Updated', context: { workspace: { id: workspaceId } } });
  await sql`
    insert into webhook_deliveries
      (id, workspace_id, webhook_id, event_id, event, payload, status, next_attempt_at, event_created_at)
    select gen_random_uuid(), ${workspaceId}, (cast(${webhookIds} as uuid[]))[1 + i % ${webhookIds.length}],
      gen_random_uuid(), 'Case.Updated', ${payload}, 'pending',
      now() - interval '1 minute', now() - interval '1 minute'
    from generate_series(1, ${count}) as i
  `.execute(ctx.db);
}

async function countOf(workspaceId: string, where: 'untouched' | 'sending'): Promise<number> {
  const { ctx } = await getHarness();
  const q = ctx.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('workspace_id', '=', workspaceId);
  const row = await (where === 'untouched'
    ? q.where('attempt_count', '=', 0).where('status', '=', 'pending')
    : q.where('status', '=', 'sending')
  ).executeTakeFirstOrThrow();
  return Number(row.n);
}

test("a workspace's backlog to hanging endpoints does not hold back another workspace or its own healthy webhook", async (t) => {
  // every request to A's hanging endpoints holds its slot for the whole timeout; failed ones are
  // retried much later, so A's backlog only shrinks by what is attempted
  Object.assign(webhookTuning, { timeoutMs: 1500, retryBaseMs: 600_000 });
  const BACKLOG = 3000;

  const a = await newWorkspace('hog');
  const hanging: string[] = [];
  for (let i = 0; i < 10; i++) {
    const r = await receiver({ kind: 'hang' });
    hanging.push(await hook(a, r.url(), ['Case.Updated']));
  }
  const aHealthy = await receiver({ kind: 'ok' });
  await hook(a, aHealthy.url(), ['Case.Created']);
  await insertBacklog(a.workspaceId, hanging, BACKLOG);

  const b = await newWorkspace('victim');
  const bReceiver = await receiver({ kind: 'ok' });
  await hook(b, bReceiver.url(), ['Case.Created']);

  // let A's backlog take every slot it can before the others' events exist
  await new Promise((r) => setTimeout(r, 300));
  const started = Date.now();
  const bCases = [await createCase(b, 'B one'), await createCase(b, 'B two'), await createCase(b, 'B three')];
  const aCase = await createCase(a, 'A healthy');

  let maxSending = 0;
  const sample = setInterval(() => {
    countOf(a.workspaceId, 'sending').then(
      (n) => {
        maxSending = Math.max(maxSending, n);
      },
      () => undefined,
    );
  }, 100);
  try {
    // generous bound: on the old global due-order claim this took the whole backlog (~20 s)
    await bReceiver.waitFor(() => bReceiver.deliveries().length >= 3, 60_000);
    const bLatency = Date.now() - started;
    // A's hanging requests hold their slots for the whole timeout (1.5 s): still in flight when B is
    // done, whether or not the 100 ms sampler got a turn (B's deliveries may take less than that)
    maxSending = Math.max(maxSending, await countOf(a.workspaceId, 'sending'));
    await aHealthy.waitFor(() => aHealthy.deliveries().length >= 1, 60_000);
    const aLatency = Date.now() - started;
    // B was served while most of A's older backlog had not even been attempted once
    const untouched = await countOf(a.workspaceId, 'untouched');
    t.diagnostic(
      `B delivered in ${bLatency} ms, A's healthy webhook in ${aLatency} ms; A untouched: ${untouched}`,
    );
    assert.ok(untouched > BACKLOG / 2, `A's backlog left untouched when B was done: ${untouched}`);
    assert.ok(bLatency < 15_000, `B's deliveries took ${bLatency} ms`);
    // A's healthy webhook waits at most for A's own slots to free up (one timeout), not for its backlog
    assert.ok(aLatency < 15_000, `A's healthy webhook took ${aLatency} ms`);

    assert.deepEqual(
      bReceiver
        .deliveries()
        .map((r) => r.json.case.id)
        .sort(),
      [...bCases].sort(),
    );
    assert.ok(bReceiver.deliveries().every((r) => r.json.context.workspace.id === b.workspaceId));
    assert.equal(aHealthy.deliveries()[0].json.case.id, aCase);
    // an outcome is recorded just after its response arrives: the receiver may see it first
    const logs = await eventually(async () => {
      const res = await b.get('/v1/webhook-logs?status=delivered');
      return res.body?.pagination?.count === 3 ? res : undefined;
    }, 10_000).catch(() => b.get('/v1/webhook-logs?status=delivered'));
    assert.equal(logs.status, 200);
    assert.equal(logs.body.pagination.count, 3);
  } finally {
    clearInterval(sample);
  }
  t.diagnostic(`A's deliveries sending at once: at most ${maxSending}`);
  // A never held more than its share of this process's request slots
  assert.ok(maxSending > 0, 'A had requests in flight');
  assert.ok(
    maxSending <= webhookTuning.workspaceMaxInFlight,
    `A had ${maxSending} requests in flight (cap ${webhookTuning.workspaceMaxInFlight})`,
  );
  // quiet A down: offline webhooks keep their deliveries aside and get no new requests
  for (const id of hanging)
    assert.equal((await a.patch(`/v1/webhooks/${id}`, { status: 'offline' })).status, 200);
});

test("deleting a webhook while its requests are in flight loses no other workspace's outcomes", async (t) => {
  // A's requests hang until the timeout; meanwhile A deletes its webhook (its deliveries go with
  // it) and B's deliveries flow: outcomes are recorded in shared batches, and a batch holding
  // A's vanished deliveries must still record B's (otherwise B's wait for their 60 s lease and
  // are sent twice)
  Object.assign(webhookTuning, { timeoutMs: 1000, retryBaseMs: 600_000 });
  try {
    const a = await newWorkspace('deleter');
    const aReceiver = await receiver({ kind: 'hang' });
    const aHook = await hook(a, aReceiver.url(), ['Case.Created']);
    for (let i = 0; i < 5; i++) await createCase(a, `A ${i}`);
    await aReceiver.waitFor((reqs) => reqs.length >= 5);
    assert.equal((await a.delete(`/v1/webhooks/${aHook}`)).status, 204);

    const b = await newWorkspace('bystander');
    const bReceiver = await receiver({ kind: 'ok' });
    await hook(b, bReceiver.url(), ['Case.Created']);
    // B's traffic goes on across the moment A's requests time out
    const started = Date.now();
    const bCases: string[] = [];
    while (Date.now() - started < 2000) bCases.push(await createCase(b, `B ${bCases.length}`));

    // generous (a loaded CI machine), but well under the 60 s lease that lost outcomes wait for
    const settled = await eventuallyWithin(async () => {
      const logs = await b.get('/v1/webhook-logs?status=delivered&limit=1');
      return logs.body.pagination.count === bCases.length;
    }, 30_000);
    const ids = bReceiver.deliveries().map((r) => String(r.headers['webhook-id']));
    t.diagnostic(`B: ${bCases.length} events, ${ids.length} requests, all delivered: ${settled}`);
    assert.ok(settled, "B's deliveries were all recorded delivered within 30 s");
    assert.equal(new Set(ids).size, bCases.length);
    assert.equal(ids.length, bCases.length, 'no B delivery was sent twice');
    assert.equal(aReceiver.requests.length, 5);
  } finally {
    Object.assign(webhookTuning, defaults);
  }
});

/** Polls `fn` until it holds or `timeoutMs` passed; whether it held. */
async function eventuallyWithin(fn: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fn()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}
