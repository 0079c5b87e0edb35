import { decodePng, encodePng } from '../../src/checks/types/document/analysis/png.ts';

/**
 * Draws text into a grayscale PNG without a canvas library: a 5x7 bitmap font (upper-case letters,
 * digits and a little punctuation; lower case is drawn as upper case) scaled up, black on white.
 * Good enough for tesseract to read, so tests can make "scanned" documents.
 */

const GLYPHS: Record<string, string[]> = {
  A: ['01110', '10001', '10001', '11111', '10001', '10001', '10001'],
  B: ['11110', '10001', '10001', '11110', '10001', '10001', '11110'],
  C: ['01110', '10001', '10000', '10000', '10000', '10001', '01110'],
  D: ['11110', '10001', '10001', '10001', '10001', '10001', '11110'],
  E: ['11111', '10000', '10000', '11110', '10000', '10000', '11111'],
  F: ['11111', '10000', '10000', '11110', '10000', '10000', '10000'],
  G: ['01110', '10001', '10000', '10111', '10001', '10001', '01111'],
  H: ['10001', '10001', '10001', '11111', '10001', '10001', '10001'],
  I: ['01110', '00100', '00100', '00100', '00100', '00100', '01110'],
  J: ['00111', '00010', '00010', '00010', '00010', '10010', '01100'],
  K: ['10001', '10010', '10100', '11000', '10100', '10010', '10001'],
  L: ['10000', '10000', '10000', '10000', '10000', '10000', '11111'],
  M: ['10001', '11011', '10101', '10101', '10001', '10001', '10001'],
  N: ['10001', '10001', '11001', '10101', '10011', '10001', '10001'],
  O: ['01110', '10001', '10001', '10001', '10001', '10001', '01110'],
  P: ['11110', '10001', '10001', '11110', '10000', '10000', '10000'],
  Q: ['01110', '10001', '10001', '10001', '10101', '10010', '01101'],
  R: ['11110', '10001', '10001', '11110', '10100', '10010', '10001'],
  S: ['01111', '10000', '10000', '01110', '00001', '00001', '11110'],
  T: ['11111', '00100', '00100', '00100', '00100', '00100', '00100'],
  U: ['10001', '10001', '10001', '10001', '10001', '10001', '01110'],
  V: ['10001', '10001', '10001', '10001', '10001', '01010', '00100'],
  W: ['10001', '10001', '10001', '10101', '10101', '10101', '01010'],
  X: ['10001', '10001', '01010', '00100', '01010', '10001', '10001'],
  Y: ['10001', '10001', '10001', '01010', '00100', '00100', '00100'],
  Z: ['11111', '00001', '00010', '00100', '01000', '10000', '11111'],
  '0': ['01110', '10001', '10001', '10001', '10001', '10001', '01110'],
  '1': ['00100', '01100', '00100', '00100', '00100', '00100', '01110'],
  '2': ['01110', '10001', '00001', '00010', '00100', '01000', '11111'],
  '3': ['11111', '00010', '00100', '00010', '00001', '10001', '01110'],
  '4': ['00010', '00110', '01010', '10010', '11111', '00010', '00010'],
  '5': ['11111', '10000', '11110', '00001', '00001', '10001', '01110'],
  '6': ['00110', '01000', '10000', '11110', '10001', '10001', '01110'],
  '7': ['11111', '00001', '00010', '00100', '01000', '01000', '01000'],
  '8': ['01110', '10001', '10001', '01110', '10001', '10001', '01110'],
  '9': ['01110', '10001', '10001', '01111', '00001', '00010', '01100'],
  ':': ['00000', '01100', '01100', '00000', '01100', '01100', '00000'],
  '-': ['00000', '00000', '00000', '11111', '00000', '00000', '00000'],
  '/': ['00000', '00001', '00010', '00100', '01000', '10000', '00000'],
  '.': ['00000', '00000', '00000', '00000', '00000', '01100', '01100'],
  ',': ['00000', '00000', '00000', '00000', '01100', '00100', '01000'],
  "'": ['01100', '00100', '01000', '00000', '00000', '00000', '00000'],
  '&': ['01100', '10010', '10100', '01000', '10101', '10010', '01101'],
  '<': ['00010', '00100', '01000', '10000', '01000', '00100', '00010'],
  ' ': ['00000', '00000', '00000', '00000', '00000', '00000', '00000'],
};

/** Box blur of radius r (softens the square dots so the text looks printed rather than pixelated). */
function blur(px: Uint8Array, width: number, height: number, r: number): Uint8Array {
  if (r <= 0) return px;
  const tmp = new Uint8Array(px.length);
  const out = new Uint8Array(px.length);
  const n = 2 * r + 1;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let d = -r; d <= r; d++) sum += px[y * width + Math.min(width - 1, Math.max(0, x + d))];
      tmp[y * width + x] = sum / n;
    }
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let d = -r; d <= r; d++) sum += tmp[Math.min(height - 1, Math.max(0, y + d)) * width + x];
      out[y * width + x] = sum / n;
    }
  return out;
}

/** A PNG showing the lines of text, `scale` pixels per font dot, softened by a blur of `blurRadius`. */
export function textPng(lines: string[], scale = 4, blurRadius = Math.floor(scale / 2)): Buffer {
  const cellW = 6 * scale;
  const cellH = 10 * scale;
  const margin = 8 * scale;
  const cols = Math.max(...lines.map((l) => l.length), 1);
  const width = margin * 2 + cols * cellW;
  const height = margin * 2 + lines.length * cellH;
  const px = new Uint8Array(width * height).fill(255);
  lines.forEach((line, row) => {
    [...line.toUpperCase()].forEach((ch, col) => {
      const glyph = GLYPHS[ch] ?? GLYPHS[' '];
      for (let gy = 0; gy < 7; gy++)
        for (let gx = 0; gx < 5; gx++) {
          if (glyph[gy][gx] !== '1') continue;
          const x0 = margin + col * cellW + gx * scale;
          const y0 = margin + row * cellH + gy * scale;
          for (let dy = 0; dy < scale; dy++)
            px.fill(0, (y0 + dy) * width + x0, (y0 + dy) * width + x0 + scale);
        }
    });
  });
  return encodePng(width, height, 1, blur(px, width, height, blurRadius));
}

/**
 * A PNG of random gray noise (deterministic for a seed): nothing to read. With a blur radius, soft
 * blobs instead (they pass the analysis' noise pre-check and reach the OCR, which finds no text).
 */
export function noisePng(width: number, height: number, seed = 1, blurRadius = 0): Buffer {
  let s = seed >>> 0 || 1;
  const px = new Uint8Array(width * height);
  for (let i = 0; i < px.length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    px[i] = (s >>> 0) & 0xff;
  }
  return encodePng(width, height, 1, blur(px, width, height, blurRadius));
}

/**
 * The page turned clockwise by quarter turns, in its pixels (as a scanner that fed it sideways
 * stores it; no EXIF orientation to turn it back).
 */
export function turnedPng(png: Buffer, quarters: 1 | 2 | 3): Buffer {
  const img = decodePng(png);
  if (!img || img.channels === 2) throw new Error('turnedPng: a grey, RGB or RGBA PNG is needed');
  let { width: w, height: h, data } = img;
  const c = img.channels;
  for (let q = 0; q < quarters; q++) {
    const out = new Uint8Array(w * h * c);
    // (x, y) goes to (h - 1 - y, x) in the turned image, h wide
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++)
        for (let k = 0; k < c; k++) out[(x * h + (h - 1 - y)) * c + k] = data[(y * w + x) * c + k];
    [w, h, data] = [h, w, out];
  }
  return encodePng(w, h, c, data);
}
