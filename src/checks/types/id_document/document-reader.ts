import zlib from 'node:zlib';

/**
 * Reading what a sandbox provider needs from an uploaded document, without decoding pixels:
 * PNG `tEXt` chunks, JPEG comments (COM segments), the text of a PDF, and the pixel size of the
 * images a PDF embeds.
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export const isPng = (b: Buffer) => b.length >= 8 && b.subarray(0, 8).equals(PNG_SIGNATURE);
export const isJpeg = (b: Buffer) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
export const isPdf = (b: Buffer) => b.subarray(0, 1024).includes('%PDF-');

/** The `tEXt` chunks of a PNG, keyword → text (Latin-1). Stops at IEND or at a truncated chunk. */
export function pngTextChunks(png: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isPng(png)) return out;
  let off = 8;
  while (off + 12 <= png.length) {
    const len = png.readUInt32BE(off);
    const type = png.toString('latin1', off + 4, off + 8);
    if (off + 12 + len > png.length) break;
    if (type === 'tEXt') {
      const data = png.subarray(off + 8, off + 8 + len);
      const nul = data.indexOf(0);
      if (nul > 0) out[data.toString('latin1', 0, nul)] = data.toString('latin1', nul + 1);
    }
    if (type === 'IEND') break;
    off += 12 + len;
  }
  return out;
}

/** The comments (COM segments, Latin-1) of a JPEG, read up to the start of the scan. */
export function jpegComments(jpeg: Buffer): string[] {
  const out: string[] = [];
  if (!isJpeg(jpeg)) return out;
  let off = 2;
  while (off + 4 <= jpeg.length) {
    if (jpeg[off] !== 0xff) break;
    const marker = jpeg[off + 1];
    if (marker === 0xff) {
      off++; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      off += 2; // markers without a length
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break; // start of scan / end of image
    const len = jpeg.readUInt16BE(off + 2);
    if (len < 2 || off + 2 + len > jpeg.length) break;
    if (marker === 0xfe) out.push(jpeg.toString('latin1', off + 4, off + 2 + len));
    off += 2 + len;
  }
  return out;
}

interface PdfStream {
  dict: string;
  data: Buffer;
}

/** Every `<< ... >> stream ... endstream` of a PDF (the dictionary and the raw, still encoded bytes). */
function pdfStreams(pdf: Buffer): PdfStream[] {
  const text = pdf.toString('latin1');
  const out: PdfStream[] = [];
  const re = /(?<!end)stream\r?\n/g;
  let m: RegExpExecArray | null = re.exec(text);
  while (m !== null) {
    const start = m.index + m[0].length;
    // the dictionary ends right before the keyword: find its opening `<<` at the object start
    const before = text.lastIndexOf('obj', m.index);
    const dict = before >= 0 ? text.slice(before + 3, m.index) : '';
    const lengthMatch = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
    let end = lengthMatch ? start + Number(lengthMatch[1]) : -1;
    if (end < 0 || end > text.length || !text.startsWith('endstream', skipEol(text, end))) {
      end = text.indexOf('endstream', start);
      if (end < 0) break;
    }
    out.push({ dict, data: pdf.subarray(start, end) });
    re.lastIndex = end;
    m = re.exec(text);
  }
  return out;
}

function skipEol(text: string, i: number): number {
  while (text[i] === '\r' || text[i] === '\n' || text[i] === ' ') i++;
  return i;
}

/**
 * A hex string `<48656C6C6F>` starting at `i` (the `<`): its bytes as Latin-1 text (a single-byte
 * font's codes, as pdf-lib writes every string it draws), and the index after its `>`.
 */
function hexString(content: string, i: number): [text: string, next: number] {
  const end = content.indexOf('>', i + 1);
  const stop = end < 0 ? content.length : end;
  let hex = content.slice(i + 1, stop).replace(/\s+/g, '');
  if (!/^[0-9a-fA-F]*$/.test(hex)) return ['', stop + 1];
  if (hex.length % 2) hex += '0';
  return [Buffer.from(hex, 'hex').toString('latin1'), stop + 1];
}

/**
 * The strings of a content stream, one entry per string shown: literal `( ... )`, unescaped, and
 * hex `< ... >` (a dictionary `<< ... >>` is skipped whole).
 */
function shownStrings(content: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < content.length) {
    if (content[i] === '<') {
      if (content[i + 1] === '<') {
        const end = content.indexOf('>>', i + 2);
        i = end < 0 ? content.length : end + 2;
        continue;
      }
      const [text, next] = hexString(content, i);
      if (text) out.push(text);
      i = next;
      continue;
    }
    if (content[i] !== '(') {
      i++;
      continue;
    }
    let depth = 1;
    let s = '';
    i++;
    while (i < content.length && depth > 0) {
      const c = content[i];
      if (c === '\\') {
        const n = content[i + 1];
        const map: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
        if (n in map) s += map[n];
        else if (/[0-7]/.test(n)) {
          const oct = /^[0-7]{1,3}/.exec(content.slice(i + 1))?.[0] ?? '0';
          s += String.fromCharCode(Number.parseInt(oct, 8));
          i += oct.length - 1;
        } else if (n !== '\n' && n !== '\r') s += n;
        i += 2;
        continue;
      }
      if (c === '(') depth++;
      if (c === ')') depth--;
      if (depth > 0) s += c;
      i++;
    }
    out.push(s);
  }
  return out;
}

/**
 * Most bytes the streams of one PDF are inflated to here. A PDF is a zip of sorts: 400 KB of
 * FlateDecode can inflate to 400 MB of spaces, which froze the process for seconds and grew it by
 * gigabytes (security walk). No content stream a document needs comes near it.
 */
export const MAX_PDF_INFLATED_BYTES = 64 * 1024 * 1024;

const FLATE = /\/Filter\s*(\[\s*)?\/FlateDecode\s*\]?/;

/** The decoded bytes of a stream: raw, or inflated for FlateDecode within `budget`; null for other filters. */
function decodeStream(s: PdfStream, budget: number): Buffer | null {
  if (FLATE.test(s.dict)) {
    try {
      return zlib.inflateSync(s.data, { maxOutputLength: Math.max(1, budget) });
    } catch {
      // not deflate data, or more than the budget: unread, as any stream of another filter
      return null;
    }
  }
  return /\/Filter/.test(s.dict) ? null : s.data;
}

/** How many FlateDecode filters a stream's dictionary applies one after the other. */
function flateLayers(dict: string): number {
  const filter = /\/Filter\s*(\[[^\]]*\]|\/\w+)/.exec(dict)?.[1] ?? '';
  const names = filter.match(/\/\w+/g) ?? [];
  let n = 0;
  while (names[n] === '/FlateDecode') n++;
  return n;
}

/** Largest image stream inflated to check it (a 300 dpi A4 page in 16-bit RGBA is far below). */
const MAX_IMAGE_INFLATED_BYTES = 512 * 1024 * 1024;

const inflateAsync = (data: Buffer, maxOutputLength: number) =>
  new Promise<Buffer | 'over' | null>((resolve) => {
    try {
      zlib.inflate(data, { maxOutputLength }, (err, out) =>
        resolve(err ? ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? 'over' : null) : out),
      );
    } catch {
      resolve(null);
    }
  });

/**
 * Whether a PDF's FlateDecode streams, each of its Flate layers applied, stay within bounds:
 * together at most `limit` bytes, an image at most what its declared size can hold (a scanned
 * page is tens of megabytes, and only the first pages' images are ever decoded). Checked before a
 * PDF library opens it (pdf.js inflates without a bound). Inflated in zlib's thread pool, never
 * on the event loop, and never past the bound.
 */
export async function pdfInflatesWithin(pdf: Buffer, limit: number): Promise<boolean> {
  let total = 0;
  for (const s of pdfStreams(pdf)) {
    const layers = flateLayers(s.dict);
    if (layers === 0) continue;
    const w = Number(/\/Width\s+(\d+)(?!\s+\d+\s+R)/.exec(s.dict)?.[1] ?? Number.NaN);
    const h = Number(/\/Height\s+(\d+)(?!\s+\d+\s+R)/.exec(s.dict)?.[1] ?? Number.NaN);
    // 4 components of 16 bits, and a byte a row for PNG predictors
    const image =
      isImageDict(s.dict) && w > 0 && h > 0 ? Math.min(8 * w * h + h + 1024, MAX_IMAGE_INFLATED_BYTES) : null;
    const bound = image ?? limit - total;
    let data: Buffer = s.data;
    for (let layer = layers; layer > 0; layer--) {
      const out = await inflateAsync(data, bound + 1);
      if (out === 'over') return false;
      if (out === null) break; // not deflate data: the library will say so
      data = out;
    }
    if (image === null && data !== s.data) total += data.length;
    if (total > limit) return false;
  }
  return true;
}

const isImageDict = (dict: string) => /\/Subtype\s*\/Image\b/.test(dict);

/** The decoded content of every stream of a PDF that is not an image. */
function decodedContentStreams(pdf: Buffer): string[] {
  const out: string[] = [];
  let budget = MAX_PDF_INFLATED_BYTES;
  for (const s of pdfStreams(pdf)) {
    if (isImageDict(s.dict)) continue;
    const data = decodeStream(s, budget);
    if (!data) continue;
    budget -= data.length;
    if (budget < 0) break;
    out.push(data.toString('latin1'));
  }
  return out;
}

/**
 * The text of a PDF, one line per string shown: literal and hex strings of every content stream,
 * uncompressed or FlateDecode (font encodings beyond Latin-1, two-byte CID fonts, are not decoded).
 */
export function pdfTextLines(pdf: Buffer): string[] {
  return decodedContentStreams(pdf).flatMap(shownStrings);
}

/**
 * The pixel size of every image a PDF embeds. How: an image XObject is a stream object whose
 * dictionary says `/Subtype /Image` with `/Width` and `/Height`. A stream can never sit inside a
 * compressed object stream (PDF 1.5 ObjStm), so that dictionary is always plain text in the file:
 * we scan the raw bytes for `N G obj << ... >> stream` and read the two keys from the dictionary
 * instead of parsing the whole object graph. A size given as an indirect reference
 * (`/Width 12 0 R`) is resolved by reading `12 0 obj <number> endobj`. Inline images
 * (`BI /W .. /H .. ID` inside a content stream, possibly FlateDecode) are read from the decoded
 * content streams.
 */
export function pdfImageSizes(pdf: Buffer): { width: number; height: number }[] {
  const text = pdf.toString('latin1');
  const out: { width: number; height: number }[] = [];
  const resolve = (value: string | undefined, ref: string | undefined): number | null => {
    if (value === undefined) return null;
    if (ref === undefined) return Number(value);
    const obj = new RegExp(`(?:^|\\s)${value}\\s+${ref}\\s+obj\\s*(\\d+)\\s*endobj`).exec(text);
    return obj ? Number(obj[1]) : null;
  };
  const streams = pdfStreams(pdf);
  for (const s of streams) {
    if (!isImageDict(s.dict)) continue;
    const w = /\/Width\s+(\d+)(?:\s+(\d+)\s+R)?/.exec(s.dict);
    const h = /\/Height\s+(\d+)(?:\s+(\d+)\s+R)?/.exec(s.dict);
    const width = resolve(w?.[1], w?.[2]);
    const height = resolve(h?.[1], h?.[2]);
    if (width !== null && height !== null) out.push({ width, height });
  }
  for (const content of decodedContentStreams(pdf)) {
    const inlineRe = /\bBI\b([\s\S]{0,400}?)\bID\b/g;
    for (let m = inlineRe.exec(content); m !== null; m = inlineRe.exec(content)) {
      const w = /\/(?:W|Width)\s+(\d+)/.exec(m[1]);
      const h = /\/(?:H|Height)\s+(\d+)/.exec(m[1]);
      if (w && h) out.push({ width: Number(w[1]), height: Number(h[1]) });
    }
  }
  return out;
}

/** Text a document carries where a sandbox looks for an MRZ: PNG `mrz`, JPEG comments, PDF text. */
export function documentTextLines(bytes: Buffer): string[] {
  if (isPng(bytes)) {
    const mrz = pngTextChunks(bytes).mrz;
    return mrz === undefined ? [] : mrz.split(/\r?\n/);
  }
  if (isJpeg(bytes)) return jpegComments(bytes).flatMap((c) => c.split(/\r?\n/));
  if (isPdf(bytes)) return pdfTextLines(bytes).flatMap((l) => l.split(/\r?\n/));
  return [];
}
