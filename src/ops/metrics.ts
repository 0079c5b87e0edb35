/**
 * Prometheus metrics (prom-client), one registry per process. Counters and histograms are updated
 * where things happen (HTTP hook, job handler, webhook outcomes, check transitions, screening
 * searches); gauges that describe state (queue depth, list versions, pool use) are read when
 * `/metrics` is scraped (`refreshStateGauges`), so a scrape costs two small queries and nothing
 * runs in between.
 *
 * Names follow Prometheus conventions: `vericase_` prefix, base units (seconds), `_total` counters.
 * Label values are bounded: route patterns (never raw URLs), check types, fixed outcome words.
 */
import { sql } from 'kysely';
import type pg from 'pg';
import client from 'prom-client';
import type { AppContext } from '../app-context.ts';
import { versionInfo } from './version.ts';

export const registry = new client.Registry();

let defaultsStarted = false;
/**
 * Node's own metrics (CPU, memory, event loop lag, GC, handles), prefixed like ours. Started with
 * the first app that serves /metrics: they observe the event loop and the GC continuously.
 */
export function startProcessMetrics(): void {
  if (defaultsStarted) return;
  defaultsStarted = true;
  client.collectDefaultMetrics({ register: registry, prefix: 'vericase_' });
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

export const buildInfo = new client.Gauge({
  name: 'vericase_build_info',
  help: 'The running version (always 1; the labels carry the information)',
  labelNames: ['version', 'commit', 'node'] as const,
  registers: [registry],
});
{
  const v = versionInfo();
  buildInfo.set({ version: v.version, commit: v.commit ?? 'unknown', node: v.node }, 1);
}

/**
 * HTTP requests by method, route pattern and status: counts and latency buckets kept in plain
 * numbers, exposed to the registry in prom-client's format. prom-client's own Counter and Histogram
 * hash and validate the labels on every observation (2.5 µs a request measured, a few percent of a
 * ping); this is one map lookup and a few additions.
 */
interface HttpSeries {
  labels: { method: string; route: string; status_code: string };
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative), the last one past the largest bound. */
  buckets: number[];
}

const httpSeries = new Map<string, HttpSeries>();

/** Counts one answered request (route: the pattern, or `unmatched`). */
export function observeHttp(method: string, route: string, statusCode: number, seconds: number): void {
  const key = `${method} ${statusCode} ${route}`;
  let s = httpSeries.get(key);
  if (!s) {
    s = {
      labels: { method, route, status_code: String(statusCode) },
      count: 0,
      sum: 0,
      buckets: new Array(LATENCY_BUCKETS.length + 1).fill(0),
    };
    httpSeries.set(key, s);
  }
  s.count++;
  s.sum += seconds;
  let i = 0;
  while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]) i++;
  s.buckets[i]++;
}

type MetricValue = { labels: Record<string, string | number>; value: number; metricName?: string };

/** A metric prom-client's registry can print: its name, help, type and values when asked. */
function customMetric(
  name: string,
  help: string,
  type: 'counter' | 'histogram',
  values: () => MetricValue[],
) {
  const get = async () => ({ name, help, type, aggregator: 'sum' as const, values: values() });
  return { name, help, type, aggregator: 'sum', get, reset: () => httpSeries.clear() };
}

registry.registerMetric(
  customMetric(
    'vericase_http_requests_total',
    'HTTP requests answered, by method, route pattern and status code',
    'counter',
    () => [...httpSeries.values()].map((s) => ({ labels: s.labels, value: s.count })),
  ) as never,
);
registry.registerMetric(
  customMetric(
    'vericase_http_request_duration_seconds',
    'Time from receiving a request to sending its response, by method, route pattern and status code',
    'histogram',
    () =>
      [...httpSeries.values()].flatMap((s) => {
        let cumulative = 0;
        const out: MetricValue[] = LATENCY_BUCKETS.map((le, i) => {
          cumulative += s.buckets[i];
          return {
            metricName: 'vericase_http_request_duration_seconds_bucket',
            labels: { ...s.labels, le },
            value: cumulative,
          };
        });
        out.push({
          metricName: 'vericase_http_request_duration_seconds_bucket',
          labels: { ...s.labels, le: '+Inf' },
          value: s.count,
        });
        out.push({
          metricName: 'vericase_http_request_duration_seconds_sum',
          labels: s.labels,
          value: s.sum,
        });
        out.push({
          metricName: 'vericase_http_request_duration_seconds_count',
          labels: s.labels,
          value: s.count,
        });
        return out;
      }),
  ) as never,
);

export const jobDuration = new client.Histogram({
  name: 'vericase_job_duration_seconds',
  help: 'Time a job handler ran, by queue and outcome (completed, failed)',
  labelNames: ['queue', 'outcome'] as const,
  buckets: JOB_BUCKETS,
  registers: [registry],
});

export const jobWait = new client.Histogram({
  name: 'vericase_job_wait_seconds',
  help: 'Time a job waited from when it was due (created, or its start time) until a worker started it, by queue',
  labelNames: ['queue'] as const,
  buckets: JOB_BUCKETS,
  registers: [registry],
});

export const queueDepth = new client.Gauge({
  name: 'vericase_queue_depth',
  help: 'Jobs not finished, by queue and state (ready, deferred, retry, active); the webhook deliveries queue counts pending, sending and pending_offline deliveries',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
});

export const webhookDeliveries = new client.Counter({
  name: 'vericase_webhook_deliveries_total',
  help: 'Webhook delivery attempts recorded, by outcome (delivered, retry_scheduled, failed: retries exhausted)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const webhookAttemptDuration = new client.Histogram({
  name: 'vericase_webhook_attempt_duration_seconds',
  help: 'Time of one webhook POST (until its response or its error), by outcome',
  labelNames: ['outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const checkResolutions = new client.Counter({
  name: 'vericase_check_resolutions_total',
  help: 'Checks reaching a result state (need_review, approved, rejected, expired), by check type and outcome',
  labelNames: ['type', 'outcome'] as const,
  registers: [registry],
});

export const screeningSearches = new client.Counter({
  name: 'vericase_screening_searches_total',
  help: 'Sanctions screening searches, by outcome (hits, no_hits, unavailable)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const screeningSearchDuration = new client.Histogram({
  name: 'vericase_screening_search_duration_seconds',
  help: 'Time of one sanctions screening search in the in-memory index',
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  registers: [registry],
});

export const screeningListEntities = new client.Gauge({
  name: 'vericase_screening_list_entities',
  help: 'Entities of each sanctions list version loaded in this process, by source and version',
  labelNames: ['source', 'version'] as const,
  registers: [registry],
});

export const screeningListsLoadedAt = new client.Gauge({
  name: 'vericase_screening_lists_loaded_timestamp_seconds',
  help: 'When this process last loaded its sanctions lists (Unix time; 0 when none is loaded)',
  registers: [registry],
});

export const dbPoolConnections = new client.Gauge({
  name: 'vericase_db_pool_connections',
  help: 'Database connections of the application pool, by state (total, idle, in_use, max); the embedded database has one',
  labelNames: ['state'] as const,
  registers: [registry],
});

export const dbPoolWaiting = new client.Gauge({
  name: 'vericase_db_pool_waiting_requests',
  help: 'Queries waiting for a free connection of the application pool',
  registers: [registry],
});

/** The result states a check's resolution counts (the others are still running). */
const RESOLVED = new Set(['need_review', 'approved', 'rejected', 'expired']);

/** Called where a check changes state (applyOutcome); counts it when the new state is a result. */
export function countCheckResolution(type: string, from: string | null, to: string): void {
  if (from !== to && RESOLVED.has(to)) checkResolutions.inc({ type, outcome: to });
}

/** Pools opened by this process (PostgreSQL); the embedded database counts as one connection. */
const pools = new Set<pg.Pool>();
let embedded = 0;

/** Registers the application's pool (src/db/connect.ts); the returned function forgets it. */
export function trackPool(pool: pg.Pool): () => void {
  pools.add(pool);
  return () => void pools.delete(pool);
}

/** Registers an embedded database (PGlite: one connection, queries run one at a time). */
export function trackEmbeddedDatabase(): () => void {
  embedded++;
  let done = false;
  return () => {
    if (!done) embedded--;
    done = true;
  };
}

function refreshPoolGauges(): void {
  let total = embedded;
  let idle = 0;
  let waiting = 0;
  let max = embedded;
  for (const p of pools) {
    total += p.totalCount;
    idle += p.idleCount;
    waiting += p.waitingCount;
    max += p.options.max ?? 10;
  }
  dbPoolConnections.set({ state: 'total' }, total);
  dbPoolConnections.set({ state: 'idle' }, idle);
  // the embedded connection is in use while a query runs; between scrapes it reads as in use
  dbPoolConnections.set({ state: 'in_use' }, total - idle);
  dbPoolConnections.set({ state: 'max' }, max);
  dbPoolWaiting.set(waiting);
}

/** pg-boss's job states that are work still to do, in the names the gauge uses. */
async function refreshQueueGauges(ctx: AppContext): Promise<void> {
  const { rows } = await sql<{ name: string; state: string; n: number }>`
    select name, case when state = 'created' and start_after > now() then 'deferred'
                      when state = 'created' then 'ready' else state::text end as state,
           count(*)::int as n
    from pgboss.job where state in ('created', 'retry', 'active')
    group by 1, 2
  `.execute(ctx.db);
  const { rows: hooks } = await sql<{ state: string; n: number }>`
    select status as state, count(*)::int as n from webhook_deliveries
    where status in ('pending', 'sending', 'pending_offline') group by 1
  `.execute(ctx.db);
  queueDepth.reset();
  // every known queue shows up, at 0 when it is empty (a series that vanishes breaks alerts)
  for (const name of ctx.jobs.queueNames()) {
    for (const state of ['ready', 'deferred', 'retry', 'active']) queueDepth.set({ queue: name, state }, 0);
  }
  for (const state of ['pending', 'sending', 'pending_offline'])
    queueDepth.set({ queue: 'webhook-deliveries', state }, 0);
  for (const r of rows) queueDepth.set({ queue: r.name, state: r.state }, r.n);
  for (const r of hooks) queueDepth.set({ queue: 'webhook-deliveries', state: r.state }, r.n);
}

function refreshScreeningGauges(ctx: AppContext): void {
  screeningListEntities.reset();
  const s = ctx.screening;
  for (const v of s?.versions ?? []) {
    screeningListEntities.set({ source: v.source, version: String(v.version) }, v.entities);
  }
  const at = s?.loadedAt ? Date.parse(s.loadedAt) / 1000 : 0;
  screeningListsLoadedAt.set(Number.isFinite(at) ? at : 0);
}

/** Reads the state gauges (one scrape); the database queries are the queue counts. */
export async function refreshStateGauges(ctx: AppContext): Promise<void> {
  refreshPoolGauges();
  refreshScreeningGauges(ctx);
  await refreshQueueGauges(ctx);
}
