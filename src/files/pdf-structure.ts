import type { PDFDocument } from 'pdf-lib';
import { ApiError } from '../http/errors.ts';
import { loadPdfLib } from '../shared/lazy-module.ts';
import { FILE_DAMAGED } from './damaged.ts';
import { tooManyPixels } from './image-pixels.ts';

/** A PDF ends with `startxref <offset> %%EOF`, give or take trailing whitespace or junk. */
const TAIL_BYTES = 2048;

const refuse = (status: 400 | 415, message: string) =>
  new ApiError(status, message, [{ path: 'file', message }]);
/** A file that cannot be read (truncated, damaged): its own code, so a page says so (FILE_DAMAGED). */
const damaged = (message: string) => new ApiError(400, message, [{ path: 'file', message }], FILE_DAMAGED);

/**
 * Refuses a "PDF" that is not a readable document, before anything analyses it: a `%PDF` header
 * proves nothing. It must end with its cross-reference trailer (a truncated upload does not), have a
 * cross-reference table or stream, parse as a whole (pdf-lib, every object, throwing on an invalid
 * one), not be encrypted (the analysis reads the raw content), have at least one page, and embed
 * no image over `maxPixels` (from its /Width and /Height, nothing decoded).
 * pdf-lib parses in slices and yields to the event loop between them.
 */
export async function pdfRefusal(bytes: Buffer, maxPixels: number): Promise<ApiError | null> {
  const tail = bytes.subarray(Math.max(0, bytes.length - TAIL_BYTES)).toString('latin1');
  if (!/startxref\s+\d+\s+%%EOF/.test(tail)) {
    return damaged('PDF is truncated or damaged: it does not end with its startxref/%%EOF trailer');
  }
  const text = bytes.toString('latin1');
  if (!/(^|[\r\n\s])xref\s/.test(text) && !/\/Type\s*\/XRef\b/.test(text)) {
    return damaged('PDF is damaged: it has no cross-reference table or stream');
  }
  const { PDFDocument, PDFName, PDFNumber, PDFRawStream } = await loadPdfLib();
  let doc: PDFDocument;
  try {
    // encryption is read, not refused, by the parser here: it is told apart below
    doc = await PDFDocument.load(bytes, {
      updateMetadata: false,
      throwOnInvalidObject: true,
      ignoreEncryption: true,
    });
  } catch (err) {
    return damaged(`PDF cannot be parsed: ${(err as Error).message}`);
  }
  if (doc.isEncrypted) {
    return refuse(415, 'encrypted PDFs are not accepted: upload the document without a password');
  }
  let pages: number;
  try {
    pages = doc.getPageCount();
  } catch {
    pages = 0;
  }
  if (pages === 0) return damaged('PDF has no pages (its document catalog or page tree is missing)');
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    const dict = object.dict;
    if (dict.get(PDFName.of('Subtype')) !== PDFName.of('Image')) continue;
    const width = dict.lookupMaybe(PDFName.of('Width'), PDFNumber)?.asNumber() ?? 0;
    const height = dict.lookupMaybe(PDFName.of('Height'), PDFNumber)?.asNumber() ?? 0;
    const refusal = tooManyPixels('PDF embeds an image of', width, height, maxPixels);
    if (refusal) return refusal;
  }
  return null;
}
