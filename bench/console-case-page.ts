/**
 * The console's case page at size: a case of 50 entities (10 companies, 40 individuals, each related
 * to a company) and 200 checks, opened by a signed-in reviewer in headless Chromium (Debian's
 * chromium through playwright-core). Time to interactive: from the navigation's start to the moment
 * the graph's entities are in the page as buttons and the selected entity's panel with its checks is
 * drawn (the page has its data and nothing is pending), cold (fresh profile) and warm (assets from
 * the browser's cache). Then a click on an entity: time until its panel shows it. Goal: < 1 s.
 * On the embedded database; the service listens on loopback in this process.
 *
 *   node bench/console-case-page.ts           (BENCH_ONLY=console-case-page npm run bench)
 */
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { buildApp } from '../src/http/app.ts';
import { openRuntime } from '../src/runtime.ts';
import { createWorkspace } from '../src/workspaces/repository.ts';
import { openChromium, signedInPage } from '../test/helpers/browser.ts';
import { SeedClient, seedLargeCase } from '../test/helpers/console-case-seed.ts';
import { createConsoleUser } from '../test/helpers/console-session.ts';
import { benchConfig } from './lib.ts';

const RUNS = 5;
const ENTITIES = 50;
const CHECKS = 200;
const GOAL_MS = 1000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** Set before the page's scripts: the moment the graph has all its entities and the panel its checks. */
const WATCH = (entities: number) => `new MutationObserver((_, observer) => {
  const nodes = document.querySelectorAll('[data-testid=case-graph] [data-entity-id]').length;
  const panel = document.querySelector('[data-testid=entity-checks]');
  if (nodes === ${entities} && panel) { window.__interactiveAt = performance.now(); observer.disconnect(); }
}).observe(document, { childList: true, subtree: true })`;

const MEASURE = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  const api = res.filter((r) => new URL(r.name).pathname.startsWith('/v1/'));
  const assets = res.filter((r) => !api.includes(r));
  const sum = (xs) => xs.reduce((n, r) => n + r.transferSize, 0);
  return { staticBytes: nav.transferSize + sum(assets), apiBytes: sum(api), requests: res.length + 1,
    interactiveMs: window.__interactiveAt };
})()`;

interface Figures {
  staticBytes: number;
  apiBytes: number;
  requests: number;
  interactiveMs: number;
}

export async function runConsoleCasePageBench(): Promise<{ cold: number; warm: number; select: number }> {
  const { config, dataDir } = await benchConfig('console-case', { databaseUrl: null });
  const runtime = await openRuntime(config, pino({ level: 'warn' }));
  const app = await buildApp(runtime.ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  try {
    const ws = await createWorkspace(runtime.ctx.db, 'bench-console-case');
    const seed = new SeedClient(base, { 'x-service-api-key': ws.api_key });
    const t0 = performance.now();
    const { caseId } = await seedLargeCase(seed, { entities: ENTITIES, companies: 10, checks: CHECKS });
    const seeded = performance.now() - t0;
    const user = await createConsoleUser(runtime.ctx, ws.id, { role: 'reviewer' });
    const url = `${base}/console/cases/${caseId}`;

    const cold: Figures[] = [];
    const warm: Figures[] = [];
    const select: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const chrome = await openChromium({ viewport: { width: 1280, height: 900 } });
      try {
        // a session of its own per run, handed to the browser as the sign-in page would get it
        const page = await signedInPage(chrome, base, user);
        await page.addInitScript(WATCH(ENTITIES));
        const visit = async () => {
          await page.goto(url);
          // a function, not a string: the console's CSP allows no eval
          await page.waitForFunction(
            () => (globalThis as { __interactiveAt?: number }).__interactiveAt !== undefined,
          );
          return (await page.evaluate(MEASURE)) as Figures;
        };
        cold.push(await visit());
        warm.push(await visit());
        // selecting an entity: the last one in the graph, until its panel names it
        const last = page.locator('[data-testid=case-graph] [data-entity-id]').last();
        const name = await last.locator('title').textContent();
        const t = performance.now();
        await last.click();
        await page.locator('#case-entity-title', { hasText: name ?? '' }).waitFor();
        select.push(performance.now() - t);
      } finally {
        await chrome.close();
      }
    }
    console.log(
      `\n## console case page: ${ENTITIES} entities, ${CHECKS} checks (headless Chromium, 1280 px, loopback; median of ${RUNS})\n`,
    );
    console.log(`(seeded through the API in ${Math.round(seeded)} ms)\n`);
    console.log('| load | page + assets KB | API KB | requests | interactive ms |');
    console.log('|---|---:|---:|---:|---:|');
    for (const [label, rows] of [
      ['cold (new profile)', cold],
      ['warm (cached assets)', warm],
    ] as const) {
      console.log(
        `| ${label} | ${kb(median(rows.map((r) => r.staticBytes)))} | ${kb(median(rows.map((r) => r.apiBytes)))} | ${median(rows.map((r) => r.requests))} | ${Math.round(median(rows.map((r) => r.interactiveMs)))} |`,
      );
    }
    const figures = {
      cold: Math.round(median(cold.map((r) => r.interactiveMs))),
      warm: Math.round(median(warm.map((r) => r.interactiveMs))),
      select: Math.round(median(select)),
    };
    console.log(`\nselecting an entity in the graph: ${figures.select} ms (click to its panel, median)`);
    console.log(
      `goal: interactive under ${GOAL_MS} ms: ${figures.cold < GOAL_MS && figures.warm < GOAL_MS ? 'met' : 'NOT met'}`,
    );
    return figures;
  } finally {
    await app.close();
    await runtime.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  await runConsoleCasePageBench();
  process.exit(0);
}
