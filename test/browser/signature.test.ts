/**
 * Electronic signature end to end, as a new user would do it, in headless Chromium against the real
 * service on a socket: the operator writes a document template and publishes it, asks the case's
 * contact for a signature and shares the portal link; the contact opens it, reads the whole
 * document, agrees, signs with a typed name (or a drawn signature) and the code e-mailed to them
 * (caught by a real local SMTP server); the operator downloads the signed PDF, `pdfsig` says its
 * signature is valid, `pdftoppm` renders its pages. Also: declining with a reason. Screenshots of
 * each portal step (phone and desktop) and of the signed PDF's pages go to test-output/screenshots/.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type TestContext, test } from 'node:test';
import {
  type ChromiumSession,
  DESKTOP,
  openChromium,
  type Page,
  PHONE,
  SCREENSHOT_DIR,
} from '../helpers/browser.ts';
import { contactCase, type Operator, operatorClient } from '../helpers/browser-operator.ts';
import { eventually, getHarness } from '../helpers/harness.ts';
import { codeIn, type MailCatcher } from '../helpers/mail-catcher.ts';
import { mailingService } from '../helpers/mailing-service.ts';

let base: string;
let mail: MailCatcher;
let chrome: ChromiumSession | undefined;

/** Per test: the service sending its mail to a catcher (mailingService); the browser closes with it. */
async function service(t: TestContext, run: string) {
  const started = await mailingService(t, run, async () => {
    await chrome?.close();
    chrome = undefined;
  });
  base = started.base;
  mail = started.mail;
  return { shots: started.shots, extra: started.extra };
}

const operator = () => operatorClient(base, 'signature-browser');

/**
 * The engagement letter: styled HTML with the case's placeholders, long enough for several pages.
 * Its heading's colour comes from the document's own stylesheet: the page must show it.
 */
const LETTER = `<!doctype html>
<html><head><style>
  body { font-family: serif; font-size: 12pt; }
  h1.title { color: rgb(15, 76, 129); font-size: 20pt; }
  .clause { margin: 0 0 10pt; text-align: justify; }
  .page { page-break-after: always; }
</style></head><body>
<h1 class="title">Engagement letter</h1>
<p>Between <strong>{{company.name}}</strong> and its legal representative
<strong>{{signer.first_name}} {{signer.last_name}}</strong>, for the case {{case.name}}.</p>
${Array.from(
  { length: 3 },
  (_, page) => `<div class="page">
  <h2 style="color: rgb(120, 20, 20)">Part ${page + 1}</h2>
  ${Array.from(
    { length: 9 },
    (_, i) =>
      `<p class="clause">Clause ${page + 1}.${i + 1}. The client confirms that the information given for this verification is accurate and complete, and undertakes to report any change to its ownership or management without delay.</p>`,
  ).join('\n')}
</div>`,
).join('\n')}
<p>Signed for {{company.name}}.</p>
</body></html>`;

/** A published electronic_signature template, created through the API as an operator would. */
async function publishedTemplate(op: Operator, key: string, name = 'Engagement letter') {
  await op.ok('POST', '/v1/document-templates', {
    key,
    name,
    kind: 'electronic_signature',
  });
  const version = await op.ok('POST', `/v1/document-templates/${key}/versions`, { content: LETTER });
  await op.ok('POST', `/v1/document-templates/${key}/versions/${version.number}/publish`);
}

/** Template, case, signature check and a shared portal link. */
async function signatureRequest(op: Operator, settings: Record<string, unknown> = {}) {
  await publishedTemplate(op, 'engagement_letter');
  const { caseId, contactId } = await contactCase(op);
  const check = await op.ok('POST', '/v1/checks/electronic_signature', {
    individual_id: contactId,
    settings: { document_template_key: 'engagement_letter', ...settings },
  });
  assert.equal(check.status, 'in_progress');
  assert.equal(check.subtype, 'document_template:engagement_letter');
  // nothing starts before the signer reaches the portal
  assert.equal(check.data.vendor.signature_link, null);
  const shared = await op.ok('POST', `/v1/cases/${caseId}/share-client-portal-link`, {
    business_contact_id: contactId,
  });
  assert.match(shared.link, /\/portal\/#token=vcp_/);
  return { caseId, contactId, checkId: check.id as string, link: shared.link as string };
}

/**
 * A new tab on `url`, failing the test on any script error in the page and on any CSP violation
 * the console reports (the document's inline styles once gave two or more for each document shown).
 */
async function openPage(session: ChromiumSession, url: string, errors: string[]): Promise<Page> {
  const page = await session.context.newPage();
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) errors.push(msg.text());
  });
  await page.goto(url);
  return page;
}

const signing = (page: Page) => page.locator('[data-action-type="electronic_signature"]');

/** An element's computed colour, read in its frame (this file is type-checked without the DOM library). */
const colour = (el: any): string => (globalThis as any).getComputedStyle(el).color;

/** Waits until the frozen document is shown (its styles applied) and checks what it says. */
async function documentShown(page: Page) {
  const action = signing(page);
  await action.locator('iframe.document-frame[data-ready="true"]').waitFor();
  const doc = page.frameLocator('iframe.document-frame');
  await doc.getByText('Acme SAS', { exact: false }).first().waitFor();
  await doc.getByText('Clause 3.9.', { exact: false }).waitFor();
  // the document's own stylesheet and style attributes apply (the page's CSP allows no inline style)
  assert.equal(await doc.locator('h1.title').evaluate(colour), 'rgb(15, 76, 129)');
  assert.equal(await doc.locator('h2').first().evaluate(colour), 'rgb(120, 20, 20)');
  // nothing in the frame can run a script
  assert.equal(await action.locator('iframe.document-frame').getAttribute('sandbox'), 'allow-same-origin');
}

/** Waits for the check to leave in_progress; returns it. */
async function settled(op: Operator, checkId: string) {
  return eventually(async () => {
    const check = await op.ok('GET', `/v1/checks/electronic_signature/${checkId}`);
    return check.status !== 'in_progress' && check;
  }, 120_000);
}

/** Downloads a file through the API into a temporary directory. */
async function download(op: Operator, fileId: string, dir: string, name: string): Promise<string> {
  const bytes = (await op.ok('GET', `/v1/files/${fileId}`)) as Buffer;
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

// top-level tests, not a describe: each gets the runner's whole per-test time on a loaded machine

test('the contact reads the document and signs it with a typed name and the e-mailed code; the signed PDF verifies', async (t) => {
  const { shots, extra } = await service(t, 'signature-en');
  const op = await operator();
  const { caseId, checkId, link } = await signatureRequest(op);

  const errors: string[] = [];
  chrome = await openChromium({ viewport: PHONE, locale: 'en-US', hasTouch: false });
  const page = await openPage(chrome, link, errors);
  await page.getByRole('heading', { level: 1, name: 'Hello Ada,' }).waitFor();
  const action = signing(page);
  await action.getByRole('heading', { name: 'Document to sign: Engagement letter' }).waitFor();
  await documentShown(page);
  await shots.take(page, 'document');

  // opening the action started the request: the operator sees the signing link
  const started = await op.ok('GET', `/v1/checks/electronic_signature/${checkId}`);
  assert.match(started.data.vendor.signature_link, /\/portal\/#token=vcp_/);
  assert.ok(started.data.vendor.started_at);

  // Sign stays disabled until everything is there, and says what is missing
  const sign = action.getByRole('button', { name: 'Sign', exact: true });
  assert.equal(await sign.isEnabled(), false);
  await action.getByText('Tick the box once you have read the document.').waitFor();
  await action
    .getByRole('checkbox', { name: 'I have read the whole document and I agree to sign it.' })
    .check();
  await action.getByRole('textbox', { name: 'Your full name' }).fill('Ada Lovelace');
  await action.getByText('Ask for a code.').waitFor();

  // the code, by e-mail
  const seen = mail.countTo('ada@example.com');
  await action.getByRole('button', { name: 'Send me a code' }).click();
  await action.getByText('A 6-digit code was sent to', { exact: false }).waitFor();
  const codeMail = await mail.next('ada@example.com', seen);
  const code = codeIn(codeMail);
  // the mail is in the page's language
  assert.equal(codeMail.subject, 'Your signing code');
  assert.match(codeMail.text, /Your code to sign "Engagement letter" is: \d{6}/);
  await shots.take(page, 'code-sent');

  // a wrong code is refused and spends an attempt
  const codeField = action.getByRole('textbox', { name: 'Code received by e-mail' });
  const wrong = code === '000000' ? '111111' : '000000';
  await codeField.fill(wrong);
  await sign.click();
  await action.getByRole('alert').getByText('This code is not the right one: 4 attempts left.').waitFor();
  await shots.take(page, 'wrong-code');

  // a name typed that is not the one on record: said so, with the name and the way out; the
  // code's tries are untouched (the page said "reload it", which could not help)
  const nameField = action.getByRole('textbox', { name: 'Your full name' });
  assert.equal(await nameField.getAttribute('placeholder'), null, 'no name shown as if filled in');
  await action.getByText('Type it as we have it: Ada Lovelace').waitFor();
  await nameField.fill('Ada King');
  await codeField.fill(code);
  await sign.click();
  await action
    .getByRole('alert')
    .getByText(
      'The name typed is not Ada Lovelace, the name we have: type it as written, or sign by drawing.',
    )
    .waitFor();
  assert.equal(await nameField.getAttribute('aria-invalid'), 'true');
  await shots.take(page, 'wrong-name');
  await nameField.fill('Ada Lovelace');
  assert.equal(await nameField.getAttribute('aria-invalid'), null);

  await codeField.fill(code);
  await shots.take(page, 'ready-to-sign');
  await sign.click();
  // the only action is done: the page says everything was received, and still offers the signed copy
  await page.getByRole('heading', { level: 1, name: 'Everything has been received' }).waitFor();
  await shots.take(page, 'signed');
  const signedDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download the signed document: Engagement letter' }).click();
  const signedCopy = await signedDownload;
  assert.equal(signedCopy.suggestedFilename(), 'Engagement letter (signed).pdf');
  const signedCopyPath = await signedCopy.path();
  assert.match(execFileSync('pdfsig', [signedCopyPath], { encoding: 'utf8' }), /Signature is Valid\./);
  assert.deepEqual(errors, []);

  // the operator's side: approved (automatic approval), three files
  const check = await settled(op, checkId);
  assert.equal(check.status, 'approved');
  const info = check.data.information;
  assert.ok(info.file_id && info.signed_file_id && info.audit_trail_id);
  const documents = await op.ok('GET', `/v1/cases/${caseId}/documents`);
  const list = Array.isArray(documents) ? documents : documents.data;
  assert.ok(
    list.some((d: { type: string }) => d.type === 'check__electronic_signature'),
    JSON.stringify(list),
  );

  // the signed PDF: a valid signature, the document's text, its pages as images
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-signed-'));
  try {
    const signed = await download(op, info.signed_file_id, dir, 'signed.pdf');
    const pdfsig = execFileSync('pdfsig', [signed], { encoding: 'utf8' });
    assert.match(pdfsig, /Signature Validation: Signature is Valid\./, pdfsig);
    const text = execFileSync('pdftotext', ['-layout', signed, '-'], { encoding: 'utf8' });
    assert.match(text, /Acme SAS/);
    assert.match(text, /Ada Lovelace/);
    assert.match(text, /Clause 3\.9\./);
    const prefix = path.join(SCREENSHOT_DIR, 'signature-en-signed-pdf');
    for (const f of fs.readdirSync(SCREENSHOT_DIR))
      if (f.startsWith('signature-en-signed-pdf')) fs.rmSync(path.join(SCREENSHOT_DIR, f));
    execFileSync('pdftoppm', ['-png', '-r', '60', signed, prefix]);
    const pages = fs.readdirSync(SCREENSHOT_DIR).filter((f) => f.startsWith('signature-en-signed-pdf'));
    assert.ok(pages.length >= 3, `pages rendered: ${pages.join(', ')}`);
    extra.push(...pages.sort().map((f) => path.relative(process.cwd(), path.join(SCREENSHOT_DIR, f))));

    // the audit trail lists the steps
    const trail = await download(op, info.audit_trail_id, dir, 'audit-trail.pdf');
    const trailText = execFileSync('pdftotext', ['-layout', trail, '-'], { encoding: 'utf8' });
    assert.match(trailText, /Ada Lovelace/);
    assert.match(trailText, /ada@example\.com/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('en français, avec une signature dessinée, sur un écran d’ordinateur', async (t) => {
  const { shots, extra } = await service(t, 'signature-fr');
  const op = await operator();
  const { checkId, link } = await signatureRequest(op, { automatic_approval: false });

  const errors: string[] = [];
  chrome = await openChromium({ viewport: DESKTOP, locale: 'fr-FR', hasTouch: false });
  const page = await openPage(chrome, link, errors);
  await page.getByRole('heading', { level: 1, name: 'Bonjour Ada,' }).waitFor();
  const action = signing(page);
  await action.getByRole('heading', { name: 'Document à signer : Engagement letter' }).waitFor();
  // what the step asks, in French (the server sends no English description)
  await action
    .getByText('Lisez le document, puis signez-le avec un code envoyé à votre adresse e-mail.')
    .waitFor();
  assert.ok(!(await action.innerText()).includes('Read the document'));
  await documentShown(page);
  await action
    .getByRole('checkbox', { name: 'J’ai lu l’intégralité du document et j’accepte de le signer.' })
    .check();

  // a signature drawn with the mouse (pointer events)
  await action.getByRole('radio', { name: 'Dessiner ma signature' }).check();
  const pad = action.getByTestId('signature-canvas');
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  assert.ok(box);
  await page.mouse.move(box.x + 30, box.y + box.height * 0.7);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) {
    await page.mouse.move(box.x + 30 + i * 25, box.y + box.height * (0.7 - 0.4 * Math.abs(Math.sin(i / 2))));
  }
  await page.mouse.up();
  await action.getByText('Demandez un code.').waitFor();

  const seen = mail.countTo('ada@example.com');
  await action.getByRole('button', { name: 'M’envoyer un code' }).click();
  await action.getByText('Un code à 6 chiffres a été envoyé à', { exact: false }).waitFor();
  const codeMail = await mail.next('ada@example.com', seen);
  const code = codeIn(codeMail);
  // the mail is in the page's language too (the portal's default language is English)
  assert.equal(codeMail.subject, 'Votre code de signature');
  assert.match(codeMail.text, /^Bonjour Ada Lovelace,$/m);
  assert.match(codeMail.text, /Votre code pour signer « Engagement letter » est : \d{6}/);
  // a wrong code: the refusal is said in French (the server's message is English)
  const codeField = action.getByRole('textbox', { name: 'Code reçu par e-mail' });
  await codeField.fill(code === '000000' ? '111111' : '000000');
  await action.getByRole('button', { name: 'Signer', exact: true }).click();
  const refusal = action.getByRole('alert');
  await refusal.getByText('Ce code n’est pas le bon : 4 essais restants.').waitFor();
  assert.doesNotMatch(await refusal.innerText(), /code is wrong|attempts? left/);
  await shots.take(page, 'wrong-code');
  await codeField.fill(code);
  await shots.take(page, 'drawn-signature');
  await action.getByRole('button', { name: 'Signer', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Tout a bien été reçu' }).waitFor();
  await page.getByRole('button', { name: 'Télécharger le document signé : Engagement letter' }).waitFor();
  await shots.take(page, 'signed');
  assert.deepEqual(errors, []);

  // manual approval: the signed check waits for a review
  const check = await settled(op, checkId);
  assert.equal(check.status, 'need_review');
  assert.ok(check.data.information.signed_file_id);
  // the drawn signature is in the signed PDF's block (its last page, rendered for a look) and the
  // signature is valid
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-signed-'));
  try {
    const signed = await download(op, check.data.information.signed_file_id, dir, 'signed.pdf');
    const pdfsig = execFileSync('pdfsig', [signed], { encoding: 'utf8' });
    assert.match(pdfsig, /Signature Validation: Signature is Valid\./, pdfsig);
    // the block speaks the page's language, not the portal's default (English)
    const text = execFileSync('pdftotext', ['-layout', signed, '-'], { encoding: 'utf8' }).replace(
      /\s+/g,
      ' ',
    );
    assert.ok(text.includes('Signé électroniquement par'), text);
    assert.ok(text.includes('SHA-256 du document (avant signature) :'), text);
    assert.doesNotMatch(text, /Electronically signed by/);
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [signed], { encoding: 'utf8' }))?.[1]);
    const last = path.join(SCREENSHOT_DIR, 'signature-fr-signed-pdf-last-page');
    execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', '-f', String(pages), signed, last]);
    extra.push(path.relative(process.cwd(), `${last}.png`));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('in Japanese (the browser asks for it): the page, the code’s mail and the signed copy’s name', async (t) => {
  const { shots } = await service(t, 'signature-ja');
  const op = await operator();
  const { checkId, link } = await signatureRequest(op);

  const errors: string[] = [];
  chrome = await openChromium({ viewport: PHONE, locale: 'ja-JP', hasTouch: false });
  const page = await openPage(chrome, link, errors);
  await page.getByRole('heading', { level: 1, name: 'Ada 様' }).waitFor();
  const action = signing(page);
  await action.getByRole('heading', { name: '署名する書類：Engagement letter' }).waitFor();
  await action
    .getByText('書類をお読みいただき、メールでお送りする確認コードを使って署名してください。')
    .waitFor();
  await documentShown(page);
  await action.getByText('書類をお読みになったら、チェックボックスにチェックを入れてください。').waitFor();
  await action.getByRole('checkbox', { name: '書類全体を読み、内容に同意のうえ署名します。' }).check();
  await action.getByRole('textbox', { name: '氏名（フルネーム）' }).fill('Ada Lovelace');
  await action.getByText('コードをご依頼ください。').waitFor();

  // the page asks for the code in its language: the mail is in Japanese (the portal's is English)
  const seen = mail.countTo('ada@example.com');
  await action.getByRole('button', { name: 'コードを送信' }).click();
  await action.getByText('6 桁のコードを', { exact: false }).first().waitFor();
  const codeMail = await mail.next('ada@example.com', seen);
  const code = codeIn(codeMail);
  assert.equal(codeMail.subject, '署名用の確認コード');
  assert.match(codeMail.text, /^Ada Lovelace 様$/m);
  assert.ok(
    codeMail.text.includes(`「Engagement letter」に署名するための確認コードは ${code} です。`),
    codeMail.text,
  );
  await shots.take(page, 'code-sent');

  // a wrong code: the refusal in Japanese, with the attempts left
  const codeField = action.getByRole('textbox', { name: 'メールで届いたコード' });
  await codeField.fill(code === '000000' ? '111111' : '000000');
  const sign = action.getByRole('button', { name: '署名する', exact: true });
  await sign.click();
  await action.getByRole('alert').getByText('コードが正しくありません。残り 4 回入力できます。').waitFor();
  await shots.take(page, 'wrong-code');
  await codeField.fill(code);
  await sign.click();
  await page.getByRole('heading', { level: 1, name: 'すべて受領しました' }).waitFor();
  await shots.take(page, 'signed');
  const signedDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: '署名済みの書類をダウンロード：Engagement letter' }).click();
  assert.equal((await signedDownload).suggestedFilename(), 'Engagement letter (署名済み).pdf');
  assert.deepEqual(errors, []);
  assert.equal((await settled(op, checkId)).status, 'approved');
});

test('in Polish (the portal’s default language): the signing step and the code’s mail', async (t) => {
  const { shots } = await service(t, 'signature-pl');
  const op = await operator();
  const { link } = await signatureRequest(op);
  const portals = await op.ok('GET', '/v1/client-portals');
  const portal = (Array.isArray(portals) ? portals : portals.data)[0];
  await op.ok('PATCH', `/v1/client-portals/${portal.id}`, { default_language: 'pl' });

  const errors: string[] = [];
  // Swedish: a language no dictionary has, so the portal's default language decides
  chrome = await openChromium({ viewport: PHONE, locale: 'sv-SE', hasTouch: false });
  const page = await openPage(chrome, link, errors);
  await page.getByRole('heading', { level: 1, name: 'Dzień dobry, Ada,' }).waitFor();
  const action = signing(page);
  await action.getByRole('heading', { name: 'Dokument do podpisu: Engagement letter' }).waitFor();
  await documentShown(page);
  await action
    .getByRole('checkbox', { name: 'Przeczytałem(-am) cały dokument i wyrażam zgodę na jego podpisanie.' })
    .check();
  await action.getByRole('textbox', { name: 'Imię i nazwisko' }).fill('Ada Lovelace');
  const seen = mail.countTo('ada@example.com');
  await action.getByRole('button', { name: 'Wyślij mi kod' }).click();
  await action.getByText('wysłano 6-cyfrowy kod', { exact: false }).waitFor();
  const codeMail = await mail.next('ada@example.com', seen);
  const code = codeIn(codeMail);
  assert.equal(codeMail.subject, 'Kod do podpisu');
  assert.ok(
    codeMail.text.includes(`Kod do podpisania dokumentu „Engagement letter” to: ${code}`),
    codeMail.text,
  );
  await action.getByText(/^Kod jest ważny do .+\. Pozostałe próby: 5\.$/).waitFor();
  await shots.take(page, 'code-sent');
  await action.getByRole('textbox', { name: 'Kod otrzymany e-mailem' }).fill(code);
  await action.getByRole('button', { name: 'Podpisz', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Otrzymaliśmy wszystko' }).waitFor();
  await shots.take(page, 'signed');
  assert.deepEqual(errors, []);
});

test('the contact declines to sign, with a reason: the check is rejected', async (t) => {
  const { shots } = await service(t, 'signature-decline');
  const op = await operator();
  const { checkId, link } = await signatureRequest(op);

  const errors: string[] = [];
  chrome = await openChromium({ viewport: PHONE, locale: 'en-US', hasTouch: false });
  const page = await openPage(chrome, link, errors);
  const action = signing(page);
  await documentShown(page);
  // the exact PDF that would be signed can be downloaded first
  const downloaded = page.waitForEvent('download');
  await action.getByRole('button', { name: 'Download the PDF' }).click();
  const pdf = await downloaded;
  assert.equal(pdf.suggestedFilename(), 'Engagement letter.pdf');
  const pdfPath = await pdf.path();
  assert.equal(fs.readFileSync(pdfPath).subarray(0, 5).toString('latin1'), '%PDF-');
  assert.match(execFileSync('pdftotext', [pdfPath, '-'], { encoding: 'utf8' }), /Acme SAS/);
  await action.getByRole('button', { name: 'I do not want to sign' }).click();
  // the link that opened the form is gone: the focus moves into the reason
  assert.equal(await page.evaluate('document.activeElement?.tagName'), 'TEXTAREA');
  const confirm = action.getByRole('button', { name: 'Decline', exact: true });
  assert.equal(await confirm.isEnabled(), false);
  await action
    .getByRole('textbox', { name: 'Please tell us why' })
    .fill('The fees in part 2 are not what we agreed.');
  await shots.take(page, 'reason');
  await confirm.click();
  await action.locator('.badge', { hasText: 'Declined' }).waitFor();
  await action.getByText('You declined to sign on', { exact: false }).waitFor();
  await action.getByText('The fees in part 2 are not what we agreed.').waitFor();
  // nothing is left to do on it: the step no longer tells the contact to read and sign
  assert.equal(await action.getByText('Read the document, then sign it', { exact: false }).count(), 0);
  // nothing more is asked of the contact, which the summary says rather than "1 of 1 done" (a
  // declined signature is not done); the checklist stays, it was not "everything received"
  await page.locator('.summary').getByText('Nothing more is asked of you').waitFor({ timeout: 10_000 });
  assert.equal(await page.getByText('Everything has been received').count(), 0);
  await shots.take(page, 'declined');
  assert.deepEqual(errors, []);

  const check = await settled(op, checkId);
  assert.equal(check.status, 'rejected');
  assert.equal(check.data.information.signed_file_id ?? null, null);
});

test('two tabs: a code sent from one is entered in the other; a decline after signing shows the step signed', async (t) => {
  const { shots } = await service(t, 'signature-two-tabs');
  const op = await operator();
  const { checkId, link } = await signatureRequest(op);
  const errors: string[] = [];
  chrome = await openChromium({ viewport: PHONE, locale: 'en-US', hasTouch: false });
  const first = await openPage(chrome, link, errors);
  await documentShown(first);
  const second = await openPage(chrome, link, errors);
  await documentShown(second);
  const [a, b] = [signing(first), signing(second)];

  // the code is asked for in the first tab
  const seen = mail.countTo('ada@example.com');
  await a.getByRole('button', { name: 'Send me a code' }).click();
  await a.getByText('A 6-digit code was sent to', { exact: false }).waitFor();
  const code = codeIn(await mail.next('ada@example.com', seen));
  // the second tab asks too, a moment later: too soon for another, and the one sent can be entered
  await b.getByRole('button', { name: 'Send me a code' }).click();
  await b.getByRole('alert').getByText('A code was sent less than a minute ago', { exact: false }).waitFor();
  const field = b.getByRole('textbox', { name: 'Code received by e-mail' });
  await field.waitFor();
  await b.getByText('You can ask for a new code from', { exact: false }).waitFor();
  assert.equal(await b.getByRole('button', { name: 'Send a new code' }).isEnabled(), false);
  await shots.take(second, 'code-from-other-tab');
  await b.getByRole('checkbox', { name: 'I have read the whole document and I agree to sign it.' }).check();
  await b.getByRole('textbox', { name: 'Your full name' }).fill('Ada Lovelace');
  await field.fill(code);
  await b.getByRole('button', { name: 'Sign', exact: true }).click();
  await second.getByRole('heading', { level: 1, name: 'Everything has been received' }).waitFor();

  // the first tab still shows the form: declining there is refused, and the step shows as it stands
  await a.getByRole('button', { name: 'I do not want to sign' }).click();
  await a.getByRole('textbox', { name: 'Please tell us why' }).fill('Changed my mind.');
  await a.getByRole('button', { name: 'Decline', exact: true }).click();
  await first.getByRole('heading', { level: 1, name: 'Everything has been received' }).waitFor();
  await first.getByRole('button', { name: 'Download the signed document: Engagement letter' }).waitFor();
  await shots.take(first, 'signed-in-other-tab');
  assert.deepEqual(errors, []);
  const check = await settled(op, checkId);
  assert.equal(check.status, 'approved');
});

test('the operator closes a request the contact opened: the step says Closed, in a neutral badge', async (t) => {
  const { shots } = await service(t, 'signature-closed');
  const op = await operator();
  const { checkId, link } = await signatureRequest(op);

  const errors: string[] = [];
  chrome = await openChromium({ viewport: PHONE, locale: 'en-US', hasTouch: false });
  const page = await openPage(chrome, link, errors);
  await documentShown(page); // the request is started
  const seen = mail.countTo('ada@example.com');
  await signing(page).getByRole('button', { name: 'Send me a code' }).click();
  await mail.next('ada@example.com', seen);
  await op.ok('PATCH', `/v1/checks/electronic_signature/${checkId}/review`, {
    action: 'reject',
    comment: 'Sent to the wrong person.',
  });
  await page.reload();
  // the only step: the page lists it as closed, and does not say everything was received (it did)
  const badge = signing(page).locator('.badge', { hasText: 'Closed' });
  await badge.waitFor();
  await page.getByRole('heading', { level: 1, name: 'Hello Ada,' }).waitFor();
  await signing(page)
    .getByText('This document no longer needs your signature: the request was closed', { exact: false })
    .waitFor();
  assert.equal(await page.getByText('Everything has been received').count(), 0);
  // a list of signatures only: its intro asks to sign (no "each file is saved"), nothing is left
  await page
    .getByText('To complete the verification of Acme SAS, please read and sign the following.', {
      exact: false,
    })
    .waitFor();
  assert.equal(await page.getByText('Each file is saved', { exact: false }).count(), 0);
  await page.locator('.summary').getByText('Nothing more is asked of you').waitFor();
  // not the green of Received / Signed: nothing was signed
  assert.equal(await badge.getAttribute('class'), 'badge badge-ended');
  assert.equal(await signing(page).getAttribute('class'), 'action state-ended');
  const signedGreen = 'rgb(220, 241, 228)';
  assert.notEqual(
    await badge.evaluate((el: any) => (globalThis as any).getComputedStyle(el).backgroundColor),
    signedGreen,
  );
  await shots.take(page, 'closed');
  assert.deepEqual(errors, []);
});

test('an expired signing link says so and how to get a new one; a new visit through the invitation issues one', async (t) => {
  const { shots } = await service(t, 'signature-expired');
  const op = await operator();
  const { checkId, link } = await signatureRequest(op);

  const errors: string[] = [];
  chrome = await openChromium({ viewport: PHONE, locale: 'en-US', hasTouch: false });
  // the invitation starts the request and issues the check's own signing link
  const first = await openPage(chrome, link, errors);
  await documentShown(first);
  const started = await op.ok('GET', `/v1/checks/electronic_signature/${checkId}`);
  const signingLink: string = started.data.vendor.signature_link;
  assert.match(signingLink, /\/portal\/#token=vcp_/);
  await first.close();

  // the signing link opens the one action
  const page = await openPage(chrome, signingLink, errors);
  await documentShown(page);
  assert.equal(await page.locator('li.action').count(), 1);

  // it expires (its time passed: set in the database, as waiting a week is not a test)
  const { ctx } = await getHarness();
  const token = new URL(signingLink).hash.replace('#token=', '');
  const tokenHash = crypto.createHash('sha256').update(token).digest('hex');
  const expired = await ctx.db
    .updateTable('client_portal_links')
    .set({ expires_at: new Date(Date.now() - 60_000) })
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  assert.equal(Number(expired.numUpdatedRows), 1);
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'This link no longer works' }).waitFor();
  await page.getByText('This signing link has expired.', { exact: false }).waitFor();
  await page.getByText('each visit gives you a new signing link', { exact: false }).waitFor();
  await shots.take(page, 'signing-link-expired');
  // in a new tab too, which never saw the link working: the server says it was a signing link (the
  // page said only "This link has expired")
  const fresh = await openPage(chrome, signingLink, errors);
  await fresh.getByRole('heading', { level: 1, name: 'This link no longer works' }).waitFor();
  await fresh.getByText('This signing link has expired.', { exact: false }).waitFor();
  await fresh.close();

  // the invitation again: a new signing link, the same frozen document
  const again = await openPage(chrome, link, errors);
  await documentShown(again);
  const renewed = await eventually(async () => {
    const check = await op.ok('GET', `/v1/checks/electronic_signature/${checkId}`);
    return check.data.vendor.signature_link !== signingLink && check;
  }, 60_000);
  assert.match(renewed.data.vendor.signature_link, /\/portal\/#token=vcp_/);
  assert.ok(
    new Date(renewed.data.vendor.signature_link_expiration_date).getTime() > Date.now(),
    renewed.data.vendor.signature_link_expiration_date,
  );
  assert.equal(renewed.status, 'in_progress');
  assert.deepEqual(errors, []);
});

test('keyboard only: the typed name is the way to sign without a pointer', async (t) => {
  const { shots } = await service(t, 'signature-keyboard');
  const op = await operator();
  const { checkId, link } = await signatureRequest(op);

  const errors: string[] = [];
  chrome = await openChromium({ viewport: PHONE, locale: 'en-US', hasTouch: false });
  const page = await openPage(chrome, link, errors);
  const action = signing(page);
  await documentShown(page);

  // evaluated in the page (this file is type-checked without the DOM library)
  const isFocused = (el: any) => el === (globalThis as any).document.activeElement;
  /** Presses Tab until `target` has the focus (the page's order, no click). */
  const tabTo = async (target: ReturnType<Page['locator']>, what: string) => {
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      if (await target.evaluate(isFocused)) return;
    }
    assert.fail(`Tab never reached ${what}`);
  };

  await tabTo(action.getByRole('checkbox'), 'the agreement box');
  await page.keyboard.press('Space');
  await tabTo(action.getByRole('textbox', { name: 'Your full name' }), 'the name field');
  await page.keyboard.type('Ada Lovelace');
  const seen = mail.countTo('ada@example.com');
  await tabTo(action.getByRole('button', { name: 'Send me a code' }), 'Send me a code');
  await page.keyboard.press('Enter');
  const code = codeIn(await mail.next('ada@example.com', seen));
  const field = action.getByRole('textbox', { name: 'Code received by e-mail' });
  await field.waitFor();
  // the code sent, the focus is in its field already: no Tab from the top of the page (walk 54)
  for (let i = 0; !(await field.evaluate(isFocused)); i++) {
    assert.ok(i < 50, 'the focus did not move into the code field after the code was sent');
    await page.waitForTimeout(100);
  }
  await page.keyboard.type(code);
  const sign = action.getByRole('button', { name: 'Sign', exact: true });
  await tabTo(sign, 'Sign');
  await shots.take(page, 'focus-on-sign');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Everything has been received' }).waitFor();
  assert.equal((await settled(op, checkId)).status, 'approved');
  assert.deepEqual(errors, []);
});

test('a long unbroken template name and signer name on a phone: the page is never wider than the screen', async (t) => {
  const { shots } = await service(t, 'signature-long-names');
  const op = await operator();
  // 68 and 45 characters without a space: the card, its title and "For …" widened the page to 839 px
  const documentName = `Wide${'e'.repeat(60)}Deal`;
  const lastName = `Q${'u'.repeat(43)}n`;
  await publishedTemplate(op, 'wide', documentName);
  const created = await op.ok('POST', '/v1/cases', {
    name: 'Wide onboarding',
    companies: [{ type: 'main', name: 'Acme SAS', country: 'FR', registration_number: '552100554' }],
    individuals: [
      {
        first_name: 'Quinn',
        last_name: lastName,
        email: 'quinn@example.com',
        is_business_contact: true,
        relations: [{ roles: ['legal_representative'] }],
      },
    ],
  });
  const contactId = created.individuals[0].id as string;
  await op.ok('POST', '/v1/checks/electronic_signature', {
    individual_id: contactId,
    settings: { document_template_key: 'wide' },
  });
  const shared = await op.ok('POST', `/v1/cases/${created.id}/share-client-portal-link`, {
    business_contact_id: contactId,
  });

  const errors: string[] = [];
  chrome = await openChromium({ viewport: { width: 375, height: 812 }, locale: 'en-US', hasTouch: true });
  const page = await openPage(chrome, shared.link, errors);
  const action = signing(page);
  await action.locator('iframe.document-frame[data-ready="true"]').waitFor();
  const fits = async (where: string) => {
    const widths = (await page.evaluate(
      '({ page: document.documentElement.scrollWidth, screen: window.innerWidth })',
    )) as { page: number; screen: number };
    assert.ok(
      widths.page <= widths.screen,
      `${where}: page ${widths.page} px wide on a ${widths.screen} px screen`,
    );
  };
  await fits('the signing step');
  await shots.take(page, 'document');

  // signed: the "everything received" screen names the document on its download button
  await action
    .getByRole('checkbox', { name: 'I have read the whole document and I agree to sign it.' })
    .check();
  await action.getByRole('textbox', { name: 'Your full name' }).fill(`Quinn ${lastName}`);
  const seen = mail.countTo('quinn@example.com');
  await action.getByRole('button', { name: 'Send me a code' }).click();
  const code = codeIn(await mail.next('quinn@example.com', seen));
  await action.getByRole('textbox', { name: 'Code received by e-mail' }).fill(code);
  await fits('the code entered');
  await action.getByRole('button', { name: 'Sign', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Everything has been received' }).waitFor();
  await fits('everything received');
  await shots.take(page, 'signed');
  assert.deepEqual(errors, []);
});

test('a link in the document opens in a new tab, one to a part of it scrolls there: the document stays shown', async (t) => {
  const { shots } = await service(t, 'signature-links');
  const op = await operator();
  await op.ok('POST', '/v1/document-templates', {
    key: 'links',
    name: 'Long agreement — «quotes» & <tags>',
    kind: 'electronic_signature',
  });
  const terms = `${base}/portal/#terms`;
  const content = `<!doctype html><html><body>
<p>See <a id="to-terms" href="${terms}">our general terms</a>, <a id="to-part" href="#part-2">part 2</a>
and <a id="relative" href="annex.html">the annex</a>.</p>
<div style="height: 3000px">Part 1, for {{company.name}}.</div>
<h2 id="part-2">Part 2</h2>
</body></html>`;
  const version = await op.ok('POST', '/v1/document-templates/links/versions', { content });
  await op.ok('POST', `/v1/document-templates/links/versions/${version.number}/publish`);
  const { caseId, contactId } = await contactCase(op);
  await op.ok('POST', '/v1/checks/electronic_signature', {
    individual_id: contactId,
    settings: { document_template_key: 'links' },
  });
  const shared = await op.ok('POST', `/v1/cases/${caseId}/share-client-portal-link`, {
    business_contact_id: contactId,
  });

  const errors: string[] = [];
  chrome = await openChromium({ viewport: PHONE, locale: 'en-US', hasTouch: false });
  const page = await openPage(chrome, shared.link, errors);
  const frameElement = signing(page).locator('iframe.document-frame[data-ready="true"]');
  await frameElement.waitFor();
  const doc = page.frameLocator('iframe.document-frame');
  /** The frame still holds the document: its page is the srcdoc, its text is there. */
  const stillShown = async (after: string) => {
    await doc.getByText('Part 1, for Acme SAS.').waitFor({ timeout: 5_000 });
    const inFrame = page.frames().find((f) => f.parentFrame() === page.mainFrame());
    assert.equal(inFrame?.url(), 'about:srcdoc', `after ${after} the frame shows ${inFrame?.url()}`);
  };

  // a web address: a new tab, the document stays (the frame showed "This content is blocked")
  const opened = chrome.context.waitForEvent('page');
  await doc.locator('#to-terms').click();
  const tab = await opened;
  await tab.waitForLoadState();
  assert.equal(tab.url(), terms);
  await tab.close();
  await stillShown('a web link');

  // a place in the document: the page scrolls to it
  const top = (await page.evaluate('window.scrollY')) as number;
  await doc.locator('#to-part').click();
  await eventually(async () => ((await page.evaluate('window.scrollY')) as number) > top + 1000, 5_000);
  await stillShown('a link to a part');

  // an address of no use outside the service (relative): nothing happens
  const pages = chrome.context.pages().length;
  await doc.locator('#relative').click();
  await page.waitForTimeout(300);
  assert.equal(chrome.context.pages().length, pages);
  await stillShown('a relative link');
  await shots.take(page, 'after-links');

  // the PDF's file name keeps the name's words, one space apart (it had two where signs were dropped)
  const downloaded = page.waitForEvent('download');
  await signing(page).getByRole('button', { name: 'Download the PDF' }).click();
  assert.equal((await downloaded).suggestedFilename(), 'Long agreement quotes tags.pdf');
  assert.deepEqual(errors, []);
});
