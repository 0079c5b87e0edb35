/**
 * What a slot says and offers, in headless Chromium: a small image over the pixel limit is said as
 * too many pixels (it was said to be over 20 MB), a misnamed video is asked to be renamed with the
 * video slot's own endings (it was told ".pdf for a PDF, .jpg or .png for a photo"), the required
 * video of a liveness verification asks the phone for its front camera (`capture="user"`: the
 * chooser opened the gallery only), and the live camera hands the focus to Capture once the picture
 * runs (it stayed on Cancel, where Enter closed the camera).
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { type ChromiumSession, openChromium, type Page, PHONE } from '../helpers/browser.ts';
import { contactCase, type Operator, operatorClient } from '../helpers/browser-operator.ts';
import { makePng, pngHeader } from '../helpers/files.ts';
import { type LiveServer, listen } from '../helpers/live-server.ts';

let server: LiveServer;
let base: string;
let chrome: ChromiumSession | undefined;

before(async () => {
  server = await listen();
  base = `http://127.0.0.1:${server.port}`;
});
afterEach(async () => {
  await chrome?.close();
  chrome = undefined;
});
after(async () => {
  await server?.close();
});

/** A case asking its contact for a registration certificate and a liveness identity verification. */
async function livenessCase(op: Operator): Promise<string> {
  const { caseId, companyId, contactId } = await contactCase(op);
  await op.ok('POST', '/v1/checks/document', {
    company_id: companyId,
    settings: { document_type_key: 'registration_certificate' },
  });
  await op.ok('POST', '/v1/checks/id_verification', {
    individual_id: contactId,
    settings: { mode: 'liveness' },
  });
  const shared = await op.ok('POST', `/v1/cases/${caseId}/share-client-portal-link`, {
    business_contact_id: contactId,
  });
  return shared.link;
}

/** A page on `link` in a browser of `locale` (each test its own browser: the language is its own). */
async function open(link: string, locale: string, errors: string[], flags: string[] = []): Promise<Page> {
  chrome = await openChromium({ viewport: PHONE, locale, hasTouch: false }, flags);
  const page = await chrome.context.newPage();
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(link);
  return page;
}

const slot = (page: Page, type: string, legend: string) =>
  page.locator(`[data-action-type="${type}"]`).getByRole('group', { name: legend, exact: true });

/** The slot's refusal of a file chosen for it. */
async function refusal(group: ReturnType<typeof slot>, name: string, buffer: Buffer, mimeType: string) {
  await group.locator('input[type=file]').setInputFiles({ name, mimeType, buffer });
  return group.getByRole('alert').innerText();
}

/** The smallest MP4 a sniffer recognises: an `ftyp` box (brand isom) and an empty `mdat`. */
function tinyMp4(): Buffer {
  const ftyp = Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypisom', 'latin1'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2', 'latin1'),
  ]);
  const mdat = Buffer.concat([Buffer.from([0, 0, 0, 0x10]), Buffer.from('mdat', 'latin1'), Buffer.alloc(8)]);
  return Buffer.concat([ftyp, mdat]);
}

test('a small image of too many pixels is said as such, in French, not as over 20 MB', async () => {
  const link = await livenessCase(await operatorClient(base, 'portal-slot-hints-fr'));
  const errors: string[] = [];
  const page = await open(link, 'fr-FR', errors);
  const files = slot(page, 'document', 'Fichiers');
  const huge = pngHeader(11_000, 10_000);
  assert.ok(huge.length < 1024, 'a few bytes, far under 20 MB');
  assert.equal(
    await refusal(files, 'huge-scan.png', huge, 'image/png'),
    'huge-scan.png n’a pas été accepté : l’image a trop de pixels. Envoyez-la en plus basse résolution (une photo ou un scan plus petits).',
  );
  assert.equal(await files.locator('.file-name').count(), 0);
  assert.deepEqual(errors, []);
});

test("a misnamed video is asked a name with the video slot's endings; the required video asks for the front camera", async () => {
  const link = await livenessCase(await operatorClient(base, 'portal-slot-hints-en'));
  const errors: string[] = [];
  const page = await open(link, 'en-US', errors);
  const video = slot(page, 'id_verification', 'Short video');
  assert.match(await video.locator('.slot-meta').innerText(), /^required/);
  // an MP4 recording under a WebM name: the name is what to fix, and the endings are a video's
  assert.equal(
    await refusal(video, 'selfie.webm', tinyMp4(), 'video/webm'),
    'selfie.webm was not accepted: its content is not the kind of file its name says. Rename it to match (this step takes .webm, .mp4, .mov) or send another file.',
  );
  // a PNG under a PDF name in the documents' slot: that slot's endings
  const files = slot(page, 'document', 'Files');
  const png = makePng({ width: 8, height: 8 });
  assert.equal(
    await refusal(files, 'kbis.pdf', png, 'application/pdf'),
    'kbis.pdf was not accepted: its content is not the kind of file its name says. Rename it to match (this step takes .pdf, .jpg, .png) or send another file.',
  );

  // the video's chooser asks a phone for its front camera; the photo slots' choosers stay the way
  // to pick a file already taken (their camera is the page's own, "Take a photo")
  const videoInput = video.locator('input[type=file]');
  assert.equal(await videoInput.getAttribute('capture'), 'user');
  assert.equal(await videoInput.getAttribute('accept'), 'video/webm,video/mp4,video/quicktime');
  for (const legend of ['Front of the document', 'Photo of your face']) {
    const input = slot(page, 'id_verification', legend).locator('input[type=file]');
    assert.equal(await input.getAttribute('capture'), null, legend);
  }
  assert.equal(await files.locator('input[type=file]').getAttribute('capture'), null);
  assert.deepEqual(errors, []);
});

test('by keyboard, the camera gives Capture the focus once the picture runs: Enter takes the selfie', async () => {
  const link = await livenessCase(await operatorClient(base, 'portal-slot-hints-camera'));
  const errors: string[] = [];
  // Chromium's fake camera (a test pattern), allowed without a prompt
  const page = await open(link, 'en-US', errors, [
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
  ]);
  const face = slot(page, 'id_verification', 'Photo of your face');
  await face.getByRole('button', { name: 'Take a selfie' }).focus();
  await page.keyboard.press('Enter');
  await face.getByText('Camera ready.', { exact: false }).waitFor();
  // the focus moves in an effect of the render that enables Capture: waited for, not slept on
  await page.waitForFunction(
    "document.activeElement?.textContent === 'Capture' && !document.activeElement.disabled",
    undefined,
    { timeout: 15_000 },
  );
  await page.keyboard.press('Enter');
  await face.locator('.file-name', { hasText: 'face.jpg' }).waitFor();
  assert.deepEqual(errors, []);
});
