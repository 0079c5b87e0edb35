/**
 * Issue 3 figures, against the real server in its own process: check creation to resolution for
 * ekyc (synchronous) and id_document (through the job queue, sandbox delay 0), and upload
 * throughput for a 5 MB file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makePng, multipartBody } from '../test/helpers/files.ts';
import { type Figures, load, percentile, printTable, startService, stopProcess } from './lib.ts';

const N = Number(process.env.BENCH_CHECKS ?? 300);
const CONCURRENCY = 10;

async function pool<T>(items: T[], fn: (item: T) => Promise<void>) {
  let i = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (i < items.length) await fn(items[i++]);
    }),
  );
}

export async function runChecksBench(databaseUrl: string | null): Promise<Figures[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-bench-checks-'));
  const key = 'vk_bench_checks_key';
  const { base, server } = await startService({
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '', DATA_DIR: dataDir }),
    LOG_LEVEL: 'warn',
    VERICASE_RATE_LIMIT_PER_MINUTE: '0',
    VERICASE_SANDBOX_DELAY_MS: '0',
    VERICASE_BOOTSTRAP_API_KEY: key,
  });
  const h = { 'x-service-api-key': key, 'content-type': 'application/json' };
  const post = async (url: string, body: unknown) => {
    const res = await fetch(`${base}${url}`, { method: 'POST', headers: h, body: JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  const rows: Figures[] = [];
  try {
    const c = await post('/v1/cases', {
      name: 'bench',
      companies: [{ name: 'Main', country: 'FR' }],
      individuals: [
        {
          first_name: 'Ada',
          last_name: 'Lovelace',
          birth_date: '1985-12-10',
          email: 'ada@example.com',
          phone_number: '+33612345678',
          address: { country: 'FR' },
          relations: [{ roles: ['legal_representative'] }],
        },
      ],
    });
    const individualId = c.individuals[0].id;

    // ekyc: resolves inside the create request
    const ekycLatencies: number[] = [];
    const t0 = performance.now();
    await pool(Array.from({ length: N }), async () => {
      const s = performance.now();
      await post('/v1/checks/ekyc', { individual_id: individualId });
      ekycLatencies.push(performance.now() - s);
    });
    const ekycSeconds = (performance.now() - t0) / 1000;
    ekycLatencies.sort((a, b) => a - b);
    rows.push({
      name: `ekyc: created and resolved (${N} checks, ${CONCURRENCY} concurrent)`,
      rps: N / ekycSeconds,
      p50: percentile(ekycLatencies, 50),
      p99: percentile(ekycLatencies, 99),
      errors: 0,
    });

    // id_document: upload, create (processing), resolved by a job
    const png = makePng({ width: 600, height: 400 });
    const { payload, contentType } = multipartBody([
      { name: 'file', filename: 'passport.png', contentType: 'image/png', data: png },
    ]);
    const refs: string[] = [];
    await pool(Array.from({ length: N }), async () => {
      const res = await fetch(`${base}/v1/files/upload`, {
        method: 'POST',
        headers: { 'x-service-api-key': key, 'content-type': contentType },
        body: payload,
      });
      refs.push(((await res.json()) as any).upload_ref);
    });
    const started = performance.now();
    await pool(refs, async (ref) => {
      await post('/v1/checks/id_document', { individual_id: individualId, data: { front_upload_ref: ref } });
    });
    for (;;) {
      const res = await fetch(`${base}/v1/checks?type=id_document&status=processing&limit=1`, { headers: h });
      if (((await res.json()) as any).pagination.count === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const idSeconds = (performance.now() - started) / 1000;
    const latencies: number[] = [];
    for (let page = 1; ; page++) {
      const res: any = await (
        await fetch(`${base}/v1/checks?type=id_document&limit=100&page=${page}`, { headers: h })
      ).json();
      for (const k of res.data) latencies.push(Date.parse(k.updated_at) - Date.parse(k.created_at));
      if (res.data.length < 100) break;
    }
    latencies.sort((a, b) => a - b);
    rows.push({
      name: `id_document: creation → resolution through the queue (${N} checks)`,
      rps: N / idSeconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      errors: 0,
    });

    // one id_document at a time: latency without queueing behind other work
    const solo: number[] = [];
    for (const ref of refs.slice(0, 20)) {
      const s = performance.now();
      const k: any = await post('/v1/checks/id_document', {
        individual_id: individualId,
        data: { front_upload_ref: ref },
      });
      for (;;) {
        const got: any = await (await fetch(`${base}/v1/checks/id_document/${k.id}`, { headers: h })).json();
        if (got.status !== 'processing') break;
        await new Promise((r) => setTimeout(r, 5));
      }
      solo.push(performance.now() - s);
    }
    solo.sort((a, b) => a - b);
    rows.push({
      name: 'id_document: one at a time, creation → resolution (20 checks)',
      rps: 1000 / (solo.reduce((x, y) => x + y, 0) / solo.length),
      p50: percentile(solo, 50),
      p99: percentile(solo, 99),
      errors: 0,
    });

    // upload throughput, 5 MB PNG
    const big = makePng({ width: 1200, height: 1200, text: { padding: 'x'.repeat(5 * 1024 * 1024 - 5000) } });
    const bigBody = multipartBody([
      { name: 'file', filename: 'scan.png', contentType: 'image/png', data: big },
    ]);
    const up = await load('POST /v1/files/upload (5 MB)', {
      url: `${base}/v1/files/upload`,
      method: 'POST',
      headers: { 'x-service-api-key': key, 'content-type': bigBody.contentType },
      body: bigBody.payload as unknown as string,
      connections: 4,
    });
    rows.push(up);
    printTable(`Checks on ${databaseUrl ? 'PostgreSQL' : 'PGlite'} (rates are checks/s or uploads/s)`, rows);
    console.log(`upload throughput: ${((up.rps * big.length) / 1024 / 1024).toFixed(0)} MB/s`);
  } finally {
    await stopProcess(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.main) {
  await runChecksBench(process.env.DATABASE_URL || null);
}
