/**
 * Real faces for id_verification tests, from the sample photographs face-api ships in its npm
 * package (node_modules/@vladmandic/face-api/demo, MIT): a selfie is a square crop around one
 * person's face; a document front is a grey ID-card-like image with a smaller, greyscale copy of
 * a person's face as its photo, carrying the MRZ in a PNG tEXt chunk like the id_document fixtures.
 * Nothing is copied into the repository.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import jpeg from 'jpeg-js';
import { decodePng } from '../../src/checks/types/document/analysis/png.ts';
import { textPng } from './bitmap-text-png.ts';
import { makePngFromPixels } from './png-pixels.ts';

const require = createRequire(import.meta.url);
const demoDir = path.join(path.dirname(require.resolve('@vladmandic/face-api')), '..', 'demo');

interface Rgb {
  width: number;
  height: number;
  data: Uint8Array;
}

const cache = new Map<string, Rgb>();
function photo(name: string): Rgb {
  let img = cache.get(name);
  if (!img) {
    const d = jpeg.decode(readFileSync(path.join(demoDir, name)), { useTArray: true, formatAsRGBA: false });
    img = { width: d.width, height: d.height, data: new Uint8Array(d.data) };
    cache.set(name, img);
  }
  return img;
}

/**
 * Two people of two different photos (crop boxes around their faces, twice the detected face
 * size): chosen because the detector finds each of them on the selfie and on the card photo.
 */
export const PEOPLE = {
  alice: { file: 'sample5.jpg', x: 709, y: 31, size: 312 },
  bella: { file: 'sample3.jpg', x: 486, y: 230, size: 398 },
} as const;
export type Person = keyof typeof PEOPLE;

function crop(who: Person, out: number, gray: boolean): Rgb {
  const p = PEOPLE[who];
  const src = photo(p.file);
  const data = new Uint8Array(out * out * 3);
  for (let y = 0; y < out; y++) {
    for (let x = 0; x < out; x++) {
      const sx = p.x + Math.floor((x * p.size) / out);
      const sy = p.y + Math.floor((y * p.size) / out);
      const s = (sy * src.width + sx) * 3;
      const d = (y * out + x) * 3;
      if (gray) {
        const g = Math.round(0.299 * src.data[s] + 0.587 * src.data[s + 1] + 0.114 * src.data[s + 2]);
        data[d] = data[d + 1] = data[d + 2] = g;
      } else {
        data[d] = src.data[s];
        data[d + 1] = src.data[s + 1];
        data[d + 2] = src.data[s + 2];
      }
    }
  }
  return { width: out, height: out, data };
}

/** A selfie PNG of one person (400 × 400, colour); `text` adds tEXt chunks (sandbox_outcome). */
export function selfiePng(who: Person, text: Record<string, string> = {}): Buffer {
  const img = crop(who, 400, false);
  return makePngFromPixels(img.width, img.height, img.data, text);
}

/** A selfie PNG of two people side by side (800 × 400, colour): a selfie that is not one person's. */
export function pairSelfiePng(left: Person, right: Person): Buffer {
  const a = crop(left, 400, false);
  const b = crop(right, 400, false);
  const data = new Uint8Array(800 * 400 * 3);
  for (let y = 0; y < 400; y++) {
    data.set(a.data.subarray(y * 1200, (y + 1) * 1200), y * 2400);
    data.set(b.data.subarray(y * 1200, (y + 1) * 1200), y * 2400 + 1200);
  }
  return makePngFromPixels(800, 400, data, {});
}

/** The image turned a quarter counter-clockwise (how a phone stores a portrait shot, EXIF 6). */
function turnLeft(img: Rgb): Rgb {
  const { width: w, height: h, data } = img;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const s = (y * w + x) * 3;
      const d = ((w - 1 - x) * h + y) * 3;
      out[d] = data[s];
      out[d + 1] = data[s + 1];
      out[d + 2] = data[s + 2];
    }
  return { width: h, height: w, data: out };
}

/**
 * An APP1 Exif segment saying orientation `value`, one IFD entry, in big-endian TIFF (`MM`, as
 * iPhones write it) or little-endian (`II`, as many Android phones do).
 */
export function exifOrientation(value: number, littleEndian = false): Buffer {
  const tiff = Buffer.alloc(8 + 2 + 12 + 4);
  const u16 = (v: number, o: number) => (littleEndian ? tiff.writeUInt16LE(v, o) : tiff.writeUInt16BE(v, o));
  const u32 = (v: number, o: number) => (littleEndian ? tiff.writeUInt32LE(v, o) : tiff.writeUInt32BE(v, o));
  tiff.write(littleEndian ? 'II' : 'MM', 0, 'latin1');
  u16(42, 2);
  u32(8, 4);
  u16(1, 8);
  u16(0x0112, 10); // Orientation
  u16(3, 12); // SHORT
  u32(1, 14);
  u16(value, 18);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/**
 * A selfie as a phone writes a portrait JPEG: the pixels stored a quarter turned, with EXIF
 * orientation 6 telling viewers to turn them back.
 */
export function sidewaysSelfieJpeg(who: Person): Buffer {
  const img = turnLeft(crop(who, 400, false));
  const rgba = new Uint8Array(img.width * img.height * 4);
  for (let i = 0; i < img.width * img.height; i++) {
    rgba[i * 4] = img.data[i * 3];
    rgba[i * 4 + 1] = img.data[i * 3 + 1];
    rgba[i * 4 + 2] = img.data[i * 3 + 2];
    rgba[i * 4 + 3] = 255;
  }
  const jpg = jpeg.encode({ data: rgba, width: img.width, height: img.height }, 90).data;
  return Buffer.concat([jpg.subarray(0, 2), exifOrientation(6), jpg.subarray(2)]);
}

/** A document front photographed in portrait: the card image turned a quarter. */
export function sidewaysCardPng(who: Person, mrz: string[] | null): Buffer {
  const card = cardPixels(who, mrz);
  const img = turnLeft(card.img);
  return makePngFromPixels(img.width, img.height, img.data, card.text);
}

/**
 * A document front (640 × 400): a light card, the person's photo (200 px, greyscale) on the left,
 * darker bars where printed fields would be, the MRZ lines in a tEXt chunk.
 */
function cardPixels(
  who: Person | null,
  mrz: string[] | null,
  printed = false,
): { img: Rgb; text: Record<string, string> } {
  const width = 640;
  const height = 400;
  const data = new Uint8Array(width * height * 3).fill(228);
  for (let y = 230; y < 390; y += 22)
    for (let x = 260; x < 600; x++)
      for (let r = 0; r < 8; r++) {
        const d = ((y + r) * width + x) * 3;
        data[d] = data[d + 1] = data[d + 2] = 120;
      }
  if (who) {
    const face = crop(who, 200, true);
    for (let y = 0; y < 200; y++)
      for (let x = 0; x < 200; x++) {
        const s = (y * 200 + x) * 3;
        const d = ((y + 40) * width + (x + 30)) * 3;
        data[d] = face.data[s];
        data[d + 1] = face.data[s + 1];
        data[d + 2] = face.data[s + 2];
      }
  }
  if (printed && mrz) {
    // the MRZ printed at the bottom of the card, over the bars, for the OCR to read
    const text = decodePng(textPng(mrz, 2));
    if (!text) throw new Error('textPng gave an unreadable PNG');
    for (let y = 0; y < text.height; y++)
      for (let x = 0; x < text.width && x + 40 < width; x++) {
        const d = ((y + height - text.height) * width + x + 40) * 3;
        data[d] = data[d + 1] = data[d + 2] = text.data[y * text.width + x];
      }
    return { img: { width, height, data }, text: {} };
  }
  return { img: { width, height, data }, text: mrz ? { mrz: mrz.join('\n') } : {} };
}

/** The card with its MRZ printed in the image only (no tEXt chunk): read by OCR. */
export function printedMrzCardPng(who: Person, mrz: string[]): Buffer {
  const { img } = cardPixels(who, mrz, true);
  return makePngFromPixels(img.width, img.height, img.data);
}

export function cardPng(who: Person | null, mrz: string[] | null): Buffer {
  const { img, text } = cardPixels(who, mrz);
  return makePngFromPixels(img.width, img.height, img.data, text);
}
