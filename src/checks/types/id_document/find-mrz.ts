import { decodeImage } from '../../../face/decode-image.ts';
import { documentTextLines } from './document-reader.ts';
import { ocrMrzLines } from './mrz-ocr.ts';
import { findMrzLines, type MrzReading, readMrz } from './mrz-reader.ts';

/** The longer side of the image the OCR reads an MRZ on (its characters stay about 20 px high). */
const MRZ_OCR_LONG_SIDE = 2000;

export interface FoundMrz {
  lines: string[];
  mrz: MrzReading | null;
  /** Read from the pixels (true) or from text the file carries (false). */
  ocr: boolean;
}

/**
 * Where to look for a document's MRZ. `text`: the text a file carries (PNG `tEXt` `mrz`, a JPEG
 * comment, a PDF's text), which the sandbox reads and which anyone can type, so it is trusted only
 * while the sandbox file controls are on (docs/sandbox.md). `ocr`: the pixels.
 */
export interface MrzSources {
  text: boolean;
  ocr: boolean;
}

export interface MrzSearch {
  found: FoundMrz | null;
  /** MRZ lines the OCR found whose check digits do not match them (not kept), for the comment. */
  misread: string[] | null;
}

/**
 * The MRZ of a document's sides (front first): from text when allowed, else by OCR from the front's
 * then the back's pixels, kept only when every check digit is right (a misreading must never
 * reject anyone: mrz-ocr.ts). A text MRZ is kept even when it does not parse: its lines were typed
 * as they are, and a wrong one is the document's fault.
 */
export async function findMrz(sides: Buffer[], today: Date, sources: MrzSources): Promise<MrzSearch> {
  if (sources.text) {
    for (const side of sides) {
      const lines = findMrzLines(documentTextLines(side));
      if (lines) return { found: { lines, mrz: readMrz(lines, today), ocr: false }, misread: null };
    }
  }
  let misread: string[] | null = null;
  if (sources.ocr) {
    for (const side of sides) {
      const img = decodeImage(side, MRZ_OCR_LONG_SIDE);
      const lines = img ? await ocrMrzLines(img) : null;
      const mrz = lines ? readMrz(lines, today, { autocorrect: true }) : null;
      if (lines && mrz?.checkDigitsValid) return { found: { lines, mrz, ocr: true }, misread: null };
      misread ??= lines;
    }
  }
  return { found: null, misread };
}
