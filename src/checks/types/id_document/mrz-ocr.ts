import type { RgbImage } from '../../../face/decode-image.ts';
import { ocrImage } from '../document/analysis/ocr.ts';
import { encodePng } from '../document/analysis/png.ts';

// Reading a printed MRZ from a photo, for documents whose MRZ is not also carried as text (a real
// phone photo). The service's OCR (tesseract.js with the English data, no OCR-B model) reads MRZ
// characters fairly well but not perfectly: it may drop or misread the `<` fillers (as C, K or «)
// and confuse letters and digits (S/5, O/0, I/1). The lines found are repaired where the MRZ's
// structure says what a character must be; the `mrz` parser's autocorrect then fixes letters in
// digit fields and the reverse. The caller keeps a reading only when every check digit is right:
// a reading the OCR got wrong must not reject anyone.

/**
 * MRZ line lengths and line counts: TD3 (passport) 2×44, TD2 2×36, TD1 (ID card) 3×30. Not the Swiss
 * driving licence (9 + 30 + 30): it has no check digit, so nothing could tell a misread name or
 * birth date from a real mismatch; it is read only from text (PNG tEXt, JPEG comment, PDF).
 */
const SHAPES = [
  { length: 44, lines: 2 },
  { length: 36, lines: 2 },
  { length: 30, lines: 3 },
];

/** An OCR line as MRZ characters: upper case, no spaces, the usual misreadings of `<` undone. */
function clean(line: string): string {
  return line
    .toUpperCase()
    .replace(/[«≪]/g, '<<')
    .replace(/[‹〈([{]/g, '<')
    .replace(/\s+/g, '');
}

/**
 * Fits a line to `length`: the OCR loses or adds fillers inside long runs of `<`, so the longest
 * run grows or shrinks by the difference (a line with no run is padded at its end).
 */
function fit(line: string, length: number): string | null {
  const diff = length - line.length;
  if (diff === 0) return line;
  let best: { index: number; size: number } | null = null;
  for (const m of line.matchAll(/<+/g)) {
    if (!best || m[0].length > best.size) best = { index: m.index, size: m[0].length };
  }
  if (!best) return diff > 0 ? line + '<'.repeat(diff) : null;
  if (best.size + diff < 1) return null;
  return line.slice(0, best.index) + '<'.repeat(best.size + diff) + line.slice(best.index + best.size);
}

/**
 * A name field ends in a run of fillers up to the end of its line; the OCR reads part of a long
 * run as C or K. From the first `<` of a run that reaches the end with only C, K or E inside, all
 * becomes fillers.
 */
function repairNameFillers(line: string, from: number): string {
  const tail = /<[<CKE]*$/.exec(line.slice(from));
  if (!tail) return line;
  const start = from + tail.index;
  return line.slice(0, start) + '<'.repeat(line.length - start);
}

/** The MRZ lines among OCR text (one shape, consecutive lines), repaired; null when none. */
export function mrzFromOcrText(text: string): string[] | null {
  const lines = text
    .split(/\r?\n/)
    .map(clean)
    .filter((l) => /^[A-Z0-9<]{20,}$/.test(l));
  for (let i = 0; i < lines.length; i++) {
    for (const shape of SHAPES) {
      const run = lines.slice(i, i + shape.lines);
      if (run.length < shape.lines || run.some((l) => Math.abs(l.length - shape.length) > 3)) continue;
      const fitted = run.map((l) => fit(l, shape.length));
      if (fitted.some((l) => l === null)) continue;
      const out = fitted as string[];
      // the line holding the name: TD3/TD2 the first (after the 5-character prefix), TD1 the third
      const nameLine = shape.lines === 3 ? 2 : 0;
      out[nameLine] = repairNameFillers(out[nameLine], shape.lines === 3 ? 0 : 5);
      return out;
    }
  }
  return null;
}

/** The grey pixels of an image, as a PNG for the OCR. */
function grayPng(img: RgbImage): Buffer {
  const gray = new Uint8Array(img.width * img.height);
  for (let i = 0; i < gray.length; i++) {
    gray[i] = Math.round(0.299 * img.data[i * 3] + 0.587 * img.data[i * 3 + 1] + 0.114 * img.data[i * 3 + 2]);
  }
  return encodePng(img.width, img.height, 1, gray);
}

/** The MRZ lines the OCR reads on an image (upright, as decoded for the face model), or null. */
export async function ocrMrzLines(img: RgbImage): Promise<string[] | null> {
  const result = await ocrImage(grayPng(img));
  return result ? mrzFromOcrText(result.text) : null;
}
