/**
 * What metrics and tracing cost (issue 16): ping and create case against three servers started
 * side by side on their own embedded databases — metrics off and tracing off; metrics on (the
 * default); metrics and tracing on, exporting to a local OTLP sink that accepts and drops. Rounds
 * alternate between the three so a slow moment of the machine falls on all of them; the table gives
 * each one's median over the rounds and its ratio to the first.
 *
 *   BENCH_ONLY=observability npm run bench      (BENCH_ROUNDS, BENCH_DURATION per run)
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sampleCaseBody } from '../test/helpers/harness.ts';
import { type Figures, freePort, load, startProcess, stopProcess } from './lib.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const KEY = 'vck_bench_observability_0123456789abcdef';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function otlpSink(): Promise<{ port: number; spans: () => number; close: () => void }> {
  let posts = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      posts++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    spans: () => posts,
    close: () => server.close(),
  };
}

export async function runObservabilityBench(): Promise<void> {
  const sink = await otlpSink();
  const variants = [
    { name: 'metrics off, tracing off', env: { VERICASE_METRICS: 'false' } },
    { name: 'metrics on, tracing off', env: {} },
    {
      name: 'metrics on, tracing on (OTLP)',
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sink.port}`,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      },
    },
  ];
  const servers = [];
  try {
    for (const v of variants) {
      const port = await freePort();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-bench-obs-'));
      const child = await startProcess(
        ['bin/vericase.js', 'serve'],
        {
          ...v.env,
          DATABASE_URL: '',
          DATA_DIR: dir,
          PORT: String(port),
          LOG_LEVEL: 'warn',
          VERICASE_BOOTSTRAP_API_KEY: KEY,
          VERICASE_RATE_LIMIT_PER_MINUTE: '0',
          VERICASE_RUN_WORKERS: 'false',
          VERICASE_SCREENING_WATCH_SECONDS: '0',
        },
        `http://127.0.0.1:${port}/healthz`,
      );
      servers.push({ ...v, port, dir, child, ping: [] as Figures[], create: [] as Figures[] });
    }
    const headers = { 'x-service-api-key': KEY, 'content-type': 'application/json' };
    const body = JSON.stringify(sampleCaseBody());
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of servers) {
        const base = `http://127.0.0.1:${s.port}`;
        s.ping.push(await load(s.name, { url: `${base}/v1/ping`, headers }));
        s.create.push(
          await load(s.name, { url: `${base}/v1/cases`, method: 'POST', headers, body, connections: 10 }),
        );
      }
    }
    const base = (xs: Figures[]) => median(xs.map((f) => f.rps));
    const ref = servers[0];
    console.log(
      `\n## Metrics and tracing: cost on ping and create case (PGlite, median of ${ROUNDS} rounds)\n`,
    );
    console.log(
      '| configuration | ping req/s | vs off | ping p99 ms | create req/s | vs off | create p99 ms |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const s of servers) {
      const ping = base(s.ping);
      const create = base(s.create);
      console.log(
        `| ${s.name} | ${Math.round(ping)} | ${((100 * ping) / base(ref.ping)).toFixed(0)}% | ${median(s.ping.map((f) => f.p99)).toFixed(1)} | ${Math.round(create)} | ${((100 * create) / base(ref.create)).toFixed(0)}% | ${median(s.create.map((f) => f.p99)).toFixed(1)} |`,
      );
    }
    console.log(`\n(the OTLP sink received ${sink.spans()} export requests)`);
  } finally {
    for (const s of servers) {
      await stopProcess(s.child);
      fs.rmSync(s.dir, { recursive: true, force: true });
    }
    sink.close();
  }
}

if (import.meta.main) await runObservabilityBench();
