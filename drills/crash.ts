/**
 * `npm run drill -- crash [--clients 20] [--seconds 20] [--database URL --reset]`
 *
 * Create-case load (graphs with companies, individuals, relations and template checks, a webhook
 * subscribed to every event) from concurrent clients; `kill -9` of the server in the middle of it;
 * restart on the same database. Promises checked afterwards, through the API and through SQL:
 * - every case answered 201 exists whole (each company, individual, relation and check);
 * - no case in the database is partial (counts differ from what its request asked for);
 * - every check created by an acknowledged write left `processing` (its job ran after restart);
 * - every event committed before or after the kill was delivered to the receiver;
 * - the embedded database reopens its directory after the kill, taking over the stale lock.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  caseGraph,
  createDrillTemplate,
  type Shape,
  sameShape,
  shapeOf,
  showShape,
  storedCases,
  withSql,
} from './_graphs.ts';
import {
  drillDatabase,
  HttpClient,
  mb,
  ms,
  newWorkspace,
  printTable,
  Receiver,
  Recorder,
  redact,
  runClients,
  type ServerProcess,
  sleep,
  startServer,
  summarize,
  Verdicts,
  waitUntil,
} from './_lib.ts';

/** Quick retries so deliveries that failed while the server died are sent again within the drill. */
const WEBHOOK_ENV = {
  VERICASE_WEBHOOK_RETRY_BASE_MS: '200',
  VERICASE_WEBHOOK_RETRY_MAX_MS: '2000',
  VERICASE_WEBHOOK_TIMEOUT_MS: '5000',
  VERICASE_WEBHOOK_LEASE_MS: '5000',
};

export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      clients: { type: 'string', default: '20' },
      seconds: { type: 'string', default: '20' },
      database: { type: 'string' },
      reset: { type: 'boolean', default: false },
      'settle-seconds': { type: 'string', default: '180' },
    },
  });
  const clients = Number(values.clients);
  const loadMs = Number(values.seconds) * 1000;
  const settleMs = Number(values['settle-seconds']) * 1000;
  const db = await drillDatabase({ database: values.database, reset: values.reset });
  const receiver = await new Receiver().start(0);
  const env = { ...db.env, ...WEBHOOK_ENV };
  process.stdout.write(
    `crash drill on ${db.kind === 'pglite' ? `PGlite (${db.dataDir})` : `PostgreSQL (${redact(db.databaseUrl ?? '')})`}: ` +
      `${clients} clients, kill -9 after ${loadMs / 1000} s of load\n`,
  );
  let first: ServerProcess | undefined;
  let second: ServerProcess | undefined;
  try {
    first = await startServer({ env, timeoutMs: 120_000 });
    const recorder = new Recorder();
    const ws = await newWorkspace(first, 'crash drill', recorder);
    await createDrillTemplate(ws.client);
    const hook = await ws.client.post('/v1/webhooks', {
      name: 'drill',
      url: receiver.url('/hook'),
      events: ['*'],
    });
    if (hook.status !== 201)
      throw new Error(`POST /v1/webhooks: ${hook.status} ${JSON.stringify(hook.body)}`);

    // ---- load, then kill -9 in the middle of it
    const sent = new Map<string, Shape>(); // external_id → what its request asked for
    const acked = new Map<string, { id: string; shape: Shape }>();
    const wrong201: string[] = [];
    const failuresBeforeKill: string[] = [];
    let killed = false;
    let answeredAfterKill = 0;
    const server = first;
    const started = Date.now();
    const killer = (async () => {
      await sleep(loadMs);
      killed = true;
      await server.kill9();
    })();
    await runClients(
      clients,
      () => killed,
      async (c, i) => {
        const externalId = `crash-${c}-${i}`;
        const { body, shape } = caseGraph(externalId, c + i);
        sent.set(externalId, shape);
        const res = await ws.client.post('/v1/cases', body, 'POST /v1/cases');
        if (res.status === 201) {
          if (killed) answeredAfterKill += 1;
          acked.set(externalId, { id: res.body.id, shape: shapeOf(res.body) });
          if (!sameShape(shapeOf(res.body), shape)) wrong201.push(externalId);
        } else if (!killed) {
          failuresBeforeKill.push(
            `${externalId}: ${res.status || res.error} ${JSON.stringify(res.body)?.slice(0, 200)}`,
          );
        }
      },
    );
    await killer;
    const loadSeconds = (Date.now() - started) / 1000;
    const lockPath = path.join(db.dataDir, 'vericase.lock');
    const staleLock = db.kind === 'pglite' ? fs.existsSync(lockPath) : null;

    // ---- restart on the same database: it must reopen (and take the stale lock over)
    const restartStarted = Date.now();
    second = await startServer({ env, port: first.port, timeoutMs: 120_000 });
    const restartMs = Date.now() - restartStarted;
    const api = new HttpClient(second.base, { 'x-service-api-key': ws.key });

    // every acknowledged case, read back whole
    const missing: string[] = [];
    const partialApi: string[] = [];
    for (const [externalId, { id, shape }] of acked) {
      const res = await api.get(`/v1/cases/${id}`);
      if (res.status === 404) missing.push(externalId);
      else if (res.status !== 200 || !sameShape(shapeOf(res.body), shape)) {
        partialApi.push(
          `${externalId}: ${res.status} ${res.status === 200 ? showShape(shapeOf(res.body)) : ''} != ${showShape(shape)}`,
        );
      }
    }

    // wait for the jobs (checks leave processing) and the webhook deliveries to finish
    const pendingStatuses = ['pending', 'sending', 'pending_offline'];
    const waiting = new Set([...acked.values()].map((a) => a.id));
    const settled = await waitUntil(
      async () => {
        for (const status of pendingStatuses) {
          const logs = await api.get(`/v1/webhook-logs?status=${status}&limit=1`);
          if (logs.status !== 200 || logs.body.pagination.count > 0) return false;
        }
        for (const id of waiting) {
          const res = await api.get(`/v1/cases/${id}`);
          if (res.status !== 200) continue; // reported as missing above
          const checks = [...res.body.companies, ...res.body.individuals].flatMap((e: any) => e.checks);
          if (checks.some((k: any) => k.status === 'processing')) return false;
          waiting.delete(id);
        }
        // the outbox may still hold events not yet turned into deliveries: wait for quiet
        const before = receiver.requests.length;
        await sleep(2000);
        return receiver.requests.length === before;
      },
      settleMs,
      1000,
    );
    const rss = second.rss();
    await second.stop();

    // ---- the database itself, through SQL (the embedded one only once the server stopped)
    const audit = await withSql(db, async (sql) => {
      const cases = await storedCases(sql, ws.id);
      const events = await sql<{ id: string }>('select id from events where workspace_id = $1', [ws.id]);
      const deliveries = await sql<{ status: string; n: number }>(
        'select status, count(*)::int as n from webhook_deliveries where workspace_id = $1 group by status',
        [ws.id],
      );
      return { cases, events, deliveries };
    });
    const partialSql = audit.cases.filter((c) => {
      const promised = sent.get(c.external_id);
      return !promised || !sameShape(c, promised);
    });
    const storedIds = new Set(audit.cases.map((c) => c.external_id));
    const lostSql = [...acked.keys()].filter((e) => !storedIds.has(e));
    const processing = audit.cases.reduce((s, c) => s + c.processing, 0);
    const delivered = new Set(receiver.deliveries('/hook').map((r) => r.json?.context?.event_id));
    const undelivered = audit.events.filter((e) => !delivered.has(e.id));
    const notDelivered = audit.deliveries
      .filter((d) => d.status !== 'delivered')
      .reduce((s, d) => s + d.n, 0);
    const unacked = audit.cases.filter((c) => !acked.has(c.external_id)).length;

    const lat = summarize(recorder.samples.get('POST /v1/cases') ?? []);
    printTable('figures', [
      { figure: 'database', value: db.kind },
      { figure: 'clients', value: clients },
      { figure: 'load before kill -9', value: `${loadSeconds.toFixed(1)} s` },
      { figure: 'create requests sent', value: sent.size },
      { figure: 'answered 201', value: acked.size },
      { figure: 'answered 201 after the kill', value: answeredAfterKill },
      { figure: 'stored without an answer (in flight at the kill)', value: unacked },
      { figure: 'cases stored', value: audit.cases.length },
      { figure: 'POST /v1/cases p50 / p99', value: `${ms(lat.p50)} / ${ms(lat.p99)}` },
      { figure: 'stale lock left by the kill', value: staleLock === null ? 'n/a' : String(staleLock) },
      { figure: 'restart to /healthz', value: `${restartMs} ms` },
      { figure: 'checks stored', value: audit.cases.reduce((s, c) => s + c.checks, 0) },
      { figure: 'events committed', value: audit.events.length },
      { figure: 'events received by the webhook', value: delivered.size },
      { figure: 'webhook requests (with retries)', value: receiver.deliveries('/hook').length },
      { figure: 'RSS after restart and drain', value: mb(rss) },
    ]);
    const v = new Verdicts();
    v.check('no failure before the kill', failuresBeforeKill.length === 0, failuresBeforeKill[0] ?? 0);
    v.check('every 201 body had the whole graph', wrong201.length === 0, wrong201.length);
    const inFlight = sent.size - acked.size - failuresBeforeKill.length;
    v.check('the kill hit requests in flight', inFlight > 0 && acked.size > 0, `${inFlight} unanswered`);
    v.check('every case answered 201 exists (API)', missing.length === 0, missing.length);
    v.check('every case answered 201 is whole (API)', partialApi.length === 0, partialApi[0] ?? 0);
    v.check('every case answered 201 exists (SQL)', lostSql.length === 0, lostSql.length);
    v.check('no partial graph in the database (SQL)', partialSql.length === 0, partialSql.length);
    v.check(
      'jobs and deliveries settled in time',
      settled,
      settled ? 'yes' : `not within ${settleMs / 1000} s`,
    );
    v.check('no check left processing (every job ran)', processing === 0, processing);
    v.check(
      'every committed event reached the receiver',
      undelivered.length === 0,
      `${undelivered.length} missing`,
    );
    v.check('every webhook delivery is delivered', notDelivered === 0, `${notDelivered} not delivered`);
    return v.finish();
  } finally {
    await first?.kill9();
    await second?.kill9();
    await receiver.stop();
    db.cleanup();
  }
}
