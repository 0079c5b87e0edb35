import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { headerPixels, imagePixelsRefusal } from '../src/files/image-pixels.ts';
import { buildApp } from '../src/http/app.ts';
import { makeJpeg, makePdf, makePng, multipartBody, pngHeader, uploadBytes } from './helpers/files.ts';
import { type Client, getHarness, newWorkspace } from './helpers/harness.ts';

/**
 * Uploads are refused, before anything stores or analyses them, when their declared type disagrees
 * with their content, when an image's header declares too many pixels, or when a PDF does not
 * parse. Nothing of a refused upload is kept.
 */

async function nothingKept(api: Client) {
  const { ctx, config } = await getHarness();
  const rows = await ctx.db
    .selectFrom('files')
    .select('id')
    .where('workspace_id', '=', api.workspaceId)
    .execute();
  const dir = path.join(config.dataDir, 'files', api.workspaceId);
  assert.equal(rows.length, 0, 'no row');
  assert.deepEqual(fs.existsSync(dir) ? fs.readdirSync(dir) : [], [], 'no stored bytes');
}

function refused(res: { status: number; body: any }, status: number, message: RegExp) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.status_code, status);
  assert.match(res.body.message, message);
  assert.equal(res.body.details[0].path, 'file');
}

/** A small JPEG whose frame header (SOF0) claims `width` × `height` and sits after `metadata` bytes of APP1 segments. */
function jpegClaiming(width: number, height: number, metadata = 0): Buffer {
  const jpeg = makeJpeg({ width: 8, height: 8 });
  const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  jpeg.writeUInt16BE(height, sof + 5);
  jpeg.writeUInt16BE(width, sof + 7);
  const segments: Buffer[] = [];
  for (let left = metadata; left > 0; left -= 60_000) {
    const data = Buffer.alloc(Math.min(left, 60_000), 0x20);
    const head = Buffer.from([0xff, 0xe1, 0, 0]);
    head.writeUInt16BE(data.length + 2, 2);
    segments.push(head, data);
  }
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

describe('uploads: the declared type must match the content', () => {
  test('a name or a Content-Type saying another format → 415 naming both; nothing kept', async () => {
    const api = await newWorkspace();
    const png = makePng({ width: 4, height: 4 });
    const pdf = makePdf();
    const cases: [Buffer, string, string | undefined, RegExp][] = [
      [png, 'scan.pdf', undefined, /content is PNG but its name "scan.pdf" says \.pdf/],
      [
        png,
        'upload.bin',
        'application/pdf',
        /content is PNG but its declared Content-Type is application\/pdf/,
      ],
      [pdf, 'statement.pdf', 'image/jpeg', /content is PDF but its declared Content-Type is image\/jpeg/],
      [pdf, 'photo.JPG', undefined, /content is PDF but its name "photo.JPG" says \.jpg/],
      [png, 'photo.gif', undefined, /content is PNG but its name "photo.gif" says \.gif/],
      [png, 'notes.txt', undefined, /content is PNG but its name "notes.txt" says \.txt/],
      [png, 'front.png', 'image/gif', /content is PNG but its declared Content-Type is image\/gif/],
      // the name is quoted escaped and cut: an override would show "invoice.png" reversed as a PDF's
      // name, and a long name would fill the message
      [png, 'invoice\u202Egnp.pdf', undefined, /its name "invoice\\u202egnp\.pdf" says \.pdf$/],
      [png, `${'a'.repeat(500)}.pdf`, undefined, new RegExp(`its name "${'a'.repeat(120)}…" says \\.pdf$`)],
    ];
    for (const [bytes, name, type, message] of cases) {
      refused(await uploadBytes(api, bytes, name, type), 415, message);
    }
    await nothingKept(api);
  });

  test('a matching or generic declaration is accepted', async () => {
    const api = await newWorkspace();
    const jpeg = makeJpeg({ width: 8, height: 8 });
    const accepted: [Buffer, string, string | undefined][] = [
      [makePng({ width: 4, height: 4 }), 'front.PNG', 'image/png'],
      [jpeg, 'photo.jpeg', 'image/jpeg'],
      [jpeg, 'photo.jpg', 'image/jpg'],
      [jpeg, 'upload.bin', 'application/octet-stream'],
      [jpeg, 'upload.dat', undefined],
      [jpeg, 'no-extension', undefined],
      [makePdf(), 'statement.pdf', 'application/pdf; charset=binary'],
    ];
    for (const [bytes, name, type] of accepted) {
      const res = await uploadBytes(api, bytes, name, type);
      assert.equal(res.status, 200, `${name} ${type}: ${JSON.stringify(res.body)}`);
    }
    // a file part without a Content-Type header (the parser reports it as text/plain)
    const { app } = await getHarness();
    const bare = await app.inject({
      method: 'POST',
      url: '/v1/files/upload',
      headers: { 'x-service-api-key': api.key, 'content-type': 'multipart/form-data; boundary=XyZ' },
      payload: Buffer.concat([
        Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="front.jpg"\r\n\r\n'),
        jpeg,
        Buffer.from('\r\n--XyZ--\r\n'),
      ]),
    });
    assert.equal(bare.statusCode, 200, bare.body);
  });
});

describe('uploads: image pixel limit (decompression bombs)', () => {
  test('a 50,000 × 50,000 PNG (a few bytes) → 413 naming its size and the limit; nothing kept', async () => {
    const api = await newWorkspace();
    const bomb = pngHeader(50_000, 50_000);
    assert.ok(bomb.length < 100);
    const res = await uploadBytes(api, bomb, 'bomb.png', 'image/png');
    refused(res, 413, /50000 × 50000 pixels \(2500 megapixels\); the limit is 100 megapixels/);
    assert.equal(res.body.code, 'PAYLOAD_TOO_LARGE');
    await nothingKept(api);
  });

  test('the limit is inclusive: 10,000 × 10,000 passes, 10,000 × 10,001 does not', async () => {
    const api = await newWorkspace();
    assert.equal((await uploadBytes(api, pngHeader(10_000, 10_000), 'a.png')).status, 200);
    refused(await uploadBytes(api, pngHeader(10_000, 10_001), 'b.png'), 413, /100\.01 megapixels/);
  });

  test('a JPEG whose frame header follows 300 KB of metadata is still measured', async () => {
    const api = await newWorkspace();
    refused(
      await uploadBytes(api, jpegClaiming(60_000, 60_000, 300_000), 'big.jpg'),
      413,
      /60000 × 60000 pixels/,
    );
    const fine = await uploadBytes(api, jpegClaiming(4000, 3000, 300_000), 'photo.jpg');
    assert.equal(fine.status, 200, JSON.stringify(fine.body));
    await assert.doesNotReject(async () => {
      const { ctx } = await getHarness();
      const row = await ctx.db
        .selectFrom('files')
        .select('size')
        .where('upload_ref', '=', fine.body.upload_ref)
        .executeTakeFirstOrThrow();
      assert.equal(Number(row.size), jpegClaiming(4000, 3000, 300_000).length, 'stored whole');
    });
  });

  test('a PNG cut after its width (its height reads as 0), or declaring a side of 0 → 400, nothing kept', async () => {
    const api = await newWorkspace();
    const whole = pngHeader(800, 600);
    // signature, IHDR length and type, the width: 20 bytes
    refused(await uploadBytes(api, whole.subarray(0, 20), 'cut.png'), 400, /dimensions cannot be read/);
    refused(await uploadBytes(api, pngHeader(800, 0), 'flat.png'), 400, /dimensions cannot be read/);
    await nothingKept(api);
    assert.equal((await uploadBytes(api, whole, 'whole.png')).status, 200);
  });

  test('a cut header is not completed with the bytes that follow it in memory (a pooled Buffer)', () => {
    // the upload's first bytes arrive as a slice of a larger buffer (Node's pool): the image
    // reader must stop at the slice's end, not read the next bytes as the image's height
    const cut = pngHeader(800, 600).subarray(0, 20);
    const pool = Buffer.concat([cut, Buffer.alloc(64, 0x7f)]);
    const head = pool.subarray(0, 20);
    assert.equal(headerPixels(head), null);
    assert.equal(imagePixelsRefusal(head, 100_000_000)?.statusCode, 400);
    // a whole header in a slice is read from the slice
    const wholePool = Buffer.concat([Buffer.alloc(16, 0x7f), pngHeader(800, 600), Buffer.alloc(64, 0x7f)]);
    assert.deepEqual(headerPixels(wholePool.subarray(16)), { width: 800, height: 600, pixels: 480_000 });
  });

  test('an image whose header cannot be read within 1 MB (a TIFF directory at its end) → 400', async () => {
    const api = await newWorkspace();
    const tiff = Buffer.alloc(1_200_000);
    tiff.write('II*\x00', 'latin1');
    tiff.writeUInt32LE(1_150_000, 4); // the first image directory, past the first megabyte
    refused(await uploadBytes(api, tiff, 'scan.tif'), 400, /dimensions cannot be read/);
    await nothingKept(api);
  });

  test('the limit comes from the configuration (VERICASE_MAX_IMAGE_PIXELS)', async () => {
    const { ctx } = await getHarness();
    const app = await buildApp({ ...ctx, config: { ...ctx.config, maxImagePixels: 1_000 } });
    try {
      const api = await newWorkspace();
      const post = async (png: Buffer) => {
        const { payload, contentType } = multipartBody([{ name: 'file', filename: 'a.png', data: png }]);
        const res = await app.inject({
          method: 'POST',
          url: '/v1/files/upload',
          headers: { 'x-service-api-key': api.key, 'content-type': contentType },
          payload,
        });
        return { status: res.statusCode, body: res.json() };
      };
      assert.equal((await post(makePng({ width: 25, height: 40 }))).status, 200);
      refused(await post(makePng({ width: 40, height: 40 })), 413, /40 × 40 pixels/);
    } finally {
      await app.close();
    }
  });
});

describe('uploads: PDFs must parse', () => {
  const valid = makePdf({ text: 'Certificate of incorporation' });
  const text = valid.toString('latin1');

  test('truncated, garbage, without cross-reference, encrypted or page-less PDFs are refused; nothing kept', async () => {
    const api = await newWorkspace();
    const cases: [string, Buffer, number, RegExp][] = [
      ['cut before its trailer', valid.subarray(0, text.indexOf('xref')), 400, /truncated or damaged/],
      ['cut in the middle', valid.subarray(0, Math.floor(valid.length / 2)), 400, /truncated or damaged/],
      [
        'a header then garbage',
        Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5000, 'z')]),
        400,
        /truncated or damaged/,
      ],
      [
        'garbage with a trailer',
        Buffer.from(
          `%PDF-1.7\n${'(('.repeat(500)}\nxref\n0 1\ntrailer\n<< >>\nstartxref\n9\n%%EOF\n`,
          'latin1',
        ),
        400,
        /cannot be parsed|no pages/,
      ],
      [
        'no cross-reference table',
        Buffer.from(text.slice(0, text.indexOf('xref')).concat('startxref\n0\n%%EOF\n'), 'latin1'),
        400,
        /no cross-reference/,
      ],
      [
        'encrypted',
        Buffer.from(
          text.replace(
            '/Root 1 0 R',
            '/Root 1 0 R /Encrypt << /Filter /Standard /V 1 /R 2 /O (x) /U (y) /P -4 >>',
          ),
          'latin1',
        ),
        415,
        /encrypted PDFs are not accepted/,
      ],
      [
        'no pages',
        Buffer.from(text.replace('/Kids [3 0 R] /Count 1', '/Kids [] /Count 0'), 'latin1'),
        400,
        /no pages/,
      ],
    ];
    for (const [name, bytes, status, message] of cases) {
      const res = await uploadBytes(api, bytes, 'doc.pdf');
      assert.equal(res.status, status, `${name}: ${JSON.stringify(res.body)}`);
      refused(res, status, message);
      // a file that cannot be read has its own code (a page says "damaged", not "wrong format")
      assert.equal(res.body.code, status === 400 ? 'FILE_DAMAGED' : 'UNSUPPORTED_MEDIA_TYPE', name);
    }
    await nothingKept(api);
    assert.equal((await uploadBytes(api, valid, 'doc.pdf')).status, 200);
  });

  test('a PDF embedding an image over the pixel limit → 413; one under it is accepted', async () => {
    const api = await newWorkspace();
    const withImage = makePdf({ image: { width: 8, height: 8 } }).toString('latin1');
    assert.match(withImage, /\/Width 8 \/Height 8/);
    const bomb = Buffer.from(withImage.replace('/Width 8 /Height 8', '/Width 50000 /Height 50000'), 'latin1');
    refused(await uploadBytes(api, bomb, 'scan.pdf'), 413, /PDF embeds an image of 50000 × 50000 pixels/);
    await nothingKept(api);
    const fine = Buffer.from(withImage.replace('/Width 8 /Height 8', '/Width 5000 /Height 5000'), 'latin1');
    assert.equal((await uploadBytes(api, fine, 'scan.pdf')).status, 200);
  });
});
