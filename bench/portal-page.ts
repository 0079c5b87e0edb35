/**
 * The client portal as a contact meets it: the page's first load in headless Chromium (Debian's
 * chromium through playwright-core: bytes shipped as the sum of the transfer sizes the browser
 * records, and the time until the checklist can be used), cold (fresh profile) and warm (assets
 * from the browser's cache), then a 5 MB photo sent through the portal's API (time, throughput).
 * On the embedded database; the service listens on loopback in this process.
 *
 *   node bench/portal-page.ts
 */

import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { encodePng } from '../src/checks/types/document/analysis/png.ts';
import { buildApp } from '../src/http/app.ts';
import { openRuntime } from '../src/runtime.ts';
import { createWorkspace } from '../src/workspaces/repository.ts';
import { openChromium } from '../test/helpers/browser.ts';
import { benchConfig } from './lib.ts';

type Json = any;

const RUNS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** A photo-sized PNG that does not compress (noise): 1322 × 1322 RGB, about 5 MB. */
function fiveMegabytePhoto(): Buffer {
  const side = 1322;
  return encodePng(side, side, 3, randomBytes(side * side * 3));
}

interface LoadFigures {
  staticBytes: number;
  apiBytes: number;
  requests: number;
  interactiveMs: number;
}

/**
 * In the page: what it fetched (transfer sizes: compressed bodies plus headers, 0 for what came
 * from the cache) and when the first upload button appeared, from the navigation's start.
 */
const MEASURE = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  const api = res.filter((r) => new URL(r.name).pathname.startsWith('/portal/api/'));
  const assets = res.filter((r) => !api.includes(r));
  const sum = (xs) => xs.reduce((n, r) => n + r.transferSize, 0);
  return { staticBytes: nav.transferSize + sum(assets), apiBytes: sum(api), requests: res.length + 1,
    interactiveMs: window.__interactiveAt };
})()`;

export async function runPortalBench(): Promise<void> {
  const { config, dataDir } = await benchConfig('portal', { databaseUrl: null });
  const runtime = await openRuntime(config, pino({ level: 'warn' }));
  const app = await buildApp(runtime.ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  try {
    const ws = await createWorkspace(runtime.ctx.db, 'bench-portal');
    const call = async (method: string, path: string, body?: object) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { 'x-service-api-key': ws.api_key, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await res.json()) as Json;
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const kase = await call('POST', '/v1/cases', {
      name: 'Portal bench',
      companies: [{ type: 'main', name: 'Bench SAS', country: 'FR' }],
      individuals: [
        {
          first_name: 'Ada',
          last_name: 'Lovelace',
          email: 'ada@example.com',
          is_business_contact: true,
          relations: [{ roles: ['legal_representative'] }],
        },
      ],
    });
    const contactId = kase.individuals[0].id;
    await call('POST', '/v1/checks/document', {
      company_id: kase.companies[0].id,
      settings: { document_type_key: 'registration_certificate' },
    });
    const idDocument = await call('POST', '/v1/checks/id_document', { individual_id: contactId });
    const { link } = await call('POST', `/v1/cases/${kase.id}/share-client-portal-link`, {
      business_contact_id: contactId,
    });
    const token = new URL(link).hash.replace('#token=', '');

    // first load, cold (a new profile each run) and warm (reload: hashed assets from the cache)
    const cold: LoadFigures[] = [];
    const warm: LoadFigures[] = [];
    for (let run = 0; run < RUNS; run++) {
      const chrome = await openChromium({ viewport: { width: 390, height: 844 } });
      try {
        const page = await chrome.context.newPage();
        // before the page's own scripts: note the moment the first upload button is in the page
        await page.addInitScript(`new MutationObserver((_, observer) => {
          const button = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Choose files');
          if (button && !button.disabled) { window.__interactiveAt = performance.now(); observer.disconnect(); }
        }).observe(document, { childList: true, subtree: true })`);
        const visit = async (url: string) => {
          await page.goto(url);
          await page.getByRole('button', { name: 'Choose files' }).waitFor();
          return (await page.evaluate(MEASURE)) as LoadFigures;
        };
        cold.push(await visit(link));
        // the token is now in sessionStorage: the address without it, as a reload of the tab
        warm.push(await visit(`${base}/portal/`));
      } finally {
        await chrome.close();
      }
    }
    console.log(`\n## portal page first load (headless Chromium, loopback; median of ${RUNS})\n`);
    console.log('| load | page + assets KB | API KB | requests | interactive ms |');
    console.log('|---|---:|---:|---:|---:|');
    for (const [name, rows] of [
      ['cold (new profile)', cold],
      ['warm (cached assets)', warm],
    ] as const) {
      console.log(
        `| ${name} | ${kb(median(rows.map((r) => r.staticBytes)))} | ${kb(median(rows.map((r) => r.apiBytes)))} | ${median(rows.map((r) => r.requests))} | ${Math.round(median(rows.map((r) => r.interactiveMs)))} |`,
      );
    }

    // a 5 MB photo through the portal's API (multipart, as the page sends it)
    const photo = fiveMegabytePhoto();
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/png' }), 'photo.png');
      const t = performance.now();
      const res = await fetch(`${base}/portal/api/actions/${idDocument.id}/files?slot=front`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      await res.arrayBuffer();
      times.push(performance.now() - t);
      if (res.status !== 201) throw new Error(`upload: ${res.status}`);
    }
    const ms = median(times);
    console.log(
      `\n## portal upload of a ${(photo.length / 1e6).toFixed(1)} MB photo (loopback; median of ${RUNS})\n`,
    );
    console.log('| upload | ms | MB/s |');
    console.log('|---|---:|---:|');
    console.log(
      `| POST /portal/api/actions/{id}/files | ${Math.round(ms)} | ${(photo.length / 1e6 / (ms / 1000)).toFixed(1)} |`,
    );
  } finally {
    await app.close();
    await runtime.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  await runPortalBench();
  process.exit(0);
}
