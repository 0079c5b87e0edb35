/**
 * The API reference page as a reader opens it: /docs loads with no error in the browser console and
 * no failed request, shows the operations by their names and the guides' links; a guide page renders
 * the repository's Markdown. Screenshots in test-output/screenshots/docs-*.png.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type ChromiumSession, openChromium } from '../helpers/browser.ts';
import { type LiveServer, listen } from '../helpers/live-server.ts';

const SHOTS = path.resolve(import.meta.dirname, '../../test-output/screenshots');
let server: LiveServer;
let chrome: ChromiumSession;

before(async () => {
  server = await listen();
  chrome = await openChromium({ viewport: { width: 1280, height: 900 } });
  fs.mkdirSync(SHOTS, { recursive: true });
});
after(async () => {
  await chrome?.close();
  await server?.close();
});

test('/docs loads without console errors and links the guides', async () => {
  const page = await chrome.context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') {
      problems.push(`${m.type()}: ${m.text()} (${m.location().url})`);
    }
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()}: ${r.url()}`);
  });
  const base = `http://127.0.0.1:${server.port}`;
  await page.goto(`${base}/docs`);
  await page.getByText('vericase API').first().waitFor();
  await page.locator('.opblock').first().waitFor();
  // operations are shown by their operationId-based anchors (swagger-ui renders tags as they scroll in)
  await page.locator('[id="operations-Cases-createCase"]').waitFor();
  assert.match(await page.locator('[id="operations-Cases-createCase"]').innerText(), /\/v1\/cases/);
  const sandbox = page.locator('a[href="/docs/guides/sandbox"]').first();
  await sandbox.waitFor();
  await page.screenshot({ path: path.join(SHOTS, 'docs-reference.png') });
  // swagger-ui opens description links in a new tab: follow it here
  await page.goto(`${base}${await sandbox.getAttribute('href')}`);
  await page.getByRole('heading', { name: 'Sandbox providers' }).waitFor();
  assert.ok(await page.locator('table').count(), 'the Markdown tables are rendered');
  await page.screenshot({ path: path.join(SHOTS, 'docs-guide-sandbox.png') });
  await page.goto(`${base}/docs/guides/webhooks`);
  await page.getByRole('heading', { name: 'Webhooks' }).first().waitFor();
  assert.deepEqual(problems, []);
  const missing = await page.goto(`${base}/docs/guides/nope`);
  assert.equal(missing?.status(), 404);
});
