/**
 * Two people deciding the same thing in two tabs, in headless Chromium against the real service.
 * The console walk's findings: a stale tab's "Ignore" silently replaced a hit another reviewer had
 * just confirmed (the check was then rejected on a hit recorded as "not them"), and a stale tab's
 * case review contradicted one recorded a second earlier without a word. Every decision is now sent
 * on the version the tab shows (If-Match): the stale one is refused, said in the console's words,
 * and the panel drawn again with what the other person decided, and by whom.
 * Screenshots: test-output/screenshots/console-two-tabs-*.png.
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
import { type ConsoleUser, createConsoleUser } from '../helpers/console-session.ts';
import { type Client, eventually, getHarness, newWorkspace } from '../helpers/harness.ts';
import { type LiveServer, listen } from '../helpers/live-server.ts';

let server: LiveServer;
let base: string;
// one browser per person: a profile holds one session
let chromeAdmin: ChromiumSession;
let chromeRita: ChromiumSession;
let api: Client;
let admin: ConsoleUser;
let rita: ConsoleUser;
let caseId: string;
let amlId: string;

// on OFAC's SDN list, in the reference data the tests screen against (test/checks-aml.test.ts)
const LISTED_PERSON = {
  first_name: 'Elvis',
  middle_name: 'Angus',
  last_name: 'Logan Morey',
  birth_date: '1963-07-28',
  nationalities: ['BZ'],
};

async function shot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `console-two-tabs-${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled', caret: 'hide' });
}

/** The case page with the AML check unfolded, its hits drawn. */
async function openCheck(page: Page) {
  await page.goto(`${base}/console/cases/${caseId}?check=${amlId}`);
  const panel = page.locator(`#check-${amlId}`);
  await panel.getByRole('heading', { name: /Hits/ }).waitFor();
  return panel;
}

before(async () => {
  server = await listen();
  base = `http://127.0.0.1:${server.port}`;
  const { ctx } = await getHarness();
  await eventually(async () => ctx.screening?.available, 120_000);
  api = await newWorkspace('console-two-tabs');
  admin = await createConsoleUser(ctx, api.workspaceId, {
    role: 'admin',
    firstName: 'Ada',
    lastName: 'Admin',
  });
  rita = await createConsoleUser(ctx, api.workspaceId, {
    role: 'reviewer',
    firstName: 'Rita',
    lastName: 'Reviewer',
  });
  const created = await api.post('/v1/cases', {
    name: 'Two tabs case',
    companies: [{ name: 'Acme Widgets SAS', country: 'FR' }],
    individuals: [{ ...LISTED_PERSON, relations: [{ roles: ['legal_representative'] }] }],
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  caseId = created.body.id;
  const aml = await api.post('/v1/checks/aml', { individual_id: created.body.individuals[0].id });
  assert.equal(aml.status, 201, JSON.stringify(aml.body));
  amlId = aml.body.id;
  const screened = await eventually(async () => {
    const res = await api.get(`/v1/checks/aml/${amlId}`);
    return res.body.status !== 'processing' ? res.body : undefined;
  });
  assert.equal(screened.status, 'need_review');
  chromeAdmin = await openChromium({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
  chromeRita = await openChromium({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
});

after(async () => {
  await chromeAdmin?.close();
  await chromeRita?.close();
  await server?.close();
});

describe('console: two tabs deciding the same thing', { timeout: 600_000 }, () => {
  test('a stale tab ignoring a hit confirmed meanwhile is refused, and shows the confirmation and who made it', async () => {
    const adminPage = await signedInPage(chromeAdmin, base, admin);
    const ritaPage = await signedInPage(chromeRita, base, rita);
    // both tabs show the hit as a potential match
    const adminPanel = await openCheck(adminPage);
    const ritaPanel = await openCheck(ritaPage);
    const adminHit = adminPanel.locator('.hit').first();
    const ritaHit = ritaPanel.locator('.hit').first();
    for (const hit of [adminHit, ritaHit])
      assert.match(await hit.locator('.hit-footer').innerText(), /Hit status: Potential match/);

    // Rita confirms it, with her reason
    await ritaHit.getByLabel(/^Why \(optional\), for /).fill('True match on OFAC SDN');
    await ritaHit.getByRole('button', { name: 'Confirm (true match)' }).click();
    await ritaPanel
      .locator('.hit')
      .first()
      .getByTestId('hit-reviewed')
      .filter({ hasText: /^Reviewed by Rita Reviewer on / })
      .waitFor();

    // the admin's tab still shows a potential match: its "Ignore" is refused, nothing written
    assert.match(await adminHit.locator('.hit-footer').innerText(), /Hit status: Potential match/);
    await adminHit.getByRole('button', { name: 'Ignore (not them)' }).click();
    const notice = adminPanel.getByTestId('check-changed-meanwhile');
    await notice.waitFor();
    assert.equal(
      await notice.textContent(),
      'Someone changed this check meanwhile: it has been read again, check it before deciding.',
    );
    // the panel is drawn again with the hit as Rita decided it, by her, with her reason
    const footer = adminPanel.locator('.hit').first().locator('.hit-footer');
    await footer.getByText('Hit status: Confirmed (true match)').waitFor();
    assert.match(await footer.getByTestId('hit-reviewed').innerText(), /^Reviewed by Rita Reviewer on /);
    assert.match(await footer.innerText(), /True match on OFAC SDN/);
    // no refusal in the server's words beside the console's
    assert.equal(await adminPanel.getByRole('alert').count(), 1);
    await shot(adminPage, '01-hit-changed-meanwhile');

    const check = (await api.get(`/v1/checks/aml/${amlId}`)).body;
    const hit = check.data.hits[0];
    assert.equal(hit.status, 'true_positive');
    assert.equal(hit.review.comment, 'True match on OFAC SDN');
    assert.equal(hit.review.user.id, rita.id);

    // in French, the same words in French
    await adminPage.getByLabel('Language').selectOption('fr');
    await adminPanel.getByRole('heading', { name: /Correspondances/ }).waitFor();
    assert.equal(
      await notice.textContent(),
      'Quelqu’un a modifié ce contrôle entre-temps : il a été relu, vérifiez-le avant de décider.',
    );
    assert.match(await footer.getByTestId('hit-reviewed').innerText(), /^Revu par Rita Reviewer le /);
    await adminPage.getByLabel('Langue').selectOption('en');
    await adminPage.close();
    await ritaPage.close();
  });

  test('a stale tab reviewing a case reviewed meanwhile is refused and told', async () => {
    const adminPage = await signedInPage(chromeAdmin, base, admin);
    const ritaPage = await signedInPage(chromeRita, base, rita);
    for (const page of [adminPage, ritaPage]) {
      await page.goto(`${base}/console/cases/${caseId}`);
      await page.getByTestId('case-review-open').waitFor();
    }
    const review = async (page: Page, decision: 'Approve' | 'Reject', comment: string) => {
      await page.getByTestId('case-review-open').click();
      const dialog = page.getByRole('dialog', { name: 'Review the case' });
      await dialog.getByLabel(decision, { exact: true }).check();
      await dialog.getByLabel('Comment', { exact: true }).fill(comment);
      await dialog.getByRole('button', { name: 'Record the review' }).click();
      return dialog;
    };
    const approved = await review(ritaPage, 'Approve', 'Cleared');
    await approved.waitFor({ state: 'hidden' });
    await eventually(async () =>
      (await api.get(`/v1/cases/${caseId}`)).body.status === 'approved' ? true : undefined,
    );

    const stale = await review(adminPage, 'Reject', 'Not cleared');
    const notice = stale.getByTestId('case-review-changed');
    await notice.waitFor();
    assert.equal(
      await notice.textContent(),
      'Someone changed this case meanwhile: it has been read again, check it before deciding.',
    );
    // the dialog stays open, the comment kept, no decision chosen for the reviewer
    // (its label's name now holds the text typed: the field itself)
    assert.equal(await stale.locator('textarea').inputValue(), 'Not cleared');
    assert.equal(await stale.getByLabel('Reject', { exact: true }).isChecked(), false);
    await shot(adminPage, '02-case-changed-meanwhile');
    const kase = (await api.get(`/v1/cases/${caseId}`)).body;
    assert.equal(kase.status, 'approved');
    assert.equal(kase.review.comment, 'Cleared');
  });
});
