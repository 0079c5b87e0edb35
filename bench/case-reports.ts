/**
 * Case report rendering: the report job of a case with 10 and with 200 entities (half companies,
 * half individuals, each individual with an eKYC check, a note with a comment, the activity they
 * leave), split into reading the case (fixed number of queries), rendering the PDF (pdf-lib) and
 * the whole job (read, render, store the file, record the report and its event). On the embedded
 * database or, given a URL, PostgreSQL. BENCH_REPORT_PDF=/path writes the 200-entity PDF there.
 *
 *   node bench/case-reports.ts
 */

import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import pino from 'pino';
import { loadReportData } from '../src/case-reports/load-report-data.ts';
import { renderCaseReport } from '../src/case-reports/pdf/render-report.ts';
import { processCaseReport } from '../src/case-reports/process-report.ts';
import { insertCaseReport } from '../src/case-reports/repository.ts';
import { buildApp } from '../src/http/app.ts';
import { openRuntime } from '../src/runtime.ts';
import { createWorkspace } from '../src/workspaces/repository.ts';
import { benchConfig } from './lib.ts';

type Json = any;

export interface ReportBenchRow {
  entities: number;
  pages: number;
  bytes: number;
  loadMs: number;
  renderMs: number;
  jobMs: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)] * 10) / 10;
};

function caseBody(entities: number) {
  const nCompanies = Math.max(1, Math.floor(entities / 2));
  return {
    name: `Report bench ${entities} entities — Société Ødegård`,
    external_id: `bench-${randomUUID()}`,
    tags: ['bench'],
    companies: Array.from({ length: nCompanies }, (_, i) => ({
      type: i === 0 ? 'main' : 'affiliated',
      name: i === 0 ? 'Bench Holding SA' : `Bench Subsidiary ${i} GmbH`,
      country: i % 2 ? 'DE' : 'FR',
      registration_number: String(100000000 + i),
      address: {
        street_address: `${i + 1} rue de la Paix`,
        postal_code: '75002',
        city: 'Paris',
        country: 'FR',
      },
      ...(i === 0 ? {} : { relations: [{ roles: ['shareholder'], ownership_percentage: (i % 90) + 1 }] }),
    })),
    individuals: Array.from({ length: entities - nCompanies }, (_, i) => ({
      first_name: `Person ${i + 1}`,
      last_name: 'Müller',
      email: `person${i + 1}@example.com`,
      birth_date: '1980-01-01',
      address: { city: 'Oslo', country: 'NO' },
      relations: [
        { roles: ['legal_representative', 'shareholder'], position: 'Director', ownership_percentage: 1 },
      ],
    })),
  };
}

export async function runCaseReportBench(databaseUrl: string | null): Promise<ReportBenchRow[]> {
  const { config, dataDir } = await benchConfig('reports', { databaseUrl });
  const runtime = await openRuntime(config, pino({ level: 'warn' }));
  const app = await buildApp(runtime.ctx);
  const ctx = runtime.ctx;
  try {
    const ws = await createWorkspace(ctx.db, 'bench-case-reports');
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const res = await app.inject({ method, url, headers: { 'x-service-api-key': ws.api_key }, payload });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json() as Json;
    };
    const rows: ReportBenchRow[] = [];
    for (const entities of [10, 200]) {
      const kase = await call('POST', '/v1/cases', caseBody(entities));
      for (const ind of kase.individuals) await call('POST', '/v1/checks/ekyc', { individual_id: ind.id });
      for (let i = 0; i < Math.max(2, entities / 20); i++) {
        const note = await call('POST', '/v1/notes', {
          case_id: kase.id,
          content: `<p>Note ${i}: déjà vu</p>`,
        });
        await call('POST', `/v1/notes/${note.id}/comments`, { content: 'Agreed' });
      }
      const load: number[] = [];
      const render: number[] = [];
      const job: number[] = [];
      let pdf: Buffer = Buffer.alloc(0);
      for (let run = 0; run < 5; run++) {
        let t = performance.now();
        const data = await loadReportData(ctx.db, ws.id, kase.id);
        load.push(performance.now() - t);
        t = performance.now();
        pdf = await renderCaseReport(data as NonNullable<typeof data>, 'Europe/Paris', new Date());
        render.push(performance.now() - t);
        const report = await insertCaseReport(ctx.db, {
          id: randomUUID(),
          workspace_id: ws.id,
          case_id: kase.id,
          timezone: 'Europe/Paris',
          base_url: 'http://127.0.0.1',
        });
        t = performance.now();
        await processCaseReport(ctx, { reportId: report.id }, { retryCount: 0 });
        job.push(performance.now() - t);
      }
      if (entities === 200 && process.env.BENCH_REPORT_PDF)
        await writeFile(process.env.BENCH_REPORT_PDF, pdf);
      const pages = (await PDFDocument.load(pdf)).getPageCount();
      rows.push({
        entities,
        pages,
        bytes: pdf.length,
        loadMs: median(load),
        renderMs: median(render),
        jobMs: median(job),
      });
    }
    const db = databaseUrl ? 'PostgreSQL' : 'PGlite';
    console.log(`\n## case report job (${db}; median of 5 runs)\n`);
    console.log('| entities | pages | PDF KB | read case ms | render PDF ms | whole job ms |');
    console.log('|---:|---:|---:|---:|---:|---:|');
    for (const r of rows)
      console.log(
        `| ${r.entities} | ${r.pages} | ${Math.round(r.bytes / 1024)} | ${r.loadMs} | ${r.renderMs} | ${r.jobMs} |`,
      );
    return rows;
  } finally {
    await app.close();
    await runtime.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  await runCaseReportBench(process.env.BENCH_DATABASE_URL ?? null);
  process.exit(0);
}
