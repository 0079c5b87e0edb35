import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFString, StandardFonts } from 'pdf-lib';
import pino from 'pino';
import type { AppContext } from '../src/app-context.ts';
import { decodePng, encodePng, type RawImage } from '../src/checks/types/document/analysis/png.ts';
import { htmlToPdf } from '../src/pdf-render/html-to-pdf.ts';
import { openRuntime } from '../src/runtime.ts';
import { auditTrailPdf } from '../src/signing/audit-trail.ts';
import { signingIdentity } from '../src/signing/identity.ts';
import { signPdf } from '../src/signing/sign-pdf.ts';
import { SignatureImageError, signaturePngProblem } from '../src/signing/signature-image.ts';
import { getHarness, testConfig } from './helpers/harness.ts';
import { scratchDatabase } from './helpers/scratch-database.ts';

// The signing contract (src/signing) on both databases: a signed PDF verified by poppler's pdfsig,
// its visible block read back (pdftotext) and seen (pdftoppm pixels), a one-byte change detected,
// a configured PKCS#12 used instead of the generated identity, the generated identity kept across
// restarts, and the audit trail's contents and signature.

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-signing-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

let n = 0;
function tmp(name: string, bytes?: Buffer): string {
  const file = path.join(work, `${n++}-${name}`);
  if (bytes) fs.writeFileSync(file, bytes);
  return file;
}

/** pdfsig's report (it exits non-zero for an invalid signature: the text is what is checked). */
function pdfsig(pdf: Buffer): string {
  const res = spawnSync('pdfsig', [tmp('sig.pdf', pdf)], { encoding: 'utf8' });
  return `${res.stdout}${res.stderr}`;
}

function pdftotext(pdf: Buffer, page?: number): string {
  const range = page ? ['-f', String(page), '-l', String(page)] : [];
  return execFileSync('pdftotext', ['-layout', ...range, tmp('text.pdf', pdf), '-'], { encoding: 'utf8' });
}

/** The text entries of the (only) signature field's signature dictionary, decoded. */
async function signatureDictionary(pdf: Buffer): Promise<Record<string, string>> {
  const doc = await PDFDocument.load(pdf);
  const [field] = doc.getForm().getFields();
  const sig = field.acroField.dict.lookup(PDFName.of('V'), PDFDict);
  const out: Record<string, string> = {};
  for (const key of ['Name', 'ContactInfo', 'Reason', 'Location']) {
    const value = sig.lookup(PDFName.of(key));
    assert.ok(value instanceof PDFHexString || value instanceof PDFString, `${key} is a string`);
    out[key] = value.decodeText();
  }
  return out;
}

function pageCount(pdf: Buffer): number {
  const info = execFileSync('pdfinfo', [tmp('info.pdf', pdf)], { encoding: 'utf8' });
  return Number(/Pages:\s+(\d+)/.exec(info)?.[1]);
}

/** A page as pixels at 72 dpi (1 px = 1 pt; row 0 is the top of the page). */
function render(pdf: Buffer, page: number): RawImage {
  const root = tmp('page');
  execFileSync('pdftoppm', [
    '-r',
    '72',
    '-png',
    '-singlefile',
    '-f',
    String(page),
    '-l',
    String(page),
    tmp('r.pdf', pdf),
    root,
  ]);
  const img = decodePng(fs.readFileSync(`${root}.png`));
  assert.ok(img, 'pdftoppm wrote a PNG the decoder reads');
  return img;
}

/** Pixels in a region (x, y from the top left, in points) that are not white / that are blue-ish ink. */
function inkIn(img: RawImage, region: { x: number; y: number; w: number; h: number }) {
  let dark = 0;
  let blue = 0;
  for (let y = region.y; y < region.y + region.h; y++) {
    for (let x = region.x; x < region.x + region.w; x++) {
      const i = (y * img.width + x) * img.channels;
      const [r, g, b] = [img.data[i], img.data[i + 1], img.data[i + 2]];
      if (r + g + b < 600) dark++;
      if (b > 90 && b > r + 50 && b > g + 30) blue++;
    }
  }
  return { dark, blue };
}

/** A document of `pages` A4 pages; the last one filled to its bottom when `fullLastPage`. */
async function documentPdf(pages: number, fullLastPage = false): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([595.28, 841.89]);
    page.drawText(`Engagement letter, page ${i}`, { x: 50, y: 780, size: 14, font });
    const bottom = i === pages && fullLastPage ? 40 : 600;
    for (let y = 750; y > bottom; y -= 14)
      page.drawText(`Clause at ${y}: the parties agree.`, { x: 50, y, size: 10, font });
  }
  return Buffer.from(await doc.save());
}

const SIGNER = {
  signerName: 'Zoë Łukasz',
  signerEmail: 'zoe@example.com',
  reason: 'Signature of "Engagement letter"',
};
const AT = new Date('2026-03-04T05:06:07Z');

describe('signing: signPdf, the service identity and pdfsig', () => {
  test('a typed signature: pdfsig reports it valid, by the service certificate; the block is on the last page', async () => {
    const { ctx } = await getHarness();
    const original = await documentPdf(2);
    const signed = await signPdf(ctx, original, { ...SIGNER, signedAt: AT, typedSignature: 'Zoe L.' });
    const identity = await signingIdentity(ctx);
    assert.match(identity.subject, /^CN=vericase signing service .+, O=vericase$/);

    const report = pdfsig(signed);
    assert.match(report, /Signature Validation: Signature is Valid\./);
    assert.match(report, /Signer Certificate Common Name: vericase signing service /);
    assert.match(report, /Signature Type: adbe\.pkcs7\.detached/);
    assert.match(report, /Signing Hash Algorithm: SHA-256/);
    assert.match(report, /Total document signed/);
    assert.match(report, /Signing Time: Mar 04 2026 05:06:07/);
    assert.equal((report.match(/Signature #/g) ?? []).length, 1);

    // room under the text: no page added, and the block's text is on page 2
    assert.equal(pageCount(signed), 2);
    const last = pdftotext(signed, 2);
    assert.match(last, /Electronically signed by/);
    assert.match(last, /Zoë Łukasz/); // drawn as it is (an embedded Unicode face, not a standard font)
    assert.match(last, /Zoe L\./);
    assert.match(last, /zoe@example\.com/);
    assert.match(last, /2026-03-04 05:06:07 UTC/);
    const sha = (await import('node:crypto')).createHash('sha256').update(original).digest('hex');
    assert.ok(last.replace(/\s+/g, '').includes(sha), 'the hash of the document before signing is printed');
    assert.doesNotMatch(pdftotext(signed, 1), /Electronically signed/);

    // and it is visible: the bottom right corner was blank and now carries ink (the typed name in blue)
    const block = { x: 595 - 36 - 300, y: 842 - 36 - 124, w: 300, h: 124 };
    const before = inkIn(render(original, 2), block);
    const afterInk = inkIn(render(signed, 2), block);
    assert.equal(before.dark, 0);
    assert.ok(afterInk.dark > 500, `dark pixels in the block: ${afterInk.dark}`);
    assert.ok(afterInk.blue > 50, `blue script pixels in the block: ${afterInk.blue}`);
  });

  test('Cyrillic, Greek and Polish names are drawn and written in the signature exactly; a CJK name falls back, still valid', async () => {
    const { ctx } = await getHarness();
    const name = 'Дмитрий Ковалёв Ζωή Παπαδοπούλου Łukasz Żółć';
    const signed = await signPdf(ctx, await documentPdf(1), {
      signerName: name,
      signerEmail: 'zoë@παράδειγμα.ελ',
      reason: 'Signature of "Договор (v2) \\ Σύμβαση"',
      location: 'Łódź',
      signedAt: AT,
      typedSignature: null,
    });
    const report = pdfsig(signed);
    assert.match(report, /Signature Validation: Signature is Valid\./);
    assert.match(report, /Total document signed/);
    // the block: the name in bold and as the typed signature, the e-mail and the reason, all exact
    const text = pdftotext(signed);
    assert.equal(text.split(name).length - 1, 2, text);
    assert.match(text, /zoë@παράδειγμα\.ελ/);
    assert.match(text, /Reason: Signature of "Договор \(v2\) \\ Σύμβαση"/);
    // the signature dictionary (what a reader's signature panel shows as the signer): the real
    // values, not transliterations (pdfsig 22 prints only the certificate's name, so read it back)
    const dict = await signatureDictionary(signed);
    assert.equal(dict.Name, name);
    assert.equal(dict.ContactInfo, 'zoë@παράδειγμα.ελ');
    assert.equal(dict.Reason, 'Signature of "Договор (v2) \\ Σύμβαση"');
    assert.equal(dict.Location, 'Łódź');
    // the faces are subsets: the file stays small (the full fonts weigh 1.8 MB)
    assert.ok(signed.length < 150_000, `signed size ${signed.length}`);

    // a name the face cannot draw (Chinese): transliterated in the block, marked so, exact in the dictionary
    const cjk = await signPdf(ctx, await documentPdf(1), {
      ...SIGNER,
      signerName: '王小明 Ковалёв',
      signedAt: AT,
    });
    assert.match(pdfsig(cjk), /Signature Validation: Signature is Valid\./);
    assert.match(pdftotext(cjk), /‹Wang Xiao Ming› Ковалёв/);
    assert.equal((await signatureDictionary(cjk)).Name, '王小明 Ковалёв');
  });

  test('an Arabic or Hebrew name reads right to left in the block; the typed face lacks them: spelt out, no `?`', async () => {
    const { ctx } = await getHarness();
    for (const [name, typed] of [
      ['مُحَمَّد العتيبي', '‹muhamad› ‹l`tyby›'],
      ['דוד כהן', '‹dvd› ‹khhn›'],
    ]) {
      const signed = await signPdf(ctx, await documentPdf(1), { ...SIGNER, signerName: name, signedAt: AT });
      assert.match(pdfsig(signed), /Signature Validation: Signature is Valid\./);
      // pdftotext gives a right-to-left name back as written only when it was drawn right to left
      // (it was drawn in typing order from left to right, Arabic letters unjoined)
      // (in canonical order: poppler gives a shadda and a fatha on one letter back the other way round)
      const text = pdftotext(signed)
        .replace(/[\u202a-\u202e]/g, '')
        .normalize('NFD');
      assert.ok(text.includes(name.normalize('NFD')), text);
      // DejaVu Serif Italic has no Arabic or Hebrew: the typed signature is transliterated, marked;
      // a letter any-ascii spells as nothing (the alef of `al`) was a `?`
      assert.ok(text.includes(typed), text);
      assert.equal((await signatureDictionary(signed)).Name, name);
    }
  });

  test('changing one byte of the signed file makes pdfsig report it invalid', async () => {
    const { ctx } = await getHarness();
    const signed = await signPdf(ctx, await documentPdf(1), { ...SIGNER, signedAt: AT });
    // change one hex digit of the signature dictionary's reason (a UTF-16BE text string: 0053 is 'S',
    // 0054 'T'): still a well-formed file, only the signed bytes differ
    const reasonAt = signed.indexOf('/Reason <FEFF0053');
    assert.ok(reasonAt > 0, 'the reason is a UTF-16BE hex string');
    const tampered = Buffer.from(signed);
    const i = reasonAt + '/Reason <FEFF005'.length;
    assert.equal(tampered[i], 0x33);
    tampered[i] = 0x34;
    assert.match(pdfsig(signed), /Signature is Valid/);
    const report = pdfsig(tampered);
    assert.doesNotMatch(report, /Signature is Valid/);
    assert.match(report, /Signature Validation: (Digest Mismatch|Signature is Invalid)/);
  });

  test('a drawn signature: the PNG is drawn in the block; a full last page gets the block on a page of its own', async () => {
    const { ctx } = await getHarness();
    // a dark blue stroke on white, 240 × 60
    const w = 240;
    const h = 60;
    const px = new Uint8Array(w * h * 3).fill(255);
    for (let x = 10; x < 230; x++) {
      const y = Math.round(30 + 18 * Math.sin(x / 18));
      for (let dy = -2; dy <= 2; dy++) px.set([20, 40, 160], ((y + dy) * w + x) * 3);
    }
    const drawn = encodePng(w, h, 3, px);
    const original = await documentPdf(3, true);
    const signed = await signPdf(ctx, original, { ...SIGNER, signedAt: AT, drawnSignaturePng: drawn });
    assert.match(pdfsig(signed), /Signature is Valid/);
    assert.equal(pageCount(signed), 4);
    assert.doesNotMatch(pdftotext(signed, 3), /Electronically signed/);
    assert.match(pdftotext(signed, 4), /Electronically signed by/);
    // on the added page the block is at the top left; the drawn stroke is blue ink in its strip
    const strip = inkIn(render(signed, 4), { x: 36, y: 36 + 30, w: 300, h: 45 });
    assert.ok(strip.blue > 200, `blue pixels of the drawn signature: ${strip.blue}`);
  });

  test('a drawn signature from a canvas (RGBA, transparent background) is drawn; a PNG that cannot be used is refused with the reason', async () => {
    const { ctx } = await getHarness();
    const w = 600;
    const h = 200;
    const px = new Uint8Array(w * h * 4); // all transparent
    for (let x = 20; x < 580; x++) {
      for (let y = 95; y < 105; y++) px.set([10, 30, 170, 255], (y * w + x) * 4);
    }
    const signed = await signPdf(ctx, await documentPdf(1), {
      ...SIGNER,
      signedAt: AT,
      drawnSignaturePng: encodePng(w, h, 4, px),
    });
    assert.match(pdfsig(signed), /Signature is Valid/);
    const block = { x: 595 - 36 - 300, y: 842 - 36 - 124, w: 300, h: 124 };
    assert.ok(inkIn(render(signed, 1), block).blue > 200);

    const png = encodePng(10, 10, 3, new Uint8Array(300).fill(0));
    const bomb = Buffer.from(png);
    bomb.writeUInt32BE(60_000, 16); // the header declares 60000 × 10
    const damaged = Buffer.concat([png.subarray(0, 40), Buffer.alloc(20, 7)]);
    const cases: [Buffer, RegExp][] = [
      [Buffer.from('GIF89a not a png at all, padded to be long enough'), /not a PNG image/],
      [bomb, /60000 × 10 pixels: at most 4000 a side/],
      [damaged, /could not be read/],
    ];
    for (const [bytes, message] of cases) {
      await assert.rejects(
        signPdf(ctx, await documentPdf(1), { ...SIGNER, signedAt: AT, drawnSignaturePng: bytes }),
        (err: Error) => err instanceof SignatureImageError && message.test(err.message),
      );
    }
    assert.equal(signaturePngProblem(png), null);
    assert.match(String(signaturePngProblem(bomb)), /at most/);
  });

  test('a document printed by Chromium (the templates renderer) signs and verifies', async () => {
    const { ctx } = await getHarness();
    const html = `<html><body><h1>Mandate</h1><p>${'Text of the mandate. '.repeat(40)}</p></body></html>`;
    const original = await htmlToPdf(ctx, html);
    const signed = await signPdf(ctx, original, { ...SIGNER, signedAt: AT, location: 'Paris' });
    const report = pdfsig(signed);
    assert.match(report, /Signature is Valid/);
    assert.equal(pageCount(signed), pageCount(original));
    assert.match(pdftotext(signed), /Mandate[\s\S]*Electronically signed by/);
  });

  test('the generated identity is one for the database: the same from another context and after a restart', async () => {
    const { ctx, config } = await getHarness();
    const first = await signingIdentity(ctx);
    // another context on the same database (another process would be the same): read, not regenerated
    const other = await signingIdentity({ ...ctx } as AppContext);
    assert.equal(other.certificatePem, first.certificatePem);
    const rows = await ctx.db
      .selectFrom('service_secrets')
      .select('name')
      .where('name', '=', 'signing_p12')
      .execute();
    assert.equal(rows.length, 1);

    // a database that has none yet (PGlite: a new directory; PostgreSQL: a scratch database):
    // two contexts generating at once end with one identity, and a restart finds it again
    const scratch = config.databaseUrl
      ? await scratchDatabase(config.databaseUrl, `test_signing_${process.pid}`)
      : null;
    const restartConfig = scratch
      ? testConfig({ databaseUrl: scratch.url })
      : testConfig({ dataDir: fs.mkdtempSync(path.join(work, 'pglite-')) });
    const silent = pino({ level: 'silent' });
    try {
      // a configured file that cannot be read stops start-up, naming the setting
      const broken = { ...restartConfig, signingP12: { path: path.join(work, 'absent.p12'), password: '' } };
      await assert.rejects(openRuntime(broken, silent), /VERICASE_SIGNING_P12: cannot read/);

      const one = await openRuntime(restartConfig, silent);
      let before: Awaited<ReturnType<typeof signingIdentity>>;
      try {
        // start-up generated and stored it
        const secret = () =>
          one.ctx.db
            .selectFrom('service_secrets')
            .select('value')
            .where('name', '=', 'signing_p12')
            .execute();
        assert.equal((await secret()).length, 1);
        // generated at once by two contexts that have none loaded (two processes): one identity wins
        await one.ctx.db.deleteFrom('service_secrets').where('name', '=', 'signing_p12').execute();
        const [a, b] = await Promise.all([
          signingIdentity({ ...one.ctx } as AppContext),
          signingIdentity({ ...one.ctx } as AppContext),
        ]);
        assert.equal(a.certificatePem, b.certificatePem);
        const stored = await one.ctx.db
          .selectFrom('service_secrets')
          .select('name')
          .where('name', '=', 'signing_p12')
          .execute();
        assert.equal(stored.length, 1);
        assert.notEqual(a.certificatePem, first.certificatePem, 'a new database has its own identity');
        before = a;
      } finally {
        await one.close();
      }
      const two = await openRuntime(restartConfig, silent);
      try {
        const again = await signingIdentity(two.ctx);
        assert.equal(again.certificatePem, before.certificatePem);
        assert.equal(again.subject, before.subject);
        const signed = await signPdf(two.ctx, await documentPdf(1), { ...SIGNER, signedAt: AT });
        assert.match(pdfsig(signed), /Signature is Valid/);
        const dumped = tmp('dump.pdf', signed);
        // pdfsig -dump writes <name>.sig0 into its working directory
        execFileSync('pdfsig', ['-dump', dumped], { cwd: work });
        const pem = execFileSync(
          'openssl',
          [
            'pkcs7',
            '-inform',
            'DER',
            '-in',
            path.join(work, `${path.basename(dumped)}.sig0`),
            '-print_certs',
          ],
          {
            encoding: 'utf8',
          },
        );
        // the certificate inside the signature is the kept one
        const body = (p: string) => p.replace(/-----[^-]+-----|\s/g, '');
        assert.ok(body(pem).includes(body(before.certificatePem)));
      } finally {
        await two.close();
      }
    } finally {
      await scratch?.drop();
    }
  });

  test('a configured PKCS#12 (made by openssl) is used instead of the generated one; a wrong password says so', async () => {
    const { ctx } = await getHarness();
    const key = tmp('key.pem');
    const cert = tmp('cert.pem');
    const p12 = tmp('signer.p12');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '30',
        '-subj',
        '/CN=Acme Test Signer/O=Acme SAS',
      ],
      { stdio: 'ignore' },
    );
    execFileSync('openssl', [
      'pkcs12',
      '-export',
      '-inkey',
      key,
      '-in',
      cert,
      '-out',
      p12,
      '-passout',
      'pass:s3cret',
    ]);

    const configured = {
      ...ctx,
      config: { ...ctx.config, signingP12: { path: p12, password: 's3cret' } },
    } as AppContext;
    const identity = await signingIdentity(configured);
    assert.equal(identity.subject, 'CN=Acme Test Signer, O=Acme SAS');
    assert.equal(identity.certificatePem.replace(/\r/g, '').trim(), fs.readFileSync(cert, 'utf8').trim());
    const signed = await signPdf(configured, await documentPdf(1), { ...SIGNER, signedAt: AT });
    const report = pdfsig(signed);
    assert.match(report, /Signature is Valid/);
    assert.match(report, /Signer Certificate Common Name: Acme Test Signer/);
    assert.doesNotMatch(report, /vericase signing service/);

    const wrong = {
      ...ctx,
      config: { ...ctx.config, signingP12: { path: p12, password: 'nope' } },
    } as AppContext;
    await assert.rejects(
      signingIdentity(wrong),
      /VERICASE_SIGNING_P12: not a PKCS#12 file this service can open/,
    );
    const missing = {
      ...ctx,
      config: { ...ctx.config, signingP12: { path: `${p12}.gone`, password: '' } },
    } as AppContext;
    await assert.rejects(
      signPdf(missing, await documentPdf(1), { ...SIGNER, signedAt: AT }),
      /VERICASE_SIGNING_P12: cannot read/,
    );
  });
});

describe('signing: the audit trail', () => {
  test('lists the document, signer, hashes and every event (UTC time, type, IP, user agent, details); signed', async () => {
    const { ctx } = await getHarness();
    const t = (s: number) => new Date(Date.UTC(2026, 2, 4, 9, 0, s));
    const types = ['created', 'opened', 'code_sent', 'code_verified', 'signed'];
    const events = types.map((type, i) => ({
      at: t(i * 7),
      type,
      ip: i === 0 ? null : `203.0.113.${i}`,
      user_agent: i === 0 ? null : `Browser/${i}.0 (test)`,
      details: i === 4 ? { method: 'typed', typed_name: 'Zoë Łukasz' } : undefined,
    }));
    // given out of order: the trail sorts them by time
    const pdf = await auditTrailPdf(ctx, {
      title: 'Engagement letter',
      signer: { name: 'Zoë Łukasz', email: 'zoe@example.com' },
      events: [...events].reverse(),
      documentSha256: 'a'.repeat(64),
      signedSha256: 'b'.repeat(64),
    });
    const report = pdfsig(pdf);
    assert.match(report, /Signature is Valid/);
    assert.match(report, /vericase signing service/);
    const text = pdftotext(pdf);
    assert.match(text, /Audit trail: Engagement letter/);
    assert.match(text, /Zoë Łukasz/);
    assert.match(text, /zoe@example\.com/);
    assert.ok(text.includes('a'.repeat(64)) && text.includes('b'.repeat(64)));
    assert.match(text, /CN=vericase signing service/);
    let from = 0;
    for (const [i, type] of types.entries()) {
      const at = text.indexOf(
        `${t(i * 7)
          .toISOString()
          .slice(0, 19)
          .replace('T', ' ')} UTC ${type}`,
        from,
      );
      assert.ok(at >= from, `event ${type} listed in time order`);
      from = at;
    }
    assert.match(text, /203\.0\.113\.4/);
    assert.match(text, /Browser\/3\.0 \(test\)/);
    assert.match(text, /typed_name\s+Zoë Łukasz/);
  });

  test('many events run over several pages; a declined request has no signed hash', async () => {
    const { ctx } = await getHarness();
    const events = Array.from({ length: 60 }, (_, i) => ({
      at: new Date(Date.UTC(2026, 0, 1, 0, i)),
      type: i === 59 ? 'declined' : 'opened',
      ip: '198.51.100.9',
      user_agent: 'Agent',
      details: { reason: i === 59 ? 'Wrong amount' : null },
    }));
    const pdf = await auditTrailPdf(ctx, {
      title: 'Mandate',
      signer: { name: 'Sam', email: 'sam@example.com' },
      events,
      documentSha256: 'c'.repeat(64),
      signedSha256: null,
    });
    assert.match(pdfsig(pdf), /Signature is Valid/);
    assert.ok(pageCount(pdf) >= 3);
    const text = pdftotext(pdf);
    assert.match(text, /none \(not signed\)/);
    assert.match(text, /2026-01-01 00:59:00 UTC declined/);
    assert.match(text, /Wrong amount/);
    assert.match(text, /Page 1 of \d/);
  });

  test('an event is never split across pages: its heading and its rows stay together', async () => {
    const { ctx } = await getHarness();
    // blocks of 2 to 7 rows, so that with the old layout some block met the bottom of a page
    const events = Array.from({ length: 45 }, (_, i) => ({
      at: new Date(Date.UTC(2026, 0, 1, 0, i)),
      type: `step_${i}`,
      ip: '198.51.100.9',
      user_agent: 'Agent',
      details: Object.fromEntries(Array.from({ length: i % 6 }, (_, k) => [`row_${i}_${k}`, `value ${k}`])),
    }));
    const pdf = await auditTrailPdf(ctx, {
      title: 'Blocks',
      signer: { name: 'Sam', email: 'sam@example.com' },
      events,
      documentSha256: 'd'.repeat(64),
      signedSha256: 'e'.repeat(64),
    });
    const pages = pageCount(pdf);
    assert.ok(pages >= 3, `${pages} pages`);
    const seen = new Set<number>();
    for (let page = 1; page <= pages; page++) {
      const text = pdftotext(pdf, page);
      for (const [i, e] of events.entries()) {
        const heading = text.includes(`UTC ${e.type}\n`) || text.trimEnd().endsWith(`UTC ${e.type}`);
        const rows = [...text.matchAll(new RegExp(`row_${i}_\\d`, 'g'))].length;
        const agent = new RegExp(`UTC ${e.type}\\s*\\n\\s*IP address`).test(text);
        if (!heading) {
          assert.equal(rows, 0, `event ${i}'s rows on page ${page} without its heading`);
          continue;
        }
        seen.add(i);
        assert.ok(agent, `event ${i}'s heading on page ${page} without its first row under it`);
        assert.equal(rows, i % 6, `event ${i}: ${rows} of its ${i % 6} detail rows on page ${page}`);
      }
    }
    assert.equal(seen.size, events.length, 'every event listed');
  });
});
