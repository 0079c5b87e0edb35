/**
 * Shared plumbing for the drills in this folder (files starting with `_` are not drills): a real
 * `vericase serve` process on a free loopback port with its own database, an HTTP client that
 * records latencies, percentile maths, a compact table printer and a bounded concurrency loop.
 * Drills measure the service from the outside, the way a client and an operator see it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export { Receiver } from '../test/helpers/receiver.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const ADMIN_TOKEN = 'drill-admin-token';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function freePort(): Promise<number> {
  const srv = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => srv.once('listening', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

// ---------------------------------------------------------------------------------------------
// The database a drill runs on

export interface DrillDatabase {
  kind: 'pglite' | 'postgres';
  /** Environment for the server: DATABASE_URL ('' for the embedded one) and a fresh DATA_DIR. */
  env: Record<string, string>;
  dataDir: string;
  databaseUrl: string | null;
  /** Removes the temporary DATA_DIR (the PostgreSQL database is left for inspection). */
  cleanup(): void;
}

/**
 * `--database URL` (or DATABASE_URL) selects PostgreSQL, otherwise the embedded database in a new
 * temporary DATA_DIR. A PostgreSQL database must be empty, or is emptied with `reset` (every
 * non-system schema dropped): drills assert exact counts and must not mix with older data.
 */
export async function drillDatabase(opts: { database?: string; reset?: boolean }): Promise<DrillDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-drill-'));
  const url = opts.database || process.env.DATABASE_URL || null;
  const cleanup = () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (!url)
    return {
      kind: 'pglite',
      env: { DATABASE_URL: '', DATA_DIR: dataDir },
      dataDir,
      databaseUrl: null,
      cleanup,
    };
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>(
      `select nspname from pg_namespace
        where nspname not like 'pg\\_%' and nspname not in ('information_schema', 'public')
           or (nspname = 'public' and exists (select 1 from pg_class c where c.relnamespace = pg_namespace.oid))`,
    );
    if (rows.length && !opts.reset) {
      cleanup();
      throw new Error(
        `${redact(url)} is not empty (schemas ${rows.map((r) => r.nspname).join(', ')}): pass --reset to empty it`,
      );
    }
    for (const { nspname } of rows) await client.query(`drop schema "${nspname}" cascade`);
    await client.query('create schema if not exists public');
  } finally {
    await client.end();
  }
  return {
    kind: 'postgres',
    env: { DATABASE_URL: url, DATA_DIR: dataDir },
    dataDir,
    databaseUrl: url,
    cleanup,
  };
}

export function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

// ---------------------------------------------------------------------------------------------
// A server process

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  base: string;
  /** Everything it wrote on stdout and stderr so far. */
  output(): string;
  /** Resident set size from /proc, in bytes (null once it exited or off Linux). */
  rss(): number | null;
  /** SIGKILL, then waits for the exit. */
  kill9(): Promise<void>;
  /** SIGTERM (graceful shutdown), then waits; resolves to the exit code. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

export interface StartOptions {
  env: Record<string, string>;
  port?: number;
  command?: string[];
  /** How long /healthz may take to answer 200 (PGlite's first start runs initdb). */
  timeoutMs?: number;
}

/** Defaults that make a drill's server fast and observable (no rate limit, quick sandbox). */
export const DRILL_SERVER_ENV: Record<string, string> = {
  VERICASE_ADMIN_TOKEN: ADMIN_TOKEN,
  VERICASE_WEBHOOK_ALLOW_PRIVATE: 'true',
  VERICASE_RATE_LIMIT_PER_MINUTE: '0',
  VERICASE_SANDBOX_DELAY_MS: '50',
  VERICASE_SCREENING_WATCH_SECONDS: '0',
  LOG_LEVEL: 'warn',
};

export async function startServer(opts: StartOptions): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  const child = spawn(process.execPath, ['bin/vericase.js', ...(opts.command ?? ['serve'])], {
    cwd: ROOT,
    env: { ...process.env, ...DRILL_SERVER_ENV, ...opts.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (d: Buffer) => {
    out += d;
    if (out.length > 200_000) out = out.slice(-100_000); // bounded: a flood of logs must not grow us
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const base = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    child,
    pid: child.pid ?? -1,
    port,
    base,
    output: () => out,
    rss: () => readRss(child.pid ?? -1),
    exited,
    kill9: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `server exited (${child.exitCode ?? child.signalCode}) before answering /healthz:\n${out}`,
      );
    }
    if (await healthy(base, 1000)) return server;
    await sleep(100);
  }
  await server.kill9();
  throw new Error(`server did not answer /healthz within ${opts.timeoutMs ?? 60_000} ms:\n${out}`);
}

export async function healthy(base: string, timeoutMs: number): Promise<boolean> {
  try {
    const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

function readRss(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP with latency recording

export interface Reply<T = any> {
  status: number;
  body: T;
  ms: number;
  /** Set when no HTTP answer came (connection refused or reset, timeout). */
  error?: string;
}

/** Latencies in milliseconds, by label (e.g. 'POST /v1/cases'). */
export class Recorder {
  readonly samples = new Map<string, number[]>();
  readonly statuses = new Map<string, Map<string, number>>();

  add(label: string, ms: number, status: string): void {
    const list = this.samples.get(label) ?? [];
    list.push(ms);
    this.samples.set(label, list);
    const byStatus = this.statuses.get(label) ?? new Map<string, number>();
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    this.statuses.set(label, byStatus);
  }

  all(): number[] {
    return [...this.samples.values()].flat();
  }
}

export class HttpClient {
  readonly base: string;
  readonly headers: Record<string, string>;
  readonly recorder: Recorder;
  readonly timeoutMs: number;

  constructor(
    base: string,
    headers: Record<string, string> = {},
    recorder = new Recorder(),
    timeoutMs = 30_000,
  ) {
    this.base = base;
    this.headers = headers;
    this.recorder = recorder;
    this.timeoutMs = timeoutMs;
  }

  async request<T = any>(
    method: string,
    url: string,
    body?: unknown,
    opts: { label?: string; headers?: Record<string, string> } = {},
  ): Promise<Reply<T>> {
    const label = opts.label ?? `${method} ${url.replace(/[0-9a-f-]{36}/g, '{id}').replace(/\?.*/, '')}`;
    const started = performance.now();
    try {
      const isForm = body instanceof FormData;
      const res = await fetch(`${this.base}${url}`, {
        method,
        headers: {
          ...(body === undefined || isForm ? {} : { 'content-type': 'application/json' }),
          ...this.headers,
          ...opts.headers,
        },
        body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const type = res.headers.get('content-type') ?? '';
      const raw = Buffer.from(await res.arrayBuffer());
      const ms = performance.now() - started;
      this.recorder.add(label, ms, String(res.status));
      const parsed = type.includes('json') && raw.length ? JSON.parse(raw.toString('utf8')) : raw;
      return { status: res.status, body: parsed as T, ms };
    } catch (err) {
      const ms = performance.now() - started;
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
      this.recorder.add(label, ms, `error:${cause}`);
      return { status: 0, body: null as T, ms, error: `${cause}: ${(err as Error).message}` };
    }
  }

  get<T = any>(url: string, label?: string) {
    return this.request<T>('GET', url, undefined, { label });
  }
  post<T = any>(url: string, body?: unknown, label?: string) {
    return this.request<T>('POST', url, body, { label });
  }
  patch<T = any>(url: string, body?: unknown, label?: string) {
    return this.request<T>('PATCH', url, body, { label });
  }

  withHeaders(headers: Record<string, string>): HttpClient {
    return new HttpClient(this.base, { ...this.headers, ...headers }, this.recorder, this.timeoutMs);
  }
}

/** A new workspace through the operator API; returns a client carrying its key. */
export async function newWorkspace(server: { base: string }, name: string, recorder?: Recorder) {
  const admin = new HttpClient(server.base, { authorization: `Bearer ${ADMIN_TOKEN}` });
  const res = await admin.post('/admin/workspaces', { name });
  if (res.status !== 201)
    throw new Error(`POST /admin/workspaces: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    id: res.body.id as string,
    key: res.body.api_key as string,
    client: new HttpClient(server.base, { 'x-service-api-key': res.body.api_key }, recorder),
  };
}

// ---------------------------------------------------------------------------------------------
// Figures

/** Nearest-rank percentile of a list of numbers (p in 0..100); NaN for an empty list. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function summarize(values: number[]): LatencySummary {
  return {
    count: values.length,
    p50: percentile(values, 50),
    p90: percentile(values, 90),
    p99: percentile(values, 99),
    max: values.length ? Math.max(...values) : Number.NaN,
  };
}

export const mb = (bytes: number | null) => (bytes === null ? 'n/a' : `${Math.round(bytes / 1048576)} MB`);
export const ms = (v: number) => (Number.isNaN(v) ? 'n/a' : `${v.toFixed(v < 10 ? 1 : 0)} ms`);

/** Prints rows as an aligned text table (the first row's keys are the columns). */
export function printTable(title: string, rows: Record<string, string | number | boolean>[]): void {
  process.stdout.write(`\n${title}\n`);
  if (!rows.length) return;
  const cols = Object.keys(rows[0] as object);
  const cells = rows.map((r) => cols.map((c) => String(r[c] ?? '')));
  const widths = cols.map((c, i) => Math.max(c.length, ...cells.map((r) => (r[i] as string).length)));
  const line = (vals: string[]) =>
    `  ${vals.map((v, i) => v.padEnd(widths[i] as number)).join('  ')}`.trimEnd();
  process.stdout.write(`${line(cols)}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
  for (const r of cells) process.stdout.write(`${line(r)}\n`);
}

/** A promise a drill checks: printed as a table row and turned into the exit code. */
export class Verdicts {
  readonly rows: { promise: string; measured: string; ok: boolean }[] = [];

  check(promise: string, ok: boolean, measured: string | number): boolean {
    this.rows.push({ promise, measured: String(measured), ok });
    return ok;
  }

  /** Prints the verdicts and returns the exit code (1 when any promise was broken). */
  finish(title = 'verdict'): number {
    printTable(
      title,
      this.rows.map((r) => ({ promise: r.promise, measured: r.measured, result: r.ok ? 'ok' : 'BROKEN' })),
    );
    const broken = this.rows.filter((r) => !r.ok).length;
    process.stdout.write(broken ? `\n${broken} promise(s) broken\n` : '\nall promises kept\n');
    return broken ? 1 : 0;
  }
}

// ---------------------------------------------------------------------------------------------
// Load

/**
 * Runs `clients` loops calling `step(clientIndex, iteration)` until `until()` says stop. Each
 * client waits for its previous call: concurrency is exactly `clients`.
 */
export async function runClients(
  clients: number,
  until: () => boolean,
  step: (client: number, iteration: number) => Promise<void>,
): Promise<void> {
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; !until(); i++) await step(c, i);
    }),
  );
}

/**
 * Polls /healthz every `everyMs` with a `timeoutMs` budget until stopped; records every probe.
 * A service that stops answering its health check under load fails the drill.
 */
export function watchHealth(base: string, everyMs = 1000, timeoutMs = 5000) {
  const probes: { at: number; ok: boolean; ms: number }[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      const ok = await healthy(base, timeoutMs);
      probes.push({ at: Date.now(), ok, ms: performance.now() - started });
      await sleep(everyMs);
    }
  })();
  return {
    probes,
    async stop() {
      stopped = true;
      await loop;
      return probes;
    },
  };
}

/** Samples a process's RSS every `everyMs` until stopped. */
export function watchRss(server: ServerProcess, everyMs = 1000) {
  const samples: { at: number; rss: number }[] = [];
  const timer = setInterval(() => {
    const rss = server.rss();
    if (rss !== null) samples.push({ at: Date.now(), rss });
  }, everyMs);
  return {
    samples,
    stop() {
      clearInterval(timer);
      return samples;
    },
  };
}

/** Waits until `predicate()` resolves true, polling; false when `timeoutMs` passed. */
export async function waitUntil(predicate: () => Promise<boolean>, timeoutMs: number, everyMs = 250) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await predicate()) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}
