/**
 * The operator's whole day in the console, in headless Chromium against the real service on a socket
 * (issue 15's flow): sign in with e-mail and password on the sign-in page, create a case from the
 * registry (search, pick, import its officers and owners), launch a template, add the business
 * contact, run an eKYC check that needs review and review it (approve with a comment), share the
 * client portal link, approve the case. What each step left on the server is read back through the
 * API: the reviews name the console user. Screenshots of every page it passes:
 * test-output/screenshots/console-flow-*.png.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type ChromiumSession, openChromium, type Page, SCREENSHOT_DIR } from '../helpers/browser.ts';
import { createConsoleUser } from '../helpers/console-session.ts';
import { eventually, getHarness, newWorkspace } from '../helpers/harness.ts';
import { type LiveServer, listen } from '../helpers/live-server.ts';

let server: LiveServer;
let base: string;
let chrome: ChromiumSession;

async function shot(page: Page, name: string, width = 1280) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.setViewportSize({ width, height: 900 });
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, `console-flow-${name}.png`),
    fullPage: true,
    animations: 'disabled',
    caret: 'hide',
  });
  await page.setViewportSize({ width: 1280, height: 900 });
}

before(async () => {
  server = await listen();
  base = `http://127.0.0.1:${server.port}`;
  chrome = await openChromium({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
});
after(async () => {
  await chrome?.close();
  await server?.close();
});

test('sign in, case from the registry, template, review a check, share the portal, approve the case', {
  timeout: 900_000,
}, async () => {
  const { ctx } = await getHarness();
  const api = await newWorkspace('console-flow');
  const admin = await createConsoleUser(ctx, api.workspaceId, {
    role: 'admin',
    firstName: 'Aline',
    lastName: 'Roux',
  });
  const template = await api.post('/v1/templates', {
    name: 'Standard KYB',
    key: 'standard-kyb',
    checks: [{ type: 'online_reputation', targets: ['main_company'] }],
  });
  assert.equal(template.status, 201, JSON.stringify(template.body));

  const page = await chrome.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });

  // the sign-in page, then the (empty) cases list
  await page.goto(`${base}/console/`);
  await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
  // nobody is signed in yet: no failed request (a 401 from the session probe) in the browser's console
  assert.deepEqual(consoleErrors, []);
  await shot(page, '01-sign-in');
  await page.getByLabel('E-mail').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Cases' }).waitFor();
  await shot(page, '02-cases-empty');

  // a case from the registry: search, pick, import the officers and owners
  await page.getByRole('link', { name: 'New case' }).click();
  await page.getByRole('heading', { level: 1, name: 'New case' }).waitFor();
  const registry = page.getByRole('form', { name: 'From the registry' });
  await registry.getByLabel('Company name').fill('Maison Lumiere');
  await registry.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('status').filter({ hasText: '1 company found' }).waitFor();
  await shot(page, '03-registry-candidates');
  await page
    .getByRole('button', { name: 'Create the case with this company, its officers and owners' })
    .first()
    .click();
  await page.waitForURL(/\/console\/cases\/[0-9a-f-]{36}$/);
  const caseId = page.url().split('/').pop() as string;
  await page.getByRole('heading', { level: 1, name: 'Maison Lumiere' }).waitFor();
  await page.getByTestId('case-graph').waitFor();
  await shot(page, '04-case-imported');
  const imported = await api.get(`/v1/cases/${caseId}`);
  assert.equal(imported.status, 200);
  assert.equal(
    imported.body.companies.find((c: { type: string }) => c.type === 'main').name,
    'Maison Lumiere',
  );
  assert.ok(imported.body.individuals.length >= 2, 'officers and owners imported');

  // launch the template
  await page.getByRole('button', { name: 'Launch checks' }).click();
  const launch = page.getByRole('dialog', { name: 'Launch checks' });
  // the select, not its label: a label around a select takes the chosen option into its name
  await launch.getByRole('combobox').selectOption({ label: 'Standard KYB' });
  await launch.getByRole('button', { name: 'Launch' }).click();
  await launch.getByRole('status').filter({ hasText: 'Checks launched on 1 entity.' }).waitFor();
  await shot(page, '05-template-launched');
  await launch.getByRole('button', { name: 'Close' }).click();
  const afterTemplate = await api.get(`/v1/checks?case_id=${caseId}`);
  assert.deepEqual(
    afterTemplate.body.data.map((c: { type: string }) => c.type),
    ['online_reputation'],
  );

  // the business contact, by hand: a person whose eKYC the sandbox cannot decide
  await page.getByRole('button', { name: 'Add an entity' }).click();
  const add = page.getByRole('dialog', { name: 'Add an entity' });
  await add.getByLabel('First name').fill('Iris');
  await add.getByLabel('Last name').fill('Inconclusive');
  await add.getByLabel('E-mail').fill('iris@maison-lumiere.example');
  await add.getByLabel('Birth date').fill('1984-05-06');
  await add.getByLabel('Country (ISO code)').fill('FR');
  await add.getByLabel('Business contact (can use the client portal)').check();
  await add.getByRole('button', { name: 'Save' }).click();
  await add.waitFor({ state: 'hidden' });
  const iris = await eventually(async () => {
    const c = await api.get(`/v1/cases/${caseId}`);
    return c.body.individuals.find((i: { last_name: string }) => i.last_name === 'Inconclusive');
  });

  // one eKYC check on her: need_review
  await page.getByRole('button', { name: 'Launch checks' }).click();
  await launch.getByLabel('One check').check();
  await launch.getByRole('combobox').selectOption('ekyc');
  await launch.getByLabel('Iris Inconclusive').check();
  await launch.getByRole('button', { name: 'Launch' }).click();
  await launch.getByRole('status').filter({ hasText: 'Checks launched on 1 entity.' }).waitFor();
  await launch.getByRole('button', { name: 'Close' }).click();
  const ekyc = await eventually(async () => {
    const list = await api.get(`/v1/checks?case_id=${caseId}&type=ekyc`);
    return list.body.data[0];
  });
  assert.equal(ekyc.status, 'need_review');

  // the review queue lists it
  await page.getByRole('link', { name: 'Review queue' }).click();
  await page.getByRole('heading', { level: 1, name: 'Review queue' }).waitFor();
  await page.getByRole('cell', { name: 'Iris Inconclusive', exact: true }).waitFor();
  // and its case, among the cases waiting for a reviewer, with its one check to review (the page
  // listed checks only)
  const cases = page.getByRole('region', { name: 'Cases' });
  const caseRow = cases.getByRole('row', { name: /Maison Lumiere/ });
  await caseRow.waitFor();
  assert.equal(await caseRow.getByRole('cell').nth(2).textContent(), '1');
  await shot(page, '06-review-queue');
  await page
    .getByRole('row', { name: /Iris Inconclusive/ })
    .getByRole('link', { name: 'Maison Lumiere' })
    .click();
  await page.getByRole('heading', { level: 1, name: 'Maison Lumiere' }).waitFor();

  // review it from her panel
  const graph = page.getByTestId('case-graph');
  await graph.locator(`[data-entity-id="${iris.id}"]`).click();
  const panel = page.getByTestId('entity-panel');
  await panel.getByRole('heading', { name: 'Iris Inconclusive' }).waitFor();
  // the queue's link names the check: it is open already
  const row = panel.locator(`[data-check-id="${ekyc.id}"]`);
  assert.equal(await row.getAttribute('aria-expanded'), 'true');
  const checkPanel = page.locator(`#check-${ekyc.id}`);
  await checkPanel.getByLabel('Comment').fill('Identity confirmed on a video call.');
  await shot(page, '07-check-review');
  await checkPanel.getByRole('button', { name: 'Approve' }).click();
  const reviewed = await eventually(async () => {
    const c = await api.get(`/v1/checks/ekyc/${ekyc.id}`);
    return c.body.status === 'approved' && c.body;
  });
  assert.equal(reviewed.data.review.reviewer_type, 'user');
  assert.equal(reviewed.data.review.user?.email, admin.email);
  assert.equal(reviewed.data.review.comment, 'Identity confirmed on a video call.');

  // share the client portal with her
  await page.getByRole('button', { name: 'Share the client portal' }).click();
  const share = page.getByRole('dialog', { name: 'Share the client portal link' });
  // the dialog says, before the link is made, that it withdraws the one sent before (it did so
  // silently), read with the contact's choice
  const replaces =
    'Any link already sent to this contact for this case stops working once the new one is created.';
  await share.getByText(replaces).waitFor();
  assert.equal(
    await share.getByRole('combobox', { name: 'Business contact' }).getAttribute('aria-describedby'),
    await share.getByText(replaces).getAttribute('id'),
  );
  await share.getByRole('button', { name: 'Create the link' }).click();
  const link = await share.getByRole('textbox').inputValue();
  assert.match(link, /\/portal\/#token=vcp_/);
  await shot(page, '08-portal-link');
  // one row of actions as in every dialog: Close, then Copy, side by side (Copy spanned the dialog,
  // Close under it)
  const closeBox = await share.getByRole('button', { name: 'Close' }).boundingBox();
  const copyBox = await share.getByRole('button', { name: 'Copy' }).boundingBox();
  assert.ok(closeBox && copyBox, 'both buttons shown');
  assert.ok(closeBox.x + closeBox.width <= copyBox.x, JSON.stringify({ closeBox, copyBox }));
  assert.ok(Math.abs(closeBox.y - copyBox.y) < 2, JSON.stringify({ closeBox, copyBox }));
  await share.getByRole('button', { name: 'Close' }).click();

  // approve the case
  await page.getByRole('button', { name: 'Review the case' }).click();
  const review = page.getByRole('dialog', { name: 'Review the case' });
  await review.getByLabel('Approve').check();
  await review.getByLabel('Comment').fill('KYB complete.');
  await review.getByRole('button', { name: 'Record the review' }).click();
  await page.getByTestId('case-status').getByText('Approved').waitFor();
  await shot(page, '09-case-approved');
  const decided = await api.get(`/v1/cases/${caseId}`);
  assert.equal(decided.body.status, 'approved');
  assert.equal(decided.body.review.comment, 'KYB complete.');

  // back on the list: the case under its status, with the counts
  await page.getByRole('link', { name: 'Cases', exact: true }).click();
  await page.getByRole('button', { name: /Approved 1/ }).click();
  await page.getByRole('link', { name: 'Maison Lumiere' }).waitFor();
  await shot(page, '10-cases-approved');
  await shot(page, '10-cases-approved-tablet', 768);
  assert.deepEqual(errors, []);
});
