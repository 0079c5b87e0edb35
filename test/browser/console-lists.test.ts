/**
 * The console's lists in headless Chromium against the real service: a filter changed on page 2
 * brings the list back to page 1 (users, cases, a webhook's deliveries), and the cases list's date
 * filters are the browser's days (a Paris browser's "created on 1 December" includes 00:30 Paris,
 * which is 23:30 UTC the day before). Screenshots: test-output/screenshots/console-lists-*.png.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import {
  type ChromiumSession,
  openChromium,
  type Page,
  SCREENSHOT_DIR,
  signedInPage,
} from '../helpers/browser.ts';
import { createConsoleUser } from '../helpers/console-session.ts';
import { type Client, getHarness, newWorkspace } from '../helpers/harness.ts';
import { type LiveServer, listen } from '../helpers/live-server.ts';

let server: LiveServer;
let base: string;
let chrome: ChromiumSession;
let ws: Client;
let admin: { id: string; email: string; password: string };
const shots: string[] = [];

async function shot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `console-lists-${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled', caret: 'hide' });
  shots.push(path.relative(process.cwd(), file));
}

before(async () => {
  server = await listen();
  base = `http://127.0.0.1:${server.port}`;
  const { ctx } = await getHarness();
  ws = await newWorkspace('console-lists');
  admin = await createConsoleUser(ctx, ws.workspaceId, {
    role: 'admin',
    firstName: 'Ada',
    lastName: 'Admin',
  });
  chrome = await openChromium({ viewport: { width: 1280, height: 900 } });
});

after(async () => {
  await chrome?.close();
  await server?.close();
  console.log(`screenshots (${shots.length}) in ${SCREENSHOT_DIR}:\n  ${shots.join('\n  ')}`);
});

describe('console lists', { timeout: 600_000 }, () => {
  test('users: ticking "show suspended" on page 2 goes back to page 1', async () => {
    const { ctx } = await getHarness();
    // 23 active users with the admin (two pages of 20), and one suspended
    for (let i = 0; i < 22; i++)
      await createConsoleUser(ctx, ws.workspaceId, { role: 'viewer', firstName: `User${i}` });
    const gone = await createConsoleUser(ctx, ws.workspaceId, { role: 'viewer', firstName: 'Gone' });
    await sql`update users set suspended_at = now() where id = ${gone.id}`.execute(ctx.db);

    const page = await signedInPage(chrome, base, admin);
    await page.goto(`${base}/console/settings/users`);
    const pager = page.getByRole('navigation', { name: 'Pages' });
    await pager.getByText('Page 1 of 2 · 23 in all').waitFor();
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('Page 2 of 2 · 23 in all').waitFor();
    await page.getByLabel('Show suspended users').check();
    await pager.getByText('· 24 in all').waitFor();
    await shot(page, 'users-suspended-shown');
    assert.equal(await pager.locator('span').textContent(), 'Page 1 of 2 · 24 in all');
    await page.close();
  });

  test('users: suspending the only user of the last page goes back to the page before', async () => {
    const { ctx } = await getHarness();
    const small = await newWorkspace('console-lists-last-page');
    const boss = await createConsoleUser(ctx, small.workspaceId, { role: 'admin' });
    // 21 active users: the last one alone on page 2
    for (let i = 0; i < 19; i++) await createConsoleUser(ctx, small.workspaceId, { role: 'viewer' });
    const last = await createConsoleUser(ctx, small.workspaceId, {
      role: 'viewer',
      firstName: 'Zoe',
      lastName: 'Last',
    });
    const page = await signedInPage(chrome, base, boss);
    await page.goto(`${base}/console/settings/users`);
    const pager = page.getByRole('navigation', { name: 'Pages' });
    await pager.getByText('Page 1 of 2 · 21 in all').waitFor();
    await pager.getByRole('button', { name: 'Next' }).click();
    const row = page.locator(`tr[data-user="${last.email}"]`);
    await row.waitFor();
    await row.getByRole('button', { name: 'Suspend' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Suspend' }).click();
    await page.getByText('20 in all').waitFor();
    await page.locator('table.settings-table tbody tr').nth(19).waitFor();
    assert.equal(await page.locator('table.settings-table tbody tr').count(), 20);
    await shot(page, 'users-last-page-emptied');
    // this workspace has no case: its list says so, not "no case matches these filters"
    await page.goto(`${base}/console/`);
    await page
      .getByText('No case yet: open one with New case, or through the API (POST /v1/cases).')
      .waitFor();
    await page.goto(`${base}/console/?name=zzz`);
    await page.getByText('No case matches these filters.').waitFor();
    // the name search ignores case and accents: "societe" finds "Société Générale"
    const created = await small.post('/v1/cases', {
      name: 'Société Générale',
      companies: [{ type: 'main', name: 'Société Générale' }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await page.goto(`${base}/console/?name=societe`);
    await page.getByRole('link', { name: 'Société Générale' }).waitFor();
    await page.close();
  });

  test('settings tables on a phone: a card per row, every cell under its column name, nothing off screen', async () => {
    const { ctx } = await getHarness();
    const small = await newWorkspace('console-lists-phone');
    const boss = await createConsoleUser(ctx, small.workspaceId, { role: 'admin', firstName: 'Pia' });
    const page = await signedInPage(chrome, base, boss);
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [section, column] of [
      ['users', 'E-mail'],
      ['document-types', 'Key'],
      ['audit-log', 'Action'],
    ] as const) {
      await page.goto(`${base}/console/settings/${section}`);
      const table = page.locator('table.settings-table');
      await table.locator('tbody tr').first().waitFor();
      // sideways scrolling hid the columns past the third: the table fits its section now
      const [wide, room] = await table.evaluate((t) => [t.scrollWidth, t.parentElement?.clientWidth ?? 0]);
      assert.ok(wide <= room, `${section}: table ${wide}px in ${room}px`);
      const cell = table.locator(`tbody td[data-label="${column}"]`).first();
      assert.equal(await cell.isVisible(), true, `${section}: a cell labelled ${column}`);
      const label = await cell.evaluate(
        (td) => td.ownerDocument.defaultView?.getComputedStyle(td, '::before').content,
      );
      assert.equal(label, `"${column}"`);
      await shot(page, `phone-${section}`);
    }
    // the list of cases keeps its columns: its table scrolls in its own box, the page stays as
    // wide as the screen (it was 425 px wide at 390 px, the top bar ending short of it)
    assert.equal(
      (await small.post('/v1/cases', { name: 'Établissements Lumière et Associés Holding' })).status,
      201,
    );
    await page.goto(`${base}/console/`);
    await page.locator('table.grid tbody tr').first().waitFor();
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 390);
    await shot(page, 'phone-cases');
    // the top bar in French (its longest words) keeps to the top of the screen, its language
    // switch still named for screen readers
    await page.getByLabel('Language').selectOption('fr');
    await page.getByRole('link', { name: 'File de revue' }).waitFor();
    const bar = await page.locator('header.topbar').evaluate((el) => el.getBoundingClientRect().height);
    console.log(`top bar at 390 px in French: ${Math.round(bar)} px`);
    // 198 px before the phone rules (four rows), 166 px with them
    assert.ok(bar <= 180, `the top bar is ${bar}px high`);
    assert.equal(await page.getByLabel('Langue').count(), 1);
    await shot(page, 'phone-cases-fr');
    await page.getByLabel('Langue').selectOption('en');
    // at desktop width the same table is a table again, its headings shown
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/console/settings/users`);
    const heading = page.locator('table.settings-table thead th').first();
    await heading.waitFor();
    const display = await heading.evaluate(
      (th) => th.ownerDocument.defaultView?.getComputedStyle(th).display,
    );
    assert.equal(display, 'table-cell');
    assert.ok(((await heading.boundingBox())?.width ?? 0) > 20);
    await page.close();
  });

  test("webhooks: a row's Deliveries button on page 2 of the deliveries shows that webhook's page 1", async () => {
    const { ctx } = await getHarness();
    const hooks: string[] = [];
    for (const name of ['Busy hook', 'Quiet hook']) {
      const res = await ws.post('/v1/webhooks', {
        name,
        url: 'http://127.0.0.1:9/hook',
        events: ['*'],
        status: 'offline',
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      hooks.push(res.body.id);
    }
    // 25 failed deliveries of the busy hook, 3 of the quiet one, all older than anything else
    const rows = (hook: string, n: number, minutes: number) =>
      Array.from({ length: n }, (_, i) => ({
        id: randomUUID(),
        workspace_id: ws.workspaceId,
        webhook_id: hook,
        event_id: randomUUID(),
        event: 'Case.Created',
        payload: '{}',
        status: 'failed',
        attempt_count: 1,
        event_created_at: new Date(Date.now() - (minutes + i) * 60_000),
      }));
    await ctx.db
      .insertInto('webhook_deliveries')
      .values([...rows(hooks[0], 25, 100), ...rows(hooks[1], 3, 10)] as never)
      .execute();

    const page = await signedInPage(chrome, base, admin);
    await page.goto(`${base}/console/settings/webhooks`);
    const log = page.getByRole('region', { name: 'Deliveries' });
    const pager = log.getByRole('navigation', { name: 'Pages' });
    await pager.getByText('Page 1 of 2 · 28 in all').waitFor();
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('Page 2 of 2 · 28 in all').waitFor();
    await page.locator('tr', { hasText: 'Quiet hook' }).getByRole('button', { name: 'Deliveries' }).click();
    await log.getByText('3 in all').waitFor();
    await shot(page, 'webhook-deliveries-of-one');
    assert.equal(await log.locator('tbody tr').count(), 3, "the quiet hook's three deliveries are listed");
    await page.close();
  });

  test("cases: the date filters are the browser's days (Paris), sent as the local days' instants", async () => {
    const { ctx } = await getHarness();
    const paris = await newWorkspace('console-lists-paris');
    const who = await createConsoleUser(ctx, paris.workspaceId, { role: 'viewer' });
    // each case's creation (and last update) at a chosen instant; Paris is UTC+1 in December
    const cases: Record<string, string> = {
      'Late November': '2026-11-30T22:30:00Z', // 30 Nov 23:30 in Paris
      'Early December': '2026-11-30T23:30:00Z', // 1 Dec 00:30 in Paris (30 Nov in UTC)
      'Late December first': '2026-12-01T22:59:00Z', // 1 Dec 23:59 in Paris
      'Second of December': '2026-12-01T23:30:00Z', // 2 Dec 00:30 in Paris (1 Dec in UTC)
    };
    for (const [name, at] of Object.entries(cases)) {
      const res = await paris.post('/v1/cases', { name });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      await sql`update cases set created_at = ${new Date(at)}, updated_at = ${new Date(at)}
        where id = ${res.body.id}`.execute(ctx.db);
    }
    const tz = await openChromium({ viewport: { width: 1280, height: 900 }, timezoneId: 'Europe/Paris' });
    try {
      const page = await signedInPage(tz, base, who);
      const sent: URL[] = [];
      page.on('request', (r) => {
        const url = new URL(r.url());
        if (url.pathname === '/v1/cases') sent.push(url);
      });
      await page.goto(`${base}/console/`);
      await page.getByRole('link', { name: 'Late November' }).waitFor();
      await page.getByLabel('Created from').fill('2026-12-01');
      await page.getByLabel('Created until').fill('2026-12-01');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByRole('link', { name: 'Second of December' }).waitFor({ state: 'detached' });
      await page.getByRole('link', { name: 'Early December' }).waitFor();
      const names = await page.locator('table.grid tbody tr td:first-child a').allTextContents();
      assert.deepEqual(names.sort(), ['Early December', 'Late December first']);
      await shot(page, 'cases-created-on-paris-day');
      // what went to the API: the instants Paris's 1 December starts and ends
      const last = sent.at(-1) as URL;
      assert.equal(last.searchParams.get('created_at.gte'), '2026-11-30T23:00:00.000Z');
      assert.equal(last.searchParams.get('created_at.lt'), '2026-12-01T23:00:00.000Z');
      // the status counts take the same days
      const all = page.getByRole('navigation', { name: 'Status' }).getByRole('button', { name: /All/ });
      await all.locator('.count').filter({ hasText: /^2$/ }).waitFor();

      // a range that ends before it starts is refused by the form, not sent as a filter of nothing
      await page.getByLabel('Created from').fill('2026-12-05');
      const until = page.getByLabel('Created until');
      assert.equal(await until.getAttribute('min'), '2026-12-05');
      assert.equal(await page.getByLabel('Created from').getAttribute('max'), '2026-12-01');
      assert.equal(
        await until.evaluate(
          (el) => (el as unknown as { validity: { rangeUnderflow: boolean } }).validity.rangeUnderflow,
        ),
        true,
      );
      assert.equal(
        await page
          .locator('form.filters')
          .evaluate((f) => (f as unknown as { checkValidity(): boolean }).checkValidity()),
        false,
      );

      // updated from 1 December (Paris): the three cases last changed from 1 Dec 00:00 Paris on
      await page.getByLabel('Created from').fill('');
      await page.getByLabel('Created until').fill('');
      await page.getByLabel('Updated from').fill('2026-12-01');
      // a sort chosen before Apply applies the dates typed with it (it reloaded with them emptied)
      await page.getByLabel('Sort by').selectOption('name');
      await page.getByRole('link', { name: 'Late November' }).waitFor({ state: 'detached' });
      await page.getByRole('link', { name: 'Second of December' }).waitFor();
      assert.equal(await page.getByLabel('Updated from').inputValue(), '2026-12-01');
      const updated = await page.locator('table.grid tbody tr td:first-child a').allTextContents();
      assert.deepEqual(updated, ['Early December', 'Late December first', 'Second of December']);
      await page.close();
    } finally {
      await tz.close();
    }
  });
});
