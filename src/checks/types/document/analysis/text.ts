import type { extractImages, getDocumentProxy } from 'unpdf';
import { decodeImage } from '../../../../face/decode-image.ts';
import { jpegOrientation } from '../../../../face/orientation.ts';
import { loadUnpdf } from '../../../../shared/lazy-module.ts';
import {
  isJpeg,
  isPdf,
  isPng,
  MAX_PDF_INFLATED_BYTES,
  pdfInflatesWithin,
} from '../../id_document/document-reader.ts';
import { detectKind } from './fields.ts';
import { ocrImage } from './ocr.ts';
import { decodePng, edgeDensity, encodePng, type RawImage } from './png.ts';

/**
 * The text of one file: a PDF's text layer (unpdf); for a PDF without usable text (a scan), OCR of
 * the images embedded in its pages (decoded by pdf.js, re-encoded as PNG); for PNG / JPEG / other
 * images, OCR. `readable` is false when nothing usable came out.
 */

export type TextSource = 'pdf_text' | 'pdf_ocr' | 'image_ocr' | 'none';

export interface FileText {
  text: string;
  source: TextSource;
  readable: boolean;
  /** Why the file could not be read, for the check's comment. */
  problem: string | null;
}

/** Pages whose embedded images are read when a PDF has no text layer. */
export const MAX_OCR_PAGES = 3;
/** Pages whose text layer is read (the fields sought are on the first pages of a document). */
export const MAX_TEXT_PAGES = 30;
/** Letters and digits a text needs to count as read. */
const MIN_SIGNIFICANT_CHARS = 20;
/** Mean OCR confidence (0..100) under which a recognition is treated as noise. */
const MIN_OCR_CONFIDENCE = 45;
/**
 * Mean OCR confidence under which a text in which no kind of document is recognised (detectKind)
 * is garbage rather than a page: a page turned sideways or upside down reads as fragments
 * (`18151 HEH`, `NOAT 20069 SHIT`) at a confidence of 45 to 60, where the same page upright reads
 * at 80 to 95. Such text was analysed, and a fragment read as a postal line failed
 * `address_matching`: rejected automatically. A legible page of a kind the analysis does not know
 * (a custom document type) reads well above it.
 */
const MIN_UNRECOGNISED_OCR_CONFIDENCE = 70;
const garbled = (confidence: number) =>
  `no legible text was found, only fragments read at an OCR confidence of ${Math.round(confidence)} with no document wording in them: a page turned sideways or upside down is not read`;
const isGarbled = (text: string, confidence: number) =>
  confidence < MIN_UNRECOGNISED_OCR_CONFIDENCE && detectKind(text).kind === null;
/**
 * Share of sharp neighbour-to-neighbour changes above which an image is noise, not a page: OCR of
 * such an image finds nothing and can take tens of seconds, so it is not attempted.
 */
const MAX_EDGE_DENSITY = 0.3;
const NOISE_PROBLEM = 'the image looks like noise rather than a document (no text to read)';

const isNoise = (img: RawImage | null) => img !== null && edgeDensity(img) > MAX_EDGE_DENSITY;

const isOtherImage = (b: Buffer) =>
  b.subarray(0, 4).toString('latin1') === 'RIFF' || // webp
  b.subarray(0, 2).toString('latin1') === 'BM' || // bmp
  ['II*\0', 'MM\0*'].includes(b.subarray(0, 4).toString('latin1')) || // tiff
  b.subarray(0, 3).toString('latin1') === 'GIF';

const significant = (text: string) => (text.match(/[\p{L}\p{N}]/gu) ?? []).length;

/** Longer side of a turned photo handed to the OCR: 300 dpi of an A4 page, more than it needs. */
const OCR_LONG_SIDE = 3600;

/**
 * A JPEG as it is shown: a phone stores a portrait page sideways and says so in its EXIF
 * orientation, which the OCR ignores (it would read sideways lines: nothing). Such a photo is
 * decoded, turned upright and handed over as PNG; any other JPEG (or one that cannot be decoded)
 * as it is.
 */
function uprightJpeg(bytes: Buffer): Buffer {
  if (jpegOrientation(bytes) === 1) return bytes;
  const img = decodeImage(bytes, OCR_LONG_SIDE);
  return img ? encodePng(img.width, img.height, 3, img.data) : bytes;
}

export async function readFileText(bytes: Buffer, mime: string): Promise<FileText> {
  if (isPdf(bytes) || mime === 'application/pdf') return readPdf(bytes);
  if (isPng(bytes) || isJpeg(bytes) || isOtherImage(bytes) || mime.startsWith('image/')) {
    if (isPng(bytes) && isNoise(decodePng(bytes))) return unreadable('image_ocr', NOISE_PROBLEM);
    const r = await ocrImage(isJpeg(bytes) ? uprightJpeg(bytes) : bytes);
    if (!r) return unreadable('image_ocr', 'the image could not be read (OCR failed or took too long)');
    if (significant(r.text) < MIN_SIGNIFICANT_CHARS || r.confidence < MIN_OCR_CONFIDENCE)
      return { ...unreadable('image_ocr', 'no legible text was found in the image'), text: r.text };
    if (isGarbled(r.text, r.confidence))
      return { ...unreadable('image_ocr', garbled(r.confidence)), text: r.text };
    return { text: r.text, source: 'image_ocr', readable: true, problem: null };
  }
  return unreadable('none', `files of type ${mime || 'unknown'} cannot be analysed`);
}

function unreadable(source: TextSource, problem: string): FileText {
  return { text: '', source, readable: false, problem };
}

type Pdf = Awaited<ReturnType<typeof getDocumentProxy>>;

/** The text layer of the first pages, one line per text line (as unpdf's extractText, with a page cap). */
async function textLayer(pdf: Pdf, pages: number): Promise<string> {
  const texts: string[] = [];
  for (let n = 1; n <= pages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    texts.push(
      content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''),
    );
  }
  return texts
    .join('\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n');
}

/** Most bytes a PDF's streams may inflate to before it is opened for analysis. */
const MAX_ANALYSED_PDF_INFLATED_BYTES = 2 * MAX_PDF_INFLATED_BYTES;

async function readPdf(bytes: Buffer): Promise<FileText> {
  // pdf.js inflates every stream it reads without a bound: a small compressed bomb is refused first
  if (!(await pdfInflatesWithin(bytes, MAX_ANALYSED_PDF_INFLATED_BYTES)))
    return unreadable(
      'none',
      `the PDF inflates to more than ${MAX_ANALYSED_PDF_INFLATED_BYTES / 1024 / 1024} MB once decompressed: it is not opened`,
    );
  let pdf: Pdf;
  try {
    pdf = await (await loadUnpdf()).getDocumentProxy(new Uint8Array(bytes));
  } catch {
    return unreadable('none', 'the PDF could not be opened');
  }
  try {
    const text = await textLayer(pdf, Math.min(pdf.numPages, MAX_TEXT_PAGES));
    if (significant(text) >= MIN_SIGNIFICANT_CHARS)
      return { text, source: 'pdf_text', readable: true, problem: null };
    // A scan: read the images the pages embed.
    const texts: string[] = [];
    const confidences: number[] = [];
    let images = 0;
    let noisy = 0;
    for (let page = 1; page <= Math.min(pdf.numPages, MAX_OCR_PAGES); page++) {
      let found: Awaited<ReturnType<typeof extractImages>> = [];
      try {
        found = await (await loadUnpdf()).extractImages(pdf, page);
      } catch {
        found = [];
      }
      for (const img of found) {
        if (img.width < 200 || img.height < 50) continue; // logos, stamps
        images++;
        if (isNoise(img)) {
          noisy++;
          continue;
        }
        const r = await ocrImage(encodePng(img.width, img.height, img.channels, img.data));
        if (r && r.confidence >= MIN_OCR_CONFIDENCE) {
          texts.push(r.text);
          confidences.push(r.confidence);
        }
      }
    }
    const ocrText = texts.join('\n');
    const confidence = confidences.reduce((a, b) => a + b, 0) / (confidences.length || 1);
    if (significant(ocrText) >= MIN_SIGNIFICANT_CHARS && isGarbled(ocrText, confidence))
      return { ...unreadable('pdf_ocr', garbled(confidence)), text: ocrText };
    if (significant(ocrText) >= MIN_SIGNIFICANT_CHARS)
      return { text: ocrText, source: 'pdf_ocr', readable: true, problem: null };
    return unreadable(
      'pdf_ocr',
      images === 0
        ? 'the PDF has no text layer and no page image that could be read'
        : noisy === images
          ? `the PDF has no text layer and its page images look like noise`
          : 'no legible text was found in the scanned PDF',
    );
  } finally {
    await pdf.loadingTask.destroy().catch(() => undefined);
  }
}
