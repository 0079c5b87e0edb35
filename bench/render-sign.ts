/**
 * A signature's documents, timed: a 3-page document template rendered for a case (Handlebars, then
 * HTML → PDF in the service's headless Chromium) through POST /v1/cases/{id}/document-templates/{key}/render,
 * the first render (it starts the browser) apart from the next ones; then the rendered PDF signed
 * (visible block and CMS signature, src/signing), the first signature (it generates and stores the
 * service's certificate) apart from the next ones. On the embedded database.
 *
 *   node bench/render-sign.ts
 */

import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { buildApp } from '../src/http/app.ts';
import { openRuntime } from '../src/runtime.ts';
import { signPdf } from '../src/signing/index.ts';
import { createWorkspace } from '../src/workspaces/repository.ts';
import { benchConfig } from './lib.ts';

type Json = any;

const RUNS = 7;
const median = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]);

/** Three pages of contract: clauses with the case's placeholders, a table, a page break each. */
function threePageTemplate(): string {
  const clause = (n: number) =>
    `<h3>Clause ${n}</h3><p>{{company.name}} ({{company.registration_number}}) and the service provider agree ` +
    'that this clause is long enough to fill lines of a printed page. '.repeat(6) +
    '</p>';
  const part = (title: string, from: number) =>
    `<section style="page-break-after: always"><h2>${title}</h2>` +
    Array.from({ length: 5 }, (_, i) => clause(from + i)).join('') +
    '</section>';
  return `<!doctype html><html><head><style>
  body { font-family: serif; font-size: 11pt; line-height: 1.45 }
  table { border-collapse: collapse; width: 100% } td, th { border: 1px solid #999; padding: 4px }
</style></head><body>
<h1>Service agreement — {{case.name}}</h1>
<p>Between {{company.name}}, {{company.address.full}}, represented by {{signer.full_name}} ({{signer.email}}),
and the provider, on {{formatDate date "long"}}.</p>
${part('Part one', 1)}${part('Part two', 6)}
<h2>Schedule</h2>
<table><tr><th>Item</th><th>Amount</th></tr>
${Array.from({ length: 10 }, (_, i) => `<tr><td>Item ${i + 1}</td><td>${(i + 1) * 100} EUR</td></tr>`).join('')}
</table>
<p>Signed for {{uppercase company.name}}.</p>
</body></html>`;
}

export async function runRenderSignBench(): Promise<void> {
  const { config, dataDir } = await benchConfig('render', { databaseUrl: null });
  const runtime = await openRuntime(config, pino({ level: 'warn' }));
  const app = await buildApp(runtime.ctx);
  try {
    const ws = await createWorkspace(runtime.ctx.db, 'bench-render-sign');
    const call = async (url: string, payload?: object) => {
      const res = await app.inject({
        method: 'POST',
        url,
        headers: { 'x-service-api-key': ws.api_key },
        payload,
      });
      if (res.statusCode >= 300) throw new Error(`POST ${url}: ${res.statusCode} ${res.body}`);
      return res;
    };
    const kase = (
      await call('/v1/cases', {
        name: 'Render bench',
        companies: [
          {
            type: 'main',
            name: 'Bench SAS',
            country: 'FR',
            registration_number: '552100554',
            address: {
              street_address: '1 rue de la Paix',
              postal_code: '75002',
              city: 'Paris',
              country: 'FR',
            },
          },
        ],
        individuals: [
          {
            first_name: 'Ada',
            last_name: 'Lovelace',
            email: 'ada@example.com',
            relations: [{ roles: ['legal_representative'] }],
          },
        ],
      })
    ).json() as Json;
    await call('/v1/document-templates', {
      key: 'agreement',
      name: 'Agreement',
      kind: 'electronic_signature',
    });
    await call('/v1/document-templates/agreement/versions', { content: threePageTemplate() });
    await call('/v1/document-templates/agreement/versions/1/publish');

    const render = async () => {
      const t = performance.now();
      const res = await call(`/v1/cases/${kase.id}/document-templates/agreement/render`, {
        individual_id: kase.individuals[0].id,
      });
      return {
        ms: performance.now() - t,
        pdf: res.rawPayload,
        pages: Number(res.headers['x-document-pages']),
      };
    };
    const cold = await render();
    const warm: number[] = [];
    let last = cold;
    for (let i = 0; i < RUNS; i++) {
      last = await render();
      warm.push(last.ms);
    }

    const sign = async () => {
      const t = performance.now();
      const signed = await signPdf(runtime.ctx, last.pdf, {
        signerName: 'Ada Lovelace',
        signerEmail: 'ada@example.com',
        signedAt: new Date(),
        reason: 'Bench signature',
        typedSignature: 'Ada Lovelace',
      });
      return { ms: performance.now() - t, bytes: signed.length };
    };
    const firstSign = await sign();
    const signs: number[] = [];
    let signedBytes = firstSign.bytes;
    for (let i = 0; i < RUNS; i++) {
      const s = await sign();
      signs.push(s.ms);
      signedBytes = s.bytes;
    }

    console.log(`\n## document template render and sign (PGlite; median of ${RUNS} runs after the first)\n`);
    console.log('| step | pages | PDF KB | first ms | median ms |');
    console.log('|---|---:|---:|---:|---:|');
    console.log(
      `| render (HTTP, Chromium) | ${last.pages} | ${(last.pdf.length / 1024).toFixed(1)} | ${Math.round(cold.ms)} | ${median(warm)} |`,
    );
    console.log(
      `| sign (block + CMS) | ${last.pages} | ${(signedBytes / 1024).toFixed(1)} | ${Math.round(firstSign.ms)} | ${median(signs)} |`,
    );
    console.log(
      `| render + sign | | | ${Math.round(cold.ms + firstSign.ms)} | ${median(warm) + median(signs)} |`,
    );
    console.log(
      '\nfirst render: starts the browser; first signature: generates and stores the service certificate.',
    );
  } finally {
    await app.close();
    await runtime.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runRenderSignBench();
  process.exit(0);
}
