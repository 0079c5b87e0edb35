/**
 * Two things a new operator meets on a case page, in headless Chromium against the real service on a
 * socket (found walking the console as a new user):
 * - "Launch checks" with one check type on several entities: a refusal for one entity (eKYC on a
 *   person without a country, or in a country eKYC does not cover) names that entity on a line of
 *   its own with the reason in the console's words, and the other entities still get their check,
 *   said in the status line; what was launched is unticked, so launching again makes no duplicate.
 * - "Add an entity" starts "Related to" on the main company, whatever order the API lists the
 *   case's companies in (by creation, then id: a registry import's holding often comes first).
 * - The entity and relation dialogs ("Add an entity", "Add a relation", an entity's "Edit") end with
 *   one row of Cancel and Save, the same row as the case's other dialogs (at the right, Save last),
 *   at 1280 and 390 px; before, they had a row of their own (Save, Cancel, at the left). The
 *   "Kind" box of "Add an entity" lines up with the fields under it (the browser's 2 px fieldset
 *   margin set it in).
 * - "Launch checks" and the new-case page's form "By hand" end with that same row (DialogActions:
 *   the button at the form's right edge, after Close in the dialog), at 1280 and 390 px; before,
 *   they had the older row of their own (the main button first, at the left). The registry search
 *   keeps its Search button beside its three fields, as a search row does.
 * - A long unbroken name (a company called HoldingWWWW...) wraps in the case's and the entity's
 *   headings at 1280 and 390 px: the entity's Edit button stays in its card and the page does not
 *   scroll sideways; before, the heading pushed the button out of the card.
 * Screenshots: test-output/screenshots/console-entities-launch-*.png.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  type ChromiumSession,
  openChromium,
  type Page,
  SCREENSHOT_DIR,
  signedInPage,
} from '../helpers/browser.ts';
import { createConsoleUser } from '../helpers/console-session.ts';
import { outcomePdf } from '../helpers/document-checks.ts';
import { publishedTemplate } from '../helpers/document-templates.ts';
import { makePng, uploadRef } from '../helpers/files.ts';
import { type Client, eventually, getHarness, newWorkspace } from '../helpers/harness.ts';
import { passportPng, td3Mrz } from '../helpers/id-documents.ts';
import { type LiveServer, listen } from '../helpers/live-server.ts';
import { portal, portalCase, portalToken, portalUpload } from '../helpers/portal.ts';

let server: LiveServer;
let base: string;
let chrome: ChromiumSession;
let api: Client;
let reviewer: { email: string; password: string };

async function shot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `console-entities-launch-${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled', caret: 'hide' });
}

before(async () => {
  server = await listen();
  base = `http://127.0.0.1:${server.port}`;
  const { ctx } = await getHarness();
  api = await newWorkspace('console-entities-launch');
  reviewer = await createConsoleUser(ctx, api.workspaceId, { role: 'reviewer' });
  chrome = await openChromium({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
});

after(async () => {
  await chrome?.close();
  await server?.close();
});

describe('console: launching checks and adding entities', { timeout: 600_000 }, () => {
  test('one check on several entities: a refusal names its entity, the others are launched', async () => {
    const created = await api.post('/v1/cases', {
      name: 'Launch case',
      companies: [{ type: 'main', name: 'Acme Widgets SAS', country: 'FR' }],
      individuals: [
        // no address.country: eKYC refuses her (400 naming address.country)
        {
          first_name: 'Nora',
          last_name: 'Nocountry',
          birth_date: '1980-01-02',
          relations: [{ roles: ['legal_representative'] }],
        },
        // a country eKYC does not cover
        {
          first_name: 'Ivar',
          last_name: 'Iceland',
          birth_date: '1979-05-06',
          address: { country: 'IS' },
          relations: [{ roles: ['legal_representative'] }],
        },
        {
          first_name: 'Carla',
          last_name: 'Country',
          birth_date: '1981-03-04',
          address: { country: 'FR' },
          relations: [{ roles: ['legal_representative'] }],
        },
      ],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const caseId = created.body.id as string;
    const byName = (first: string) =>
      created.body.individuals.find((i: { first_name: string }) => i.first_name === first).id as string;
    const carlaId = byName('Carla');

    const page = await signedInPage(chrome, base, reviewer);
    await page.goto(`${base}/console/cases/${caseId}`);
    await page.getByRole('button', { name: 'Launch checks' }).click();
    const launch = page.getByRole('dialog', { name: 'Launch checks' });
    await launch.getByLabel('One check').check();
    await launch.getByRole('combobox').selectOption('ekyc');
    await launch.getByLabel('Nora Nocountry').check();
    await launch.getByLabel('Ivar Iceland').check();
    await launch.getByLabel('Carla Country').check();
    await launch.getByRole('button', { name: 'Launch' }).click();

    // both outcomes are said: Carla's check was made; Nora's and Ivar's refused, a line each, with
    // their names and the reason in the console's words (the field's label, the country's name,
    // not the server's field path and list of covered countries)
    await launch.getByRole('status').filter({ hasText: 'Checks launched on 1 entity.' }).waitFor();
    const refusals = launch.getByTestId('launch-refusals');
    assert.equal(await refusals.getAttribute('role'), 'alert');
    assert.deepEqual(await refusals.locator('li').allInnerTexts(), [
      'Nora Nocountry: missing Address › Country',
      'Ivar Iceland: eKYC does not cover Iceland (IS)',
    ]);
    const alert = await refusals.innerText();
    assert.match(alert, /^Not launched on 2 entities \(still ticked, to launch again once fixed\):/);
    assert.doesNotMatch(alert, /Carla|supported|address\.country/);
    // the launched entity is unticked (launching again makes no second check), the refused one not
    assert.equal(await launch.getByLabel('Carla Country').isChecked(), false);
    assert.equal(await launch.getByLabel('Nora Nocountry').isChecked(), true);
    assert.equal(await launch.getByLabel('Ivar Iceland').isChecked(), true);
    // launching again would make a second check: said beside her name, not beside the others
    await launch
      .locator('label', { hasText: 'Carla Country' })
      .getByText(/\(already has one, [a-z]+/)
      .waitFor();
    assert.doesNotMatch(await launch.locator('label', { hasText: 'Nora Nocountry' }).innerText(), /already/);
    await shot(page, '01-partly-refused');

    const checks = await api.get(`/v1/checks?case_id=${caseId}&type=ekyc`);
    assert.equal(checks.status, 200);
    assert.deepEqual(
      checks.body.data.map((c: { individual_id: string }) => c.individual_id),
      [carlaId],
    );
    // what was said of that launch goes once the choice changes: it is not about the next one
    await launch.getByRole('combobox').selectOption('aml');
    assert.equal(await launch.getByRole('status').count(), 0);
    assert.equal(await refusals.count(), 0);
    await page.close();
  });

  test('"Add an entity" relates the new person to the main company unless told otherwise', async () => {
    // a case's companies read back in the order they were sent: send the holdings before the main
    // company, so that the first company the page lists is not the main one
    const created = await api.post('/v1/cases', {
      name: 'Holding first',
      companies: [
        {
          type: 'affiliated',
          name: 'Holding One',
          country: 'FR',
          relations: [{ roles: ['shareholder'], ownership_percentage: 30 }],
        },
        {
          type: 'affiliated',
          name: 'Holding Two',
          country: 'FR',
          relations: [{ roles: ['shareholder'], ownership_percentage: 30 }],
        },
        { type: 'main', name: 'Main Company SAS', country: 'FR' },
      ],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const caseId = created.body.id as string;
    const listed = (await api.get(`/v1/cases/${caseId}`)).body.companies as { type: string }[];
    assert.deepEqual(
      listed.map((c) => c.type),
      ['affiliated', 'affiliated', 'main'],
    );

    const page = await signedInPage(chrome, base, reviewer);
    await page.goto(`${base}/console/cases/${caseId}`);
    await page.getByRole('button', { name: 'Add an entity' }).click();
    const add = page.getByRole('dialog', { name: 'Add an entity' });
    const relatedTo = add.getByLabel('Related to');
    await relatedTo.locator('option', { hasText: 'Holding One' }).waitFor({ state: 'attached' });
    assert.equal(
      await relatedTo.evaluate((el: any) => el.options[el.selectedIndex].text as string),
      'Main Company SAS',
    );
    await add.getByLabel('First name').fill('Paula');
    await add.getByLabel('Last name').fill('Person');
    await add.getByRole('button', { name: 'Save' }).click();
    await add.waitFor({ state: 'hidden' });
    await shot(page, '02-added-to-main');

    const detail = (await api.get(`/v1/cases/${caseId}`)).body;
    const main = detail.companies.find((c: { type: string }) => c.type === 'main');
    const paula = detail.individuals.find((i: { first_name: string }) => i.first_name === 'Paula');
    assert.equal(paula.relations[0].to_company_id, main.id);
    await page.close();
  });

  test('"Add an entity" on a case without its main company adds that company first, as main', async () => {
    // the API refuses a person or an affiliate around no main company: the dialog says so and adds it
    const created = await api.post('/v1/cases', { name: 'Nothing yet' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const page = await signedInPage(chrome, base, reviewer);
    await page.goto(`${base}/console/cases/${created.body.id}`);
    await page.getByRole('button', { name: 'Add an entity' }).click();
    const add = page.getByRole('dialog', { name: 'Add an entity' });
    await add.getByText('This case has no main company yet').waitFor();
    assert.equal(await add.getByLabel('Related to').count(), 0);
    assert.equal(await add.getByRole('radio').count(), 0);
    await add.getByLabel('Name', { exact: true }).fill('First Main SAS');
    await add.getByRole('button', { name: 'Save' }).click();
    await add.waitFor({ state: 'hidden' });
    const detail = (await api.get(`/v1/cases/${created.body.id}`)).body;
    assert.deepEqual(
      detail.companies.map((c: { name: string; type: string }) => [c.name, c.type]),
      [['First Main SAS', 'main']],
    );
    // then a person relates to it, as on any case
    await page.getByRole('button', { name: 'Add an entity' }).click();
    await add
      .getByLabel('Related to')
      .locator('option', { hasText: 'First Main SAS' })
      .waitFor({ state: 'attached' });
    await add.getByLabel('First name').fill('Paul');
    await add.getByLabel('Last name').fill('After');
    await add.getByRole('button', { name: 'Save' }).click();
    await add.waitFor({ state: 'hidden' });
    const after = (await api.get(`/v1/cases/${created.body.id}`)).body;
    assert.equal(after.individuals[0].relations[0].to_company_id, after.companies[0].id);
    await page.close();
  });

  test('the entity and relation dialogs: one row of Cancel and Save at the right, lined up with the fields', async () => {
    const created = await api.post('/v1/cases', {
      name: 'Dialogs case',
      companies: [{ type: 'main', name: 'Dialog Company SAS', country: 'FR' }],
      individuals: [
        { first_name: 'Dina', last_name: 'Dialog', relations: [{ roles: ['legal_representative'] }] },
      ],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const page = await signedInPage(chrome, base, reviewer);
    type Box = { left: number; right: number; top: number; bottom: number };
    const box = async (l: ReturnType<Page['locator']>): Promise<Box> =>
      l.evaluate((el: any) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      });
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto(`${base}/console/cases/${created.body.id}`);
      for (const opener of ['Add an entity', 'Add a relation', 'Edit']) {
        await page.getByRole('button', { name: opener, exact: true }).first().click();
        const dialog = page.getByRole('dialog', { name: opener, exact: true });
        await dialog.waitFor();
        const where = `${opener} at ${viewport.width} px`;
        assert.equal(await page.locator('dialog[open]').count(), 1, where);
        const save = dialog.getByRole('button', { name: 'Save', exact: true });
        const cancel = dialog.getByRole('button', { name: 'Cancel', exact: true });
        assert.equal(await save.count(), 1, `${where}: one Save`);
        assert.equal(await cancel.count(), 1, `${where}: one Cancel`);
        const [form, saveBox, cancelBox] = [
          await box(dialog.locator('form')),
          await box(save),
          await box(cancel),
        ];
        // one row, Cancel then Save, ending at the form's right edge like the case's other dialogs
        assert.equal(saveBox.top, cancelBox.top, `${where}: Save and Cancel on one row`);
        assert.ok(cancelBox.right <= saveBox.left, `${where}: Cancel before Save`);
        assert.ok(Math.abs(saveBox.right - form.right) < 0.5, `${where}: Save at the right edge`);
        assert.ok(saveBox.top > (await box(dialog.locator('form > label').last())).bottom, where);
        if (opener === 'Add an entity') {
          const kind = await box(dialog.locator('fieldset'));
          const field = await box(dialog.getByLabel('First name'));
          assert.equal(kind.left, field.left, `${where}: the Kind box lines up with the fields`);
          assert.equal(kind.right, field.right, `${where}: the Kind box lines up with the fields`);
        }
        await shot(page, `03-dialog-${opener.toLowerCase().replace(/ /g, '-')}-${viewport.width}`);
        await cancel.click();
        await dialog.waitFor({ state: 'hidden' });
      }
    }
    await page.close();
  });

  test('a long unbroken name wraps in the headings: the Edit button stays in its card, the page does not scroll sideways', async () => {
    const long = `Holding${'W'.repeat(140)}`;
    const created = await api.post('/v1/cases', {
      name: `Case ${long}`,
      companies: [{ type: 'main', name: long, country: 'FR' }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const page = await signedInPage(chrome, base, reviewer);
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto(`${base}/console/cases/${created.body.id}`);
      const panel = page.getByTestId('entity-panel');
      await panel.getByRole('heading', { level: 2, name: long }).waitFor();
      const where = `at ${viewport.width} px`;
      const measures = await panel.evaluate((el: any) => {
        const card = el.getBoundingClientRect();
        const edit = [...el.querySelectorAll('button')].find((b: any) => b.textContent.trim() === 'Edit');
        const button = edit.getBoundingClientRect();
        const doc = el.ownerDocument;
        const h1 = doc.querySelector('h1');
        const h2 = el.querySelector('h2');
        return {
          card: { left: card.left, right: card.right },
          edit: { left: button.left, right: button.right },
          h1: [h1.scrollWidth, h1.clientWidth],
          h2: [h2.scrollWidth, h2.clientWidth],
          page: [doc.documentElement.scrollWidth, doc.defaultView.innerWidth],
        };
      });
      assert.ok(
        measures.edit.right <= measures.card.right,
        `${where}: Edit inside its card ${JSON.stringify(measures)}`,
      );
      assert.ok(measures.edit.left >= measures.card.left, `${where}: ${JSON.stringify(measures)}`);
      assert.ok(
        measures.h1[0] <= measures.h1[1],
        `${where}: the case name wraps ${JSON.stringify(measures)}`,
      );
      assert.ok(
        measures.h2[0] <= measures.h2[1],
        `${where}: the company name wraps ${JSON.stringify(measures)}`,
      );
      assert.ok(
        measures.page[0] <= measures.page[1],
        `${where}: no sideways scroll ${JSON.stringify(measures)}`,
      );
      await shot(page, `05-long-name-${viewport.width}`);
    }
    await page.close();
  });

  test("a document's files are named by what they are: an ID document's front and back", async () => {
    const created = await api.post('/v1/cases', {
      name: 'Files case',
      companies: [{ type: 'main', name: 'Files Company SAS', country: 'FR' }],
      individuals: [
        { first_name: 'Ada', last_name: 'Lovelace', relations: [{ roles: ['legal_representative'] }] },
      ],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const check = await api.post('/v1/checks/id_document', { individual_id: created.body.individuals[0].id });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    const added = await api.post(`/v1/checks/id_document/${check.body.id}/add_files`, {
      front_upload_ref: await uploadRef(api, passportPng({ mrz: td3Mrz() })),
      back_upload_ref: await uploadRef(api, makePng({ width: 40, height: 30 })),
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const page = await signedInPage(chrome, base, reviewer);
    await page.goto(`${base}/console/cases/${created.body.id}`);
    await page.getByRole('tab', { name: 'Documents' }).click();
    const docs = page.getByTestId('case-documents');
    await docs.getByRole('button', { name: /ID document/ }).click();
    const files = page.getByTestId('document-view').getByRole('group', { name: 'Files of the document' });
    await files.waitFor();
    assert.deepEqual(await files.getByRole('button').allInnerTexts(), ['Front', 'Back']);
    await shot(page, '06-id-document-front-back');
    await page.close();
  });

  test("an earlier attempt's files say the data beside them is the current attempt's", async () => {
    const created = await api.post('/v1/cases', {
      name: 'Attempts case',
      companies: [{ type: 'main', name: 'Attempts SAS', country: 'FR' }],
      individuals: [
        { first_name: 'Ada', last_name: 'Lovelace', relations: [{ roles: ['legal_representative'] }] },
      ],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const check = await api.post('/v1/checks/id_document', {
      individual_id: created.body.individuals[0].id,
      data: { front_upload_ref: await uploadRef(api, passportPng({ outcome: 'rejected' })) },
    });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    const settledStatus = () =>
      eventually(async () => {
        const r = await api.get(`/v1/checks/id_document/${check.body.id}`);
        return r.body.status !== 'processing' && r.body.status;
      }, 60_000);
    assert.equal(await settledStatus(), 'rejected');
    const again = await api.post(`/v1/checks/id_document/${check.body.id}/add_files`, {
      front_upload_ref: await uploadRef(api, passportPng({ outcome: 'approved' })),
    });
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal(await settledStatus(), 'approved');

    const page = await signedInPage(chrome, base, reviewer);
    await page.goto(`${base}/console/cases/${created.body.id}`);
    await page.getByRole('tab', { name: 'Documents' }).click();
    const docs = page.getByTestId('case-documents');
    await docs.getByLabel('Include earlier attempts').check();
    const earlier = docs.getByRole('button', { name: /earlier attempt/ });
    await earlier.click();
    const note = page.getByTestId('current-attempt-data');
    await note.waitFor();
    assert.match(
      await note.innerText(),
      /from an earlier attempt; the result and data below are those of the check’s current attempt/,
    );
    await shot(page, '10-earlier-attempt');
    const current = docs
      .getByRole('button', { name: /ID document/ })
      .filter({ hasNotText: 'earlier attempt' });
    await current.click();
    await page.getByTestId('extracted-data').getByText('Approved').first().waitFor();
    assert.equal(await note.count(), 0);
    await page.close();
  });

  test("an identity verification's files are named from its data: front, selfie and report (no back, no video)", async () => {
    const { caseId, contactId } = await portalCase(api, 'Verification files case');
    const check = await api.post('/v1/checks/id_verification', { individual_id: contactId });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    const token = new URL(check.body.data.vendor.verification_url).hash.replace(/^#token=/, '');
    const front = await portalUpload(
      token,
      check.body.id,
      'front',
      makePng({ width: 40, height: 30 }),
      'front.png',
    );
    assert.equal(front.status, 201, JSON.stringify(front.body));
    const face = await portalUpload(
      token,
      check.body.id,
      'face',
      makePng({ width: 40, height: 40, text: { sandbox_outcome: 'approved' } }),
      'selfie.png',
    );
    assert.equal(face.status, 201, JSON.stringify(face.body));
    assert.equal((await portal(token, 'POST', `/actions/${check.body.id}/submit`)).status, 200);
    const done = await eventually(async () => {
      const r = await api.get(`/v1/checks/id_verification/${check.body.id}`);
      return r.body.data.vendor.report_file_id && r.body;
    }, 60_000);
    const page = await signedInPage(chrome, base, reviewer);
    await page.goto(`${base}/console/cases/${caseId}`);
    await page.getByRole('tab', { name: 'Documents' }).click();
    await page
      .getByTestId('case-documents')
      .getByRole('button', { name: /ID verification/ })
      .click();
    const files = page.getByTestId('document-view').getByRole('group', { name: 'Files of the document' });
    await files.getByRole('button', { name: 'Verification report' }).waitFor();
    assert.deepEqual(await files.getByRole('button').allInnerTexts(), [
      'Front',
      'Selfie',
      'Verification report',
    ]);
    // the buttons show the files the check names: the report is the last one
    const listed = (await api.get(`/v1/cases/${caseId}/documents`)).body.data.find(
      (d: { type: string }) => d.type === 'check__id_verification',
    );
    assert.deepEqual(listed.file_ids, [
      done.data.information.front_file_id,
      done.data.information.face_file_id,
      done.data.vendor.report_file_id,
    ]);
    await shot(page, '07-id-verification-files');
    await page.close();
  });

  test('the activity timeline names the client and says what they did: files sent, a signature declined', async () => {
    const { caseId, companyId, contactId } = await portalCase(api, 'Client activity case');
    const document = await api.post('/v1/checks/document', {
      company_id: companyId,
      settings: { document_type_key: 'registration_certificate' },
    });
    assert.equal(document.status, 201, JSON.stringify(document.body));
    // asked again: the contact's files then start a new attempt, an activity of the contact's own
    const rejected = await api.patch(`/v1/checks/document/${document.body.id}/review`, {
      action: 'reject',
      comment: 'Unreadable',
    });
    assert.equal(rejected.status, 200, JSON.stringify(rejected.body));
    await publishedTemplate(
      api,
      'activity_letter',
      '<html><body><p>Letter for {{company.name}}</p></body></html>',
    );
    const signature = await api.post('/v1/checks/electronic_signature', {
      individual_id: contactId,
      settings: { document_template_key: 'activity_letter' },
    });
    assert.equal(signature.status, 201, JSON.stringify(signature.body));
    const { token } = await portalToken(api, caseId, contactId);
    const up = await portalUpload(
      token,
      document.body.id,
      'files',
      outcomePdf('approved'),
      'kbis.pdf',
      'application/pdf',
    );
    assert.equal(up.status, 201, JSON.stringify(up.body));
    assert.equal((await portal(token, 'POST', `/actions/${document.body.id}/submit`)).status, 200);
    const { app } = await getHarness();
    const asContact = (url: string, payload?: object) =>
      app.inject({
        method: 'POST',
        url: `/portal/api/actions/${signature.body.id}/signature/${url}`,
        headers: { authorization: `Bearer ${token}` },
        ...(payload ? { payload } : {}),
      });
    assert.equal((await asContact('start')).statusCode, 200);
    const declined = await asContact('decline', { reason: 'The fees are wrong' });
    assert.equal(declined.statusCode, 200, declined.body);
    // what the API records: the reference's names (the contact's decline is the system's rejection)
    const types = (await api.get(`/v1/activities?case_id=${caseId}`)).body.data.map(
      (a: { type: string; author_type: string }) => `${a.author_type}:${a.type}`,
    );
    assert.ok(types.includes('contact:contact__started__check'), JSON.stringify(types));
    assert.ok(types.includes('contact:system__rejected__check'), JSON.stringify(types));

    const page = await signedInPage(chrome, base, reviewer);
    await page.goto(`${base}/console/cases/${caseId}`);
    // the header names the case's portal once: "Portal: Client portal", not "Client portal: Client portal"
    const portalTerm = page.locator('dt', { hasText: /^Portal$/ });
    await portalTerm.waitFor();
    assert.equal(await portalTerm.locator('xpath=following-sibling::dd').innerText(), 'Client portal');
    await page.getByRole('tab', { name: 'Activity' }).click();
    const timeline = page.getByTestId('case-activity');
    const sent = timeline.locator('li.case-event', { hasText: 'sent the files of a check' });
    await sent.waitFor();
    assert.match(
      await sent.innerText(),
      /Ada Lovelace \(client\) sent the files of a check · Acme SAS · Document/,
    );
    const decline = timeline.locator('li.case-event', { hasText: 'declined to sign the document' });
    assert.match(
      await decline.innerText(),
      /Ada Lovelace \(client\) declined to sign the document · Ada Lovelace · Electronic signature/,
    );
    assert.equal(await timeline.getByText('The client', { exact: false }).count(), 0);
    await shot(page, '08-client-activity');
    await page.close();
  });

  test('a company whose owners hold more than 100% says so beside its relations; one within 100% does not', async () => {
    const created = await api.post('/v1/cases', {
      name: 'Over-held case',
      companies: [{ type: 'main', name: 'Overheld SAS', country: 'FR' }],
      individuals: [
        {
          first_name: 'Ann',
          last_name: 'Sixty',
          relations: [{ roles: ['shareholder'], ownership_percentage: 60 }],
        },
        {
          first_name: 'Bob',
          last_name: 'Fiftyfive',
          relations: [{ roles: ['shareholder'], ownership_percentage: 55, voting_rights_percentage: 40 }],
        },
      ],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const caseId = created.body.id as string;
    const companyId = created.body.companies[0].id as string;
    const page = await signedInPage(chrome, base, reviewer);
    await page.goto(`${base}/console/cases/${caseId}?entity=${companyId}`);
    const warning = page.getByTestId('entity-over-held');
    await warning.waitFor();
    assert.deepEqual(await warning.allInnerTexts(), [
      'Its owners’ shares add up to 115%: more than the whole company.',
    ]);
    await shot(page, '09-over-held');
    // Bob's share lowered to 40: 100% in all, nothing said
    const bob = created.body.individuals.find((i: { first_name: string }) => i.first_name === 'Bob');
    const relation = bob.relations[0];
    const lowered = await api.patch(`/v1/cases/${caseId}/relations/${relation.id}`, {
      ownership_percentage: 40,
    });
    assert.equal(lowered.status, 200, JSON.stringify(lowered.body));
    await page.reload();
    await page.getByTestId('entity-panel').getByRole('heading', { level: 2, name: 'Overheld SAS' }).waitFor();
    await page.getByTestId('entity-panel').getByText('Ann Sixty').waitFor();
    assert.equal(await warning.count(), 0);
    await page.close();
  });

  test('"Launch checks" and the new-case form "By hand" end with the same row: its button at the right', async () => {
    const created = await api.post('/v1/cases', {
      name: 'Row case',
      companies: [{ type: 'main', name: 'Row Company SAS', country: 'FR' }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const page = await signedInPage(chrome, base, reviewer);
    type Box = { left: number; right: number; top: number; bottom: number };
    const box = async (l: ReturnType<Page['locator']>): Promise<Box> =>
      l.evaluate((el: any) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      });
    /** The form's last row is the shared one, `main` at its right edge, below every field. */
    const assertRow = async (form: ReturnType<Page['locator']>, main: string, where: string) => {
      const button = form.getByRole('button', { name: main, exact: true });
      assert.equal(await button.count(), 1, `${where}: one ${main}`);
      assert.equal(
        await button.evaluate((el: any) => el.parentElement.className as string),
        'case-form-actions',
        `${where}: ${main} in the shared row`,
      );
      const [formBox, mainBox] = [await box(form), await box(button)];
      // the page's forms are cards (border, padding): the row ends where their content does
      const inset = await form.evaluate((el: any) => {
        const style = el.ownerDocument.defaultView.getComputedStyle(el);
        return Number.parseFloat(style.paddingRight) + Number.parseFloat(style.borderRightWidth);
      });
      assert.ok(
        Math.abs(mainBox.right - (formBox.right - inset)) < 0.5,
        `${where}: ${main} at the right edge`,
      );
      assert.ok(mainBox.top > (await box(form.locator('label').last())).bottom, `${where}: below the fields`);
      return mainBox;
    };
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto(`${base}/console/cases/${created.body.id}`);
      await page.getByRole('button', { name: 'Launch checks' }).click();
      const launch = page.getByRole('dialog', { name: 'Launch checks' });
      await launch.getByLabel('One check').waitFor();
      await shot(page, `04-launch-checks-${viewport.width}`);
      const where = `Launch checks at ${viewport.width} px`;
      const run = await assertRow(launch.locator('form'), 'Launch', where);
      const close = await box(launch.getByRole('button', { name: 'Close', exact: true }));
      assert.equal(close.top, run.top, `${where}: Close and Launch on one row`);
      assert.ok(close.right <= run.left, `${where}: Close before Launch`);
      await launch.getByRole('button', { name: 'Close', exact: true }).click();
      await launch.waitFor({ state: 'hidden' });

      await page.goto(`${base}/console/cases/new`);
      const registry = page.getByRole('form', { name: 'From the registry' });
      await registry.waitFor();
      await shot(page, `05-new-case-registry-${viewport.width}`);
      await page.getByRole('button', { name: 'By hand' }).click();
      const byHand = page.getByRole('form', { name: 'By hand' });
      await byHand.waitFor();
      await shot(page, `06-new-case-by-hand-${viewport.width}`);
      await assertRow(byHand, 'Create the case', `New case by hand at ${viewport.width} px`);
      // the contact is optional, but not half of one: a last name makes the first name required
      // (the form said "optional" and the API refused the blank first name in its own words)
      const first = byHand.getByLabel('Contact first name');
      assert.equal(await first.evaluate((el: any) => el.required), false);
      await byHand.getByLabel('Contact last name').fill('Martin');
      assert.equal(await first.evaluate((el: any) => el.required), true);
      await byHand.getByLabel('Contact last name').fill('');
    }
    await page.close();
  });
});
