/**
 * The client portal in German, Spanish, Italian and Dutch, in headless Chromium against the real
 * service on a socket: a portal whose default language is German, opened by a browser in a
 * language the page does not have (Swedish), is in German from the greeting to the signing code's
 * mail (caught by a real local SMTP server), with dates in German; a browser in Spanish, Italian or
 * Dutch gets the page in its own language, over the portal's German. Screenshots of the German
 * page (phone and desktop) go to test-output/screenshots/.
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { type ChromiumSession, openChromium, type Page, PHONE } from '../helpers/browser.ts';
import { contactCase, type Operator, operatorClient } from '../helpers/browser-operator.ts';
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
  return started.shots;
}

/**
 * A case whose contact, Ada, is asked for a registration certificate, an identity verification and
 * a signature of a short letter, in a workspace whose portal speaks German by default; the link.
 */
async function germanPortalCase(op: Operator): Promise<string> {
  const portals = await op.ok('GET', '/v1/client-portals');
  const portal = (Array.isArray(portals) ? portals : portals.data)[0];
  await op.ok('PATCH', `/v1/client-portals/${portal.id}`, { default_language: 'de' });
  await op.ok('POST', '/v1/document-templates', {
    key: 'engagement_letter',
    name: 'Engagement letter',
    kind: 'electronic_signature',
  });
  const version = await op.ok('POST', '/v1/document-templates/engagement_letter/versions', {
    content: '<!doctype html><html><body><h1>Engagement letter</h1><p>{{company.name}}</p></body></html>',
  });
  await op.ok('POST', `/v1/document-templates/engagement_letter/versions/${version.number}/publish`);
  const { caseId, companyId, contactId } = await contactCase(op);
  await op.ok('POST', '/v1/checks/document', {
    company_id: companyId,
    settings: { document_type_key: 'registration_certificate' },
  });
  await op.ok('POST', '/v1/checks/id_verification', { individual_id: contactId });
  await op.ok('POST', '/v1/checks/electronic_signature', {
    individual_id: contactId,
    settings: { document_template_key: 'engagement_letter' },
  });
  const shared = await op.ok('POST', `/v1/cases/${caseId}/share-client-portal-link`, {
    business_contact_id: contactId,
  });
  assert.match(shared.link, /\/portal\/#token=vcp_/);
  return shared.link;
}

async function openPage(locale: string, url: string, errors: string[]): Promise<Page> {
  chrome = await openChromium({ viewport: PHONE, locale, hasTouch: false });
  const page = await chrome.context.newPage();
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(url);
  return page;
}

const action = (page: Page, type: string) => page.locator(`[data-action-type="${type}"]`);

/** Nothing wider than the screen: the page never scrolls sideways. */
async function noSidewaysScroll(page: Page, what: string) {
  const [scroll, client] = (await page.evaluate(
    '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
  )) as [number, number];
  assert.ok(scroll <= client, `${what}: the page is ${scroll}px wide on a ${client}px screen`);
}

const GERMAN_MONTH = '(Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember)';

test('a portal in German by default, a browser in Swedish: the page, its dates and the code’s mail are in German', async (t) => {
  const shots = await service(t, 'portal-de');
  const op = await operatorClient(base, 'portal-de');
  const link = await germanPortalCase(op);

  const errors: string[] = [];
  const page = await openPage('sv-SE', link, errors);
  await page.getByRole('heading', { level: 1, name: 'Guten Tag Ada,' }).waitFor();
  assert.equal(await page.evaluate('document.documentElement.lang'), 'de');
  assert.equal(await page.title(), 'Kundenportal');
  assert.equal(await page.locator('.portal-name').textContent(), 'Kundenportal');
  await page
    .getByText('Um die Prüfung von Acme SAS abzuschließen, stellen Sie uns bitte die folgenden Unterlagen', {
      exact: false,
    })
    .waitFor();
  // the link's end date, written by Intl in German
  await page
    .getByText(new RegExp(`^Dieser Link ist bis zum \\d{1,2}\\. ${GERMAN_MONTH} \\d{4} gültig\\.$`))
    .waitFor();
  await page.getByText('0 von 3 erledigt').waitFor();
  // the built-in document type, the identity verification and the signature step, in German
  await action(page, 'document').getByRole('heading', { name: 'Handelsregisterauszug' }).waitFor();
  await action(page, 'document').getByRole('group', { name: 'Dateien', exact: true }).waitFor();
  await action(page, 'id_verification').getByRole('heading', { name: 'Identitätsprüfung' }).waitFor();
  await action(page, 'id_verification')
    .getByText(
      'Ein Foto der Vorderseite Ihres Ausweisdokuments (und der Rückseite, falls vorhanden), danach ein Selfie.',
    )
    .waitFor();
  const signing = action(page, 'electronic_signature');
  await signing.getByRole('heading', { name: 'Zu unterschreibendes Dokument: Engagement letter' }).waitFor();
  await signing.locator('iframe.document-frame[data-ready="true"]').waitFor();
  const shown = await page.locator('body').innerText();
  for (const english of [
    'Hello',
    'Client portal',
    'What is asked',
    'Registration certificate',
    'Identity verification',
    'A photo of the front',
    'Document to sign',
    'required',
    'Choose',
  ])
    assert.ok(!shown.includes(english), `no "${english}" on the German page`);
  await noSidewaysScroll(page, 'checklist');
  await shots.take(page, 'checklist');

  // signing: the code's mail is in German (the page asks for it in its language)
  await signing
    .getByRole('checkbox', {
      name: 'Ich habe das gesamte Dokument gelesen und bin damit einverstanden, es zu unterschreiben.',
    })
    .check();
  await signing.getByRole('radio', { name: 'Meinen Namen eingeben' }).check();
  await signing.getByRole('textbox', { name: 'Ihr vollständiger Name' }).fill('Ada Lovelace');
  await signing.getByText('Fordern Sie einen Code an.').waitFor();
  const seen = mail.countTo('ada@example.com');
  await signing.getByRole('button', { name: 'Code an mich senden' }).click();
  await signing.getByText('Ein 6-stelliger Code wurde an', { exact: false }).waitFor();
  await signing.getByText(/^Der Code ist bis \d{2}:\d{2} Uhr gültig; verbleibende Versuche: 5\.$/).waitFor();
  const codeMail = await mail.next('ada@example.com', seen);
  const code = codeIn(codeMail);
  assert.equal(codeMail.subject, 'Ihr Code zum Unterschreiben');
  assert.match(codeMail.text, /^Guten Tag Ada Lovelace,$/m);
  assert.ok(codeMail.text.includes(`„Engagement letter“ lautet: ${code}`), codeMail.text);
  // a wrong code is refused in German
  const codeField = signing.getByRole('textbox', { name: 'Per E-Mail erhaltener Code' });
  await codeField.fill(code === '000000' ? '111111' : '000000');
  await signing.getByRole('button', { name: 'Unterschreiben', exact: true }).click();
  await signing
    .getByRole('alert')
    .getByText('Dieser Code ist nicht korrekt. Verbleibende Versuche: 4.')
    .waitFor();
  await noSidewaysScroll(page, 'code');
  await shots.take(page, 'code');
  await codeField.fill(code);
  await signing.getByRole('button', { name: 'Unterschreiben', exact: true }).click();
  await page.getByText(new RegExp(`unterschrieben am \\d{1,2}\\. ${GERMAN_MONTH} \\d{4}`)).waitFor();
  await page.getByText('1 von 3 erledigt').waitFor();
  await noSidewaysScroll(page, 'signed');
  await shots.take(page, 'signed');
  assert.deepEqual(errors, []);
});

test('a browser in Spanish, Italian or Dutch reads the page in its own language over the portal’s German', async (t) => {
  await service(t, 'portal-es-it-nl');
  const op = await operatorClient(base, 'portal-es-it-nl');
  const link = await germanPortalCase(op);
  for (const [locale, lang, greeting, portal, certificate, idCheck, sign, date] of [
    [
      'es-ES',
      'es',
      'Hola, Ada:',
      'Portal del cliente',
      'Certificado de registro mercantil',
      'Verificación de identidad',
      'Documento para firmar: Engagement letter',
      /^Este enlace es válido hasta el \d{1,2} de [a-z]+ de \d{4}\.$/,
    ],
    [
      'it-IT',
      'it',
      'Gentile Ada,',
      'Portale clienti',
      'Visura camerale',
      'Verifica dell’identità',
      'Documento da firmare: Engagement letter',
      /^Scadenza di questo link: \d{1,2} [a-z]+ \d{4}\.$/,
    ],
    [
      'nl-NL',
      'nl',
      'Beste Ada,',
      'Klantportaal',
      'Uittreksel uit het handelsregister',
      'Identiteitsverificatie',
      'Te ondertekenen document: Engagement letter',
      /^Deze link is geldig tot \d{1,2} [a-z]+ \d{4}\.$/,
    ],
  ] as const) {
    const errors: string[] = [];
    const page = await openPage(locale, link, errors);
    await page.getByRole('heading', { level: 1, name: greeting }).waitFor();
    assert.equal(await page.evaluate('document.documentElement.lang'), lang);
    assert.equal(await page.title(), portal);
    await page.getByText(date).waitFor();
    await action(page, 'document').getByRole('heading', { name: certificate }).waitFor();
    await action(page, 'id_verification').getByRole('heading', { name: idCheck }).waitFor();
    await action(page, 'electronic_signature').getByRole('heading', { name: sign }).waitFor();
    const shown = await page.locator('body').innerText();
    for (const other of ['Guten Tag', 'Handelsregisterauszug', 'Hello', 'Registration certificate'])
      assert.ok(!shown.includes(other), `no "${other}" on the ${locale} page`);
    await noSidewaysScroll(page, locale);
    assert.deepEqual(errors, []);
    await chrome?.close();
    chrome = undefined;
  }
});
