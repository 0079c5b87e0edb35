/**
 * Webhook delivery benchmark: deliveries per second to a local receiver, and the latency from the
 * commit of an event to its arrival at the receiver (p50, p99). Runs the real runtime (outbox
 * dispatcher, signing, HTTP, outcome recording) in this process, on a fresh PGlite database or on
 * `databaseUrl`. `node bench/webhooks.ts [postgres://...]`; WEBHOOK_BENCH_EVENTS sets the volume.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { recordEvents } from '../src/events/record-event.ts';
import { openRuntime } from '../src/runtime.ts';
import { createWebhook } from '../src/webhooks/create-webhook.ts';
import { createWorkspace } from '../src/workspaces/repository.ts';

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function runWebhookBench(databaseUrl: string | null = null) {
  const total = Number(process.env.WEBHOOK_BENCH_EVENTS ?? 5000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-bench-webhooks-'));
  const config = {
    ...loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '' }),
    webhookAllowPrivate: true,
    runWorkers: true,
  };

  // the receiver: answers 200 at once and notes when each event arrived
  const arrived = new Map<string, number>();
  let waiter: (() => void) | undefined;
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const id = JSON.parse(Buffer.concat(chunks).toString('utf8')).context.event_id as string;
      if (!arrived.has(id)) arrived.set(id, at);
      res.writeHead(200).end();
      waiter?.();
    });
  });
  receiver.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const rt = await openRuntime(config, pino({ level: 'warn' }));
  const db = rt.ctx.db;
  const ws = await createWorkspace(db, 'webhook-bench');
  await createWebhook(db, ws.id, { url, events: ['*'] }, true);

  const committed = new Map<string, number>();
  // events of no case share one delivery line per webhook (sent one after another); events of
  // several cases go side by side, a line per case (src/webhooks/engine.ts)
  const emit = async (n: number, caseIds: string[] = []) => {
    const ids: string[] = [];
    await db.transaction().execute(async (trx) => {
      const events = Array.from({ length: n }, (_, i) => ({
        ...(caseIds.length ? { case_id: caseIds[i % caseIds.length] } : {}),
        type: 'Note.Created',
        payload: { note: { id: `bench-${committed.size + i}`, content: 'x'.repeat(200) } },
      }));
      await recordEvents(trx, ws.id, events);
      const rows = await trx
        .selectFrom('events')
        .select('id')
        .where('workspace_id', '=', ws.id)
        .orderBy('seq', 'desc')
        .limit(n)
        .execute();
      for (const r of rows) ids.push(r.id);
    });
    const at = performance.now();
    for (const id of ids) committed.set(id, at);
  };
  const waitArrivals = async (count: number, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (arrived.size < count && Date.now() < deadline) {
      await new Promise<void>((r) => {
        waiter = r;
        setTimeout(r, 50);
      });
    }
  };
  const latencies = (ids: Iterable<string>) =>
    [...ids]
      .map((id) => (arrived.get(id) ?? Number.NaN) - (committed.get(id) ?? Number.NaN))
      .filter(Number.isFinite)
      .sort((a, b) => a - b);

  try {
    // warm-up
    await emit(50);
    await waitArrivals(50, 30_000);

    // 1. steady flow: one event per transaction, about 100 per second
    const steadyIds: string[] = [];
    const steadyStart = committed.size;
    for (let i = 0; i < 300; i++) {
      await emit(1);
      await new Promise((r) => setTimeout(r, 10));
    }
    for (const id of [...committed.keys()].slice(steadyStart)) steadyIds.push(id);
    await waitArrivals(committed.size, 30_000);
    const steady = latencies(steadyIds);

    // 2. burst: `total` events committed as fast as possible (transactions of 50), of no case (one
    // line: the worst case), then of 50 cases (cases ids with no case row: only the line matters)
    const runBurst = async (caseIds: string[]) => {
      const burstStart = committed.size;
      const t0 = performance.now();
      for (let i = 0; i < total; i += 50) await emit(Math.min(50, total - i), caseIds);
      const committedAt = performance.now();
      await waitArrivals(committed.size, 120_000);
      const t1 = performance.now();
      const burstIds = [...committed.keys()].slice(burstStart);
      const delivered = burstIds.filter((id) => arrived.has(id)).length;
      return {
        delivered,
        latencies: latencies(burstIds),
        rate: delivered / ((t1 - t0) / 1000),
        commitSeconds: (committedAt - t0) / 1000,
      };
    };
    const one = await runBurst([]);
    const spread = await runBurst(Array.from({ length: 50 }, () => randomUUID()));

    const rows = [
      {
        scenario: 'steady (~100 events/s, 1 per transaction)',
        events: steadyIds.length,
        'deliveries/s': '',
        'commit→delivery p50 ms': percentile(steady, 50).toFixed(1),
        'p99 ms': percentile(steady, 99).toFixed(1),
      },
      ...[
        [`burst (${total} events, 50 per transaction, no case: one line)`, one] as const,
        [`burst (${total} events, 50 per transaction, over 50 cases)`, spread] as const,
      ].map(([scenario, b]) => ({
        scenario,
        events: b.delivered,
        'deliveries/s': Math.round(b.rate),
        'commit→delivery p50 ms': percentile(b.latencies, 50).toFixed(1),
        'p99 ms': percentile(b.latencies, 99).toFixed(1),
      })),
    ];
    console.log(
      `webhook delivery (${rt.ctx.dbKind}; commits took ${one.commitSeconds.toFixed(1)} s and ${spread.commitSeconds.toFixed(1)} s for the bursts)`,
    );
    console.table(rows);
    return rows;
  } finally {
    await rt.close();
    await new Promise((r) => receiver.close(r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  await runWebhookBench(process.argv[2] ?? null);
  process.exit(0);
}
