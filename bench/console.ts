/**
 * The console's first load and its cases list at size (issue 15), in headless Chromium against the
 * service on loopback, on the embedded database:
 * - first load: the sign-in page, cold (new profile) and warm (cached assets): bytes shipped and the
 *   time until the form is usable;
 * - the cases list over 100,000 cases (seeded with one SQL statement), signed in: the time from a
 *   click on Next until the new page's rows are drawn, over several pages; goal < 300 ms per page.
 *
 *   node bench/console.ts        (BENCH_ONLY=console npm run bench; BENCH_CONSOLE_CASES for the size)
 */
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import pino from 'pino';
import { buildApp } from '../src/http/app.ts';
import { openRuntime } from '../src/runtime.ts';
import { createWorkspace } from '../src/workspaces/repository.ts';
import { openChromium } from '../test/helpers/browser.ts';
import { createConsoleUser } from '../test/helpers/console-session.ts';
import { benchConfig } from './lib.ts';

const CASES = Number(process.env.BENCH_CONSOLE_CASES ?? 100_000);
const RUNS = 5;
const PAGES = 10;
const GOAL_PAGE_MS = 300;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

const BYTES = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource').filter((r) => !new URL(r.name).pathname.startsWith('/console/api/'));
  return nav.transferSize + res.reduce((n, r) => n + r.transferSize, 0);
})()`;

export async function runConsoleBench(): Promise<void> {
  const { config, dataDir } = await benchConfig('console', { databaseUrl: null });
  const runtime = await openRuntime(config, pino({ level: 'warn' }));
  const app = await buildApp(runtime.ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  try {
    const ws = await createWorkspace(runtime.ctx.db, 'bench-console');
    const t0 = performance.now();
    await sql`
      insert into cases (id, workspace_id, name, status, tags, created_at, updated_at, last_activity_at)
      select gen_random_uuid(), ${ws.id}, 'Case ' || lpad(g::text, 6, '0'),
        (array['open','draft','approved','rejected','closed'])[1 + g % 5],
        case when g % 3 = 0 then array['vip'] else array[]::text[] end,
        now() - make_interval(secs => g), now() - make_interval(secs => g), now() - make_interval(secs => g)
      from generate_series(1, ${CASES}) g`.execute(runtime.ctx.db);
    await sql`analyze cases`.execute(runtime.ctx.db);
    const seeded = performance.now() - t0;
    const user = await createConsoleUser(runtime.ctx, ws.id, { role: 'reviewer' });

    const cold: { bytes: number; ms: number }[] = [];
    const warm: { bytes: number; ms: number }[] = [];
    const perPage: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const chrome = await openChromium({ viewport: { width: 1280, height: 900 } });
      try {
        const page = await chrome.context.newPage();
        const load = async () => {
          const start = Date.now();
          await page.goto(`${base}/console/`);
          await page.getByRole('button', { name: 'Sign in' }).waitFor();
          const ms = Date.now() - start;
          return { bytes: (await page.evaluate(BYTES)) as number, ms };
        };
        cold.push(await load());
        warm.push(await load());
        await page.getByLabel('E-mail').fill(user.email);
        await page.getByLabel('Password').fill(user.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.locator('table.grid tbody tr').first().waitFor();
        // page after page: from the click until the first row is the next page's
        for (let p = 0; p < PAGES; p++) {
          const first = await page.locator('table.grid tbody tr td a').first().textContent();
          const t = performance.now();
          await page.getByRole('button', { name: 'Next' }).click();
          await page.waitForFunction(
            (prev) =>
              (
                globalThis as unknown as {
                  document: { querySelector(s: string): { textContent: string | null } | null };
                }
              ).document.querySelector('table.grid tbody tr td a')?.textContent !== prev,
            first,
          );
          perPage.push(performance.now() - t);
        }
      } finally {
        await chrome.close();
      }
    }
    console.log(
      `\n## console: first load and the cases list over ${CASES} cases (headless Chromium, loopback, PGlite)\n`,
    );
    console.log(`(${CASES} cases seeded in ${Math.round(seeded)} ms)\n`);
    console.log('| measurement | KB shipped | ms (median) |');
    console.log('|---|---:|---:|');
    console.log(
      `| sign-in page, cold (new profile) | ${kb(median(cold.map((r) => r.bytes)))} | ${median(cold.map((r) => r.ms))} |`,
    );
    console.log(
      `| sign-in page, warm (cached assets) | ${kb(median(warm.map((r) => r.bytes)))} | ${median(warm.map((r) => r.ms))} |`,
    );
    const sorted = [...perPage].sort((a, b) => a - b);
    const p90 = sorted[Math.floor(sorted.length * 0.9)];
    console.log(
      `| cases list, next page (${perPage.length} pages) | | ${Math.round(median(perPage))} (p90 ${Math.round(p90)}) |`,
    );
    console.log(
      `\ngoal: a list page under ${GOAL_PAGE_MS} ms: ${median(perPage) < GOAL_PAGE_MS ? 'met' : 'NOT met'}`,
    );
  } finally {
    await app.close();
    await runtime.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) await runConsoleBench();
