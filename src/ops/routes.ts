/**
 * Operations endpoints, outside /v1 and without an API key (they hold no workspace data):
 *
 * - `GET /healthz`: liveness. The process answers HTTP; no database work, so a database outage
 *   does not make an orchestrator restart every API process (readiness says it instead).
 * - `GET /readyz`: readiness. 200 when the database answers, every migration this code knows is
 *   applied, the sanctions lists are loaded when a reference directory is configured (and, when
 *   none is, no other process screens with lists; lists kept over a refused reload are `warn`,
 *   still ready), the workers run when this process runs
 *   them, and the S3 bucket (when files are stored in one) takes this configuration; 503
 *   otherwise, naming what is not ready.
 * - `GET /version`: package version, commit, Node version.
 * - `GET /metrics`: Prometheus text format (src/ops/metrics.ts); off with VERICASE_METRICS=false,
 *   behind `Authorization: Bearer <VERICASE_METRICS_TOKEN>` when that is set.
 *
 * `registerHttpMetrics` counts every request of the app by route pattern, status and latency.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { App, AppContext } from '../app-context.ts';
import type { Config } from '../config.ts';
import { pendingMigrations } from '../db/migrate.ts';
import { storageReadiness } from '../files/storage-readiness.ts';
import { errorBody } from '../http/errors.ts';
import { latestListLoad, mayBeRunning } from '../screening/service/list-loads.ts';
import { resolveReferenceDir } from '../screening/service/reference-dir.ts';
import { webhookEngineOf } from '../webhooks/module.ts';
import { observeHttp, refreshStateGauges, registry, startProcessMetrics } from './metrics.ts';
import { versionInfo } from './version.ts';

/** How long the readiness check waits for the database before calling it unreachable. */
const DB_CHECK_TIMEOUT_MS = 2_000;

export interface ReadinessCheck {
  /** `warn`: something does not work, but this process stays ready (src/files/storage-readiness.ts). */
  status: 'ok' | 'fail' | 'warn' | 'skipped';
  message?: string;
  [detail: string]: unknown;
}

export interface Readiness {
  status: 'ready' | 'not_ready';
  checks: {
    database: ReadinessCheck;
    migrations: ReadinessCheck;
    screening: ReadinessCheck;
    workers: ReadinessCheck;
    storage: ReadinessCheck;
  };
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}

const migrated = new WeakSet<AppContext>();

async function checkDatabase(
  ctx: AppContext,
): Promise<{ database: ReadinessCheck; migrations: ReadinessCheck }> {
  const started = performance.now();
  try {
    await withTimeout(sql`select 1`.execute(ctx.db), DB_CHECK_TIMEOUT_MS, 'the database');
  } catch (err) {
    return {
      database: { status: 'fail', message: `database unreachable: ${(err as Error).message}` },
      migrations: { status: 'skipped', message: 'the database is unreachable' },
    };
  }
  const database: ReadinessCheck = { status: 'ok', ms: Math.round(performance.now() - started) };
  // applied migrations are never undone: once complete, not asked again
  if (migrated.has(ctx)) return { database, migrations: { status: 'ok', pending: [] } };
  try {
    const pending = await withTimeout(
      pendingMigrations(ctx.db as never),
      DB_CHECK_TIMEOUT_MS,
      'the database',
    );
    if (pending.length)
      return { database, migrations: { status: 'fail', message: 'migrations not applied', pending } };
    migrated.add(ctx);
    return { database, migrations: { status: 'ok', pending: [] } };
  } catch (err) {
    return { database, migrations: { status: 'fail', message: (err as Error).message } };
  }
}

async function checkScreening(ctx: AppContext): Promise<ReadinessCheck> {
  const { dir } = resolveReferenceDir(ctx.config);
  if (!dir) {
    // another process screens with lists: this one, without, would fail every aml check it ran
    const latest = await latestListLoad(ctx.db).catch(() => undefined);
    const elsewhere =
      latest !== undefined &&
      mayBeRunning(latest.process) &&
      ((latest.lists ?? []) as { entities?: number }[]).some((l) => (l.entities ?? 0) > 0);
    return elsewhere
      ? {
          status: 'fail',
          message: `no reference directory configured in this process, while ${latest?.process} loaded lists from ${latest?.reference_dir}: give every process the same VERICASE_REFERENCE_DIR (or DATA_DIR with pulled lists)`,
        }
      : { status: 'skipped', message: 'no reference directory configured' };
  }
  const s = ctx.screening;
  if (!s) return { status: 'fail', message: 'the screening service is not installed' };
  const lists = s.versions.map((v) => ({
    source: v.source,
    version: v.version,
    origin: v.origin ?? null,
    entities: v.entities,
  }));
  // lists kept in use over a reload that was refused (a truncated file, an emptied directory): this
  // process still screens, so it stays ready, but with lists older than the files: said here too, not
  // only in /v1/screening/lists, which an operator watching readiness does not read
  if (s.available && s.notice) return { status: 'warn', state: s.state, message: s.notice, lists };
  if (s.available) return { status: 'ok', state: s.state, lists };
  return { status: 'fail', state: s.state, message: s.unavailableMessage(), lists };
}

function checkWorkers(ctx: AppContext): ReadinessCheck {
  if (!ctx.config.runWorkers) return { status: 'skipped', message: 'this process runs no workers' };
  const jobs = ctx.jobs?.workersRunning ?? false;
  const webhooks = webhookEngineOf(ctx)?.running ?? false;
  return jobs && webhooks
    ? { status: 'ok', jobs, webhooks }
    : { status: 'fail', message: 'the workers are not running', jobs, webhooks };
}

export async function readiness(ctx: AppContext, log: FastifyBaseLogger): Promise<Readiness> {
  const [{ database, migrations }, storage] = await Promise.all([
    checkDatabase(ctx),
    storageReadiness(ctx, log),
  ]);
  const checks = {
    database,
    migrations,
    screening: await checkScreening(ctx),
    workers: checkWorkers(ctx),
    storage,
  };
  const ready = Object.values(checks).every((c) => c.status !== 'fail');
  return { status: ready ? 'ready' : 'not_ready', checks };
}

function tokenMatches(given: string | undefined, expected: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(given ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1].trim());
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Counts every request (by route pattern: an unknown path is `unmatched`, never its URL); nothing
 * when the metrics are off (VERICASE_METRICS=false), so that switch measures their cost.
 */
export function registerHttpMetrics(app: App, config: Pick<Config, 'metrics'>): void {
  if (!config.metrics.enabled) return;
  // synchronous: no promise per request
  app.addHook('onResponse', (req, reply, done) => {
    observeHttp(req.method, req.routeOptions?.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

export function registerOpsRoutes(app: App, ctx: AppContext): void {
  // probes and scrapes every few seconds: not in the request log unless they fail (warn and above)
  const hide = { schema: { hide: true }, logLevel: 'warn' as const };
  app.get('/healthz', hide, async () => ({ status: 'ok' }));
  // the first address a new user opens: where things are, rather than "Route GET / not found"
  app.get('/', hide, async () => ({
    name: 'vericase',
    api: '/v1 (every request with X-SERVICE-API-KEY)',
    docs: '/docs',
    openapi: '/v1/openapi.json',
    console: '/console/',
    health: '/healthz',
    readiness: '/readyz',
  }));
  app.get('/readyz', hide, async (req, reply) => {
    const r = await readiness(ctx, req.log);
    reply.header('cache-control', 'no-store');
    return reply.code(r.status === 'ready' ? 200 : 503).send(r);
  });
  app.get('/version', hide, async () => versionInfo());
  if (!ctx.config.metrics.enabled) return;
  startProcessMetrics();
  app.get('/metrics', hide, async (req, reply) => {
    const token = ctx.config.metrics.token;
    if (token && !tokenMatches(req.headers.authorization, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return reply
        .code(401)
        .send(errorBody(401, 'The metrics need Authorization: Bearer <VERICASE_METRICS_TOKEN>'));
    }
    // a database that does not answer leaves the queue gauges at their last values; the rest is served
    await refreshStateGauges(ctx).catch((err) =>
      req.log.warn({ err }, 'metrics: state gauges not refreshed'),
    );
    reply.header('content-type', registry.contentType);
    reply.header('cache-control', 'no-store');
    return reply.send(await registry.metrics());
  });
}
