/**
 * The console's workspace pages and its access rules, in headless Chromium (Debian's chromium through
 * playwright-core) against the real service on a socket, signed in with console sessions:
 * - an admin goes through every settings page (screenshots of each, at 1280 px and 768 px) and does
 *   the writes each offers, each read back through the API with the workspace key: settings, a case
 *   template, a document type, a document template published, a webhook whose failed delivery is
 *   retried from its log, an API key shown once then revoked, a user created, demoted, suspended,
 *   a client portal wait step; the audit log lists what the admin did;
 * - a viewer sees no write control, and the server refuses the writes the page would have made
 *   (403 naming the role), sent from the viewer's own page with its CSRF token;
 * - a write without the CSRF token, or with a wrong one, is refused (403) and changes nothing;
 * - an ended session (expired, or revoked by an admin) sends the console back to the sign-in page;
 * - French: the pages in French;
 * - keyboard only: an API key created and its dialog closed without a mouse, focus returning.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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
import { createConsoleUser, signInHeaders } from '../helpers/console-session.ts';
import { type Client, eventually, getHarness, newWorkspace } from '../helpers/harness.ts';
import { type LiveServer, listen } from '../helpers/live-server.ts';

let server: LiveServer;
let base: string;
let chrome: ChromiumSession;
let ws: Client;
let other: Client;
let admin: { id: string; email: string; password: string };
let viewer: { id: string; email: string; password: string };
let receiver: http.Server;
let receiverUrl: string;
/** The receiver answers 500 until `accepting` is set, then 200. */
let accepting = false;
/** The headers of the last POST the receiver got. */
let lastHeaders: http.IncomingHttpHeaders = {};
const shots: string[] = [];

const SECTIONS = [
  'general',
  'templates',
  'document-types',
  'document-templates',
  'webhooks',
  'api-keys',
  'users',
  'audit-log',
  'client-portal',
] as const;

async function shot(page: Page, name: string, width = 1280) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const before = page.viewportSize();
  await page.setViewportSize({ width, height: 900 });
  const file = path.join(SCREENSHOT_DIR, `console-${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled', caret: 'hide' });
  shots.push(path.relative(process.cwd(), file));
  if (before) await page.setViewportSize(before);
}

/** A page signed in as `who` (the session cookie the sign-in page would have set). */
async function signedIn(who: { email: string; password: string }): Promise<Page> {
  return signedInPage(chrome, base, who);
}

async function openSection(page: Page, section: string) {
  await page.goto(`${base}/console/settings/${section}`);
  await page.locator(`section.settings-main[data-section="${section}"]`).waitFor();
  // the page's data is there when its loading lines are gone (the first of none is detached)
  await page
    .locator('section.settings-main .settings-muted')
    .filter({ hasText: /^(Loading…|Chargement…)$/ })
    .first()
    .waitFor({ state: 'detached' });
}

/** A /v1 call from inside the page: the browser's session cookie, and the CSRF header if given. */
async function fetchFromPage(
  page: Page,
  method: string,
  url: string,
  body: unknown,
  csrf: string | null,
): Promise<{ status: number; body: { message?: string } }> {
  return page.evaluate(
    async ({ method, url, body, csrf }) => {
      const res = await fetch(url, {
        method,
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', ...(csrf ? { 'x-csrf-token': csrf } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : {} };
    },
    { method, url, body, csrf },
  );
}

/** The page's CSRF token, as the console reads it (GET /console/api/session). */
async function csrfOf(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const res = await fetch('/console/api/session', { credentials: 'same-origin' });
    return ((await res.json()) as { csrf_token: string }).csrf_token;
  });
}

before(async () => {
  server = await listen();
  base = `http://127.0.0.1:${server.port}`;
  const { ctx } = await getHarness();
  ws = await newWorkspace('console-access');
  other = await newWorkspace('console-access-other');
  admin = await createConsoleUser(ctx, ws.workspaceId, {
    role: 'admin',
    firstName: 'Ada',
    lastName: 'Admin',
  });
  viewer = await createConsoleUser(ctx, ws.workspaceId, {
    role: 'viewer',
    firstName: 'Vic',
    lastName: 'Viewer',
  });
  receiver = http.createServer((req, res) => {
    req.resume();
    lastHeaders = req.headers;
    req.on('end', () => {
      res.statusCode = accepting ? 200 : 500;
      res.end(accepting ? 'ok' : 'not yet');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  chrome = await openChromium({ viewport: { width: 1280, height: 900 } });
});

after(async () => {
  await chrome?.close();
  await server?.close();
  await new Promise((r) => receiver?.close(r));
  console.log(`screenshots (${shots.length}) in ${SCREENSHOT_DIR}:\n  ${shots.join('\n  ')}`);
});

// one browser walks every page in one test: minutes on a loaded machine, so its own budget
describe('console workspace pages', { timeout: 900_000 }, () => {
  test('an admin changes the general settings', async () => {
    const page = await signedIn(admin);
    await openSection(page, 'general');
    await page.getByRole('heading', { level: 2, name: 'Settings' }).waitFor();
    const save = page.getByRole('button', { name: 'Save' });
    assert.equal(await save.isDisabled(), true, 'nothing to save before a change');
    await page.getByLabel('A case review must carry a comment').check();
    await page.getByLabel('High risk').fill('6');
    await page.getByLabel('Checks per month').fill('500');
    // the screened lists show the service's defaults while the workspace sets none
    assert.equal(await page.getByLabel('Politically exposed persons').isChecked(), true);
    assert.equal(await page.getByLabel('Adverse media').isChecked(), false);
    await page.getByLabel('Politically exposed persons').uncheck();
    // each type by its name, as everywhere in the console (the table showed `id_verification`...)
    const autoTypes = page.getByRole('group', { name: 'Automatic decisions' }).getByRole('rowheader');
    assert.deepEqual(
      (await autoTypes.allTextContents()).filter((x) => /_/.test(x)),
      [],
      'no raw type key',
    );
    assert.ok((await autoTypes.allTextContents()).includes('ID verification'));
    assert.equal(await page.getByLabel('Approve automatically: Document', { exact: true }).isChecked(), true);
    await page.getByLabel('Approve automatically: Document', { exact: true }).uncheck();
    await shot(page, 'settings-general');
    await save.click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const s = await ws.get('/v1/workspace/settings');
    assert.equal(s.status, 200);
    assert.equal(s.body.case_review.comment_mandatory, true);
    assert.equal(s.body.case_review.frequency_in_months.high, 6);
    assert.equal(s.body.checks.limit, 500);
    assert.deepEqual(s.body.checks.aml.list_types, ['sanction', 'warning', 'fitness_probity']);
    assert.deepEqual(s.body.checks.document, { automatic_approval: false });
    // only what changed was sent: the other types' settings are still the service's defaults
    assert.equal(s.body.checks.ekyc, undefined);
    // a value the server refuses is shown with the field it names, and nothing changes
    await page.getByLabel('High risk').fill('500');
    // past the browser's own check (max=120), to the server's
    await page.getByLabel('High risk').evaluate((el) => el.removeAttribute('max'));
    await save.click();
    await page.getByRole('alert').filter({ hasText: 'high' }).waitFor();
    assert.equal((await ws.get('/v1/workspace/settings')).body.case_review.frequency_in_months.high, 6);
    await page.close();
  });

  test('an admin creates a case template, a document type and a published document template', async () => {
    const page = await signedIn(admin);
    await openSection(page, 'document-types');
    await page.getByRole('button', { name: 'New document type' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Label').fill('Proof of funds');
    await dialog.getByLabel('Key').fill('proof_of_funds');
    await dialog.getByLabel('individuals').check();
    await dialog.getByLabel('companies').uncheck();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: 'Proof of funds' }).waitFor();
    await shot(page, 'settings-document-types');
    // a built-in type is never archived (the server refuses): no Archive, it says Built in; the
    // workspace's own type has one
    const builtIn = page.getByRole('row').filter({ hasText: 'registration_certificate' });
    assert.equal(await builtIn.getByRole('button', { name: 'Archive' }).count(), 0);
    await builtIn.getByText('Built in', { exact: true }).waitFor();
    const own = page.getByRole('row').filter({ hasText: 'proof_of_funds' });
    assert.equal(await own.getByRole('button', { name: 'Archive' }).count(), 1);
    const types = await ws.get('/v1/document_types?limit=100');
    const created = types.body.data.find((d: { key: string }) => d.key === 'proof_of_funds');
    assert.deepEqual(created.target_entities, ['individual']);
    // the same key again: the server's 409 is shown in the dialog
    await page.getByRole('button', { name: 'New document type' }).click();
    await dialog.getByLabel('Label').fill('Again');
    await dialog.getByLabel('Key').fill('proof_of_funds');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByRole('alert').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await openSection(page, 'templates');
    await page.getByRole('button', { name: 'New template' }).click();
    await dialog.getByLabel('Name').fill('KYB standard');
    await dialog.getByLabel('Key').fill('kyb_standard');
    await dialog.getByRole('button', { name: 'Add a check' }).click();
    await dialog.getByLabel('beneficial owners').check();
    await dialog.getByRole('button', { name: 'Add a check' }).click();
    const second = dialog.locator('fieldset.settings-check-row').nth(1);
    assert.deepEqual((await second.getByLabel('Check type').locator('option').allInnerTexts()).slice(0, 2), [
      'AML screening',
      'eKYC',
    ]);
    await second.getByLabel('Check type').selectOption('document');
    await second.getByLabel('individuals').uncheck();
    await second.getByLabel('main company').check();
    await second
      .getByLabel('Settings (JSON, optional)')
      .fill('{"document_type_key": "registration_certificate"}');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: /KYB standard/ }).waitFor();
    // check types by their names, not their API keys (walk 54)
    const row = await page.getByRole('row', { name: /KYB standard/ }).innerText();
    assert.match(row, /AML screening →/);
    assert.match(row, /Document →/);
    assert.doesNotMatch(row, /\baml →/);
    await shot(page, 'settings-templates');
    const tpl = (await ws.get('/v1/templates')).body.data.find(
      (t: { key: string }) => t.key === 'kyb_standard',
    );
    assert.deepEqual(tpl.checks, [
      { type: 'aml', targets: ['individuals', 'beneficial_owners'], settings: {} },
      {
        type: 'document',
        targets: ['main_company'],
        settings: { document_type_key: 'registration_certificate' },
      },
    ]);

    await openSection(page, 'document-templates');
    await page.getByRole('button', { name: 'New document template' }).click();
    await dialog.getByLabel('Name').fill('Engagement letter');
    await dialog.getByLabel('Key').fill('engagement_letter');
    await dialog.getByLabel('Kind').selectOption('electronic_signature');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Versions of “Engagement letter”' }).waitFor();
    await page.getByRole('button', { name: 'Add a version' }).click();
    // a syntax error: the parser's quote of the line, its caret under the fault, monospaced
    await dialog.getByLabel('Content (HTML)').fill('<h1>Engagement letter</h1>\n<p>{{#if company.name}</p>');
    await dialog.getByRole('button', { name: 'Save the draft' }).click();
    const syntax = dialog.getByRole('alert');
    await syntax.waitFor();
    assert.match((await syntax.innerText()) ?? '', /line 2[\s\S]*\n-*\^/);
    assert.equal(await syntax.evaluate((el: any) => el.className), 'settings-error is-code');
    assert.match(
      await syntax.evaluate((el: any) => (globalThis as any).getComputedStyle(el).fontFamily),
      /mono/i,
    );
    await dialog.getByLabel('Content (HTML)').fill('<h1>Engagement letter</h1><p>{{company.name}}</p>');
    await dialog.getByRole('button', { name: 'Save the draft' }).click();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('(in use)').waitFor();
    await shot(page, 'settings-document-templates');
    const dt = await ws.get('/v1/document-templates/engagement_letter');
    assert.equal(dt.body.published_version, 1);
    assert.equal(dt.body.kind, 'electronic_signature');
    await page.close();
  });

  test('the webhook dialog in French at 1280px breaks no event name inside (Individual.*, DocumentOrder.*)', async () => {
    const page = await signedIn(admin);
    await page.setViewportSize({ width: 1280, height: 900 });
    await openSection(page, 'webhooks');
    await page.getByLabel('Language').selectOption('fr');
    await page.getByRole('button', { name: 'Nouveau webhook' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('.event-picker').waitFor();
    // every family's list open: the longest names (DocumentOrder.Completed...) shown too
    for (const d of await dialog.locator('.event-family details').all())
      await d.evaluate((el: any) => el.setAttribute('open', ''));
    // a name's text laid out on more than one line has boxes at more than one height (its code
    // element is a flex item, one box: its text's range is measured)
    const broken: string[] = await dialog.locator('.event-picker code').evaluateAll((els: any[]) =>
      els
        .filter((el) => {
          const range = el.ownerDocument.createRange();
          range.selectNodeContents(el);
          const tops = new Set([...range.getClientRects()].map((r: any) => Math.round(r.top)));
          return tops.size > 1;
        })
        .map((el) => el.textContent as string),
    );
    await shot(page, 'settings-webhook-events-fr');
    await dialog.evaluate((el: any) => {
      el.scrollTop = el.scrollHeight;
    });
    await shot(page, 'settings-webhook-events-fr-end');
    assert.deepEqual(broken, [], `event names broken across lines: ${broken.join(', ')}`);
    // and nothing spills out of the dialog sideways
    assert.equal(await dialog.evaluate((el: any) => el.scrollWidth <= el.clientWidth), true);
    await page.keyboard.press('Escape');
    await page.getByLabel('Langue').selectOption('en');
    await page.close();
  });

  test('an admin creates a webhook, sees its failed delivery and retries it', async () => {
    const page = await signedIn(admin);
    await openSection(page, 'webhooks');
    await page.getByRole('button', { name: 'New webhook' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('CRM');
    await dialog.getByLabel('URL').fill(receiverUrl);
    // the events: families' boxes (Case.* and Check.* ticked for a new webhook), or chosen names
    const cases = dialog.getByRole('group', { name: 'Cases' });
    const checks = dialog.getByRole('group', { name: 'Checks' });
    assert.equal(await cases.getByRole('checkbox', { name: 'Every event Case.*' }).isChecked(), true);
    await cases.getByRole('checkbox', { name: 'Every event Case.*' }).uncheck();
    await checks.getByRole('checkbox', { name: 'Every event Check.*' }).uncheck();
    // nothing chosen: said in the form, nothing sent
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByRole('alert').getByText('Choose at least one event.').waitFor();
    assert.equal((await ws.get('/v1/webhooks')).body.data.length, 0);
    await cases.getByText('Choose events (0 of 17)').click();
    await cases.getByRole('checkbox', { name: 'Case.Created', exact: true }).check();
    await cases.getByText('Choose events (1 of 17)').waitFor();
    await shot(page, 'settings-webhook-events');
    // the form's one select (a label around a select is named after its option too)
    await dialog.locator('select').selectOption('hmac_sha256_hex');
    await dialog.getByRole('textbox', { name: /^Signature header/ }).fill('X-Crm-Signature');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: 'CRM', exact: true }).waitFor();
    const hook = (await ws.get('/v1/webhooks')).body.data[0];
    assert.equal(hook.url, receiverUrl);
    assert.deepEqual(hook.events, ['Case.Created']);
    assert.equal(hook.signature, 'hmac_sha256_hex');
    assert.equal(hook.signature_header, 'x-crm-signature');

    // an event: the receiver answers 500 to its first delivery
    const kase = await ws.post('/v1/cases', { name: 'Webhook case' });
    assert.equal(kase.status, 201);
    const failed = await eventually(async () => {
      const logs = await ws.get(`/v1/webhook-logs?webhook_id=${hook.id}`);
      const l = logs.body.data[0];
      return l && l.attempts.length >= 1 && l.status !== 'sending' ? l : null;
    });
    assert.equal(failed.status_code, 500);
    // signed as chosen: the hex HMAC in the header named
    assert.match(String(lastHeaders['x-crm-signature']), /^[0-9a-f]{64}$/);
    assert.notEqual(failed.status, 'delivered');
    // the row's Deliveries: the log below shows this webhook's, and takes the focus
    await page
      .getByRole('row')
      .filter({ hasText: receiverUrl })
      .getByRole('button', { name: 'Deliveries' })
      .click();
    assert.equal(
      await page.locator('section[aria-labelledby="webhook-deliveries"] select').first().inputValue(),
      hook.id,
    );
    assert.equal(await page.evaluate('document.activeElement?.id'), 'webhook-deliveries');
    await page.getByRole('button', { name: 'Refresh' }).click();
    const row = page.locator(`tr[data-delivery="${failed.id}"]`);
    await row.getByText('500').waitFor();
    await row.getByRole('button', { name: 'Case.Created' }).click();
    await page.getByText('not yet').waitFor();
    // each attempt: its status, then how long it took
    await page
      .locator('.settings-attempts li')
      .filter({ hasText: /HTTP 500 — \d+ ms/ })
      .first()
      .waitFor();
    await shot(page, 'settings-webhooks');
    // the receiver is fixed; the retry from the log delivers (an automatic retry may come first:
    // the manual one is made all the same)
    accepting = true;
    await row.getByRole('button', { name: 'Retry now' }).click();
    const delivered = await eventually(async () => {
      const l = (await ws.get(`/v1/webhook-logs?webhook_id=${hook.id}`)).body.data[0];
      const manual = l.attempts.find((a: { type: string }) => a.type === 'manual_retry');
      return l.status === 'delivered' && manual?.status_code === 200 ? l : null;
    });
    assert.equal(delivered.status_code, 200);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await row.getByText('Delivered').waitFor();

    // the secret is hidden until asked for
    assert.equal(await page.getByTestId('webhook-secret').count(), 0);
    await page.getByRole('button', { name: 'Show' }).click();
    assert.equal(await page.getByTestId('webhook-secret').textContent(), hook.secret);

    // editing: a name the form does not offer (subscribed through the API) is kept; a family's
    // box replaces its chosen names by its wildcard, and "All events" replaces everything
    assert.equal(
      (await ws.patch(`/v1/webhooks/${hook.id}`, { events: ['Case.Created', 'AutonomyChatRun.*'] })).status,
      200,
    );
    await page.reload();
    await page
      .getByRole('row')
      .filter({ hasText: receiverUrl })
      .getByRole('button', { name: 'Edit' })
      .click();
    const edit = page.getByRole('dialog');
    await edit.getByText('Also subscribed through the API (kept): AutonomyChatRun.*').waitFor();
    // the list of a family with chosen names is open
    assert.equal(await edit.getByRole('checkbox', { name: 'Case.Created', exact: true }).isChecked(), true);
    await edit
      .getByRole('group', { name: 'Document orders' })
      .getByRole('checkbox', { name: 'Every event DocumentOrder.*' })
      .check();
    await edit
      .getByRole('group', { name: 'Case reports' })
      .getByRole('checkbox', { name: 'Every event CaseReport.*' })
      .check();
    await edit
      .getByRole('group', { name: 'Cases' })
      .getByRole('checkbox', { name: 'Every event Case.*' })
      .check();
    // the names of a whole family are ticked and cannot be unticked one by one
    assert.equal(
      await edit.getByRole('checkbox', { name: 'Case.ReviewDue', exact: true }).isDisabled(),
      true,
    );
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: /DocumentOrder\.\*/ }).waitFor();
    assert.deepEqual([...(await ws.get(`/v1/webhooks/${hook.id}`)).body.events].sort(), [
      'AutonomyChatRun.*',
      'Case.*',
      'CaseReport.*',
      'DocumentOrder.*',
    ]);
    await page
      .getByRole('row')
      .filter({ hasText: receiverUrl })
      .getByRole('button', { name: 'Edit' })
      .click();
    await page.getByRole('dialog').getByRole('checkbox', { name: 'All events *' }).check();
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: '*', exact: true }).waitFor();
    assert.deepEqual((await ws.get(`/v1/webhooks/${hook.id}`)).body.events, ['*']);
    await page.close();
  });

  test('an admin creates an API key shown once, then revokes it', async () => {
    const page = await signedIn(admin);
    await openSection(page, 'api-keys');
    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('CRM integration');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const secret = dialog.getByTestId('once-secret');
    await secret.waitFor();
    const key = await secret.inputValue();
    await shot(page, 'settings-api-keys-created');
    assert.equal((await ws.get('/v1/ping', { 'x-service-api-key': key })).status, 200);
    await dialog.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row').filter({ hasText: 'CRM integration' });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /Ada Admin/);
    // once closed, the key is nowhere in the page
    assert.equal((await page.content()).includes(key), false);
    await shot(page, 'settings-api-keys');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await row.waitFor({ state: 'detached' });
    // it left the list (revoked keys are hidden): said so
    await page
      .getByRole('status')
      .filter({ hasText: 'The key “CRM integration” is revoked: programs using it are refused from now on.' })
      .waitFor();
    assert.equal((await ws.get('/v1/ping', { 'x-service-api-key': key })).status, 401);
    await page.close();
  });

  test("the browser's own checks speak the console's language: a user's e-mail and password, the AML tolerance", async () => {
    const page = await signedIn(admin);
    await openSection(page, 'users');
    await page.getByLabel('Language').selectOption('fr');
    await page.getByRole('button', { name: 'Nouvel utilisateur' }).click();
    const dialog = page.getByRole('dialog');
    const email = dialog.getByLabel('E-mail');
    // the message the browser shows in its bubble when the form is sent
    const message = (field: typeof email) => field.evaluate((el: any) => el.validationMessage as string);
    await email.fill('paula');
    await dialog.getByRole('button', { name: 'Créer' }).click();
    assert.equal(await message(email), 'Saisissez une adresse e-mail, comme nom@exemple.fr.');
    await email.fill('paula@example.test');
    assert.equal(await message(email), '', 'an edit clears the message: the field is valid again');
    const password = dialog.getByLabel(/^Mot de passe/);
    await password.fill('short');
    await dialog.getByRole('button', { name: 'Créer' }).click();
    assert.equal(await message(password), 'Au moins 10 caractères (actuellement 5).');
    assert.equal(
      (await ws.get('/v1/users')).body.data?.some((u: any) => u.email === 'paula@example.test') ?? false,
      false,
    );
    await page.keyboard.press('Escape');
    await openSection(page, 'general');
    const tolerance = page.getByLabel('Tolérance (de 0 à 1)');
    await tolerance.fill('2');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    assert.equal(await message(tolerance), 'Un nombre de 0 à 1.');
    await tolerance.fill('0.33');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    assert.equal(await message(tolerance), 'Un nombre par pas de 0,05.');
    await page.getByLabel('Langue').selectOption('en');
    await page.close();
  });

  test('an admin creates a user with a generated password, demotes and suspends them', async () => {
    const page = await signedIn(admin);
    await openSection(page, 'users');
    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('E-mail').fill('rita@example.test');
    await dialog.getByLabel('First name').fill('Rita');
    await dialog.getByLabel('Last name').fill('Reviewer');
    await dialog.getByLabel('Role').selectOption('reviewer');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const password = await dialog.getByTestId('once-secret').inputValue();
    assert.ok(password.length >= 10);
    await shot(page, 'settings-users-created');
    await dialog.getByRole('button', { name: 'Done' }).click();
    // the generated password signs Rita in
    const rita = await signInHeaders(base, 'rita@example.test', password);
    const me = await fetch(`${base}/console/api/session`, { headers: { cookie: rita.cookie } });
    assert.equal(((await me.json()) as { user: { role: string } }).user.role, 'reviewer');

    // the admin's own row: no suspending or demoting oneself (the last admin's would be a 409), and why
    const own = page.locator(`tr[data-user="${admin.email}"]`);
    assert.equal(await own.getByRole('button', { name: 'Suspend' }).isDisabled(), true);
    assert.equal(await own.getByRole('combobox').isDisabled(), true);
    await page.getByText('Your own role and access are changed by another administrator').waitFor();
    assert.equal(
      await own.getByRole('button', { name: 'Suspend' }).getAttribute('aria-describedby'),
      'users-self-hint',
    );

    const row = page.locator('tr[data-user="rita@example.test"]');
    await row.getByLabel('Role of Rita Reviewer').selectOption('viewer');
    await page.getByRole('status').filter({ hasText: 'Rita Reviewer is now Viewer.' }).waitFor();
    const users = (await ws.get('/v1/users?include_suspended=true')).body.data;
    const ritaUser = users.find((u: { email: string }) => u.email === 'rita@example.test');
    assert.equal(ritaUser.role, 'viewer');
    await shot(page, 'settings-users');

    await row.getByRole('button', { name: 'Suspend' }).click();
    // the confirmation is centred like every dialog (a row's margin rule set it in the top-left corner)
    const confirmBox = await dialog.evaluate((el: any) => {
      const r = el.getBoundingClientRect();
      const view = el.ownerDocument.defaultView;
      return {
        left: r.left,
        right: view.innerWidth - r.right,
        top: r.top,
        bottom: view.innerHeight - r.bottom,
      };
    });
    assert.ok(Math.abs(confirmBox.left - confirmBox.right) <= 2, JSON.stringify(confirmBox));
    assert.ok(
      confirmBox.top > 0 && Math.abs(confirmBox.top - confirmBox.bottom) <= 2,
      JSON.stringify(confirmBox),
    );
    await dialog.getByRole('button', { name: 'Suspend' }).click();
    await page.getByRole('status').filter({ hasText: 'Rita Reviewer is suspended.' }).waitFor();
    assert.ok((await ws.get(`/v1/users/${ritaUser.id}`)).body.suspended_at);
    // suspending ended her session
    const after = await fetch(`${base}/console/api/session`, { headers: { cookie: rita.cookie } });
    assert.equal(after.status, 401);
    await page.close();
  });

  test('an admin edits the client portal: a wait step and the colour', async () => {
    const page = await signedIn(admin);
    await openSection(page, 'client-portal');
    await page.getByRole('button', { name: 'Add a wait step' }).click();
    await page.getByLabel('Key').fill('compliance_review');
    await page.getByLabel('Title').fill('Our compliance team reviews your file');
    // the languages by their names (they were codes: en, fr, it...)
    assert.equal(
      await page.getByLabel('Default language').locator('option[value="fr"]').textContent(),
      'French (français, fr)',
    );
    await page.getByLabel('Default language').selectOption('fr');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await shot(page, 'settings-client-portal');
    const portal = (await ws.get('/v1/client-portals')).body.data[0];
    assert.deepEqual(portal.wait_steps, [
      { key: 'compliance_review', title: 'Our compliance team reviews your file' },
    ]);
    assert.equal(portal.default_language, 'fr');
    await page.close();
  });

  test('the audit log shows what the admin did', async () => {
    const page = await signedIn(admin);
    await openSection(page, 'audit-log');
    // the user is named by the e-mail they had then
    await page.getByRole('cell', { name: admin.email }).first().waitFor();
    await page.getByLabel('By').selectOption('api_key');
    await page.getByRole('button', { name: 'Filter' }).click();
    // the filtered list is there when the admin's entries are gone
    await page.getByRole('cell', { name: admin.email }).first().waitFor({ state: 'detached' });
    await page
      .getByRole('cell', { name: /API key/ })
      .first()
      .waitFor();
    const keyKinds = await page.locator('tbody tr td:nth-child(2) .settings-badge').allTextContents();
    assert.ok(
      keyKinds.every((k) => k === 'API key'),
      keyKinds.join(),
    );
    await page.getByLabel('By').selectOption('user');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('cell', { name: admin.email }).first().waitFor();
    // only users' entries now (the list shows who in its second column)
    const kinds = await page
      .locator('tbody tr:not(.settings-detail-row) td:nth-child(2) .settings-badge')
      .allTextContents();
    assert.ok(kinds.length > 0 && kinds.every((k) => k === 'User'), kinds.join());
    // one user's actions: Rita (created, then suspended above) signed in once
    await page
      .locator('form.settings-filters select')
      .nth(1)
      .selectOption({ label: 'Rita Reviewer (rita@example.test)' });
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('cell', { name: admin.email }).first().waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'Signed in' }).first().waitFor();
    const who = await page.locator('tbody tr td:nth-child(2)').allTextContents();
    assert.ok(who.length > 0 && who.every((w) => w.includes('rita@example.test')), who.join());
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByRole('cell', { name: admin.email }).first().waitFor();
    // an entry's details: the request behind it
    await page.locator('tbody tr').first().getByRole('button').click();
    await page.getByText('Request id').waitFor();
    await shot(page, 'settings-audit-log');
    const api = await ws.get('/v1/audit-log?actor_type=user&limit=100');
    assert.equal(api.status, 200);
    assert.ok(api.body.data.some((e: { actor: { id: string } }) => e.actor.id === admin.id));
    await page.close();
  });

  test("a long audit log's estimated total is marked in the pager", async () => {
    const big = await newWorkspace('console-audit-many');
    const { ctx } = await getHarness();
    // 1,200 entries of an API key, seeded with SQL: past 1,000 the list's total is an estimate
    await sql`
      insert into audit_log (id, workspace_id, occurred_at, actor_type, actor_label, action, method, route, status_code)
      select gen_random_uuid(), ${big.workspaceId}, now() - make_interval(secs => g), 'api_key', 'Seed key',
        'cases.create', 'POST', '/v1/cases', 201
      from generate_series(1, 1200) g
    `.execute(ctx.db);
    await sql`analyze audit_log`.execute(ctx.db);
    const list = await big.get('/v1/audit-log');
    assert.equal(list.body.pagination.count_estimated, true, JSON.stringify(list.body.pagination));
    const owner = await createConsoleUser(ctx, big.workspaceId, { role: 'admin' });
    const page = await signedIn(owner);
    await openSection(page, 'audit-log');
    const pager = page.locator('nav.settings-pager span');
    await pager.filter({ hasText: '≈' }).waitFor();
    assert.match((await pager.textContent()) ?? '', new RegExp(`· ≈${list.body.pagination.count} in all$`));
    await page.close();
  });

  test('every settings page at tablet width', async () => {
    const page = await signedIn(admin);
    for (const s of SECTIONS) {
      await openSection(page, s);
      await shot(page, `settings-${s}-768`, 768);
    }
    await page.close();
  });
});

describe('console access', { timeout: 900_000 }, () => {
  test('a viewer sees no write control, and the server refuses the writes anyway', async () => {
    const page = await signedIn(viewer);
    await openSection(page, 'general');
    // read only: no save, the fields disabled
    assert.equal(await page.getByRole('button', { name: 'Save' }).count(), 0);
    assert.equal(await page.getByLabel('High risk').isDisabled(), true);
    await page.getByText('Read only: only administrators can change these settings.').waitFor();
    await shot(page, 'settings-viewer-general');
    // webhooks and API keys are not in the menu, and their pages say why
    const menu = page.getByRole('navigation', { name: 'Workspace settings' });
    assert.equal(await menu.getByRole('link', { name: 'Webhooks' }).count(), 0);
    assert.equal(await menu.getByRole('link', { name: 'API keys' }).count(), 0);
    for (const s of ['templates', 'document-types', 'document-templates', 'users', 'client-portal']) {
      await openSection(page, s);
      const buttons = await page
        .locator('section.settings-main button')
        .evaluateAll((els) => els.map((e) => e.textContent?.trim()));
      for (const b of buttons)
        assert.ok(
          !/^(New|Edit|Delete|Archive|Publish|Save|Suspend|Revoke|Add|Remove|Sign out)/.test(b ?? ''),
          `${s}: a viewer sees "${b}"`,
        );
      await shot(page, `settings-viewer-${s}`);
    }
    await openSection(page, 'users');
    assert.equal(
      await page.locator('section.settings-main').getByRole('combobox').count(),
      0,
      'no role selector for a viewer',
    );
    await openSection(page, 'webhooks');
    await page.getByText('Only administrators can see this page.').waitFor();
    // the new case page, typed in the address bar: its title and why not, no form
    await page.goto(`${base}/console/cases/new`);
    await page.getByRole('heading', { level: 1, name: 'New case' }).waitFor();
    await page.getByText('Only reviewers and administrators can create cases.').waitFor();
    assert.equal(await page.getByRole('textbox').count(), 0);
    assert.equal(await page.getByRole('button', { name: /Search|Create the case/ }).count(), 0);
    await shot(page, 'viewer-new-case');

    // forged writes from the viewer's own page, with its valid CSRF token: refused by the server
    const csrf = await csrfOf(page);
    const before = (await ws.get('/v1/workspace/settings')).body;
    const forged: [string, string, unknown][] = [
      ['PATCH', '/v1/workspace/settings', { case_review: { comment_mandatory: false } }],
      ['POST', '/v1/templates', { key: 'forged', name: 'Forged' }],
      ['POST', '/v1/document_types', { key: 'forged', label: 'Forged', target_entities: ['company'] }],
      ['POST', '/v1/users', { email: 'forged@example.test', role: 'admin' }],
      ['POST', '/v1/api-keys', { name: 'forged' }],
      ['POST', '/v1/webhooks', { url: receiverUrl, events: ['*'] }],
      ['POST', '/v1/cases', { name: 'Forged case' }],
    ];
    for (const [method, url, body] of forged) {
      const res = await fetchFromPage(page, method, url, body, csrf);
      assert.equal(res.status, 403, `${method} ${url}`);
      assert.match(res.body.message ?? '', /viewer/, `${method} ${url} names the role`);
    }
    // a viewer may not even read the webhooks (their secrets) or the keys
    assert.equal((await fetchFromPage(page, 'GET', '/v1/webhooks', undefined, null)).status, 403);
    assert.equal((await fetchFromPage(page, 'GET', '/v1/api-keys', undefined, null)).status, 403);
    // nothing changed
    assert.deepEqual((await ws.get('/v1/workspace/settings')).body, before);
    assert.equal(
      (await ws.get('/v1/templates')).body.data.some((t: { key: string }) => t.key === 'forged'),
      false,
    );
    assert.equal(
      (await ws.get('/v1/users?include_suspended=true')).body.data.some(
        (u: { email: string }) => u.email === 'forged@example.test',
      ),
      false,
    );
    await page.close();
  });

  test('a reviewer reads the settings without changing them; the server refuses admin writes', async () => {
    const { ctx } = await getHarness();
    const rev = await createConsoleUser(ctx, ws.workspaceId, { role: 'reviewer', firstName: 'Remy' });
    const page = await signedIn(rev);
    await openSection(page, 'general');
    assert.equal(await page.getByRole('button', { name: 'Save' }).count(), 0);
    assert.equal(await page.getByLabel('High risk').isDisabled(), true);
    const menu = page.getByRole('navigation', { name: 'Workspace settings' });
    assert.equal(await menu.getByRole('link', { name: 'Webhooks' }).count(), 0);
    await openSection(page, 'templates');
    assert.equal(await page.getByRole('button', { name: 'New template' }).count(), 0);
    const csrf = await csrfOf(page);
    const refused = await fetchFromPage(
      page,
      'POST',
      '/v1/templates',
      { key: 'by_reviewer', name: 'R' },
      csrf,
    );
    assert.equal(refused.status, 403);
    assert.match(refused.body.message ?? '', /reviewer/);
    const users = await fetchFromPage(page, 'PATCH', `/v1/users/${rev.id}`, { role: 'admin' }, csrf);
    assert.equal(users.status, 403);
    assert.equal((await ws.get(`/v1/users/${rev.id}`)).body.role, 'reviewer');
    // case work is theirs: a tag is created
    assert.equal((await fetchFromPage(page, 'POST', '/v1/tags', { label: 'by-reviewer' }, csrf)).status, 201);
    // in French the top bar names the role with the users page's word
    await openSection(page, 'users');
    await page.getByLabel('Language').selectOption('fr');
    const row = page.getByRole('row', { name: new RegExp(rev.email) });
    await row.getByText('Réviseur').waitFor();
    assert.equal((await page.locator('span.role[data-role]').textContent())?.trim(), 'Réviseur');
    await page.getByLabel('Langue').selectOption('en');
    await page.close();
  });

  test('a write without the CSRF token, or with a wrong one, is refused and changes nothing', async () => {
    const page = await signedIn(admin);
    await openSection(page, 'general');
    const none = await fetchFromPage(page, 'POST', '/v1/tags', { label: 'csrf-none' }, null);
    assert.equal(none.status, 403);
    assert.match(none.body.message ?? '', /CSRF/);
    const wrong = await fetchFromPage(page, 'POST', '/v1/tags', { label: 'csrf-wrong' }, 'not-the-token');
    assert.equal(wrong.status, 403);
    assert.match(wrong.body.message ?? '', /CSRF/);
    const tags = (await ws.get('/v1/tags?limit=100')).body.data.map((t: { label: string }) => t.label);
    assert.equal(tags.includes('csrf-none') || tags.includes('csrf-wrong'), false);
    // the same write with the token passes (the session is fine)
    const good = await fetchFromPage(page, 'POST', '/v1/tags', { label: 'csrf-ok' }, await csrfOf(page));
    assert.equal(good.status, 201);
    await page.close();
  });

  test("another workspace's ids are not found from the console", async () => {
    const page = await signedIn(admin);
    await openSection(page, 'general');
    const hook = await other.post('/v1/webhooks', { url: receiverUrl, events: ['*'] });
    assert.equal(hook.status, 201);
    const csrf = await csrfOf(page);
    assert.equal(
      (await fetchFromPage(page, 'GET', `/v1/webhooks/${hook.body.id}`, undefined, null)).status,
      404,
    );
    const del = await fetchFromPage(page, 'DELETE', `/v1/webhooks/${hook.body.id}`, undefined, csrf);
    assert.equal(del.status, 404);
    assert.equal((await other.get(`/v1/webhooks/${hook.body.id}`)).status, 200);
    await page.close();
  });

  test('a user changes their own password from the top bar; other browsers are signed out', async () => {
    const { app, ctx } = await getHarness();
    const pat = await createConsoleUser(ctx, ws.workspaceId, { role: 'viewer', firstName: 'Pat' });
    const elsewhere = await signInHeaders(app, pat.email, pat.password);
    const page = await signedIn(pat);
    await openSection(page, 'users');
    await page.getByRole('button', { name: 'Password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change your password' });
    await dialog.getByLabel('Current password').fill('not-my-password');
    await dialog.getByLabel('New password', { exact: true }).fill('a-brand-new-passw0rd');
    await dialog.getByLabel('New password again').fill('a-brand-new-passw0rd');
    await dialog.getByRole('button', { name: 'Change the password' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The current password is wrong.' }).waitFor();
    await shot(page, 'access-password-wrong');
    await dialog.getByLabel('Current password').fill(pat.password);
    await dialog.getByRole('button', { name: 'Change the password' }).click();
    await page.getByRole('status').filter({ hasText: 'Password changed.' }).waitFor();
    // the old password no longer signs in, the new one does; the other browser is signed out
    const login = (password: string) =>
      app.inject({ method: 'POST', url: '/console/api/login', payload: { email: pat.email, password } });
    assert.equal((await login(pat.password)).statusCode, 401);
    assert.equal((await login('a-brand-new-passw0rd')).statusCode, 200);
    const other = await app.inject({ method: 'GET', url: '/v1/ping', headers: elsewhere });
    assert.equal(other.statusCode, 401);
    // this browser stays signed in
    await openSection(page, 'document-types');
    assert.equal(await page.getByRole('heading', { name: 'Sign in to the console' }).count(), 0);
    await page.close();
  });

  test('an expired session, or one an admin ended, sends the console back to the sign-in page', async () => {
    const { ctx } = await getHarness();
    const eve = await createConsoleUser(ctx, ws.workspaceId, { role: 'reviewer', firstName: 'Eve' });
    let page = await signedIn(eve);
    await openSection(page, 'users');
    // the session's absolute expiry passes
    await ctx.db
      .updateTable('console_sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', eve.id)
      .execute();
    await page
      .getByRole('navigation', { name: 'Workspace settings' })
      .getByRole('link', { name: 'Case templates' })
      .click();
    // the sign-in page, saying why
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await page.getByText('Your session ended. Sign in again.').waitFor();
    assert.equal(await page.locator('section.settings-main').count(), 0);
    await shot(page, 'access-expired-sign-in');
    // a session that ends while the page is closed: the next load says so too (it showed the plain
    // sign-in page)
    await page.getByLabel('E-mail').fill(eve.email);
    await page.getByLabel('Password').fill(eve.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('section.settings-main').waitFor();
    await ctx.db
      .updateTable('console_sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', eve.id)
      .execute();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await page.getByText('Your session ended. Sign in again.').waitFor();
    await page.close();
    // a browser that never signed in (no cookie) gets the plain page
    await chrome.context.clearCookies();
    const fresh = await chrome.context.newPage();
    await fresh.goto(`${base}/console/`);
    await fresh.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    assert.equal(await fresh.getByText('Your session ended. Sign in again.').count(), 0);
    await fresh.close();

    // an admin signs Eve out everywhere: her open console goes back to the sign-in page too
    page = await signedIn(eve);
    await openSection(page, 'document-types');
    const res = await ws.delete(`/v1/users/${eve.id}/sessions`);
    assert.equal(res.status, 204);
    // a click (not check(): the box is gone with the page before it could be seen checked)
    await page.getByLabel('Show archived types').click();
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    // a wrong password is said in the console's words (the server's refusal is in English)
    await page.getByLabel('E-mail').fill(eve.email);
    await page.getByLabel('Password').fill(`${eve.password}-wrong`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByRole('alert')
      .getByText('Sign-in failed: wrong e-mail or password.', { exact: true })
      .waitFor();
    // signing in again brings the page back
    await page.getByLabel('Password').fill(eve.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('section.settings-main[data-section="document-types"]').waitFor();
    await page.close();
  });

  test('keyboard only: an API key created and its dialog closed without a mouse', async () => {
    const page = await signedIn(admin);
    await openSection(page, 'api-keys');
    // Tab to the button (whatever the layout puts before it), Enter opens the dialog
    // evaluated in the page (this file is type-checked without the DOM library)
    const focused = async () =>
      (await page.evaluate("document.activeElement?.textContent?.trim() ?? ''")) as string;
    for (let i = 0; i < 60 && (await focused()) !== 'New API key'; i++) await page.keyboard.press('Tab');
    assert.equal(await focused(), 'New API key');
    // the focused control shows it (a visible outline)
    const outline = await page.evaluate('getComputedStyle(document.activeElement).outlineStyle');
    assert.notEqual(outline, 'none');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // focus is inside the dialog, on its first field
    assert.equal(await page.evaluate("document.activeElement?.closest('dialog') !== null"), true);
    await page.keyboard.type('Keyboard key');
    await page.keyboard.press('Enter');
    await dialog.getByTestId('once-secret').waitFor();
    await shot(page, 'access-keyboard-key');
    // Escape closes it, focus goes back to the button that opened it
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await focused(), 'New API key');
    await page.getByRole('row').filter({ hasText: 'Keyboard key' }).waitFor();
    const keys = (await ws.get('/v1/api-keys')).body.data.map((k: { name: string }) => k.name);
    assert.ok(keys.includes('Keyboard key'));
    // a menu link followed with Enter
    const link = page
      .getByRole('navigation', { name: 'Workspace settings' })
      .getByRole('link', { name: 'Users and roles' });
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/settings\/users$/);
    await page.close();
  });

  test('French: the settings pages in French, chosen with the language switch', async () => {
    const page = await signedIn(admin);
    await openSection(page, 'general');
    await page.getByLabel('Language').selectOption('fr');
    await page.getByRole('heading', { level: 2, name: 'Paramètres' }).waitFor();
    assert.equal(await page.evaluate('document.documentElement.lang'), 'fr');
    await page.getByRole('button', { name: 'Enregistrer' }).waitFor();
    await page.getByText('Une revue de dossier doit comporter un commentaire').waitFor();
    await shot(page, 'settings-fr-general');
    const menu = page.getByRole('navigation', { name: 'Paramètres de l’espace de travail' });
    for (const [section, title] of [
      ['users', 'Utilisateurs et rôles'],
      ['webhooks', 'Webhooks'],
      ['api-keys', 'Clés d’API'],
      ['audit-log', 'Journal d’audit'],
      ['client-portal', 'Portail client'],
    ] as const) {
      await menu.getByRole('link', { name: title, exact: true }).click();
      await page.locator(`section.settings-main[data-section="${section}"]`).waitFor();
      await page.getByRole('heading', { level: 2, name: title }).waitFor();
      await shot(page, `settings-fr-${section}`);
    }
    // a taken e-mail is said in French (the server's own refusal is in English)
    await menu.getByRole('link', { name: 'Utilisateurs et rôles', exact: true }).click();
    await page.getByRole('button', { name: 'Nouvel utilisateur' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('E-mail').fill(admin.email);
    await dialog.getByRole('button', { name: 'Créer' }).click();
    await dialog
      .getByRole('alert')
      .getByText(`Un utilisateur avec l’e-mail ${admin.email} existe déjà dans cet espace.`, { exact: true })
      .waitFor();
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    // the choice is kept in this browser: a new page opens in French
    const again = await chrome.context.newPage();
    await again.goto(`${base}/console/settings/users`);
    await again.getByRole('button', { name: 'Nouvel utilisateur' }).waitFor();
    await again.getByLabel('Langue').selectOption('en');
    await again.getByRole('button', { name: 'New user' }).waitFor();
    await again.close();
    await page.close();
  });
});
