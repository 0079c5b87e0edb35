/**
 * /healthz, /readyz, /version and /metrics on a real listening server (what `serve` runs), after
 * real traffic through the API: cases, an aml check resolved by the workers, a screening search,
 * webhooks delivered to one receiver and refused by another. Every metric family then has samples
 * above zero.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os, { hostname } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/http/app.ts';
import { latestListLoad } from '../src/screening/service/list-loads.ts';
import { ScreeningService } from '../src/screening/service/screening-service.ts';
import { eventually, getHarness, newWorkspace } from './helpers/harness.ts';
import { type LiveServer, listen } from './helpers/live-server.ts';
import { Receiver } from './helpers/receiver.ts';

let server: LiveServer;
let base: string;
const okReceiver = new Receiver();
const failReceiver = new Receiver();

before(async () => {
  const { ctx } = await getHarness();
  await eventually(async () => ctx.screening?.available, 120_000);
  server = await listen();
  base = `http://127.0.0.1:${server.port}`;
  await okReceiver.start();
  await failReceiver.start();
  failReceiver.mode = { kind: 'fail', status: 500 };
});

after(async () => {
  await server?.close();
  await okReceiver.stop();
  await failReceiver.stop();
});

async function call(method: string, url: string, key?: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(key ? { 'x-service-api-key': key } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : null;
  return { status: res.status, headers: res.headers, text, json };
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text format (the lines we emit: no escapes beyond \" in label values). */
function parseMetrics(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    const t = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (t) types.set(t[1], t[2]);
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(m, `unparsable metrics line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return { samples, types };
}

const sum = (samples: Sample[], name: string, where: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v))
    .reduce((a, s) => a + s.value, 0);

describe('operations endpoints', () => {
  test('/healthz answers without a key; /version says what runs', async () => {
    const health = await call('GET', '/healthz');
    assert.equal(health.status, 200);
    assert.deepEqual(health.json, { status: 'ok' });
    // the root says where things are (it was a 404), and each place it names answers
    const root = await call('GET', '/');
    assert.equal(root.status, 200);
    assert.equal(root.json.name, 'vericase');
    for (const where of [root.json.docs, root.json.openapi, root.json.console, root.json.health]) {
      const res = await call('GET', where);
      assert.ok(res.status === 200 || res.status === 302, `${where}: ${res.status}`);
    }

    const version = await call('GET', '/version');
    assert.equal(version.status, 200);
    const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8'));
    assert.equal(version.json.name, 'vericase');
    assert.equal(version.json.version, pkg.version);
    assert.equal(version.json.node, process.version);
    // a checkout: the commit of .git's HEAD
    assert.match(version.json.commit, /^[0-9a-f]{40}$/);
  });

  test('/readyz: database, migrations, sanctions lists and workers all ready', async () => {
    const res = await call('GET', '/readyz');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.json.status, 'ready');
    const { database, migrations, screening, workers } = res.json.checks;
    assert.equal(database.status, 'ok');
    assert.deepEqual(migrations, { status: 'ok', pending: [] });
    assert.equal(screening.status, 'ok');
    assert.equal(screening.state, 'ready');
    assert.ok(
      screening.lists.length > 0 && screening.lists.every((l: { entities: number }) => l.entities > 0),
    );
    assert.deepEqual(workers, { status: 'ok', jobs: true, webhooks: true });
  });

  test('/readyz: a process without lists while another process screens with them is not ready', async () => {
    const { ctx } = await getHarness();
    // the harness's process loaded the shared lists (recorded in the database); this one has none
    const bare = await buildApp({
      ...ctx,
      config: {
        ...ctx.config,
        referenceDir: null,
        dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-bare-')),
      },
    });
    try {
      const res = await bare.inject({ method: 'GET', url: '/readyz' });
      assert.equal(res.statusCode, 503, res.body);
      const screening = res.json().checks.screening;
      assert.equal(screening.status, 'fail');
      assert.match(
        screening.message,
        /^no reference directory configured in this process, while .+ loaded lists from .+: give every process the same VERICASE_REFERENCE_DIR/,
      );
      // lists loaded by this machine's previous start (a process gone): started without them now
      const latest = await latestListLoad(ctx.db);
      assert.ok(latest);
      const id = randomUUID();
      await ctx.db
        .insertInto('screening_list_loads')
        .values({
          ...latest,
          id,
          lists: JSON.stringify(latest.lists),
          process: `${hostname()}:2147483646`,
          loaded_at: new Date(Date.now() + 60_000).toISOString(),
        })
        .execute();
      try {
        const after = await bare.inject({ method: 'GET', url: '/readyz' });
        assert.equal(after.json().checks.screening.status, 'skipped', after.body);
      } finally {
        await ctx.db.deleteFrom('screening_list_loads').where('id', '=', id).execute();
      }
    } finally {
      await bare.close();
    }
  });

  test('/readyz is 503 naming what is not ready', async () => {
    const { ctx } = await getHarness();
    // a database nothing listens for (this helper's own port range), and lists configured but absent
    const deadDb = new Kysely<never>({
      dialect: new PostgresDialect({
        pool: new pg.Pool({
          connectionString: 'postgres://nobody@127.0.0.1:3189/none',
          connectionTimeoutMillis: 1000,
        }),
      }),
    });
    const emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-nolists-'));
    const screening = new ScreeningService({ resolveDir: () => emptyDir });
    await screening.load();
    const app = await buildApp({
      ...ctx,
      db: deadDb as never,
      config: { ...ctx.config, referenceDir: emptyDir, runWorkers: true },
      screening,
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(res.statusCode, 503);
      const body = res.json();
      assert.equal(body.status, 'not_ready');
      assert.equal(body.checks.database.status, 'fail');
      assert.match(body.checks.database.message, /^database unreachable: /);
      assert.equal(body.checks.migrations.status, 'skipped');
      assert.equal(body.checks.screening.status, 'fail');
      assert.equal(body.checks.screening.state, 'empty');
      assert.match(body.checks.screening.message, /holds no list files/);
      // the runtime's workers do run (the context shares its job queue)
      assert.equal(body.checks.workers.status, 'ok');
      // liveness does not depend on the database
      assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    } finally {
      await app.close();
      await deadDb.destroy();
      fs.rmSync(emptyDir, { recursive: true, force: true });
    }
  });

  test('after real traffic, every metric family has samples above zero', async () => {
    const api = await newWorkspace('metrics');
    const key = api.key;
    const okHook = await call('POST', '/v1/webhooks', key, {
      url: okReceiver.url('/ok'),
      events: ['Case.Created'],
    });
    assert.equal(okHook.status, 201, okHook.text);
    const failHook = await call('POST', '/v1/webhooks', key, {
      url: failReceiver.url('/fail'),
      events: ['Case.Created'],
    });
    assert.equal(failHook.status, 201, failHook.text);

    const created = await call('POST', '/v1/cases', key, {
      name: 'Metrics case',
      individuals: [
        {
          first_name: 'Marie',
          last_name: 'Curie',
          birth_date: '1967-11-07',
          address: { country: 'FR' },
          relations: [{ roles: ['legal_representative'] }],
        },
      ],
      companies: [{ name: 'Acme Widgets SAS', country: 'FR' }],
    });
    assert.equal(created.status, 201, created.text);
    // an ekyc check is decided when it is created: a resolution too
    const ekyc = await call('POST', '/v1/checks/ekyc', key, {
      individual_id: created.json.individuals[0].id,
    });
    assert.equal(ekyc.status, 201, ekyc.text);
    const aml = await call('POST', '/v1/checks/aml', key, { individual_id: created.json.individuals[0].id });
    assert.equal(aml.status, 201, aml.text);
    const settled = await eventually(async () => {
      const r = await call('GET', `/v1/checks/aml/${aml.json.id}`, key);
      return r.json.status !== 'processing' ? r.json : undefined;
    });
    assert.equal(settled.status, 'approved');
    const search = await call(
      'GET',
      '/v1/screening/search?name=Gaddafi%20International%20Charity%20and%20Development%20Foundation',
      key,
    );
    assert.equal(search.status, 200, search.text);
    assert.ok(search.json.data.length > 0, search.text);
    assert.equal((await call('GET', '/v1/cases/no-such-case', key)).status, 404);
    assert.equal((await call('GET', '/no/such/path/123')).status, 404);
    await okReceiver.waitFor((reqs) => reqs.some((r) => r.path === '/ok'));
    await failReceiver.waitFor((reqs) => reqs.some((r) => r.path === '/fail'));

    // the attempts are recorded by the delivery loop after the receivers answered
    const res = await eventually(async () => {
      const r = await call('GET', '/metrics');
      const { samples } = parseMetrics(r.text);
      const retry = sum(samples, 'vericase_webhook_deliveries_total', { outcome: 'retry_scheduled' });
      return retry > 0 ? r : undefined;
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const { samples, types } = parseMetrics(res.text);

    const families: [string, string, Record<string, string>][] = [
      ['vericase_http_requests_total', 'counter', { route: '/v1/cases', method: 'POST', status_code: '201' }],
      ['vericase_http_request_duration_seconds_count', 'histogram', { route: '/v1/cases', method: 'POST' }],
      ['vericase_http_requests_total', 'counter', { route: '/v1/cases/:id', status_code: '404' }],
      ['vericase_http_requests_total', 'counter', { route: 'unmatched', status_code: '404' }],
      ['vericase_queue_depth', 'gauge', { queue: 'webhook-deliveries', state: 'pending' }],
      ['vericase_job_duration_seconds_count', 'histogram', { outcome: 'completed' }],
      ['vericase_job_wait_seconds_count', 'histogram', {}],
      ['vericase_webhook_deliveries_total', 'counter', { outcome: 'delivered' }],
      ['vericase_webhook_deliveries_total', 'counter', { outcome: 'retry_scheduled' }],
      ['vericase_webhook_attempt_duration_seconds_count', 'histogram', {}],
      ['vericase_check_resolutions_total', 'counter', { type: 'aml', outcome: 'approved' }],
      ['vericase_check_resolutions_total', 'counter', { type: 'ekyc' }],
      ['vericase_screening_searches_total', 'counter', { outcome: 'hits' }],
      ['vericase_screening_search_duration_seconds_count', 'histogram', {}],
      ['vericase_screening_list_entities', 'gauge', {}],
      ['vericase_screening_lists_loaded_timestamp_seconds', 'gauge', {}],
      ['vericase_db_pool_connections', 'gauge', { state: 'total' }],
      ['vericase_db_pool_connections', 'gauge', { state: 'max' }],
      ['vericase_build_info', 'gauge', {}],
      ['vericase_process_resident_memory_bytes', 'gauge', {}],
    ];
    for (const [name, type, where] of families) {
      const family = name.replace(/_count$/, '');
      assert.equal(types.get(family), type, `${family} is a ${type}`);
      assert.ok(sum(samples, name, where) > 0, `${name} ${JSON.stringify(where)} has a sample above zero`);
    }
    // the aml check ran as a job of the checks' queue, and every declared queue has its series
    const jobQueues = new Set(
      samples.filter((s) => s.name === 'vericase_job_duration_seconds_count').map((s) => s.labels.queue),
    );
    assert.ok(jobQueues.has('checks.process'), `queues seen: ${[...jobQueues].join(', ')}`);
    const { ctx } = await getHarness();
    for (const q of ctx.jobs.queueNames()) {
      assert.ok(
        samples.some((s) => s.name === 'vericase_queue_depth' && s.labels.queue === q),
        `queue ${q} has a depth series`,
      );
    }
    // the latency histogram is well formed: buckets cumulative, +Inf = count, as many as the counter says
    const where = { method: 'POST', route: '/v1/cases', status_code: '201' };
    const buckets = samples.filter(
      (x) =>
        x.name === 'vericase_http_request_duration_seconds_bucket' &&
        Object.entries(where).every(([k, v]) => x.labels[k] === v),
    );
    assert.equal(buckets.at(-1)?.labels.le, '+Inf');
    for (let i = 1; i < buckets.length; i++) assert.ok(buckets[i].value >= buckets[i - 1].value);
    assert.equal(buckets.at(-1)?.value, sum(samples, 'vericase_http_request_duration_seconds_count', where));
    assert.equal(buckets.at(-1)?.value, sum(samples, 'vericase_http_requests_total', where));
    // raw URLs never become label values
    assert.ok(!res.text.includes('no-such-case') && !res.text.includes('/no/such/path'));
    // the versions loaded are labelled
    const lists = samples.filter((s) => s.name === 'vericase_screening_list_entities');
    assert.deepEqual(
      lists.map((s) => s.labels.source).sort(),
      (ctx.screening?.versions ?? []).map((v) => v.source).sort(),
    );
  });

  test('/metrics behind a token, or off', async () => {
    const { ctx } = await getHarness();
    const guarded = await buildApp({
      ...ctx,
      config: { ...ctx.config, metrics: { enabled: true, token: 's3cret-token' } },
    });
    const off = await buildApp({
      ...ctx,
      config: { ...ctx.config, metrics: { enabled: false, token: null } },
    });
    try {
      const none = await guarded.inject({ method: 'GET', url: '/metrics' });
      assert.equal(none.statusCode, 401);
      assert.equal(none.headers['www-authenticate'], 'Bearer realm="metrics"');
      assert.match(none.json().message, /VERICASE_METRICS_TOKEN/);
      const wrong = await guarded.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer nope' },
      });
      assert.equal(wrong.statusCode, 401);
      const right = await guarded.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer s3cret-token' },
      });
      assert.equal(right.statusCode, 200);
      assert.match(right.body, /^# HELP /m);
      // the other endpoints stay open (probes carry no token)
      assert.equal((await guarded.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
      const gone = await off.inject({ method: 'GET', url: '/metrics' });
      assert.equal(gone.statusCode, 404);
      assert.equal((await off.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
    } finally {
      await guarded.close();
      await off.close();
    }
  });
});
