/**
 * The new-case page and the report button as an analyst uses them (console walk, 2026-12-07): a
 * country typed as a name is refused, not cut to two letters (`Narnia` made a case in Namibia); the
 * registry button says what it will create, with or without the officers; a report asked for in the
 * console is in the browser's time zone, as every time the console shows (it was Paris's).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type ChromiumSession, openChromium, SCREENSHOT_DIR, signedInPage } from '../helpers/browser.ts';
import { createConsoleUser } from '../helpers/console-session.ts';
import { uploadRef } from '../helpers/files.ts';
import { type Client, eventually, getHarness, newWorkspace } from '../helpers/harness.ts';
import { passportPng } from '../helpers/id-documents.ts';
import { type LiveServer, listen } from '../helpers/live-server.ts';

let server: LiveServer;
let base: string;
let chrome: ChromiumSession;
let api: Client;
let reviewer: { email: string; password: string };

before(async () => {
  server = await listen();
  base = `http://127.0.0.1:${server.port}`;
  const { ctx } = await getHarness();
  api = await newWorkspace('console-new-case-report');
  reviewer = await createConsoleUser(ctx, api.workspaceId, { role: 'reviewer' });
  chrome = await openChromium({
    viewport: { width: 1280, height: 900 },
    locale: 'en-GB',
    timezoneId: 'America/New_York',
  });
});
after(async () => {
  await chrome?.close();
  await server?.close();
});

describe('console: new case and report', { timeout: 300_000 }, () => {
  test('a country typed as a name is refused naming the field, not cut to two letters', async () => {
    const page = await signedInPage(chrome, base, reviewer);
    await page.goto(`${base}/console/cases/new`);
    await page.getByRole('button', { name: 'By hand' }).click();
    const byHand = page.getByRole('form', { name: 'By hand' });
    await byHand.getByLabel('Company name').fill('Narnia Trading');
    const country = byHand.getByLabel('Country (ISO code, e.g. FR)');
    await country.fill('Narnia');
    assert.equal(await country.inputValue(), 'Narnia', 'the field keeps what was typed');
    await byHand.getByRole('button', { name: 'Create the case' }).click();
    const alert = byHand.getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /country/i);
    // said under the Country field, not in the grid's next free cell beside "Contact e-mail"
    const countryBox = await country.boundingBox();
    const alertBox = await alert.boundingBox();
    assert.ok(countryBox && alertBox);
    assert.ok(Math.abs(alertBox.x - countryBox.x) <= 2, 'the refusal starts where the field does');
    assert.ok(
      alertBox.y >= countryBox.y + countryBox.height && alertBox.y - (countryBox.y + countryBox.height) < 40,
      'the refusal is right under the field',
    );
    assert.equal(await country.getAttribute('aria-invalid'), 'true');
    // the field itself stays in line with the others of its row
    const companyBox = await byHand.getByLabel('Company name').boundingBox();
    assert.ok(companyBox && Math.abs(companyBox.y - countryBox.y) <= 2, 'Country in line with Company name');
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'console-new-case-refused-country.png') });
    assert.equal(page.url(), `${base}/console/cases/new`);
    assert.equal((await api.get('/v1/cases?name=Narnia%20Trading')).body.pagination.count, 0);
    // the contact's rule is said once above its fields
    await byHand.getByText('The business contact is optional (both names, or neither)').waitFor();
    await page.close();
  });

  test('the registry button names what it creates: with the officers, or the company alone', async () => {
    const page = await signedInPage(chrome, base, reviewer);
    await page.goto(`${base}/console/cases/new`);
    const registry = page.getByRole('form', { name: 'From the registry' });
    await registry.getByLabel('Company name').fill('Maison Lumiere');
    await registry.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('status').filter({ hasText: '1 company found' }).waitFor();
    await page
      .getByRole('button', { name: 'Create the case with this company, its officers and owners' })
      .waitFor();
    await page.getByLabel('Import the officers and owners of the company chosen').uncheck();
    await page.getByRole('button', { name: 'Create the case with this company', exact: true }).click();
    await page.waitForURL(/\/console\/cases\/[0-9a-f-]{36}$/);
    const caseId = page.url().split('/').pop() as string;
    const made = (await api.get(`/v1/cases/${caseId}`)).body;
    assert.equal(made.companies.length, 1);
    assert.equal(made.individuals.length, 0);
    await page.close();
  });

  test('the sign-in lockout reads in the page language, its wait in minutes', async () => {
    const { ctx } = await getHarness();
    const locked = await createConsoleUser(ctx, api.workspaceId, { role: 'viewer' });
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${base}/console/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: locked.email, password: 'not the password' }),
      });
      assert.equal(res.status, 401);
    }
    await chrome.context.clearCookies();
    const page = await chrome.context.newPage();
    await page.goto(`${base}/console/`);
    await page.getByLabel('Language').selectOption('fr');
    await page.getByLabel('E-mail').fill(locked.email);
    await page.getByLabel('Mot de passe').fill(locked.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(
      (await alert.textContent()) ?? '',
      /^Connexion refusée : trop de tentatives échouées pour cet e-mail : réessayez dans \d+ min\.$/,
    );
    await page.getByLabel('Langue').selectOption('en');
    await page.close();
  });

  test('a check being verified: the case page follows it until it settles, without a reload', async () => {
    const kase = await api.post('/v1/cases', {
      name: 'Check in progress',
      companies: [{ type: 'main', name: 'Acme SAS', country: 'FR' }],
      individuals: [
        { first_name: 'Ada', last_name: 'Lovelace', relations: [{ roles: ['legal_representative'] }] },
      ],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    // the sandbox provider never answers this one: processing until someone acts
    const ref = await uploadRef(api, passportPng({ outcome: 'pending' }));
    const check = await api.post('/v1/checks/id_document', {
      individual_id: kase.body.individuals[0].id,
      data: { front_upload_ref: ref },
    });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    await eventually(async () => {
      const res = await api.get(`/v1/checks/id_document/${check.body.id}`);
      return res.body.status === 'processing' || undefined;
    });
    const page = await signedInPage(chrome, base, reviewer);
    await page.goto(`${base}/console/cases/${kase.body.id}?check=${check.body.id}`);
    const row = page.locator(`[data-check-id="${check.body.id}"]`);
    await row.getByText('Processing').waitFor();
    // settled elsewhere (another person, a provider): the page shows it, with no reload
    assert.equal((await api.post(`/v1/checks/id_document/${check.body.id}/force_review`, {})).status, 200);
    await row.getByText('To review').waitFor({ timeout: 20_000 });
    await page
      .locator(`#check-${check.body.id}`)
      .getByTestId('check-waiting-reason')
      .getByText(/pushed to review \(force_review\)/)
      .waitFor();
    await page.close();
  });

  test("a report asked for in the console is in the browser's time zone", async () => {
    const kase = (await api.post('/v1/cases', { name: 'Report zone' })).body;
    const page = await signedInPage(chrome, base, reviewer);
    await page.goto(`${base}/console/cases/${kase.id}`);
    await page.getByRole('button', { name: 'Generate the report' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Report requested/ })
      .waitFor();
    const { ctx } = await getHarness();
    const report = await eventually(async () =>
      ctx.db.selectFrom('case_reports').select('timezone').where('case_id', '=', kase.id).executeTakeFirst(),
    );
    assert.equal(report.timezone, 'America/New_York');
    // the page follows the report until it is made, then offers it
    await page
      .getByRole('status')
      .filter({ hasText: /Report ready/ })
      .waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Open the documents' }).click();
    await page.getByTestId('case-documents').getByText('Case report').first().waitFor();
    // a report is told from another of the case by when it was made, to the second (two made a
    // minute apart were both "Case report (…) · 08:13"): in the list and in the viewer's heading
    const docs = page.getByTestId('case-documents');
    const item = docs.getByRole('button', { name: /Case report/ }).first();
    assert.match((await item.textContent()) ?? '', /\d{1,2} \w{3} \d{4}, \d{2}:\d{2}:\d{2}/);
    await item.click();
    assert.match(
      (await docs.getByTestId('document-view').getByRole('heading', { level: 3 }).textContent()) ?? '',
      /^Case report \(America\/New_York\) · \d{1,2} \w{3} \d{4}, \d{2}:\d{2}:\d{2}$/,
    );
    await page.close();
  });
});
