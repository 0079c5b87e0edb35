/**
 * Small valid documents and images generated in code (no binary fixtures), and multipart uploads
 * through the harness. Reused by the check tests: the id_document sandbox reads the `mrz` and
 * `sandbox_outcome` tEXt keywords of PNGs.
 */
import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import type { Client, Res } from './harness.ts';
import { getHarness } from './harness.ts';

// ---------- CRC32 (PNG chunks) ----------

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(...parts: Buffer[]): number {
  let c = 0xffffffff;
  for (const buf of parts) for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// ---------- PNG ----------

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const typeBuf = Buffer.from(type, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeBuf, data));
  return Buffer.concat([len, typeBuf, data, crc]);
}

/**
 * A PNG of a signature, an IHDR declaring `width` × `height` and an IEND: a few bytes whose header
 * declares any size (the pixel limit's refusals).
 */
export function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface PngOptions {
  width: number;
  height: number;
  /** tEXt chunks (keyword → text, Latin-1), written before the image data. */
  text?: Record<string, string>;
  /** Fill colour, RGB (default a light grey). */
  color?: [number, number, number];
}

/** A valid 8-bit RGB PNG of one colour, with real CRCs and zlib-compressed IDAT. */
export function makePng({ width, height, text = {}, color = [200, 200, 200] }: PngOptions): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  ihdr[10] = 0; // compression
  ihdr[11] = 0; // filter
  ihdr[12] = 0; // no interlace
  const row = Buffer.alloc(1 + width * 3); // filter byte 0, then pixels
  for (let x = 0; x < width; x++) row.set(color, 1 + x * 3);
  const raw = Buffer.alloc(row.length * height);
  for (let y = 0; y < height; y++) row.copy(raw, y * row.length);
  const textChunks = Object.entries(text).map(([k, v]) =>
    pngChunk('tEXt', Buffer.concat([Buffer.from(k, 'latin1'), Buffer.from([0]), Buffer.from(v, 'latin1')])),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    ...textChunks,
    pngChunk('IDAT', zlib.deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The tEXt chunks of a PNG (keyword → text), e.g. to check what a sandbox will read. */
export function readPngText(png: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let off = 8;
  while (off + 8 <= png.length) {
    const len = png.readUInt32BE(off);
    const type = png.toString('latin1', off + 4, off + 8);
    if (type === 'tEXt') {
      const data = png.subarray(off + 8, off + 8 + len);
      const nul = data.indexOf(0);
      out[data.toString('latin1', 0, nul)] = data.toString('latin1', nul + 1);
    }
    if (type === 'IEND') break;
    off += 12 + len;
  }
  return out;
}

// ---------- JPEG ----------

export interface JpegOptions {
  width?: number;
  height?: number;
  /** A COM segment (comment), Latin-1. */
  comment?: string;
  /** Grey level 0-255 (default 255, white). */
  gray?: number;
}

function segment(marker: number, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(0xff00 | marker, 0);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

/**
 * A valid baseline greyscale JPEG of one grey level (JFIF, 8x8 blocks, quantisation 1, a two-symbol
 * DC table and an EOB-only AC table): decodable by libjpeg, tiny, any size up to 65535 px a side.
 */
export function makeJpeg({ width = 8, height = 8, comment, gray = 255 }: JpegOptions = {}): Buffer {
  const dc = 8 * (Math.max(0, Math.min(255, gray)) - 128); // DC coefficient of a flat block
  const magnitude = Math.abs(dc);
  const category = magnitude === 0 ? 0 : Math.floor(Math.log2(magnitude)) + 1;
  const dcSymbols = category === 0 ? [0] : [0, category];

  const jfif = Buffer.from([0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const dqt = Buffer.concat([Buffer.from([0x00]), Buffer.alloc(64, 1)]);
  const sof = Buffer.alloc(9);
  sof[0] = 8;
  sof.writeUInt16BE(height, 1);
  sof.writeUInt16BE(width, 3);
  sof[5] = 1; // components
  sof[6] = 1; // id
  sof[7] = 0x11; // sampling 1x1
  sof[8] = 0; // quantisation table 0
  const counts = (lengths: number[]) => {
    const c = Buffer.alloc(16);
    for (const l of lengths) c[l - 1]++;
    return c;
  };
  const dhtDc = Buffer.concat([Buffer.from([0x00]), counts(dcSymbols.map(() => 2)), Buffer.from(dcSymbols)]);
  const dhtAc = Buffer.concat([Buffer.from([0x10]), counts([1]), Buffer.from([0x00])]);
  const sos = Buffer.from([1, 1, 0x00, 0, 63, 0]);

  // entropy-coded data: first block DC = category code + value bits, then diff 0; AC = EOB ('0')
  const bits: number[] = [];
  const put = (value: number, n: number) => {
    for (let i = n - 1; i >= 0; i--) bits.push((value >> i) & 1);
  };
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  for (let b = 0; b < blocks; b++) {
    if (b === 0 && category > 0) {
      put(1, 2); // code 01: the category symbol
      put(dc > 0 ? dc : dc + (1 << category) - 1, category);
    } else {
      put(0, 2); // code 00: category 0
    }
    put(0, 1); // EOB
  }
  while (bits.length % 8) bits.push(1);
  const scan: number[] = [];
  for (let i = 0; i < bits.length; i += 8) {
    let byte = 0;
    for (let k = 0; k < 8; k++) byte = (byte << 1) | bits[i + k];
    scan.push(byte);
    if (byte === 0xff) scan.push(0x00);
  }

  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, jfif),
    ...(comment !== undefined ? [segment(0xfe, Buffer.from(comment, 'latin1'))] : []),
    segment(0xdb, dqt),
    segment(0xc0, sof),
    segment(0xc4, dhtDc),
    segment(0xc4, dhtAc),
    segment(0xda, sos),
    Buffer.from(scan),
    Buffer.from([0xff, 0xd9]),
  ]);
}

// ---------- PDF ----------

export interface PdfOptions {
  /** Text lines on the page. */
  text?: string | string[];
  /** An embedded image XObject (a JPEG from `makeJpeg`) with these /Width and /Height, drawn on the page. */
  image?: { width: number; height: number };
}

const pdfEscape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);

/** A valid one-page PDF 1.4 (correct xref offsets) with text and optionally an embedded JPEG image. */
export function makePdf({ text = 'vericase test document', image }: PdfOptions = {}): Buffer {
  const lines = Array.isArray(text) ? text : [text];
  const content = [
    'BT /F1 12 Tf 72 720 Td 14 TL',
    ...lines.map((l) => `(${pdfEscape(l)}) Tj T*`),
    'ET',
    ...(image
      ? [`q ${Math.min(image.width, 400)} 0 0 ${Math.min(image.height, 400)} 72 200 cm /Im1 Do Q`]
      : []),
  ].join('\n');
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >>${image ? ' /XObject << /Im1 6 0 R >>' : ''} >> >>`,
    ),
    Buffer.from(`<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
  ];
  if (image) {
    const jpeg = makeJpeg({ width: image.width, height: image.height, gray: 128 });
    objects.push(
      Buffer.concat([
        Buffer.from(
          `<< /Type /XObject /Subtype /Image /Width ${image.width} /Height ${image.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n`,
        ),
        jpeg,
        Buffer.from('\nendstream'),
      ]),
    );
  }
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    offsets.push(offset);
    parts.push(obj);
    offset += obj.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    'startxref',
    String(offset),
    '%%EOF',
    '',
  ].join('\n');
  parts.push(Buffer.from(xref));
  return Buffer.concat(parts);
}

// ---------- multipart uploads ----------

export interface FormPart {
  name: string;
  data: Buffer | string;
  /** Present for a file part. */
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body built by hand: the payload and its Content-Type header. */
export function multipartBody(parts: FormPart[]): { payload: Buffer; contentType: string } {
  const boundary = `----vericase${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    const type = p.contentType ?? (p.filename !== undefined ? 'application/octet-stream' : undefined);
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`,
      ),
      typeof p.data === 'string' ? Buffer.from(p.data) : p.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POSTs a multipart body to /v1/files/upload as the client's workspace. */
export async function postMultipart(api: Client, parts: FormPart[]): Promise<Res> {
  const { app } = await getHarness();
  const { payload, contentType } = multipartBody(parts);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/files/upload',
    headers: { 'x-service-api-key': api.key, 'content-type': contentType },
    payload,
  });
  const json = String(res.headers['content-type'] ?? '').includes('json') && res.body;
  return { status: res.statusCode, body: json ? JSON.parse(res.body) : res.body, headers: res.headers };
}

/** Uploads one file in the form field `file`; returns the response (body `{upload_ref, expired_at}`). */
export function uploadBytes(
  api: Client,
  data: Buffer,
  filename = 'upload.bin',
  contentType?: string,
): Promise<Res> {
  return postMultipart(api, [{ name: 'file', filename, data, ...(contentType ? { contentType } : {}) }]);
}

/** Uploads a file and returns its upload_ref (asserting the upload succeeded). */
export async function uploadRef(
  api: Client,
  data: Buffer = makePng({ width: 4, height: 4 }),
): Promise<string> {
  const res = await uploadBytes(api, data);
  if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.upload_ref;
}

/** Downloads a file's bytes through GET /v1/files/{id}. */
export async function downloadFile(api: Client, fileId: string) {
  const { app } = await getHarness();
  const res = await app.inject({
    method: 'GET',
    url: `/v1/files/${fileId}`,
    headers: { 'x-service-api-key': api.key },
  });
  return { status: res.statusCode, bytes: res.rawPayload, headers: res.headers, body: res.body };
}
