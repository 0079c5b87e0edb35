import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { type Config, loadConfig } from '../src/config.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * The configuration of an in-process bench service: a fresh embedded database in a temporary
 * DATA_DIR (returned, for the caller to remove), the reference data beside the repository, no rate
 * limit, no workers; `overrides` on top.
 */
export async function benchConfig(label: string, overrides: Partial<Config> = {}) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `vericase-bench-${label}-`));
  const referenceDir = process.env.VERICASE_REFERENCE_DIR ?? path.resolve(ROOT, '..', 'shared', 'data');
  const config: Config = {
    ...loadConfig({ ...process.env, DATA_DIR: dataDir, VERICASE_REFERENCE_DIR: referenceDir }),
    rateLimitPerMinute: 0,
    runWorkers: false,
    ...overrides,
  };
  return { config, dataDir };
}

export interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export async function freePort(): Promise<number> {
  const srv = net.createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const port = (srv.address() as net.AddressInfo).port;
  srv.close();
  return port;
}

/** Starts a child process and waits until `url` answers. */
export async function startProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  url: string,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return child;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

export async function load(
  name: string,
  opts: {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
  },
): Promise<Figures> {
  // warm-up (JIT, connection pools, caches) before the measured run
  await autocannon({
    url: opts.url,
    method: (opts.method ?? 'GET') as 'GET',
    headers: opts.headers,
    body: opts.body,
    connections: opts.connections ?? 20,
    duration: 2,
  });
  const result = await autocannon({
    url: opts.url,
    method: (opts.method ?? 'GET') as 'GET',
    headers: opts.headers,
    body: opts.body,
    connections: opts.connections ?? 20,
    duration: opts.duration ?? Number(process.env.BENCH_DURATION ?? 8),
  });
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

export function printTable(title: string, rows: Figures[]): void {
  console.log(`\n## ${title}\n`);
  console.log('| measurement | req/s | p50 ms | p99 ms | errors |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${Math.round(r.rps)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} |`,
    );
  }
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
