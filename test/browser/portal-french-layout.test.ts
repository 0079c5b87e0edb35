/**
 * The French page on a phone (390 px): file sizes in French units, by Intl ("17,1 ko", "177 o",
 * not the English "KB"), and a step's title wrapped between its words beside its badge ("Extrait
 * d’immatricu / lation" was cut inside a word while "En cours de vérification" took the room).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openChromium, type Page, PHONE, SCREENSHOT_DIR, Screenshots } from '../helpers/browser.ts';
import { contactCase, operatorClient } from '../helpers/browser-operator.ts';
import { outcomePdf } from '../helpers/document-checks.ts';
import { makePdf } from '../helpers/files.ts';
import { type LiveServer, listen } from '../helpers/live-server.ts';

let server: LiveServer;
let base: string;
const shots = new Screenshots('portal-french-layout');

before(async () => {
  server = await listen();
  base = `http://127.0.0.1:${server.port}`;
});
after(async () => {
  await server?.close();
  console.log(`screenshots in ${SCREENSHOT_DIR}:\n  ${shots.files.join('\n  ')}`);
});

/**
 * The words of each step title that were cut across two lines: a word laid out on two lines has
 * two boxes (one per line) in a Range around it.
 */
function cutWords(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const cut = [];
    for (const h3 of document.querySelectorAll('li.action h3')) {
      const text = h3.firstChild;
      if (!text) continue;
      for (const m of text.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(text, m.index);
        range.setEnd(text, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) cut.push(m[0]);
      }
    }
    return cut;
  })()`) as Promise<string[]>;
}

test('the French page writes file sizes in French units (Intl): "16,6 ko", "648 o"', async () => {
  const op = await operatorClient(base, 'portal-french-sizes');
  const { caseId, companyId, contactId } = await contactCase(op);
  const checked = await op.ok('POST', '/v1/checks/document', {
    company_id: companyId,
    settings: { document_type_key: 'registration_certificate' },
  });
  const shared = await op.ok('POST', `/v1/cases/${caseId}/share-client-portal-link`, {
    business_contact_id: contactId,
  });
  const chrome = await openChromium({ viewport: PHONE, locale: 'fr-FR', hasTouch: false });
  try {
    const page = await chrome.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(shared.link);
    const step = page.locator(`[data-action-id="${checked.id}"]`);
    await step.locator('.badge', { hasText: 'À faire' }).waitFor();
    // a PDF of some 17 kB, and a file under a kilobyte
    const big = makePdf({ text: ['Extrait Kbis', 'x'.repeat(16_000)] });
    const small = outcomePdf('approved');
    assert.ok(big.length >= 1000 && small.length < 1000, `${big.length} and ${small.length} bytes`);
    const input = step.getByRole('group', { name: 'Fichiers', exact: true }).locator('input[type=file]');
    await input.setInputFiles([
      { name: 'kbis.pdf', mimeType: 'application/pdf', buffer: big },
      { name: 'annexe.pdf', mimeType: 'application/pdf', buffer: small },
    ]);
    await step.locator('.file-name', { hasText: 'annexe.pdf' }).waitFor();
    // Intl puts a no-break space (or a narrow one) between the number and its unit
    const size = async (name: string) =>
      (await step.locator('.files li', { hasText: name }).locator('.file-size').innerText()).replace(
        /\s/g,
        ' ',
      );
    const kilo = (big.length / 1000).toLocaleString('fr-FR', { maximumFractionDigits: 1 });
    assert.equal(await size('kbis.pdf'), `${kilo} ko`);
    assert.equal(await size('annexe.pdf'), `${small.length} o`);
    await shots.take(page, 'sizes');
    assert.deepEqual(errors, []);
  } finally {
    await chrome.close();
  }
});

test('a French step title wraps between its words beside a wide badge, on a phone', async () => {
  const op = await operatorClient(base, 'portal-french-titles');
  const { caseId, companyId, contactId } = await contactCase(op);
  const checked = await op.ok('POST', '/v1/checks/document', {
    company_id: companyId,
    settings: { document_type_key: 'registration_certificate' },
  });
  const other = await op.ok('POST', '/v1/checks/document', {
    company_id: companyId,
    settings: { document_type_key: 'registration_certificate' },
  });
  const shared = await op.ok('POST', `/v1/cases/${caseId}/share-client-portal-link`, {
    business_contact_id: contactId,
  });
  const chrome = await openChromium({ viewport: PHONE, locale: 'fr-FR', hasTouch: false });
  try {
    const page = await chrome.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(shared.link);
    const step = page.locator(`[data-action-id="${checked.id}"]`);
    const todo = page.locator(`[data-action-id="${other.id}"]`);
    await step.locator('.badge', { hasText: 'À faire' }).waitFor();

    await step
      .getByRole('group', { name: 'Fichiers', exact: true })
      .locator('input[type=file]')
      .setInputFiles({ name: 'kbis.pdf', mimeType: 'application/pdf', buffer: outcomePdf('pending') });
    await step.locator('.file-name', { hasText: 'kbis.pdf' }).waitFor();

    // titles: beside "À faire", and beside the wide "En cours de vérification" once sent (the
    // sandbox outcome `pending` keeps the check processing)
    assert.deepEqual(await cutWords(page), []);
    await step.getByRole('button', { name: 'Envoyer', exact: true }).click();
    await step.locator('.badge', { hasText: 'En cours de vérification' }).waitFor();
    await todo.locator('.badge', { hasText: 'À faire' }).waitFor();
    await shots.take(page, 'title-beside-checking');
    assert.deepEqual(await cutWords(page), [], 'a title cut inside a word');
    const widths = (await page.evaluate(
      '({ page: document.documentElement.scrollWidth, screen: window.innerWidth })',
    )) as { page: number; screen: number };
    assert.ok(widths.page <= widths.screen, `page ${widths.page} px wide on a ${widths.screen} px screen`);
    assert.deepEqual(errors, []);
  } finally {
    await chrome.close();
  }
});
