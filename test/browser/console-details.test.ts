/**
 * The console's smaller promises, in headless Chromium against the real service (findings of a walk
 * of the console): a role changed under an open page is said in the console's words and its buttons
 * go; refusals of the entity form said under their field; a note's draft kept across the case's tabs;
 * people of the same name told apart when launching a check; and other details of the forms. What
 * each step left on the server is read back through the API. Screenshots:
 * test-output/screenshots/console-details-*.png.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../src/http/app.ts';
import {
  type ChromiumSession,
  openChromium,
  type Page,
  SCREENSHOT_DIR,
  signedInPage,
} from '../helpers/browser.ts';
import { createConsoleUser } from '../helpers/console-session.ts';
import { type Client, eventually, getHarness, newWorkspace } from '../helpers/harness.ts';
import { type LiveServer, listen, listenOnLoopback } from '../helpers/live-server.ts';

let server: LiveServer;
let base: string;
let chrome: ChromiumSession;
let api: Client;
const shots: string[] = [];

async function shot(page: Page, name: string, width = 1280) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.setViewportSize({ width, height: 900 });
  const file = path.join(SCREENSHOT_DIR, `console-details-${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled', caret: 'hide' });
  shots.push(path.relative(process.cwd(), file));
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A console user of the test workspace, and a page signed in as them. */
async function userPage(
  role: 'admin' | 'reviewer' | 'viewer',
  names: { firstName?: string; lastName?: string } = {},
): Promise<{ page: Page; id: string }> {
  const { ctx } = await getHarness();
  const user = await createConsoleUser(ctx, api.workspaceId, { role, ...names });
  const page = await signedInPage(chrome, base, user);
  // the pages share one browser context, so its stored language: a test that ends in French left
  // the next ones in French. Each page starts in the browser's language (English), and keeps the one
  // chosen on it across its own reloads (sessionStorage is the tab's)
  await page.addInitScript(() => {
    if (sessionStorage.getItem('test.language-reset')) return;
    localStorage.removeItem('vericase.console.lang');
    sessionStorage.setItem('test.language-reset', '1');
  });
  return { page, id: user.id };
}

/** A case with a main company (and the people given), through the API. */
async function newCase(name: string, individuals: object[] = []): Promise<{ id: string; body: any }> {
  const kase = await api.post('/v1/cases', {
    name,
    companies: [{ type: 'main', name: `${name} SAS`, country: 'FR' }],
    individuals,
  });
  assert.equal(kase.status, 201, JSON.stringify(kase.body));
  return { id: kase.body.id, body: kase.body };
}

async function inFrench(page: Page) {
  await page.getByLabel('Language').selectOption('fr');
}

before(async () => {
  server = await listen();
  base = `http://127.0.0.1:${server.port}`;
  api = await newWorkspace('console-details');
  chrome = await openChromium({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
});

after(async () => {
  await chrome?.close();
  await server?.close();
  console.log(`screenshots (${shots.length}) in ${SCREENSHOT_DIR}:\n  ${shots.join('\n  ')}`);
});

describe('console details', { timeout: 900_000 }, () => {
  test('a reviewer made a viewer while the case is open: said in words, and the buttons go', async () => {
    const kase = await newCase('Demoted');
    const { page, id } = await userPage('reviewer', { firstName: 'Rita', lastName: 'Reviewer' });
    await page.goto(`${base}/console/cases/${kase.id}`);
    await page.getByRole('heading', { level: 1, name: 'Demoted' }).waitFor();
    await page.getByRole('button', { name: 'Launch checks' }).waitFor();

    // an admin changes her role while her page is open
    assert.equal((await api.patch(`/v1/users/${id}`, { role: 'viewer' })).status, 200);
    const tags = page.getByTestId('case-tags');
    await tags.getByPlaceholder(/tag/i).fill('late-tag');
    await tags.getByRole('button', { name: 'Add a tag' }).click();
    // the console's words, not "POST /v1/cases/:id/tags needs reviewer"
    await tags
      .getByRole('alert')
      .filter({ hasText: 'Your role is now viewer: this needs a reviewer or an administrator.' })
      .waitFor();
    // the role read again: a viewer's page, without the reviewer's buttons
    await page.locator('.topbar .role[data-role="viewer"]').waitFor();
    await page.getByRole('button', { name: 'Launch checks' }).waitFor({ state: 'detached' });
    assert.equal(await tags.getByRole('button', { name: 'Add a tag' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Set the risk' }).count(), 0);
    await shot(page, 'a-demoted');
    assert.deepEqual((await api.get(`/v1/cases/${kase.id}`)).body.tags, []);

    // in French: made a reviewer again then a viewer, the same refusal in French
    await inFrench(page);
    assert.equal((await api.patch(`/v1/users/${id}`, { role: 'reviewer' })).status, 200);
    await page.reload();
    await page.getByRole('button', { name: 'Lancer des contrôles' }).waitFor();
    assert.equal((await api.patch(`/v1/users/${id}`, { role: 'viewer' })).status, 200);
    await tags.locator('input').fill('tardif');
    await tags.locator('button[type="submit"]').click();
    await tags
      .getByRole('alert')
      .filter({
        hasText:
          'Votre rôle est désormais lecteur : cette action est réservée aux réviseurs et aux administrateurs.',
      })
      .waitFor();
    await page.getByRole('button', { name: 'Lancer des contrôles' }).waitFor({ state: 'detached' });
    await shot(page, 'a-demoted-fr');
    await page.close();
  });

  test('a template check of a document type for the other kind of entity: said as the dialog names it', async () => {
    const { page } = await userPage('admin');
    await page.goto(`${base}/console/settings/templates`);
    await page.getByRole('button', { name: 'New template' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('People documents');
    await dialog.getByLabel('Key').fill('people-documents');
    await dialog.getByRole('button', { name: 'Add a check' }).click();
    await dialog.getByRole('button', { name: 'Add a check' }).click();
    const second = dialog.getByRole('group', { name: 'Check 2' });
    await second.getByLabel('Check type').selectOption('document');
    await second
      .getByLabel('Settings (JSON, optional)')
      .fill('{"document_type_key": "registration_certificate"}');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog
      .getByRole('alert')
      .filter({
        hasText:
          "Check 2: the document type registration_certificate is asked of companies, not of people: choose companies as the check's targets, or a document type for people.",
      })
      .waitFor();
    assert.doesNotMatch((await dialog.getByRole('alert').textContent()) ?? '', /checks\[1\]/);
    await dialog.getByRole('alert').scrollIntoViewIfNeeded();
    await shot(page, 'b-template-wrong-kind');
    assert.ok(!(await api.get('/v1/templates')).body.data.some((x: any) => x.key === 'people-documents'));
    await page.close();
  });

  test('a birth date in the future: said under the field, in words; the picker ends today', async () => {
    const kase = await newCase('Birth dates');
    const { page } = await userPage('reviewer');
    await page.goto(`${base}/console/cases/${kase.id}`);
    await page.getByRole('button', { name: 'Add an entity' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add an entity' });
    await dialog.getByLabel('First name').fill('Jean');
    await dialog.getByLabel('Last name').fill('Dupont');
    const birth = dialog.getByLabel('Birth date', { exact: true });
    const now = new Date();
    const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
    assert.equal(await birth.getAttribute('max'), today);
    assert.equal(await birth.getAttribute('min'), '1900-01-01');
    await birth.fill('2090-01-01');
    await dialog.getByRole('button', { name: 'Save' }).click();
    // under the field (the next thing after its label), before anything is sent
    const under = dialog.locator('label:has-text("Birth date") + [role="alert"]');
    await under.filter({ hasText: 'The birth date 1 Jan 2090 is in the future: check the year.' }).waitFor();
    assert.equal(await birth.getAttribute('aria-invalid'), 'true');
    await shot(page, 'c-birth-date-future');
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).body.individuals.length, 0);

    // the server's refusal of it (a page without the picker's bound) is said there too, in words
    await birth.evaluate((el) => el.removeAttribute('max'));
    await birth.fill('2090-01-02');
    assert.equal(await under.count(), 0, 'an edit clears what was said of the previous date');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await under
      .filter({ hasText: 'Refused: Birth date: 2 Jan 2090 is in the future: check the year.' })
      .waitFor();
    assert.equal(await dialog.locator('[role="alert"]').count(), 1, 'said once, under the field');
    await shot(page, 'c-birth-date-refused');

    // in French
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await inFrench(page);
    await page.getByRole('button', { name: 'Ajouter une entité' }).click();
    dialog = page.getByRole('dialog', { name: 'Ajouter une entité' });
    await dialog.getByLabel('Prénom').fill('Jean');
    await dialog.getByLabel('Nom', { exact: true }).fill('Dupont');
    await dialog.getByLabel('Date de naissance').fill('2090-01-01');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await dialog
      .locator('[role="alert"]')
      .filter({ hasText: 'La date de naissance 1 janv. 2090 est dans le futur : vérifiez l’année.' })
      .waitFor();
    await shot(page, 'c-birth-date-future-fr');
    await page.close();
  });

  test('a note and a reply being written survive a trip to another tab of the case', async () => {
    const kase = await newCase('Drafts');
    const other = await newCase('Other drafts');
    const note = await api.post('/v1/notes', { case_id: kase.id, content: 'First note' });
    assert.equal(note.status, 201, JSON.stringify(note.body));
    const { page } = await userPage('reviewer');
    await page.goto(`${base}/console/cases/${kase.id}?tab=notes`);
    const notes = page.getByTestId('case-notes');
    await notes.getByText('First note').waitFor();
    await notes.getByLabel('New note').fill('Called the CFO:\nwaiting for the bank statement');
    await notes.getByPlaceholder('Reply to this note').fill('Seen, thanks');
    // Notes → Activity → Notes (the console walk lost the draft there)
    await page.getByRole('tab', { name: 'Activity' }).click();
    await notes.waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'Notes' }).click();
    assert.equal(
      await notes.getByLabel('New note').inputValue(),
      'Called the CFO:\nwaiting for the bank statement',
    );
    assert.equal(await notes.getByPlaceholder('Reply to this note').inputValue(), 'Seen, thanks');
    await shot(page, 'd-note-draft-kept');
    // a draft is the case's own: another case's box is empty
    await page.goto(`${base}/console/cases/${other.id}?tab=notes`);
    await page.getByRole('heading', { level: 1, name: 'Other drafts' }).waitFor();
    assert.equal(await notes.getByLabel('New note').inputValue(), '');
    // sent, it is forgotten
    await page.goto(`${base}/console/cases/${kase.id}?tab=notes`);
    assert.equal(
      await notes.getByLabel('New note').inputValue(),
      'Called the CFO:\nwaiting for the bank statement',
    );
    await notes.getByRole('button', { name: 'Add the note' }).click();
    await notes.getByText('waiting for the bank statement').waitFor();
    await eventually(async () => (await notes.getByLabel('New note').inputValue()) === '');
    await page.getByRole('tab', { name: 'Activity' }).click();
    await page.getByRole('tab', { name: 'Notes' }).click();
    assert.equal(await notes.getByLabel('New note').inputValue(), '');
    const stored = (await api.get(`/v1/cases/${kase.id}/notes`)).body.data;
    assert.equal(stored.length, 2);
    // signing out forgets the drafts: the next user of the browser tab does not find them
    await notes.getByLabel('New note').fill('Not for the next user');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    assert.deepEqual(
      await page.evaluate('Object.keys(sessionStorage).filter((k) => k.includes("draft"))'),
      [],
    );
    await page.close();
  });

  test('two people of the same name are told apart in the list of those to check', async () => {
    const person = (birth_date: string) => ({
      first_name: 'Ada',
      last_name: 'Martin',
      birth_date,
      address: { country: 'FR' },
      relations: [{ roles: ['shareholder'], ownership_percentage: 10 }],
    });
    const kase = await newCase('Same names', [
      person('1950-03-01'),
      person('1985-12-10'),
      { first_name: 'Bob', last_name: 'Martin', relations: [{ roles: ['legal_representative'] }] },
    ]);
    const daughter = kase.body.individuals.find((i: any) => i.birth_date === '1985-12-10');
    const { page } = await userPage('reviewer');
    await page.goto(`${base}/console/cases/${kase.id}`);
    await page.getByRole('button', { name: 'Launch checks' }).click();
    const dialog = page.getByRole('dialog', { name: 'Launch checks' });
    await dialog.getByLabel('One check').check();
    await dialog.getByRole('combobox').selectOption('ekyc');
    const on = dialog.getByRole('group', { name: 'On' });
    const names = (await on.locator('label').allTextContents()).map((x) => x.replace(/\s+/g, ' ').trim());
    assert.deepEqual(names, ['Ada Martin (born 1 Mar 1950)', 'Ada Martin (born 10 Dec 1985)', 'Bob Martin']);
    await shot(page, 'e-same-names');
    await on.getByLabel('Ada Martin (born 10 Dec 1985)').check();
    await dialog.getByRole('button', { name: 'Launch' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Checks launched on 1 entity.' }).waitFor();
    const checks = (await api.get(`/v1/individuals/${daughter.id}`)).body.checks;
    assert.deepEqual(
      checks.map((c: any) => c.type),
      ['ekyc'],
    );
    // in French, the birth date the French way
    await dialog.getByRole('button', { name: 'Close' }).click();
    await inFrench(page);
    await page.getByRole('button', { name: 'Lancer des contrôles' }).click();
    const fr = page.getByRole('dialog', { name: 'Lancer des contrôles' });
    await fr.getByLabel('Un contrôle').check();
    await fr.getByRole('combobox').selectOption('ekyc');
    await fr.getByText('Ada Martin (né(e) le 1 mars 1950)').waitFor();
    await page.close();
  });

  test('a refused webhook address is no longer said once the address is edited', async () => {
    // the service as deployed: private addresses refused (the tests' own allow them)
    const { ctx } = await getHarness();
    const config = { ...ctx.config, webhookAllowPrivate: false };
    const strict = await buildApp({ ...ctx, config });
    const port = await listenOnLoopback(strict, config);
    try {
      const { ctx: harness } = await getHarness();
      const admin = await createConsoleUser(harness, api.workspaceId, { role: 'admin' });
      const page = await signedInPage(chrome, `http://127.0.0.1:${port}`, admin);
      await page.goto(`http://127.0.0.1:${port}/console/settings/webhooks`);
      await page.getByRole('button', { name: 'New webhook' }).click();
      const dialog = page.getByRole('dialog', { name: 'New webhook' });
      const url = dialog.getByLabel('URL', { exact: true });
      await url.fill('http://10.0.0.7/hook');
      await dialog.getByRole('button', { name: 'Create' }).click();
      const refusal = dialog.getByRole('alert');
      await refusal.filter({ hasText: 'This address is private or local' }).waitFor();
      // editing the address: what was said of the previous one goes
      await url.fill('https://hooks.example.com/vericase');
      await refusal.waitFor({ state: 'detached' });
      await shot(page, 'f-webhook-edited');
      await page.close();
    } finally {
      await strict.close();
    }
  });

  test("a template key's allowed characters are written under it and said when broken", async () => {
    const { page } = await userPage('admin');
    await page.goto(`${base}/console/settings/templates`);
    await page.getByRole('button', { name: 'New template' }).click();
    const dialog = page.getByRole('dialog', { name: 'New template' });
    const hint =
      'Key: letters, digits and _ . : - only, starting with a letter or a digit (e.g. standard-kyb).';
    const key = dialog.getByLabel('Key', { exact: true });
    assert.equal(await key.getAttribute('title'), hint);
    assert.equal(await dialog.locator('#template-key-hint').textContent(), hint);
    await dialog.getByLabel('Name', { exact: true }).fill('Bad key');
    await key.fill('standard kyb!');
    await dialog.getByRole('button', { name: 'Save' }).click();
    // the browser's check, in the console's words (it said only "Please match the requested format.")
    await eventually(
      async () =>
        (await key.evaluate((el) => (el as unknown as { validationMessage: string }).validationMessage)) ===
        hint,
    );
    await shot(page, 'g-template-key');
    // fixed, it goes through
    await key.fill('standard-kyb');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.ok((await api.get('/v1/templates')).body.data.some((x: any) => x.key === 'standard-kyb'));
    // in French
    await inFrench(page);
    await page.getByRole('button', { name: 'Nouveau modèle' }).click();
    await page
      .getByRole('dialog', { name: 'Nouveau modèle' })
      .getByText('Clé : lettres, chiffres et _ . : - uniquement')
      .waitFor();
    await page.close();
  });

  test('why a check waits for a review is said once, with the rule that is off after it', async () => {
    const kase = await newCase('Waiting reason', [
      {
        first_name: 'Lea',
        last_name: 'Petit',
        email: 'lea.petit@example.com',
        relations: [{ roles: ['legal_representative'] }],
      },
    ]);
    const check = await api.post('/v1/checks/fraud_database', {
      individual_id: kase.body.individuals[0].id,
      settings: { automatic_approval: false },
    });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    const stored = (await api.get(`/v1/checks/fraud_database/${check.body.id}`)).body;
    assert.equal(stored.status, 'need_review');
    assert.equal(
      stored.data.review.comment,
      'Needs a review (automatic_approval is off): no match in the fraud list',
    );
    const { page } = await userPage('reviewer');
    await page.goto(`${base}/console/cases/${kase.id}?check=${check.body.id}`);
    const reason = page.locator(`#check-${check.body.id}`).getByTestId('check-waiting-reason');
    // not "Why it waits for a review: “Needs a review (automatic_approval is off): ...”"
    await reason.filter({ hasText: 'no match in the fraud list' }).waitFor();
    assert.equal(
      await reason.textContent(),
      'Why it waits for a review: no match in the fraud list (automatic_approval is off)',
    );
    await shot(page, 'h-waiting-reason');
    await inFrench(page);
    await reason.filter({ hasText: 'aucune correspondance' }).waitFor();
    assert.equal(
      await reason.textContent(),
      'Pourquoi il attend une revue : aucune correspondance dans la liste de fraude (automatic_approval désactivé)',
    );
    await page.close();
  });

  test('"not asked of the client" only on a check a client could be asked for', async () => {
    const kase = await newCase('Asked or not', [
      {
        first_name: 'Noe',
        last_name: 'Roux',
        email: 'noe.roux@example.com',
        relations: [{ roles: ['legal_representative'] }],
      },
    ]);
    const personId = kase.body.individuals[0].id;
    // an internal document type: a document check of it is one the client is never asked for
    const type = await api.post('/v1/document_types', {
      key: 'internal_memo',
      label: 'Internal memo',
      target_entities: ['individual'],
      is_internal: true,
    });
    assert.equal(type.status, 201, JSON.stringify(type.body));
    const memo = await api.post('/v1/checks/document', {
      individual_id: personId,
      settings: { document_type_key: 'internal_memo' },
    });
    assert.equal(memo.status, 201, JSON.stringify(memo.body));
    // a fraud list check: internal too, but no client could ever be asked for one
    const fraud = await api.post('/v1/checks/fraud_database', { individual_id: personId });
    assert.equal(fraud.status, 201, JSON.stringify(fraud.body));
    assert.equal(memo.body.is_internal, true);
    assert.equal(fraud.body.is_internal, true);
    const { page } = await userPage('reviewer');
    await page.goto(`${base}/console/cases/${kase.id}?entity=${personId}`);
    const memoRow = page.locator(`[data-check-id="${memo.body.id}"]`);
    const fraudRow = page.locator(`[data-check-id="${fraud.body.id}"]`);
    await memoRow.waitFor();
    assert.match((await memoRow.textContent()) ?? '', /not asked of the client/);
    assert.doesNotMatch((await fraudRow.textContent()) ?? '', /asked of the client/);
    await shot(page, 'i-asked-or-not');
    await page.close();
  });

  test("an activity names the case's template only where the template is what it is about", async () => {
    const template = await api.post('/v1/templates', {
      key: 'activity-kyb',
      name: 'Activity KYB',
      checks: [{ type: 'fraud_database', targets: ['main_company'] }],
    });
    assert.equal(template.status, 201, JSON.stringify(template.body));
    const kase = await newCase('Activity template');
    const run = await api.post('/v1/templates/run', { case_id: kase.id, template_key: 'activity-kyb' });
    assert.equal(run.status, 201, JSON.stringify(run.body));
    assert.ok((await api.post(`/v1/cases/${kase.id}/tags`, { tags: ['pep'] })).status < 300);
    const activities = (await api.get(`/v1/activities?case_id=${kase.id}`)).body.data;
    const tagged = activities.find((a: any) => a.type.includes('__added_tags__'));
    // the API gives the case's template with every activity of the case (the case as it was)
    assert.equal(tagged?.context.template?.name, 'Activity KYB', JSON.stringify(activities));
    const { page } = await userPage('reviewer');
    await page.goto(`${base}/console/cases/${kase.id}?tab=activity`);
    const timeline = page.getByTestId('case-activity');
    const rows = timeline.locator('li');
    await rows.filter({ hasText: '+pep' }).waitFor();
    const texts = await rows.allInnerTexts();
    const tagRow = texts.find((x) => x.includes('+pep')) ?? '';
    assert.doesNotMatch(tagRow, /Activity KYB/);
    // the template named where it is the subject: the run, or the change of the case's template
    const about = texts.filter((x) => x.includes('Activity KYB'));
    assert.ok(about.length >= 1, texts.join('\n'));
    assert.ok(
      about.every((x) => /template/i.test(x)),
      texts.join('\n'),
    );
    await shot(page, 'j-activity-template');
    await page.close();
  });

  test('"Password changed." does not move the top bar', async () => {
    const { ctx } = await getHarness();
    const user = await createConsoleUser(ctx, api.workspaceId, { role: 'viewer' });
    const page = await signedInPage(chrome, base, user);
    await page.goto(`${base}/console/`);
    const signOut = page.getByRole('button', { name: 'Sign out' });
    const password = page.getByRole('button', { name: 'Password' });
    await signOut.waitFor();
    const before = { signOut: await signOut.boundingBox(), password: await password.boundingBox() };
    await password.click();
    const dialog = page.getByRole('dialog', { name: 'Change your password' });
    await dialog.getByLabel('Current password').fill(user.password);
    await dialog.getByLabel('New password', { exact: true }).fill('a-brand-new-passw0rd');
    await dialog.getByLabel('New password again').fill('a-brand-new-passw0rd');
    await dialog.getByRole('button', { name: 'Change the password' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'Password changed.' });
    await notice.waitFor();
    // not in the top bar, and the top bar's buttons where they were
    assert.equal(await page.locator('.topbar').getByText('Password changed.').count(), 0);
    assert.deepEqual(
      { signOut: await signOut.boundingBox(), password: await password.boundingBox() },
      before,
    );
    await shot(page, 'k-password-changed');
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByText('Password changed.').waitFor({ state: 'detached' });
    await page.close();
  });

  test('a case deleted while its page is open: the next action shows that it is gone', async () => {
    const kase = await newCase('Deleted under the page');
    const { page } = await userPage('reviewer');
    await page.goto(`${base}/console/cases/${kase.id}`);
    await page.getByRole('button', { name: 'Launch checks' }).waitFor();
    assert.equal((await api.delete(`/v1/cases/${kase.id}`)).status, 204);
    const tags = page.getByTestId('case-tags');
    await tags.getByPlaceholder(/tag/i).fill('ghost');
    await tags.getByRole('button', { name: 'Add a tag' }).click();
    // not "Case not found" beside the tag field while every action stays offered
    await page
      .getByRole('alert')
      .filter({ hasText: 'This case does not exist in this workspace.' })
      .waitFor();
    assert.equal(await page.getByRole('button', { name: 'Launch checks' }).count(), 0);
    assert.equal(await page.getByTestId('case-tags').count(), 0);
    await page.getByRole('link', { name: /Cases/ }).first().waitFor();
    await shot(page, 'l-case-deleted');
    await page.close();
  });

  test('the audit log names the users it lists by name and links the cases', async () => {
    const { ctx } = await getHarness();
    const rita = await createConsoleUser(ctx, api.workspaceId, {
      role: 'reviewer',
      firstName: 'Rita',
      lastName: 'Audited',
      email: `rita-${Date.now()}@example.test`,
    });
    assert.equal((await api.patch(`/v1/users/${rita.id}`, { role: 'viewer' })).status, 200);
    const kase = await newCase('Audited case');
    assert.ok((await api.post(`/v1/cases/${kase.id}/tags`, { tags: ['audited'] })).status < 300);
    const { page } = await userPage('admin');
    await page.goto(`${base}/console/settings/audit-log`);
    // not "user ea2b8fc0-…": the user's name and e-mail, the id kept in the tooltip
    const userRow = page
      .locator('tbody tr')
      .filter({ hasText: 'User updated' })
      .filter({ hasText: 'Rita Audited' });
    await userRow.first().waitFor();
    const named = userRow.first().getByText(`Rita Audited (${rita.email})`);
    assert.equal(await named.getAttribute('title'), rita.id);
    // the detail says what the role was, beside what it became
    await userRow.first().getByRole('button').first().click();
    const change = page.locator('.settings-detail-row .audit-changes li');
    await change.first().waitFor();
    assert.deepEqual(await change.allTextContents(), ['role: reviewer → viewer']);
    // the action in words in the list, its code in the detail; the time to the second in the list,
    // the instant itself in the detail
    const detail = page.locator('.settings-detail-row');
    await detail.locator('code', { hasText: /^user\.update$/ }).waitFor();
    const when = await detail.locator('time').getAttribute('datetime');
    assert.equal(await detail.locator('time').textContent(), when);
    assert.match(when ?? '', /T\d\d:\d\d:\d\d\.\d{3}Z$/);
    const listed = await userRow.first().getByRole('button').first().textContent();
    assert.match(listed ?? '', /\d\d:\d\d:\d\d$/);
    await userRow.first().getByRole('button').first().click();
    // a case: a link to its page
    const caseRow = page.locator('tbody tr').filter({ hasText: 'Tags added' }).filter({ hasText: kase.id });
    const link = caseRow.first().getByRole('link', { name: kase.id });
    assert.equal(await link.getAttribute('href'), `/console/cases/${kase.id}`);
    await shot(page, 'm-audit-log');
    // in French: the actions and resource types in French too
    await inFrench(page);
    const frRow = page
      .locator('tbody tr')
      .filter({ hasText: 'Étiquettes ajoutées' })
      .filter({ hasText: kase.id });
    await frRow.first().getByText('dossier', { exact: false }).waitFor();
    assert.equal(await frRow.first().getByText('case.tag.create').count(), 0);
    await page.getByLabel('Langue').selectOption('en');
    await link.click();
    await page.getByRole('heading', { level: 1, name: 'Audited case' }).waitFor();
    await page.close();
  });

  test('an e-mail of two workspaces is asked its workspace in the console language only', async () => {
    const { ctx } = await getHarness();
    const other = await newWorkspace('console-details-second');
    const email = `deux-${Date.now()}@equipe.test`;
    const password = 'MotDePasseCommun1';
    await createConsoleUser(ctx, api.workspaceId, { role: 'reviewer', email, password });
    const there = await createConsoleUser(ctx, other.workspaceId, { role: 'viewer', email, password });
    const page = await chrome.context.newPage();
    await chrome.context.clearCookies();
    await page.addInitScript(() => localStorage.setItem('vericase.console.lang', 'fr'));
    await page.goto(`${base}/console`);
    await page.getByRole('heading', { name: 'Connexion à la console' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Mot de passe').fill(password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.getByText('Votre e-mail existe dans plusieurs espaces : précisez lequel.').waitFor();
    // the hint alone: not followed by the server's English refusal
    assert.equal(await page.getByRole('alert').count(), 0);
    assert.equal(await page.getByText(/several workspaces/).count(), 0);
    await shot(page, 'o-login-which-workspace');
    await page.getByLabel('Espace de travail (nom ou identifiant)').fill(other.workspaceId);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.locator(`.topbar .role[data-role="viewer"]`).waitFor();
    assert.equal(
      (await ctx.db.selectFrom('console_sessions').select('id').where('user_id', '=', there.id).execute())
        .length,
      1,
    );
    await page.evaluate('localStorage.removeItem("vericase.console.lang")');
    await page.close();
  });

  test('Save in the risk dialog with no level chosen says to choose one', async () => {
    const kase = await newCase('Risk without level');
    const { page } = await userPage('reviewer');
    await page.goto(`${base}/console/cases/${kase.id}`);
    await page.getByTestId('case-risk').getByRole('button', { name: 'Set the risk' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set the risk' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: 'Choose a level first: it sets the date of the next review.' })
      .waitFor();
    assert.equal(await dialog.getByLabel('Level').getAttribute('aria-invalid'), 'true');
    await shot(page, 'n-risk-no-level');
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).body.risk, null);
    // a level chosen: the line goes, and Save records it
    await dialog.getByLabel('Level').selectOption('medium');
    assert.equal(await dialog.getByRole('alert').count(), 0);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).body.risk.level, 'medium');
    // in French
    const other = await newCase('Risque sans niveau');
    await inFrench(page);
    await page.goto(`${base}/console/cases/${other.id}`);
    await page.getByTestId('case-risk').getByRole('button', { name: 'Définir le risque' }).click();
    const fr = page.getByRole('dialog', { name: 'Définir le risque' });
    await fr.getByRole('button', { name: 'Enregistrer' }).click();
    await fr.getByRole('alert').filter({ hasText: 'Choisissez d’abord un niveau' }).waitFor();
    await page.close();
  });

  test("the graph tells a screen reader an entity's checks, or that it has none", async () => {
    const kase = await newCase('Spoken graph', [
      {
        first_name: 'Lou',
        last_name: 'Garnier',
        email: 'lou.garnier@example.com',
        relations: [{ roles: ['legal_representative'] }],
      },
    ]);
    const lou = kase.body.individuals[0].id;
    const fraud = await api.post('/v1/checks/fraud_database', { individual_id: lou });
    assert.equal(fraud.body.status, 'approved', JSON.stringify(fraud.body));
    const { page } = await userPage('viewer');
    await page.goto(`${base}/console/cases/${kase.id}`);
    const graph = page.getByTestId('case-graph');
    const company = graph.locator(`[data-entity-id="${kase.body.companies[0].id}"]`);
    const person = graph.locator(`[data-entity-id="${lou}"]`);
    await company.waitFor();
    // not "Checks: " with nothing after it, nor a row of zeros
    assert.equal(await company.getAttribute('aria-label'), 'Company: Spoken graph SAS. No checks.');
    assert.equal(await person.getAttribute('aria-label'), 'Individual: Lou Garnier. Checks: 1 approved.');
    await inFrench(page);
    await eventually(
      async () =>
        (await person.getAttribute('aria-label')) ===
        'Personne physique : Lou Garnier. Contrôles : 1 approuvé.',
    );
    assert.equal(await company.getAttribute('aria-label'), 'Société : Spoken graph SAS. Aucun contrôle.');
    await page.close();
  });
});
