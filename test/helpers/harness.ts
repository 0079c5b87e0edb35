import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { App, AppContext } from '../../src/app-context.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import { openRuntime, type Runtime } from '../../src/runtime.ts';
import { createWorkspace } from '../../src/workspaces/repository.ts';

/**
 * One database and one app per test process (a PGlite open costs seconds): every test isolates
 * itself by creating its own workspace, which exercises tenant isolation at the same time.
 */
interface Harness {
  app: App;
  ctx: AppContext;
  runtime: Runtime;
  config: Config;
}

let harness: Promise<Harness> | undefined;

export const SHARED_DATA_DIR = path.resolve(import.meta.dirname, '../../../shared/data');

export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({
    ...process.env,
    DATA_DIR: process.env.DATA_DIR || fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-test-')),
    VERICASE_REFERENCE_DIR: process.env.VERICASE_REFERENCE_DIR || SHARED_DATA_DIR,
    VERICASE_SANDBOX_DELAY_MS: process.env.VERICASE_SANDBOX_DELAY_MS ?? '20',
    VERICASE_WEBHOOK_ALLOW_PRIVATE: 'true',
    VERICASE_RATE_LIMIT_PER_MINUTE: '0',
    // tests send made-up keys on purpose; test/auth-failure-limit.test.ts turns the limit on
    VERICASE_AUTH_FAILURES_PER_MINUTE: '0',
    VERICASE_AUTH_CACHE_TTL_MS: '0',
    // the suite's two runs share a 2-core machine with browsers and child servers: a connection
    // that takes more than the service's 10 s there is load, not an outage (tests of the outage
    // set their own, test/database-connection-loss.test.ts)
    VERICASE_DB_CONNECT_TIMEOUT_MS: process.env.VERICASE_DB_CONNECT_TIMEOUT_MS ?? '30000',
  });
  return { ...base, ...overrides };
}

export function getHarness(): Promise<Harness> {
  harness ??= (async () => {
    const config = testConfig();
    // as `vericase serve` does: the app is built and ready before the background work starts (the
    // sanctions lists' load shares the thread and, on a loaded machine, slowed the build past its limit)
    const runtime = await openRuntime(config, pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), {
      deferBackground: true,
    });
    const app = await buildApp(runtime.ctx);
    await app.ready();
    await runtime.startBackground();
    return { app, ctx: runtime.ctx, runtime, config };
  })();
  // a failed open fails the file that asked; the next file tries again instead of inheriting the
  // same rejection (one slow connection once failed every later file of a run)
  harness.catch(() => {
    harness = undefined;
  });
  return harness;
}

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
}

export interface Client {
  workspaceId: string;
  key: string;
  get<T = any>(url: string, headers?: Record<string, string>): Promise<Res<T>>;
  post<T = any>(url: string, body?: unknown, headers?: Record<string, string>): Promise<Res<T>>;
  patch<T = any>(url: string, body?: unknown, headers?: Record<string, string>): Promise<Res<T>>;
  put<T = any>(url: string, body?: unknown, headers?: Record<string, string>): Promise<Res<T>>;
  delete<T = any>(url: string, body?: unknown, headers?: Record<string, string>): Promise<Res<T>>;
}

export function clientFor(app: App, key: string, workspaceId: string): Client {
  const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: { 'x-service-api-key': key, ...headers },
      ...(body !== undefined ? { payload: body as object } : {}),
    });
    let parsed: unknown = res.body;
    if (String(res.headers['content-type'] ?? '').includes('json') && res.body) parsed = JSON.parse(res.body);
    return { status: res.statusCode, body: parsed, headers: res.headers } as Res;
  };
  return {
    workspaceId,
    key,
    get: (url, headers) => call('GET', url, undefined, headers),
    post: (url, body, headers) => call('POST', url, body ?? {}, headers),
    patch: (url, body, headers) => call('PATCH', url, body ?? {}, headers),
    put: (url, body, headers) => call('PUT', url, body ?? {}, headers),
    delete: (url, body, headers) => call('DELETE', url, body, headers),
  };
}

/** A fresh workspace with its own key, and a client bound to it. */
export async function newWorkspace(name = 'test'): Promise<Client> {
  const { app, ctx } = await getHarness();
  const ws = await createWorkspace(ctx.db, `${name}-${Math.random().toString(36).slice(2, 8)}`);
  return clientFor(app, ws.api_key, ws.id);
}

/** The case graph of the issue: one main company, two affiliated companies, three individuals. */
export function sampleCaseBody(externalId?: string) {
  return {
    name: 'Acme onboarding',
    ...(externalId ? { external_id: externalId } : {}),
    companies: [
      { ref: 'acme', type: 'main', name: 'Acme SAS', country: 'FR', registration_number: '552100554' },
      {
        ref: 'holding',
        type: 'affiliated',
        name: 'Acme Holding GmbH',
        country: 'DE',
        relations: [{ roles: ['shareholder'], ownership_percentage: 70 }],
      },
      {
        ref: 'fund',
        type: 'affiliated',
        name: 'Fund LP',
        country: 'GB',
        relations: [{ source_company_ref: 'holding', roles: ['shareholder'], ownership_percentage: 40 }],
      },
    ],
    individuals: [
      {
        ref: 'ceo',
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        birth_date: '1985-12-10',
        is_business_contact: true,
        address: { country: 'FR' },
        relations: [{ roles: ['legal_representative'], position: 'CEO' }],
      },
      {
        ref: 'ubo',
        first_name: 'Alan',
        last_name: 'Turing',
        is_beneficial_owner: true,
        relations: [{ source_company_ref: 'holding', roles: ['shareholder'], ownership_percentage: 55 }],
      },
      {
        ref: 'cfo',
        first_name: 'Grace',
        last_name: 'Hopper',
        relations: [{ roles: ['legal_representative'], position: 'CFO' }],
      },
    ],
  };
}

/** Waits until `fn` returns a truthy value (polling; for asynchronous jobs). */
export async function eventually<T>(
  fn: () => Promise<T | undefined | null | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
