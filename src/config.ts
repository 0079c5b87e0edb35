import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { type CompanyDataConfig, loadCompanyDataConfig } from './company-data/config.ts';
import { defaultPoolMax, REMOTE_POOL_MAX } from './db/pool-size.ts';
import { REQUEST_LOG_MODES, type RequestLogMode } from './http/request-log.ts';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from './shared/logger.ts';
import { checkWebhookTuning } from './webhooks/tuning.ts';

/**
 * A setting refused once start-up had begun (a HOST that does not resolve): `vericase` exits 2 with
 * its one line, as for a value loadConfig refuses (src/cli/program.ts).
 */
export class ConfigError extends Error {}

/** Runtime configuration, read once from the environment. Every knob is documented in the README. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | null;
  /** The most connections the application's pool opens to PostgreSQL (VERICASE_DB_POOL_MAX; default: src/db/pool-size.ts). */
  dbPoolMax: number;
  /** How long a request waits for a PostgreSQL connection, to open or to be free (VERICASE_DB_CONNECT_TIMEOUT_MS). */
  dbConnectTimeoutMs: number;
  /** How long one statement waits for PostgreSQL's answer, 0 for no bound (VERICASE_DB_QUERY_TIMEOUT_MS; src/db/query-deadline.ts). */
  dbQueryTimeoutMs: number;
  dataDir: string;
  referenceDir: string | null;
  adminToken: string | null;
  bootstrapApiKey: string | null;
  /** LOG_LEVEL: pino's level names (src/shared/logger.ts). */
  logLevel: LogLevel;
  /** LOG_FORMAT: `json` (default, one object a line) or `pretty` (pino-pretty, for a terminal). */
  logFormat: LogFormat;
  /** LOG_REQUESTS: one line per HTTP request (`all`), only 4xx/5xx (`errors`) or none (`off`): src/http/request-log.ts. */
  logRequests: RequestLogMode;
  rateLimitPerMinute: number;
  /** How long an Idempotency-Key's request and answer are kept (hours); 0: for ever. */
  idempotencyRetentionHours: number;
  /** Unknown credentials (API key, session, portal token) per client IP and minute before a 429; 0: no limit. */
  authFailuresPerMinute: number;
  /** Shared store for the rate limit across processes; in-memory per process without it. */
  redisUrl: string | null;
  authCacheTtlMs: number;
  /** How long a process reuses a list's estimated total for the same query (src/http/count-estimates.ts). */
  listEstimateTtlMs: number;
  /** `vericase serve` gives back start-up's memory once loaded (src/ops/settle-memory.ts). */
  settleMemory: boolean;
  runWorkers: boolean;
  /**
   * VERICASE_JOB_POLL_MS: how often the workers look for delayed jobs and retries they were not
   * woken for (jobs sent now are announced by NOTIFY; see src/jobs/due-sweep.ts). At least 500.
   */
  jobPollMs: number;
  /**
   * VERICASE_EMBEDDED_MAINTENANCE_SECONDS: how often the embedded database's tables are checked for
   * a due VACUUM or ANALYZE (src/embedded-maintenance); 0: never. On PostgreSQL only while the server's autovacuum is off.
   */
  embeddedMaintenanceSeconds: number;
  sandboxDelayMs: number;
  /**
   * VERICASE_SANDBOX_FILE_CONTROLS (default on): what an uploaded file carries may steer the sandbox
   * (a `sandbox_outcome` keyword, an MRZ typed into a PNG `tEXt` chunk, a JPEG comment or a PDF's
   * text). Off, a file is read for what it shows: docs/sandbox.md, "Sandbox file controls".
   */
  sandboxFileControls: boolean;
  /** The S3 bucket (VERICASE_S3_*) files are stored in; null: `DATA_DIR/files`. See src/files/storage.ts. */
  s3: {
    bucket: string;
    region: string;
    endpoint: string | null;
    forcePathStyle: boolean;
    /** VERICASE_S3_TIMEOUT_MS: how long one attempt may wait in silence (connecting, or for bytes). */
    timeoutMs: number;
  } | null;
  webhookAllowPrivate: boolean;
  /** Header names an API key is read from (lower case): the documented one first. */
  apiKeyHeaders: string[];
  /** `/metrics` (VERICASE_METRICS, default on; VERICASE_METRICS_TOKEN: a bearer token it then requires). */
  metrics: { enabled: boolean; token: string | null };
  /** `vericase worker` serves /healthz, /readyz, /version and /metrics on this port (VERICASE_WORKER_PORT); null: none. */
  workerPort: number | null;
  /** HTTP server timeouts in ms (0 disables one): see `src/http/server-options.ts`. */
  http: {
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    idleTimeoutMs: number;
  };
  /** Largest image accepted for upload, in pixels (width × height, read from the header). */
  maxImagePixels: number;
  /** Seconds between two registry re-reads of a monitored company (company_monitoring). */
  companyMonitoringIntervalSeconds: number;
  /** Company registries: provider per country, timeouts, cache, adapters' URLs and keys. */
  companyData: CompanyDataConfig;
  /** The service's public base URL (links it sends, e.g. a case report's download_url); else the request's. */
  publicUrl: string | null;
  /** Key of the fraud list's HMAC hashes; null: one generated once and kept in the database. */
  fraudHashSecret: string | null;
  /** Hours a shared client portal link stays valid (VERICASE_PORTAL_LINK_TTL_HOURS). */
  portalLinkTtlHours: number;
  /** Chromium or Chrome executable printing document templates to PDF (VERICASE_CHROMIUM_PATH); null: looked for. */
  chromiumPath: string | null;
  /** Longest one PDF print may take, in ms (VERICASE_PDF_RENDER_TIMEOUT_SECONDS, default 60): then a 400. */
  pdfRenderTimeoutMs: number;
  /** The signing certificate (VERICASE_SIGNING_P12 + _PASSWORD); null: one generated once and kept. */
  signingP12: { path: string; password: string } | null;
  /** Outgoing mail (VERICASE_SMTP_URL, VERICASE_MAIL_FROM); no URL: mails are written to the log. */
  mail: { smtpUrl: string | null; from: string };
  /** The operator console's sign-in (src/console-auth): sessions, login limits, first-start admin. */
  console: {
    /** VERICASE_SESSION_TTL_HOURS: a session ends this long after sign-in, however active. */
    sessionTtlHours: number;
    /** VERICASE_SESSION_IDLE_MINUTES: a session unused this long ends. */
    sessionIdleMinutes: number;
    /** VERICASE_LOGIN_MAX_FAILURES: failed sign-ins per e-mail in 15 minutes before 429. */
    loginMaxFailuresPerEmail: number;
    /** VERICASE_LOGIN_MAX_FAILURES_PER_IP: failed sign-ins per client IP in 15 minutes before 429. */
    loginMaxFailuresPerIp: number;
    /** VERICASE_BOOTSTRAP_ADMIN_EMAIL: the admin user created on first start. */
    bootstrapAdminEmail: string;
  };
  /** VERICASE_TRUST_PROXY: believe X-Forwarded-For/-Proto (client IP, https for Secure cookies). */
  trustProxy: boolean;
}

function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${value}"`);
  // a fraction was floored: 0.5 of a limit or a period silently became 0, which means "off"
  if (!Number.isInteger(n)) throw new Error(`${name} must be a whole number, got "${value}"`);
  return n;
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  const n = int(name, value, fallback);
  if (n < 1) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

/** A whole number no smaller than `min` (a documented floor: refused below it, not raised to it). */
function atLeast(name: string, value: string | undefined, fallback: number, min: number): number {
  const n = int(name, value, fallback);
  if (n < min) throw new Error(`${name} must be at least ${min}, got "${value}"`);
  return n;
}

/**
 * A TCP port. Node's listen refuses anything else too, but only once start-up has migrated the
 * database and printed the first start's key and console address with that port in them.
 */
function port(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new Error(`${name} must be a port number from 0 to 65535, got "${value}"`);
  return n;
}

/**
 * A stalled PostgreSQL is answered 503 within these (docs/deployment.md, "Outages"). The wait for a
 * connection includes the queue behind busy ones: 10 s leaves room for the slowest list pages of the
 * 1M benchmark (4-5 s each under 10 connections, docs/benchmarks.md). The slowest statement the
 * service runs after migrating is well under 15 s at 1M cases.
 */
const DB_CONNECT_TIMEOUT_MS = 10_000;
const DB_QUERY_TIMEOUT_MS = 15_000;

/**
 * A bucket that accepts connections but does not answer is abandoned after this long without a byte
 * (per attempt; the SDK makes three): a stalled S3 is a 503 in about half a minute instead of holding
 * uploads and downloads until the HTTP server's own timeout cut them without an answer (130 s).
 * S3 answers in milliseconds, and keeps a long CompleteMultipartUpload's connection alive with
 * whitespace, so 10 s of silence is not a slow bucket.
 */
const S3_TIMEOUT_MS = 10_000;

const TRUE_WORDS = ['1', 'true', 'yes', 'on'];
const FALSE_WORDS = ['0', 'false', 'no', 'off'];

/** A switch. Anything else is refused: a typo (`flase`) must not quietly turn a switch off. */
function bool(name: string, value: string | undefined, fallback: boolean): boolean {
  const v = value?.trim().toLowerCase();
  if (!v) return fallback;
  if (TRUE_WORDS.includes(v)) return true;
  if (FALSE_WORDS.includes(v)) return false;
  throw new Error(`${name} must be true or false, got "${value}"`);
}

function oneOf<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  const v = value?.trim().toLowerCase();
  if (!v) return fallback;
  if (!(allowed as readonly string[]).includes(v))
    throw new Error(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return v as T;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must start with postgres:// or postgresql://');
  }
  // read by the screening module where it watches (src/screening/service/module.ts); checked here
  // so that a bad value stops start-up instead of turning the watch off
  int('VERICASE_SCREENING_WATCH_SECONDS', env.VERICASE_SCREENING_WATCH_SECONDS, 60);
  // the webhook delivery knobs are read when src/webhooks/tuning.ts loads; checked here likewise
  checkWebhookTuning(env);
  return {
    port: port('PORT', env.PORT, 3000),
    host: listenHost(env.HOST),
    databaseUrl,
    dbPoolMax: positiveInt(
      'VERICASE_DB_POOL_MAX',
      env.VERICASE_DB_POOL_MAX,
      databaseUrl ? defaultPoolMax(databaseUrl, env.PGHOST) : REMOTE_POOL_MAX,
    ),
    dbConnectTimeoutMs: positiveInt(
      'VERICASE_DB_CONNECT_TIMEOUT_MS',
      env.VERICASE_DB_CONNECT_TIMEOUT_MS,
      DB_CONNECT_TIMEOUT_MS,
    ),
    dbQueryTimeoutMs: int(
      'VERICASE_DB_QUERY_TIMEOUT_MS',
      env.VERICASE_DB_QUERY_TIMEOUT_MS,
      DB_QUERY_TIMEOUT_MS,
    ),
    dataDir: path.resolve(env.DATA_DIR || './data'),
    referenceDir: env.VERICASE_REFERENCE_DIR ? path.resolve(env.VERICASE_REFERENCE_DIR) : null,
    adminToken: env.VERICASE_ADMIN_TOKEN || null,
    bootstrapApiKey: env.VERICASE_BOOTSTRAP_API_KEY || null,
    logLevel: oneOf('LOG_LEVEL', env.LOG_LEVEL, LOG_LEVELS, 'info'),
    logFormat: oneOf('LOG_FORMAT', env.LOG_FORMAT, LOG_FORMATS, 'json'),
    logRequests: oneOf('LOG_REQUESTS', env.LOG_REQUESTS, REQUEST_LOG_MODES, 'all'),
    rateLimitPerMinute: int('VERICASE_RATE_LIMIT_PER_MINUTE', env.VERICASE_RATE_LIMIT_PER_MINUTE, 6000),
    idempotencyRetentionHours: int(
      'VERICASE_IDEMPOTENCY_RETENTION_HOURS',
      env.VERICASE_IDEMPOTENCY_RETENTION_HOURS,
      24,
    ),
    authFailuresPerMinute: int(
      'VERICASE_AUTH_FAILURES_PER_MINUTE',
      env.VERICASE_AUTH_FAILURES_PER_MINUTE,
      100,
    ),
    redisUrl: redisUrl(env.VERICASE_REDIS_URL),
    authCacheTtlMs: int('VERICASE_AUTH_CACHE_TTL_MS', env.VERICASE_AUTH_CACHE_TTL_MS, 5000),
    listEstimateTtlMs: int('VERICASE_LIST_ESTIMATE_TTL_MS', env.VERICASE_LIST_ESTIMATE_TTL_MS, 5000),
    // off by default: requests cost 17-30% more CPU after it, for the process's life (src/ops/settle-memory.ts)
    settleMemory: bool('VERICASE_SETTLE_MEMORY', env.VERICASE_SETTLE_MEMORY, false),
    runWorkers: bool('VERICASE_RUN_WORKERS', env.VERICASE_RUN_WORKERS, true),
    jobPollMs: atLeast('VERICASE_JOB_POLL_MS', env.VERICASE_JOB_POLL_MS, 2000, 500),
    embeddedMaintenanceSeconds: int(
      'VERICASE_EMBEDDED_MAINTENANCE_SECONDS',
      env.VERICASE_EMBEDDED_MAINTENANCE_SECONDS,
      60,
    ),
    sandboxDelayMs: int('VERICASE_SANDBOX_DELAY_MS', env.VERICASE_SANDBOX_DELAY_MS, 300),
    sandboxFileControls: bool('VERICASE_SANDBOX_FILE_CONTROLS', env.VERICASE_SANDBOX_FILE_CONTROLS, true),
    s3: s3Settings(env),
    webhookAllowPrivate: bool('VERICASE_WEBHOOK_ALLOW_PRIVATE', env.VERICASE_WEBHOOK_ALLOW_PRIVATE, false),
    apiKeyHeaders: apiKeyHeaders(env.VERICASE_API_KEY_HEADERS),
    metrics: {
      enabled: bool('VERICASE_METRICS', env.VERICASE_METRICS, true),
      token: env.VERICASE_METRICS_TOKEN?.trim() || null,
    },
    workerPort: env.VERICASE_WORKER_PORT?.trim()
      ? port('VERICASE_WORKER_PORT', env.VERICASE_WORKER_PORT, 0)
      : null,
    http: httpTimeouts(env),
    maxImagePixels: int('VERICASE_MAX_IMAGE_PIXELS', env.VERICASE_MAX_IMAGE_PIXELS, 100_000_000),
    // a pass runs every minute and takes the companies due: below that, every company on every pass
    companyMonitoringIntervalSeconds: atLeast(
      'VERICASE_COMPANY_MONITORING_INTERVAL_SECONDS',
      env.VERICASE_COMPANY_MONITORING_INTERVAL_SECONDS,
      86_400,
      60,
    ),
    companyData: loadCompanyDataConfig(env, int),
    publicUrl: publicUrl(env.VERICASE_PUBLIC_URL),
    fraudHashSecret: fraudHashSecret(env.VERICASE_FRAUD_HASH_SECRET),
    portalLinkTtlHours: portalLinkTtlHours(env.VERICASE_PORTAL_LINK_TTL_HOURS),
    chromiumPath: env.VERICASE_CHROMIUM_PATH?.trim() || null,
    pdfRenderTimeoutMs:
      positiveInt('VERICASE_PDF_RENDER_TIMEOUT_SECONDS', env.VERICASE_PDF_RENDER_TIMEOUT_SECONDS, 60) * 1000,
    signingP12: signingP12(env),
    mail: {
      smtpUrl: smtpUrl(env.VERICASE_SMTP_URL),
      from: mailFrom(env.VERICASE_MAIL_FROM),
    },
    console: {
      sessionTtlHours: positive('VERICASE_SESSION_TTL_HOURS', env.VERICASE_SESSION_TTL_HOURS, 12),
      sessionIdleMinutes: positive('VERICASE_SESSION_IDLE_MINUTES', env.VERICASE_SESSION_IDLE_MINUTES, 60),
      loginMaxFailuresPerEmail: int('VERICASE_LOGIN_MAX_FAILURES', env.VERICASE_LOGIN_MAX_FAILURES, 10),
      loginMaxFailuresPerIp: int(
        'VERICASE_LOGIN_MAX_FAILURES_PER_IP',
        env.VERICASE_LOGIN_MAX_FAILURES_PER_IP,
        100,
      ),
      bootstrapAdminEmail: emailAddress(
        'VERICASE_BOOTSTRAP_ADMIN_EMAIL',
        env.VERICASE_BOOTSTRAP_ADMIN_EMAIL,
        'admin@localhost',
      ),
    },
    trustProxy: bool('VERICASE_TRUST_PROXY', env.VERICASE_TRUST_PROXY, false),
  };
}

/** A duration that must be more than zero (fractions allowed: 0.5 hours). */
function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${value}"`);
  return n;
}

/** nodemailer takes smtp:// (STARTTLS when offered) and smtps:// (TLS from the start). */
function smtpUrl(value: string | undefined): string | null {
  const v = value?.trim();
  if (!v) return null;
  if (!/^smtps?:\/\/[^/]+/.test(v)) throw new Error('VERICASE_SMTP_URL must start with smtp:// or smtps://');
  return v;
}

/** A link that expires as it is issued would be useless: at least one hour. */
function portalLinkTtlHours(value: string | undefined): number {
  const hours = int('VERICASE_PORTAL_LINK_TTL_HOURS', value, 168);
  if (hours < 1) throw new Error('VERICASE_PORTAL_LINK_TTL_HOURS must be at least 1');
  return hours;
}

/** A configured fraud-list key must be long enough to be a key (32 random bytes recommended). */
function fraudHashSecret(value: string | undefined): string | null {
  if (!value) return null;
  if (value.length < 16) throw new Error('VERICASE_FRAUD_HASH_SECRET must be at least 16 characters');
  return value;
}

function httpTimeouts(env: NodeJS.ProcessEnv): Config['http'] {
  const t = {
    headersTimeoutMs: int('VERICASE_HTTP_HEADERS_TIMEOUT_MS', env.VERICASE_HTTP_HEADERS_TIMEOUT_MS, 20_000),
    requestTimeoutMs: int('VERICASE_HTTP_REQUEST_TIMEOUT_MS', env.VERICASE_HTTP_REQUEST_TIMEOUT_MS, 120_000),
    keepAliveTimeoutMs: int(
      'VERICASE_HTTP_KEEP_ALIVE_TIMEOUT_MS',
      env.VERICASE_HTTP_KEEP_ALIVE_TIMEOUT_MS,
      72_000,
    ),
    idleTimeoutMs: int('VERICASE_HTTP_IDLE_TIMEOUT_MS', env.VERICASE_HTTP_IDLE_TIMEOUT_MS, 120_000),
  };
  // Node refuses a headers timeout longer than the request timeout (the headers are part of the request)
  if (t.requestTimeoutMs > 0 && t.headersTimeoutMs > t.requestTimeoutMs) {
    throw new Error('VERICASE_HTTP_HEADERS_TIMEOUT_MS must not exceed VERICASE_HTTP_REQUEST_TIMEOUT_MS');
  }
  return t;
}

/**
 * `X-SERVICE-API-KEY` is the documented header; the reference product's (`X-DOTFILE-API-KEY`) is
 * accepted too by default, so its clients migrate by changing the base URL only.
 */
function apiKeyHeaders(value: string | undefined): string[] {
  const names = (value ?? 'X-SERVICE-API-KEY,X-DOTFILE-API-KEY')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  for (const h of names) {
    if (!/^[a-z0-9-]+$/.test(h)) throw new Error(`VERICASE_API_KEY_HEADERS: "${h}" is not a header name`);
  }
  if (!names.length) throw new Error('VERICASE_API_KEY_HEADERS must name at least one header');
  return [...new Set(names)];
}

function publicUrl(value: string | undefined): string | null {
  const v = value?.trim();
  if (!v) return null;
  if (!/^https?:\/\/[^/]+/.test(v)) throw new Error(`VERICASE_PUBLIC_URL must be an http(s) URL, got "${v}"`);
  return v.replace(/\/+$/, '');
}

/**
 * HOST: an IP address or a host name (an empty value is unset: every interface). Anything else
 * reached Node's listen only after start-up had migrated the database, and failed there with
 * `getaddrinfo ENOTFOUND not a host`, which did not say which setting was wrong. A name that does
 * not resolve is caught before start-up too (src/shared/listen-host.ts).
 */
function listenHost(value: string | undefined): string {
  const v = value?.trim();
  if (!v) return '0.0.0.0';
  if (net.isIP(v) || HOST_NAME_RE.test(v)) return v;
  throw new Error(`HOST must be an IP address or a host name, got "${value}"`);
}

/** RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens, 253 characters at most. */
const HOST_NAME_RE =
  /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

/** An http(s) URL with a host (what the S3 SDK and the link builders can use). */
function httpUrl(name: string, value: string): string {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {}
  if (!url || !['http:', 'https:'].includes(url.protocol) || !url.hostname)
    throw new Error(`${name} must be an http(s) URL, got "${value}"`);
  return value;
}

const S3_DETAILS = [
  'VERICASE_S3_REGION',
  'VERICASE_S3_ENDPOINT',
  'VERICASE_S3_FORCE_PATH_STYLE',
  'VERICASE_S3_TIMEOUT_MS',
];

/**
 * The S3 bucket's settings, each checked whether or not a bucket is named (a bad one was accepted
 * silently while no bucket was set). A detail set without the bucket is refused: files would go to
 * DATA_DIR/files, which in a container is often a disk that does not outlive it.
 */
function s3Settings(env: NodeJS.ProcessEnv): Config['s3'] {
  const endpoint = env.VERICASE_S3_ENDPOINT?.trim()
    ? httpUrl('VERICASE_S3_ENDPOINT', env.VERICASE_S3_ENDPOINT.trim())
    : null;
  const forcePathStyle = bool('VERICASE_S3_FORCE_PATH_STYLE', env.VERICASE_S3_FORCE_PATH_STYLE, true);
  const timeoutMs = positiveInt('VERICASE_S3_TIMEOUT_MS', env.VERICASE_S3_TIMEOUT_MS, S3_TIMEOUT_MS);
  const bucket = env.VERICASE_S3_BUCKET?.trim();
  if (!bucket) {
    const stray = S3_DETAILS.find((name) => env[name]?.trim());
    if (stray)
      throw new Error(
        `${stray} is set but VERICASE_S3_BUCKET is not: name the bucket, or unset VERICASE_S3_* to store files in DATA_DIR/files`,
      );
    return null;
  }
  return {
    bucket,
    region: env.VERICASE_S3_REGION?.trim() || 'us-east-1',
    endpoint,
    forcePathStyle,
    timeoutMs,
  };
}

/**
 * The rate limit's shared store: ioredis took any other string too, `http://x` as a host and a path
 * as a Unix socket, and failed only once asked (each process then counted on its own, as when Redis
 * is down).
 */
function redisUrl(value: string | undefined): string | null {
  const v = value?.trim();
  if (!v) return null;
  if (!/^rediss?:\/\/[^/]/.test(v))
    throw new Error(`VERICASE_REDIS_URL must be a redis:// or rediss:// URL, got "${v}"`);
  return v;
}

/** An e-mail address, loosely (`name@host`: `admin@localhost` is one), as `vericase users create` takes it. */
const EMAIL_RE = /^[^\s@<>]+@[^\s@<>]+$/;

function emailAddress(name: string, value: string | undefined, fallback: string): string {
  const v = value?.trim();
  if (!v) return fallback;
  if (!EMAIL_RE.test(v)) throw new Error(`${name} must be an e-mail address, got "${value}"`);
  return v;
}

/** The mails' sender: `address` or `Name <address>`, as SMTP servers take it. */
function mailFrom(value: string | undefined): string {
  const v = value?.trim();
  if (!v) return 'vericase@localhost';
  const address = /^[^<>]*<([^<>]+)>$/.exec(v)?.[1]?.trim() ?? v;
  if (!EMAIL_RE.test(address))
    throw new Error(`VERICASE_MAIL_FROM must be an e-mail address or Name <address>, got "${value}"`);
  return v;
}

/**
 * The signing certificate: a file that cannot be read was found only by the signing module, once
 * the database was opened, and reported as an unexpected failure (exit 1). Opening it (its
 * password) is still the module's, at start-up.
 */
function signingP12(env: NodeJS.ProcessEnv): Config['signingP12'] {
  const file = env.VERICASE_SIGNING_P12?.trim();
  if (!file) return null;
  const resolved = path.resolve(file);
  try {
    if (!fs.statSync(resolved).isFile()) throw new Error('not a file');
    fs.accessSync(resolved, fs.constants.R_OK);
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new Error(`VERICASE_SIGNING_P12 must be a readable PKCS#12 file, got "${file}" (${why})`);
  }
  return { path: resolved, password: env.VERICASE_SIGNING_P12_PASSWORD ?? '' };
}
