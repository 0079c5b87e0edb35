/**
 * Send waits for the step's uploads: a document step sent while a file was still on its way was
 * submitted, the file then refused (the step no longer took files) and the page said "Everything
 * has been received" with that file lost and nothing said. The upload is held here (page.route)
 * until the test has looked at the Send button, so nothing depends on timing.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openChromium, PHONE, SCREENSHOT_DIR, Screenshots } from '../helpers/browser.ts';
import { contactCase, operatorClient } from '../helpers/browser-operator.ts';
import { outcomePdf } from '../helpers/document-checks.ts';
import { type LiveServer, listen } from '../helpers/live-server.ts';

let server: LiveServer;
let base: string;
const shots = new Screenshots('portal-upload-wait');

before(async () => {
  server = await listen();
  base = `http://127.0.0.1:${server.port}`;
});
after(async () => {
  await server?.close();
  console.log(`screenshots in ${SCREENSHOT_DIR}:\n  ${shots.files.join('\n  ')}`);
});

test('Send is held, with its reason, while a file of the step is still being sent', async () => {
  const op = await operatorClient(base, 'portal-upload-wait');
  const { caseId, companyId, contactId } = await contactCase(op);
  const check = await op.ok('POST', '/v1/checks/document', {
    company_id: companyId,
    settings: { document_type_key: 'registration_certificate' },
  });
  const shared = await op.ok('POST', `/v1/cases/${caseId}/share-client-portal-link`, {
    business_contact_id: contactId,
  });
  const chrome = await openChromium({ viewport: PHONE, locale: 'en-US', hasTouch: false });
  try {
    const page = await chrome.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(shared.link);
    const step = page.locator(`[data-action-id="${check.id}"]`);
    const files = step.getByRole('group', { name: 'Files', exact: true });
    const send = step.getByRole('button', { name: 'Send', exact: true });
    const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: outcomePdf('approved') });

    // two files saved: the step can be sent
    await files.locator('input[type=file]').setInputFiles([pdf('page-1.pdf'), pdf('page-2.pdf')]);
    await files.locator('.file-name', { hasText: 'page-2.pdf' }).waitFor();
    await send.and(page.locator(':enabled')).waitFor();

    // a third file on its way (held until released): Send waits, and says why
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    let held!: () => void;
    const holding = new Promise<void>((r) => {
      held = r;
    });
    await page.route('**/portal/api/actions/*/files?slot=files', async (route) => {
      held();
      await released;
      await route.continue();
    });
    await files.locator('input[type=file]').setInputFiles(pdf('page-3.pdf'));
    await holding;
    const waiting = step.getByText('Wait for the uploads to finish.', { exact: true });
    await waiting.waitFor();
    assert.equal(await send.isDisabled(), true, 'Send is disabled while page-3.pdf is sent');
    const describedBy = (await send.getAttribute('aria-describedby')) ?? '';
    assert.equal(
      await page.locator(`[id="${describedBy}"]`).textContent(),
      'Wait for the uploads to finish.',
    );
    await shots.take(page, 'waiting-for-upload');

    // the file arrives: Send is usable again, and the step goes with its three files
    release();
    await files.locator('.file-name', { hasText: 'page-3.pdf' }).waitFor();
    await waiting.waitFor({ state: 'detached' });
    await send.click();
    await page.getByRole('heading', { level: 1, name: 'Everything has been received' }).waitFor();
    const sent = await op.ok('GET', `/v1/checks/document/${check.id}`);
    assert.notEqual(sent.status, 'in_progress');
    assert.equal(sent.data.document_file_ids.length, 3, JSON.stringify(sent.data));
    assert.deepEqual(errors, []);
  } finally {
    await chrome.close();
  }
});
