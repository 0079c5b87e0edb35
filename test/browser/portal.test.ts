/**
 * The client portal as a contact uses it, in headless Chromium (Debian's chromium through
 * playwright-core) against the real service on a socket: an operator creates a case whose contact is
 * a business contact, asks for documents and an identity verification, shares a portal link; the
 * contact opens it, uploads, reopens it, submits; the operator sees the checks move and
 * `contact_has_actions` turn false. Also: French, a keyboard-only upload, a replaced link, a check
 * link with a redirect. Screenshots of every step at phone and desktop widths go to
 * test-output/screenshots/ and are listed in the test's log.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { hashToken } from '../../src/client-portals/links.ts';
import {
  type ChromiumSession,
  openChromium,
  type Page,
  PHONE,
  SCREENSHOT_DIR,
  Screenshots,
} from '../helpers/browser.ts';
import { contactCase, type Operator, operatorClient } from '../helpers/browser-operator.ts';
import { outcomePdf, outcomePng } from '../helpers/document-checks.ts';
import { makePng } from '../helpers/files.ts';
import { eventually, getHarness } from '../helpers/harness.ts';
import { type LiveServer, listen } from '../helpers/live-server.ts';
import { portal, portalUpload } from '../helpers/portal.ts';

let server: LiveServer;
let base: string;
let chrome: ChromiumSession | undefined;
const runs: Screenshots[] = [];
/** Screenshots of one run, listed in the log at the end (also when a test failed half-way). */
const screenshots = (run: string) => {
  const shots = new Screenshots(run);
  runs.push(shots);
  return shots;
};

before(async () => {
  server = await listen();
  base = `http://127.0.0.1:${server.port}`;
});
after(async () => {
  await chrome?.close();
  await server?.close();
  const files = runs.flatMap((r) => r.files);
  console.log(`screenshots (${files.length}) in ${SCREENSHOT_DIR}:\n  ${files.join('\n  ')}`);
});

const operator = () => operatorClient(base, 'portal-browser');

async function documentCheck(op: Operator, companyId: string): Promise<string> {
  const check = await op.ok('POST', '/v1/checks/document', {
    company_id: companyId,
    settings: { document_type_key: 'registration_certificate' },
  });
  assert.equal(check.status, 'in_progress');
  return check.id;
}

async function shareLink(op: Operator, caseId: string, contactId: string): Promise<string> {
  const shared = await op.ok('POST', `/v1/cases/${caseId}/share-client-portal-link`, {
    business_contact_id: contactId,
  });
  assert.match(shared.link, /\/portal\/#token=vcp_/);
  return shared.link;
}

async function defaultPortal(op: Operator) {
  const list = await op.ok('GET', '/v1/client-portals');
  const portals = Array.isArray(list) ? list : list.data;
  return portals.find((p: { is_default: boolean }) => p.is_default) ?? portals[0];
}

/** Waits for the check to leave the contact's hands and settle; returns its final status. */
async function settled(op: Operator, type: string, id: string): Promise<string> {
  return eventually(async () => {
    const check = await op.ok('GET', `/v1/checks/${type}/${id}`);
    return !['in_progress', 'processing'].includes(check.status) && check.status;
  }, 120_000);
}

async function openBrowser(locale: string) {
  chrome = await openChromium({ viewport: PHONE, locale, hasTouch: false });
  return chrome;
}

/** A new tab on `url`, failing the test on any script error in the page. */
async function openPage(session: ChromiumSession, url: string, errors: string[]): Promise<Page> {
  const page = await session.context.newPage();
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(url);
  return page;
}

const action = (page: Page, type: string) => page.locator(`[data-action-type="${type}"]`);
const slot = (page: Page, type: string, legend: string) =>
  action(page, type).getByRole('group', { name: legend, exact: true });
/**
 * A sent step's badge: "Being checked" (the submission's answer while the check is processing),
 * "Received" (waiting for a person), or "Approved" once a session read brings the sandbox's decision
 * (20 ms in tests), which a busy machine may show before the test looks.
 */
async function sent(page: Page, type: string): Promise<void> {
  try {
    await action(page, type)
      .locator('.badge', { hasText: /^(Being checked|Received|Approved)$/ })
      .waitFor();
  } catch (err) {
    // what the step shows instead (an error, a button still sending) says what went wrong
    const shown = await action(page, type)
      .innerText({ timeout: 5000 })
      .catch(() => '(not found)');
    throw new Error(`the ${type} step was not sent: ${(err as Error).message}\nit shows: ${shown}`);
  }
}

/** Chooses a file for a slot through its file input (what the file picker hands the page). */
async function choose(
  page: Page,
  type: string,
  legend: string,
  name: string,
  buffer: Buffer,
  mimeType: string,
) {
  const group = slot(page, type, legend);
  await group.locator('input[type=file]').setInputFiles({ name, mimeType, buffer });
  await group.locator('.file-name', { hasText: name }).waitFor();
}

/** A selfie the sandbox reads: its tEXt chunk `sandbox_outcome` decides (docs/sandbox.md). */
const sandboxSelfie = (outcome: string) =>
  makePng({ width: 64, height: 64, color: [224, 182, 160], text: { sandbox_outcome: outcome } });

// the suite's seven runs in Chromium take 150-175 s on an idle two-core machine, at the edge of the
// run's 180 s per-test timeout, which a describe also gets as its budget: a ceiling of its own
describe('client portal in Chromium', { timeout: 600_000 }, () => {
  afterEach(async () => {
    await chrome?.close();
    chrome = undefined;
  });

  test('a contact uploads documents and verifies their identity; the operator sees it all arrive', async () => {
    const op = await operator();
    const { caseId, companyId, contactId } = await contactCase(op);
    const portal = await defaultPortal(op);
    await op.ok('PATCH', `/v1/client-portals/${portal.id}`, {
      name: 'Acme Compliance',
      accent_color: '#0f766e',
      logo_upload_ref: await op.upload(
        makePng({ width: 120, height: 40, color: [15, 118, 110] }),
        'logo.png',
      ),
      wait_steps: [{ key: 'review', title: 'Compliance review' }],
    });
    const documentId = await documentCheck(op, companyId);
    const idDocument = await op.ok('POST', '/v1/checks/id_document', { individual_id: contactId });
    assert.equal(idDocument.status, 'in_progress');
    const idVerification = await op.ok('POST', '/v1/checks/id_verification', { individual_id: contactId });
    assert.equal(idVerification.status, 'in_progress');
    assert.equal((await op.ok('GET', `/v1/cases/${caseId}`)).contact_has_actions, true);
    const link = await shareLink(op, caseId, contactId);

    const shots = screenshots('portal-en');
    const errors: string[] = [];
    const browser = await openBrowser('en-US');
    const page = await openPage(browser, link, errors);
    await page.getByRole('heading', { level: 1, name: 'Hello Ada,' }).waitFor();
    // the token left the address bar for sessionStorage
    assert.equal(new URL(page.url()).hash, '');
    assert.match((await page.evaluate(() => sessionStorage.getItem('vericase.portal.token'))) ?? '', /^vcp_/);
    // branding and what is asked
    await page.locator('header').getByText('Acme Compliance').waitFor();
    await page.locator('header img.logo').waitFor();
    assert.equal(
      await page.evaluate("document.documentElement.style.getPropertyValue('--accent')"),
      '#0f766e',
    );
    await page
      .getByText('To complete the verification of Acme SAS, please provide the following.', { exact: false })
      .waitFor();
    assert.equal(await page.locator('li.action').count(), 3);
    // what a slot takes is said before any refusal says it
    assert.equal(
      await slot(page, 'document', 'Files').locator('.slot-meta').innerText(),
      'required · up to 10 files · PDF, JPEG, PNG · at most 20 MB each',
    );
    await shots.take(page, 'checklist');

    // the document: a file is saved at once, survives closing the page, can be removed
    await choose(page, 'document', 'Files', 'kbis.pdf', outcomePdf('approved'), 'application/pdf');
    await choose(page, 'document', 'Files', 'wrong-file.pdf', outcomePdf('approved'), 'application/pdf');
    // what the service refuses is said in the page's words: a format it does not take, and a file
    // over the 20 MB limit (refused before it is sent)
    const files = slot(page, 'document', 'Files');
    await files.locator('input[type=file]').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a document'),
    });
    await files.getByRole('alert').filter({ hasText: 'notes.txt was not accepted' }).waitFor();
    // a PDF saved under a photo's name: the slot takes PDFs, so the page asks for a rename, not for
    // "a photo or a PDF" (which this file already is)
    await files.locator('input[type=file]').setInputFiles({
      name: 'kbis.png',
      mimeType: 'image/png',
      buffer: outcomePdf('approved'),
    });
    await files
      .getByRole('alert')
      .filter({ hasText: 'kbis.png was not accepted: its content is not the kind of file its name says' })
      .waitFor();
    await files.locator('input[type=file]').setInputFiles({
      name: 'huge-scan.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.alloc(21 * 1024 * 1024, 0x20),
    });
    await files.getByRole('alert').filter({ hasText: 'huge-scan.pdf is too large' }).waitFor();
    await shots.take(page, 'document-files-saved-one-refused');
    assert.equal(await files.locator('.file-name').count(), 2);
    // several chosen at once, the first refused: the others are still sent, and the refused one
    // named (the page sent the first file only, and dropped the rest without a word)
    await files.locator('input[type=file]').setInputFiles([
      { name: 'bad.txt', mimeType: 'text/plain', buffer: Buffer.from('not a document') },
      { name: 'extra-1.pdf', mimeType: 'application/pdf', buffer: outcomePdf('approved') },
      { name: 'extra-2.pdf', mimeType: 'application/pdf', buffer: outcomePdf('approved') },
    ]);
    await files.locator('.file-name', { hasText: 'extra-2.pdf' }).waitFor();
    await files.getByRole('alert').filter({ hasText: 'bad.txt was not accepted' }).waitFor();
    assert.equal(await files.locator('.file-name').count(), 4);
    // a PDF cut short is a damaged file, not a wrong format: the page said "send a PDF" for a PDF
    const whole = outcomePdf('approved');
    await files.locator('input[type=file]').setInputFiles({
      name: 'mini.pdf',
      mimeType: 'application/pdf',
      buffer: whole.subarray(0, Math.floor(whole.length / 2)),
    });
    await files
      .getByRole('alert')
      .filter({ hasText: 'mini.pdf could not be read: the file looks damaged' })
      .waitFor();
    assert.equal(await files.locator('.file-name').count(), 4);
    await page.close();
    const reopened = await openPage(browser, link, errors);
    await slot(reopened, 'document', 'Files').locator('.file-name', { hasText: 'wrong-file.pdf' }).waitFor();
    await slot(reopened, 'document', 'Files').getByRole('button', { name: 'Remove wrong-file.pdf' }).click();
    await slot(reopened, 'document', 'Files').locator('.file-name', { hasText: 'wrong-file.pdf' }).waitFor({
      state: 'detached',
    });
    assert.equal(await slot(reopened, 'document', 'Files').locator('.file-name').count(), 3);
    await action(reopened, 'document').getByRole('button', { name: 'Send', exact: true }).click();
    await sent(reopened, 'document');
    // the Send button went with the step: the focus moves on to the next step still asking (it fell
    // to the page's start)
    const focusedStep = () =>
      reopened.evaluate(() => {
        const active = (globalThis as any).document.activeElement;
        return `${active?.tagName} ${active?.closest('li.action')?.dataset.actionType ?? ''}`;
      });
    await reopened.waitForFunction(() => (globalThis as any).document.activeElement?.tagName === 'H3');
    assert.equal(await focusedStep(), 'H3 id_document');
    await shots.take(reopened, 'document-sent');
    assert.notEqual((await op.ok('GET', `/v1/checks/document/${documentId}`)).status, 'in_progress');

    // the identity document: front only (the back is optional)
    await choose(
      reopened,
      'id_document',
      'Front of the document',
      'passport.png',
      outcomePng('approved'),
      'image/png',
    );
    await action(reopened, 'id_document').getByRole('button', { name: 'Send', exact: true }).click();
    await sent(reopened, 'id_document');

    // the identity verification: the camera is refused in headless Chromium, so the page offers
    // the file fallback, which is always there
    const face = slot(reopened, 'id_verification', 'Photo of your face');
    await choose(
      reopened,
      'id_verification',
      'Front of the document',
      'id-front.png',
      outcomePng('approved'),
      'image/png',
    );
    await face.getByRole('button', { name: 'Take a selfie' }).click();
    await face.getByText('The camera is not available.', { exact: false }).waitFor();
    await shots.take(reopened, 'camera-unavailable-fallback');
    await choose(
      reopened,
      'id_verification',
      'Photo of your face',
      'selfie.png',
      sandboxSelfie('approved'),
      'image/png',
    );
    await shots.take(reopened, 'id-verification-ready');
    await action(reopened, 'id_verification').getByRole('button', { name: 'Send', exact: true }).click();

    // everything received; the portal's first wait step is shown
    await reopened.getByRole('heading', { level: 1, name: 'Everything has been received' }).waitFor();
    await reopened.getByRole('heading', { name: 'We are reviewing: Compliance review' }).waitFor();
    await shots.take(reopened, 'everything-received');

    // the operator's side
    const finalCase = await eventually(async () => {
      const c = await op.ok('GET', `/v1/cases/${caseId}`);
      return c.contact_has_actions === false && c;
    }, 60_000);
    assert.equal(finalCase.client_portal?.wait_step_key, 'review');
    assert.ok(finalCase.last_contact_action_at);
    assert.equal(await settled(op, 'document', documentId), 'approved');
    assert.equal(await settled(op, 'id_document', idDocument.id), 'approved');
    assert.equal(await settled(op, 'id_verification', idVerification.id), 'approved');
    const verified = await op.ok('GET', `/v1/checks/id_verification/${idVerification.id}`);
    assert.ok(verified.data.information.front_file_id && verified.data.information.face_file_id);

    // a new link replaces this one: the old page says so
    await shareLink(op, caseId, contactId);
    const stale = await openPage(browser, link, errors);
    await stale.getByRole('heading', { level: 1, name: 'This link no longer works' }).waitFor();
    // the refusal's code chooses the words: a replaced link was withdrawn, not "expired"
    await stale
      .getByText(
        'This link was withdrawn or replaced by a newer one. Please ask the person who sent it to you for a new link.',
      )
      .waitFor();
    await shots.take(stale, 'link-replaced');
    // an address cut short (a token that never existed) says to check the address
    const cut = await openPage(browser, link.slice(0, -6), errors);
    await cut.getByRole('heading', { level: 1, name: 'This link no longer works' }).waitFor();
    await cut
      .getByText('This link is not valid. Check that you opened the whole address you received', {
        exact: false,
      })
      .waitFor();
    // a link past its lifetime says it expired, and only that (PORTAL_LINK_EXPIRED)
    const lapsedLink = await shareLink(op, caseId, contactId);
    const { ctx } = await getHarness();
    await ctx.db
      .updateTable('client_portal_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', hashToken(lapsedLink.split('#token=')[1] ?? ''))
      .execute();
    const lapsed = await openPage(browser, lapsedLink, errors);
    await lapsed.getByRole('heading', { level: 1, name: 'This link no longer works' }).waitFor();
    await lapsed
      .getByText('This link has expired. Please ask the person who sent it to you for a new link.', {
        exact: true,
      })
      .waitFor();
    await shots.take(lapsed, 'link-expired');
    // the page without a token (a new tab, so nothing in its sessionStorage)
    const bare = await openPage(browser, `${base}/portal/`, errors);
    await bare.getByRole('heading', { level: 1, name: 'This link is incomplete' }).waitFor();
    assert.deepEqual(errors, []);
  });

  test('in French when the browser asks for it', async () => {
    const op = await operator();
    const { caseId, companyId, contactId } = await contactCase(op);
    const documentId = await documentCheck(op, companyId);
    const link = await shareLink(op, caseId, contactId);

    const shots = screenshots('portal-fr');
    const errors: string[] = [];
    const browser = await openBrowser('fr-FR');
    const page = await openPage(browser, link, errors);
    await page.getByRole('heading', { level: 1, name: 'Bonjour Ada,' }).waitFor();
    assert.equal(await page.evaluate('document.documentElement.lang'), 'fr');
    await page
      .getByText('Pour finaliser le dossier Acme SAS, merci de fournir les éléments suivants.', {
        exact: false,
      })
      .waitFor();
    await shots.take(page, 'checklist');
    // a built-in document type's label is in the page's language too
    await action(page, 'document').getByRole('heading', { name: 'Extrait d’immatriculation' }).waitFor();
    assert.ok(!(await page.locator('body').innerText()).includes('Registration certificate'));
    await choose(page, 'document', 'Fichiers', 'extrait-kbis.pdf', outcomePdf('approved'), 'application/pdf');
    await shots.take(page, 'document-file-saved');
    await action(page, 'document').getByRole('button', { name: 'Envoyer', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Tout a bien été reçu' }).waitFor();
    await shots.take(page, 'everything-received');
    await eventually(
      async () => (await op.ok('GET', `/v1/cases/${caseId}`)).contact_has_actions === false,
      60_000,
    );
    assert.equal(await settled(op, 'document', documentId), 'approved');
    // an identity verification asked of her afterwards: its card is in French too, as is the
    // portal's default name (the server sends no English text for built-in steps)
    await op.ok('POST', '/v1/checks/id_verification', { individual_id: contactId });
    await page.reload();
    const idCard = action(page, 'id_verification');
    await idCard.getByRole('heading', { name: 'Vérification d’identité' }).waitFor();
    await idCard
      .getByText(
        'Une photo du recto de votre pièce d’identité (et de son verso s’il y en a un), puis un selfie.',
      )
      .waitFor();
    assert.equal(await page.locator('.portal-name').textContent(), 'Portail client');
    assert.equal(await page.title(), 'Portail client');
    const shown = await page.locator('body').innerText();
    for (const english of ['Identity verification', 'A photo of the front', 'Client portal'])
      assert.ok(!shown.includes(english), `no "${english}" on the French page`);
    await shots.take(page, 'identity-verification');
    // the operator takes the portal offline: the open page, reloaded, says so (the token stays)
    await op.ok('PATCH', `/v1/client-portals/${(await defaultPortal(op)).id}`, { status: 'offline' });
    await page.reload();
    await page
      .getByRole('heading', { level: 1, name: 'Cette page n’est pas disponible pour le moment' })
      .waitFor();
    await shots.take(page, 'portal-offline');
    assert.deepEqual(errors, []);
  });

  test("in Polish from the portal's default language, for a browser in a language the page lacks", async () => {
    const op = await operator();
    const { caseId, companyId, contactId } = await contactCase(op);
    await op.ok('PATCH', `/v1/client-portals/${(await defaultPortal(op)).id}`, { default_language: 'pl' });
    await documentCheck(op, companyId);
    await op.ok('POST', '/v1/checks/id_document', { individual_id: contactId });
    const link = await shareLink(op, caseId, contactId);

    const shots = screenshots('portal-pl');
    const errors: string[] = [];
    // Swedish: a language no dictionary has, so the portal's default language decides
    const browser = await openBrowser('sv-SE');
    const page = await openPage(browser, link, errors);
    await page.getByRole('heading', { level: 1, name: 'Dzień dobry, Ada,' }).waitFor();
    assert.equal(await page.evaluate('document.documentElement.lang'), 'pl');
    await page
      .getByText('Aby zakończyć weryfikację firmy Acme SAS, prosimy o wykonanie poniższych kroków.', {
        exact: false,
      })
      .waitFor();
    await page.getByText('Ukończono: 0 z 2', { exact: true }).waitFor();
    // the built-in document type's label, in Polish usage
    await action(page, 'document')
      .getByRole('heading', { name: 'Odpis z Krajowego Rejestru Sądowego (KRS)' })
      .waitFor();
    const idDocument = action(page, 'id_document');
    await idDocument.getByRole('heading', { name: 'Dokument tożsamości' }).waitFor();
    await slot(page, 'id_document', 'Przednia strona dokumentu').waitFor();
    // the link's expiry, a date written by Intl in Polish (a month in the genitive)
    assert.match(
      (await page.locator('.expires').textContent()) ?? '',
      /^Ten link jest ważny do \d{1,2} (stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września|października|listopada|grudnia) \d{4}\.$/,
    );
    assert.equal(await page.title(), 'Portal klienta');
    await shots.take(page, 'checklist');
    await choose(page, 'document', 'Pliki', 'odpis-krs.pdf', outcomePdf('approved'), 'application/pdf');
    await action(page, 'document').getByRole('button', { name: 'Wyślij', exact: true }).click();
    await action(page, 'document')
      .locator('.badge', { hasText: /^(Otrzymano|Zatwierdzono)$/ })
      .waitFor();
    await page.getByText('Ukończono: 1 z 2', { exact: true }).waitFor();
    await shots.take(page, 'document-sent');
    const shown = await page.locator('body').innerText();
    for (const english of [
      'Hello',
      'Registration certificate',
      'Identity document',
      'What is asked',
      'valid until',
    ])
      assert.ok(!shown.includes(english), `no "${english}" on the Polish page`);
    assert.deepEqual(errors, []);
  });

  test('in Japanese when the browser asks for it (the portal in English)', async () => {
    const op = await operator();
    const { caseId, companyId, contactId } = await contactCase(op);
    await documentCheck(op, companyId);
    await op.ok('POST', '/v1/checks/id_verification', { individual_id: contactId });
    const link = await shareLink(op, caseId, contactId);

    const shots = screenshots('portal-ja');
    const errors: string[] = [];
    const browser = await openBrowser('ja-JP');
    const page = await openPage(browser, link, errors);
    await page.getByRole('heading', { level: 1, name: 'Ada 様' }).waitFor();
    assert.equal(await page.evaluate('document.documentElement.lang'), 'ja');
    await page.getByText('Acme SAS の確認手続きを完了するため', { exact: false }).waitFor();
    await page.getByText('2 件中 0 件完了', { exact: true }).waitFor();
    await action(page, 'document').getByRole('heading', { name: '登記事項証明書（登記簿謄本）' }).waitFor();
    const idCard = action(page, 'id_verification');
    await idCard.getByRole('heading', { name: '本人確認', exact: true }).waitFor();
    await idCard.getByText('本人確認書類の表面の写真', { exact: false }).waitFor();
    assert.equal(await page.locator('.portal-name').textContent(), 'お客様ポータル');
    assert.equal(await page.title(), 'お客様ポータル');
    assert.match(
      (await page.locator('.expires').textContent()) ?? '',
      /^このリンクの有効期限は \d{4}年\d{1,2}月\d{1,2}日 です。$/,
    );
    await shots.take(page, 'checklist');
    await choose(page, 'document', 'ファイル', 'touki.pdf', outcomePdf('approved'), 'application/pdf');
    await action(page, 'document').getByRole('button', { name: '送信', exact: true }).click();
    await action(page, 'document')
      .locator('.badge', { hasText: /^(受領済み|承認済み)$/ })
      .waitFor();
    await page.getByText('2 件中 1 件完了', { exact: true }).waitFor();
    await shots.take(page, 'document-sent');
    const shown = await page.locator('body').innerText();
    for (const english of [
      'Hello',
      'Registration certificate',
      'Identity verification',
      'Client portal',
      'Files',
    ])
      assert.ok(!shown.includes(english), `no "${english}" on the Japanese page`);
    assert.deepEqual(errors, []);
  });

  test("an identity verification's own link: live capture with a camera, then the redirect", async () => {
    const op = await operator();
    const { caseId, contactId } = await contactCase(op);
    const check = await op.ok('POST', '/v1/checks/id_verification', {
      individual_id: contactId,
      settings: { redirect_url: 'https://example.com/after-verification?ref=42' },
    });
    const url = new URL(check.data.vendor.verification_url);
    assert.equal(url.pathname, '/portal/');
    assert.match(url.hash, /^#token=vcp_/);
    // no public URL is configured here: the link is on the origin the API client called
    assert.equal(url.origin, new URL(base).origin);
    const link = url.href;

    const shots = screenshots('portal-camera');
    const errors: string[] = [];
    // Chromium's fake camera (a test pattern), allowed without a prompt
    chrome = await openChromium({ viewport: PHONE, locale: 'en-US' }, [
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ]);
    const page = await openPage(chrome, link, errors);
    await page.getByRole('heading', { level: 1, name: 'Hello Ada,' }).waitFor();
    // a check link shows its one check
    assert.equal(await page.locator('li.action').count(), 1);

    // the document's front with the back camera: preview, capture, saved as a JPEG
    const front = slot(page, 'id_verification', 'Front of the document');
    // by keyboard: the focus stays in the camera's buttons (it fell to the page's start), Escape
    // closes it, and the focus is back on "Take a photo"
    const focused = () => page.evaluate(() => (globalThis as any).document.activeElement?.textContent ?? '');
    await front.getByRole('button', { name: 'Take a photo' }).focus();
    await page.keyboard.press('Enter');
    await front.getByRole('button', { name: 'Cancel' }).waitFor();
    assert.match(await focused(), /^(Cancel|Capture)$/);
    await page.keyboard.press('Escape');
    await front.getByRole('button', { name: 'Cancel' }).waitFor({ state: 'detached' });
    assert.equal(await focused(), 'Take a photo');
    // one camera at a time: opening the selfie's closes the document's (two previews at once left
    // the first one without a camera on a phone)
    await front.getByRole('button', { name: 'Take a photo' }).click();
    await front.getByRole('button', { name: 'Cancel' }).waitFor();
    const selfieSlot = slot(page, 'id_verification', 'Photo of your face');
    await selfieSlot.getByRole('button', { name: 'Take a selfie' }).click();
    await selfieSlot.getByRole('button', { name: 'Cancel' }).waitFor();
    await front.getByRole('button', { name: 'Cancel' }).waitFor({ state: 'detached' });
    assert.equal(await page.locator('video').count(), 1);
    await selfieSlot.getByRole('button', { name: 'Cancel' }).click();
    await front.getByRole('button', { name: 'Take a photo' }).click();
    const capture = front.getByRole('button', { name: 'Capture' });
    await front.getByText('Camera ready.', { exact: false }).waitFor();
    assert.equal(await capture.isEnabled(), true);
    await shots.take(page, 'camera-preview');
    await capture.click();
    await front.locator('.file-name', { hasText: 'front.jpg' }).waitFor();

    // the selfie with the front camera; then replaced by a chosen file (a single-file slot)
    const face = slot(page, 'id_verification', 'Photo of your face');
    await face.getByRole('button', { name: 'Take a selfie' }).click();
    await face.getByRole('button', { name: 'Capture' }).click();
    await face.locator('.file-name', { hasText: 'face.jpg' }).waitFor();
    await shots.take(page, 'photos-captured');
    // no camera button on the video slot: the camera here takes photos only
    assert.equal(
      await slot(page, 'id_verification', 'Short video').getByRole('button', { name: /Take/ }).count(),
      0,
    );
    await choose(
      page,
      'id_verification',
      'Photo of your face',
      'selfie.png',
      sandboxSelfie('approved'),
      'image/png',
    );
    assert.equal(await face.locator('.file-name').count(), 1);

    await action(page, 'id_verification').getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Everything has been received' }).waitFor();
    const onward = page.getByRole('link', { name: 'Continue' });
    assert.equal(await onward.getAttribute('href'), 'https://example.com/after-verification?ref=42');
    await shots.take(page, 'everything-received-redirect');

    assert.equal(await settled(op, 'id_verification', check.id), 'approved');
    const verified = await op.ok('GET', `/v1/checks/id_verification/${check.id}`);
    assert.ok(verified.data.information.front_file_id);
    assert.equal((await op.ok('GET', `/v1/cases/${caseId}`)).contact_has_actions, false);
    assert.deepEqual(errors, []);
  });

  test('keyboard only: Tab and Enter through an upload and its submission, focus always visible', async () => {
    const op = await operator();
    const { caseId, companyId, contactId } = await contactCase(op);
    const documentId = await documentCheck(op, companyId);
    const link = await shareLink(op, caseId, contactId);

    const shots = screenshots('portal-keyboard');
    const errors: string[] = [];
    const browser = await openBrowser('en-US');
    const page = await openPage(browser, link, errors);
    await page.getByRole('heading', { level: 1, name: 'Hello Ada,' }).waitFor();

    /** Presses Tab until the focused element's text is `label`; asserts a visible focus ring. */
    const tabTo = async (label: string) => {
      for (let i = 0; i < 30; i++) {
        await page.keyboard.press('Tab');
        // evaluated in the page (this file is type-checked without the DOM library)
        const focused = (await page.evaluate(`(() => {
          const el = document.activeElement;
          const style = el ? getComputedStyle(el) : null;
          return { text: el?.textContent?.trim() ?? '', outline: style?.outlineStyle, width: style?.outlineWidth };
        })()`)) as { text: string; outline?: string; width?: string };
        if (focused.text === label) {
          assert.equal(focused.outline, 'solid', `focus ring on ${label}`);
          assert.notEqual(focused.width, '0px');
          return;
        }
      }
      assert.fail(`Tab never reached "${label}"`);
    };

    // listening for the file picker first: Playwright then intercepts it (asynchronously, so well
    // before the key press that opens it)
    const chooserOpened = page.waitForEvent('filechooser', { timeout: 120_000 });
    await tabTo('Choose files');
    await shots.take(page, 'focus-on-choose');
    await page.keyboard.press('Enter');
    const chooser = await chooserOpened;
    await chooser.setFiles({ name: 'kbis.pdf', mimeType: 'application/pdf', buffer: outcomePdf('approved') });
    await slot(page, 'document', 'Files').locator('.file-name', { hasText: 'kbis.pdf' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'kbis.pdf saved.' }).waitFor();
    // the chooser's button was replaced by the progress bar while the file was sent: the focus
    // comes back to it, not to the start of the page
    assert.equal(await page.evaluate('document.activeElement?.textContent?.trim()'), 'Choose files');
    await tabTo('Send');
    await shots.take(page, 'focus-on-send');
    await page.keyboard.press('Enter');
    const done = page.getByRole('heading', { level: 1, name: 'Everything has been received' });
    await done.waitFor();
    // the new screen's heading has the focus, so a screen reader announces it
    assert.equal(await page.evaluate('document.activeElement?.tagName'), 'H1');
    await shots.take(page, 'everything-received');
    assert.equal(await settled(op, 'document', documentId), 'approved');
    assert.deepEqual(errors, []);
  });

  test("a light accent colour: every button's label still reads against its background (4.5:1)", async () => {
    const op = await operator();
    const { caseId, companyId, contactId } = await contactCase(op);
    const portal = await defaultPortal(op);
    // a brand yellow: white labels on it, or yellow text on white, would be unreadable
    await op.ok('PATCH', `/v1/client-portals/${portal.id}`, { accent_color: '#ffd60a' });
    await documentCheck(op, companyId);
    await op.ok('POST', '/v1/checks/id_verification', { individual_id: contactId });
    const link = await shareLink(op, caseId, contactId);
    const shots = screenshots('portal-light-accent');
    const errors: string[] = [];
    const page = await openPage(await openBrowser('en-US'), link, errors);
    await page.getByRole('heading', { level: 1, name: 'Hello Ada,' }).waitFor();
    await action(page, 'id_verification').getByRole('button', { name: 'Take a photo' }).first().waitFor();
    await shots.take(page, 'checklist');
    // evaluated in the page (this file is type-checked without the DOM library): each enabled
    // button's label colour against its own background, or the white card it sits on
    const buttons = (await page.evaluate(`(() => {
      const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
      const lum = ([r, g, b]) => [r, g, b].map((v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; })
        .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
      return [...document.querySelectorAll('button:not(:disabled)')].map((el) => {
        const style = getComputedStyle(el);
        const bg = rgb(style.backgroundColor);
        const back = bg.length === 4 && bg[3] === 0 ? [255, 255, 255] : bg;
        const [hi, lo] = [lum(rgb(style.color)), lum(back)].sort((a, b) => b - a);
        return { label: el.textContent.trim(), ratio: (hi + 0.05) / (lo + 0.05) };
      });
    })()`)) as { label: string; ratio: number }[];
    assert.ok(
      buttons.some((b) => b.label === 'Choose files'),
      JSON.stringify(buttons),
    );
    assert.ok(
      buttons.some((b) => b.label === 'Choose a file'),
      JSON.stringify(buttons),
    );
    for (const b of buttons) assert.ok(b.ratio >= 4.5, `${b.label}: contrast ${b.ratio.toFixed(2)}:1`);
    assert.deepEqual(errors, []);
  });

  test('a long unbroken company name and a long file name wrap on a phone: the page is never wider than the screen', async () => {
    const op = await operator();
    const { caseId, companyId, contactId } = await contactCase(op);
    await op.ok('PATCH', `/v1/companies/${companyId}`, {
      name: 'InternationaleVerwaltungsgesellschaftFuerBeteiligungenUndImmobilien GmbH',
    });
    await documentCheck(op, companyId);
    const link = await shareLink(op, caseId, contactId);
    const shots = screenshots('portal-long-name');
    const errors: string[] = [];
    const page = await openPage(await openBrowser('en-US'), link, errors);
    await page.getByRole('heading', { level: 1, name: 'Hello Ada,' }).waitFor();
    await action(page, 'document').getByRole('button', { name: 'Choose files' }).waitFor();
    await shots.take(page, 'checklist');
    // a long file name takes its row: beside its size and button it wrapped a few letters a line
    const longName = 'Extrait-Kbis-InternationaleVerwaltungsgesellschaft-2026-12-07-signed-copy.pdf';
    await choose(page, 'document', 'Files', longName, outcomePdf('approved'), 'application/pdf');
    await shots.take(page, 'long-file-name');
    const row = (await action(page, 'document')
      .locator('.files li', { hasText: longName })
      .evaluate((li: any) => {
        const name = li.querySelector('.file-name');
        return { row: li.getBoundingClientRect().width, name: name.getBoundingClientRect().width };
      })) as { row: number; name: number };
    assert.ok(row.name >= row.row * 0.95, `the name is ${row.name} px wide in a ${row.row} px row`);
    const widths = (await page.evaluate(
      '({ page: document.documentElement.scrollWidth, screen: window.innerWidth })',
    )) as { page: number; screen: number };
    assert.ok(widths.page <= widths.screen, `page ${widths.page} px wide on a ${widths.screen} px screen`);
    assert.deepEqual(errors, []);
  });

  test('more files chosen at once than the slot takes: the ones that fit are saved, the others named as not added', async () => {
    const op = await operator();
    const { caseId, companyId, contactId } = await contactCase(op);
    await documentCheck(op, companyId);
    const link = await shareLink(op, caseId, contactId);
    const shots = screenshots('portal-too-many');
    const errors: string[] = [];
    const page = await openPage(await openBrowser('en-US'), link, errors);
    await page.getByRole('heading', { level: 1, name: 'Hello Ada,' }).waitFor();
    const files = slot(page, 'document', 'Files');
    // the slot takes 10: twelve chosen in one go
    const chosen = Array.from({ length: 12 }, (_, i) => ({
      name: `page-${i + 1}.pdf`,
      mimeType: 'application/pdf',
      buffer: outcomePdf('approved'),
    }));
    await files.locator('input[type=file]').setInputFiles(chosen);
    await files.locator('.file-name', { hasText: 'page-10.pdf' }).waitFor();
    await files
      .getByRole('alert')
      .filter({ hasText: 'page-11.pdf, page-12.pdf: not added, this step takes at most 10 files.' })
      .waitFor();
    assert.equal(await files.locator('.file-name').count(), 10);
    await shots.take(page, 'two-left-out');
    assert.deepEqual(errors, []);
  });

  test('a full slot keeps its add control, disabled, with the reason beside it and read with it', async () => {
    const op = await operator();
    const { caseId, companyId, contactId } = await contactCase(op);
    await documentCheck(op, companyId);
    const link = await shareLink(op, caseId, contactId);
    const shots = screenshots('portal-slot-full');
    const errors: string[] = [];
    const page = await openPage(await openBrowser('en-US'), link, errors);
    await page.getByRole('heading', { level: 1, name: 'Hello Ada,' }).waitFor();
    const files = slot(page, 'document', 'Files');
    const add = files.getByRole('button', { name: 'Choose files', exact: true });
    assert.equal(await add.getAttribute('aria-disabled'), null, 'usable while the slot has room');
    await files.locator('input[type=file]').setInputFiles(
      Array.from({ length: 10 }, (_, i) => ({
        name: `page-${i + 1}.pdf`,
        mimeType: 'application/pdf',
        buffer: outcomePdf('approved'),
      })),
    );
    await files.locator('.file-name', { hasText: 'page-10.pdf' }).waitFor();

    // full: the control stays, marked disabled for assistive technology, with its reason
    const disabled = files.getByRole('button', { name: 'Choose files', exact: true, disabled: true });
    await disabled.waitFor();
    const reason = 'This holds at most 10 files: remove one to add another.';
    await files.getByText(reason, { exact: true }).waitFor();
    const describedBy = (await disabled.getAttribute('aria-describedby')) ?? '';
    assert.ok(describedBy, 'the control names its reason');
    const described = await page.locator(`[id="${describedBy}"]`).textContent();
    assert.equal(described, reason, 'the reason is the button’s description');
    // reachable with the keyboard (aria-disabled, not disabled), and it opens no file chooser
    await disabled.focus();
    assert.equal(await disabled.evaluate((el) => el.ownerDocument.activeElement === el), true);
    let chooserOpened = false;
    page.on('filechooser', () => {
      chooserOpened = true;
    });
    await page.keyboard.press('Enter');
    await disabled.click({ force: true });
    assert.equal(chooserOpened, false);
    assert.equal(await files.locator('.file-name').count(), 10);
    await shots.take(page, 'slot-full');

    // a file removed: room again, the control usable and the reason gone
    await files.getByRole('button', { name: 'Remove page-10.pdf' }).click();
    await files.locator('.file-name', { hasText: 'page-10.pdf' }).waitFor({ state: 'detached' });
    await files.getByRole('button', { name: 'Choose files', exact: true, disabled: false }).waitFor();
    assert.equal(await files.getByText(reason).count(), 0);
    assert.deepEqual(errors, []);
  });

  test('a rejected document is asked again: the checklist offers it, not "everything has been received"', async () => {
    const op = await operator();
    const { caseId, companyId, contactId } = await contactCase(op);
    const documentId = await documentCheck(op, companyId);
    await op.ok('PATCH', `/v1/checks/document/${documentId}/review`, {
      action: 'reject',
      comment: 'Unreadable',
    });
    const link = await shareLink(op, caseId, contactId);
    const shots = screenshots('portal-retry');
    const errors: string[] = [];
    const page = await openPage(await openBrowser('en-US'), link, errors);

    // nothing is todo, yet the rejected document waits for new files: the page asks for them
    const step = action(page, 'document');
    await step.locator('.badge', { hasText: 'Please send it again' }).waitFor();
    await step.getByText('What you sent could not be accepted. Please send new files.').waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Everything has been received' }).count(), 0);
    await shots.take(page, 'asked-again');
    await choose(page, 'document', 'Files', 'kbis-new.pdf', outcomePdf('approved'), 'application/pdf');
    await step.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Everything has been received' }).waitFor();
    await shots.take(page, 'sent-again');
    assert.equal(await settled(op, 'document', documentId), 'approved');
    assert.deepEqual(errors, []);
  });

  test('a step approved meanwhile: the French page says so in French and shows it approved', async () => {
    const op = await operator();
    const { caseId, companyId, contactId } = await contactCase(op);
    const documentId = await documentCheck(op, companyId);
    await documentCheck(op, companyId); // a second step, so the checklist stays
    const link = await shareLink(op, caseId, contactId);
    const shots = screenshots('portal-moved-on');
    const errors: string[] = [];
    const page = await openPage(await openBrowser('fr-FR'), link, errors);
    const step = page.locator(`[data-action-id="${documentId}"]`);
    await step.locator('.badge', { hasText: 'À faire' }).waitFor();

    // the operator approves the step while the page still offers it; the contact then adds a file
    await op.ok('PATCH', `/v1/checks/document/${documentId}/review`, { action: 'approve' });
    await step
      .getByRole('group', { name: 'Fichiers', exact: true })
      .locator('input[type=file]')
      .setInputFiles({ name: 'kbis.pdf', mimeType: 'application/pdf', buffer: outcomePdf('approved') });
    const said = step.getByRole('alert');
    await said.getByText('Cette étape a changé entre-temps', { exact: false }).waitFor();
    assert.doesNotMatch(await said.innerText(), /already|approved|step/i, 'no English from the server');
    await step.locator('.badge', { hasText: 'Validé' }).waitFor();
    await shots.take(page, 'approved-meanwhile');
    assert.deepEqual(errors, []);
  });

  test('"this step changed meanwhile" goes with the step\'s next change', async () => {
    const op = await operator();
    const { caseId, companyId, contactId } = await contactCase(op);
    const documentId = await documentCheck(op, companyId);
    const otherId = await documentCheck(op, companyId); // a second step, so the checklist stays
    const link = await shareLink(op, caseId, contactId);
    const token = new URL(link).hash.replace(/^#token=/, '');
    const errors: string[] = [];
    const page = await openPage(await openBrowser('en-GB'), link, errors);
    const step = page.locator(`[data-action-id="${documentId}"]`);
    await step.locator('.badge', { hasText: 'To do' }).waitFor();

    // the contact sends the step from another tab; this page still offers it, and a file added here
    // is refused: said, and the step shown as it stands (being checked)
    const uploaded = await portalUpload(token, documentId, 'files', outcomePdf('approved'), 'kbis.pdf');
    assert.ok(uploaded.status < 300, JSON.stringify(uploaded.body));
    assert.equal((await portal(token, 'POST', `/actions/${documentId}/submit`)).status, 200);
    await step
      .getByRole('group', { name: 'Files', exact: true })
      .locator('input[type=file]')
      .setInputFiles({ name: 'kbis-2.pdf', mimeType: 'application/pdf', buffer: outcomePdf('approved') });
    const said = step.getByRole('alert');
    await said.getByText('This step changed meanwhile', { exact: false }).waitFor();

    // the check is decided (the page may have caught up with it already: the notice stays, it is
    // about that), then the operator asks for the step again; the page reads the session again
    // when the contact sends the other step: the notice was about the last change, not this one
    assert.equal(await settled(op, 'document', documentId), 'approved');
    await op.ok('PATCH', `/v1/checks/document/${documentId}/review`, {
      action: 'reject',
      comment: 'Send a newer extract',
      override: true,
    });
    const other = page.locator(`[data-action-id="${otherId}"]`);
    await other
      .getByRole('group', { name: 'Files', exact: true })
      .locator('input[type=file]')
      .setInputFiles({ name: 'statuts.pdf', mimeType: 'application/pdf', buffer: outcomePdf('approved') });
    await other.locator('.file-name', { hasText: 'statuts.pdf' }).waitFor();
    await other.getByRole('button', { name: 'Send', exact: true }).click();
    await step.locator('.badge', { hasText: 'Please send it again' }).waitFor({ timeout: 30_000 });
    // the notice goes in an effect of that change, run after the badge is painted: waited for (a
    // count read at once saw it a moment too early in one CI run in ten)
    await said.waitFor({ state: 'detached', timeout: 10_000 });
    assert.deepEqual(errors, []);
  });

  test('a session read overtaken by an upload does not take the uploaded file off the page', async () => {
    const op = await operator();
    const { caseId, companyId, contactId } = await contactCase(op);
    await documentCheck(op, companyId);
    await op.ok('POST', '/v1/checks/id_document', { individual_id: contactId });
    const link = await shareLink(op, caseId, contactId);
    const errors: string[] = [];
    const browser = await openBrowser('en-US');
    const page = await openPage(browser, link, errors);
    await page.getByRole('heading', { level: 1, name: 'Hello Ada,' }).waitFor();

    // the session read that a submission starts is answered with the state of that moment, but
    // handed to the page only after the next upload: a slow answer overtaken by a change
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    let held = false;
    await page.route('**/portal/api/session', async (route) => {
      if (held) return route.continue();
      held = true;
      const response = await route.fetch();
      await released;
      await route.fulfill({ response });
    });
    await choose(page, 'document', 'Files', 'kbis.pdf', outcomePdf('approved'), 'application/pdf');
    await action(page, 'document').getByRole('button', { name: 'Send', exact: true }).click();
    // the submission's own answer, always `submitted` and being checked (its session read is held)
    await action(page, 'document').locator('.badge', { hasText: 'Being checked' }).waitFor();
    await choose(
      page,
      'id_document',
      'Front of the document',
      'passport.png',
      outcomePng('approved'),
      'image/png',
    );

    // the stale answer is dropped and the session read again; the file stays, and can be sent
    // the first answer after this is the stale one, the second the read it makes the page send
    let answers = 0;
    const reread = page.waitForEvent('response', {
      predicate: (r) => r.url().endsWith('/portal/api/session') && ++answers === 2,
      timeout: 60_000,
    });
    release();
    await reread.catch(() => {
      throw new Error('the page never read the session again: it kept the stale answer');
    });
    await slot(page, 'id_document', 'Front of the document')
      .locator('.file-name', { hasText: 'passport.png' })
      .waitFor();
    await action(page, 'id_document').getByRole('button', { name: 'Send', exact: true }).click();
    // that was the last step: the session read that follows the submission ends the checklist
    await page.getByRole('heading', { level: 1, name: 'Everything has been received' }).waitFor();
    assert.deepEqual(errors, []);
  });
});

// a describe of its own: the suite above is long already, and each describe has the run's
// per-test timeout as its budget
describe('client portal in Chromium: refused files', () => {
  afterEach(async () => {
    await chrome?.close();
    chrome = undefined;
  });

  test('a refused file is explained with what that slot takes: a photo for the capture, a video for the video', async () => {
    const op = await operator();
    const { caseId, contactId } = await contactCase(op);
    await op.ok('POST', '/v1/checks/id_verification', { individual_id: contactId });
    const link = await shareLink(op, caseId, contactId);
    const shots = screenshots('portal-refused-file');
    const errors: string[] = [];
    const page = await openPage(await openBrowser('en-US'), link, errors);
    const refused = async (legend: string, name: string, buffer: Buffer, mimeType: string) => {
      const group = slot(page, 'id_verification', legend);
      await group.locator('input[type=file]').setInputFiles({ name, mimeType, buffer });
      return group.getByRole('alert').innerText();
    };
    // a PDF is no photo of the document: telling the person to send "a photo or a PDF" would
    // have them send the same file again
    const front = await refused(
      'Front of the document',
      'scan.pdf',
      outcomePdf('approved'),
      'application/pdf',
    );
    assert.equal(front, 'scan.pdf was not accepted: send a photo (JPEG or PNG) as asked.');
    const video = await refused('Short video', 'me.png', sandboxSelfie('approved'), 'image/png');
    assert.equal(video, 'me.png was not accepted: send a video (WebM, MP4 or MOV) as asked.');
    // a PDF named like a photo, where only photos are taken: the format is what is wrong, not the name
    const misnamed = await refused('Back of the document', 'back.png', outcomePdf('approved'), 'image/png');
    assert.equal(misnamed, 'back.png was not accepted: send a photo (JPEG or PNG) as asked.');
    await shots.take(page, 'refused');
    // the front is sent from another tab: once this page reads the step again (its own upload of
    // the back), the front's refusal no longer holds and is gone (it stayed, beside the new file)
    const other = await openPage(await openBrowser('en-US'), link, errors);
    await slot(other, 'id_verification', 'Front of the document')
      .locator('input[type=file]')
      .setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: sandboxSelfie('approved') });
    await slot(other, 'id_verification', 'Front of the document')
      .locator('.file-name', { hasText: 'front.png' })
      .waitFor();
    const back = slot(page, 'id_verification', 'Back of the document');
    await back
      .locator('input[type=file]')
      .setInputFiles({ name: 'back.png', mimeType: 'image/png', buffer: sandboxSelfie('approved') });
    await back.locator('.file-name', { hasText: 'back.png' }).waitFor();
    const frontSlot = slot(page, 'id_verification', 'Front of the document');
    await frontSlot.locator('.file-name', { hasText: 'front.png' }).waitFor();
    // cleared in an effect of that change, after the file's name is painted: waited for
    await frontSlot.getByRole('alert').waitFor({ state: 'detached', timeout: 10_000 });
    assert.deepEqual(errors, []);
  });
  test("the API's errors in French, by their code: an unknown one, an outage, a withdrawn link", async () => {
    const op = await operator();
    const { caseId, companyId, contactId } = await contactCase(op);
    await documentCheck(op, companyId);
    const link = await shareLink(op, caseId, contactId);
    const shots = screenshots('portal-api-errors-fr');
    const errors: string[] = [];
    const browser = await openBrowser('fr-FR');
    const english = /[Ss]erver|English|withdrawn|unavailable|HTTP \d/;

    // the session read fails (the database away): the page says so in French, not the server's words
    const down = await browser.context.newPage();
    down.on('pageerror', (err) => errors.push(err.message));
    await down.route('**/portal/api/session', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          status_code: 503,
          code: 'SERVICE_UNAVAILABLE',
          message: 'The database is unavailable',
        }),
      }),
    );
    await down.goto(link);
    await down.getByRole('heading', { level: 1, name: 'Un problème est survenu' }).waitFor();
    await down.getByText('Le service n’est pas disponible pour le moment', { exact: false }).waitFor();
    assert.doesNotMatch(await down.locator('main').innerText(), english);
    await shots.take(down, 'session-unavailable');
    await down.close();

    // a code the page has never heard of: the generic French text
    const page = await openPage(browser, link, errors);
    await choose(page, 'document', 'Fichiers', 'kbis.pdf', outcomePdf('approved'), 'application/pdf');
    await page.route('**/portal/api/actions/*/submit', (route) =>
      route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({
          status_code: 409,
          code: 'SOMETHING_NEW',
          message: 'Some English from the server',
        }),
      }),
    );
    await action(page, 'document').getByRole('button', { name: 'Envoyer', exact: true }).click();
    const said = action(page, 'document').getByRole('alert');
    await said.getByText('Impossible pour le moment. Merci de réessayer dans un instant.').waitFor();
    assert.doesNotMatch(await said.innerText(), english);
    await shots.take(page, 'unknown-code');
    await page.unroute('**/portal/api/actions/*/submit');

    // the link withdrawn (a new one shared) while the page is open: the next upload says it in French
    await shareLink(op, caseId, contactId);
    await slot(page, 'document', 'Fichiers')
      .locator('input[type=file]')
      .setInputFiles({ name: 'statuts.pdf', mimeType: 'application/pdf', buffer: outcomePdf('approved') });
    await page.getByRole('heading', { level: 1, name: 'Ce lien ne fonctionne plus' }).waitFor();
    await page
      .getByText('Ce lien a été retiré ou remplacé par un lien plus récent.', { exact: false })
      .waitFor();
    assert.doesNotMatch(await page.locator('main').innerText(), english);
    await shots.take(page, 'withdrawn');
    assert.deepEqual(errors, []);
  });

  test('a capture being checked: the page waits for the result, then says why it came back', async () => {
    const op = await operator();
    const { caseId, companyId, contactId } = await contactCase(op);
    // a document left to do keeps the checklist on screen while the identity is verified
    await documentCheck(op, companyId);
    const check = await op.ok('POST', '/v1/checks/id_verification', { individual_id: contactId });
    const link = await shareLink(op, caseId, contactId);
    const shots = screenshots('portal-checking');
    const errors: string[] = [];
    const page = await openPage(await openBrowser('en-US'), link, errors);
    const step = action(page, 'id_verification');
    await choose(
      page,
      'id_verification',
      'Front of the document',
      'front.png',
      outcomePng('approved'),
      'image/png',
    );
    await choose(
      page,
      'id_verification',
      'Photo of your face',
      'selfie.png',
      sandboxSelfie('rejected'),
      'image/png',
    );
    await step.getByRole('button', { name: 'Send', exact: true }).click();
    // the sandbox rejects the face within moments: the page reads it by itself, no reload
    await step.locator('.badge', { hasText: 'Please send it again' }).waitFor({ timeout: 30_000 });
    await step
      .getByText('Your photo could not be matched with the photo on the document.', { exact: false })
      .waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: 'Identity verification: please send it again.' })
      .waitFor();
    assert.equal(await settled(op, 'id_verification', check.id), 'rejected');
    // and it takes a new capture at once
    assert.equal(
      await slot(page, 'id_verification', 'Photo of your face').locator('input[type=file]').count(),
      1,
    );
    await shots.take(page, 'face-did-not-match');
    assert.deepEqual(errors, []);
  });

  test("a check link's capture still being verified: the last screen says so, and turns back to the step if it is rejected", async () => {
    const op = await operator();
    const { contactId } = await contactCase(op);
    const check = await op.ok('POST', '/v1/checks/id_verification', { individual_id: contactId });
    const shots = screenshots('portal-checking-link');
    const errors: string[] = [];
    const page = await openPage(await openBrowser('fr-FR'), check.data.vendor.verification_url, errors);
    const step = action(page, 'id_verification');
    await choose(
      page,
      'id_verification',
      'Recto du document',
      'front.png',
      outcomePng('approved'),
      'image/png',
    );
    // `pending`: the sandbox verifier never answers, so the check stays processing
    await choose(
      page,
      'id_verification',
      'Photo de votre visage',
      'selfie.png',
      sandboxSelfie('pending'),
      'image/png',
    );
    await step.getByRole('button', { name: 'Envoyer', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Tout a bien été reçu' }).waitFor();
    await page.getByText('Nous vérifions encore ce que vous avez envoyé.', { exact: false }).waitFor();
    await shots.take(page, 'still-checking');
    // a reviewer rejects it: the page, still open, goes back to the step with the generic hint
    await op.ok('POST', `/v1/checks/id_verification/${check.id}/force_review`, {});
    await op.ok('PATCH', `/v1/checks/id_verification/${check.id}/review`, {
      action: 'reject',
      comment: 'Reviewer: the selfie is a photo of a screen',
    });
    await step.locator('.badge', { hasText: 'À renvoyer' }).waitFor({ timeout: 30_000 });
    await step.getByText('Ce que vous avez envoyé n’a pas pu être accepté.', { exact: false }).waitFor();
    assert.doesNotMatch(await page.locator('main').innerText(), /photo of a screen/);
    await shots.take(page, 'rejected-by-reviewer');
    assert.deepEqual(errors, []);
  });
});
