import type { RgbImage } from './decode-image.ts';

/**
 * The EXIF orientation of a JPEG (1..8; 1 = as stored), read from its APP1 `Exif` segment, or 1
 * when it has none. Phone cameras store a portrait photo sideways and say so here; decoders give
 * the stored pixels, so a face would lie on its side for the model.
 */
export function jpegOrientation(jpeg: Buffer): number {
  let off = 2;
  while (off + 4 <= jpeg.length && jpeg[off] === 0xff) {
    const marker = jpeg[off + 1];
    if (marker === 0xda || marker === 0xd9) break; // start of scan: no more metadata
    const len = jpeg.readUInt16BE(off + 2);
    if (len < 2 || off + 2 + len > jpeg.length) break;
    if (marker === 0xe1 && jpeg.toString('latin1', off + 4, off + 10) === 'Exif\0\0') {
      return tiffOrientation(jpeg.subarray(off + 10, off + 2 + len));
    }
    off += 2 + len;
  }
  return 1;
}

function tiffOrientation(tiff: Buffer): number {
  if (tiff.length < 8) return 1;
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (o: number) => (little ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (little ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return 1;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) break;
    if (u16(entry) === 0x0112) {
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

/** The image turned a quarter clockwise `quarters` times (1: 90°, 2: 180°, 3: 270°). */
export function rotate(img: RgbImage, quarters: number): RgbImage {
  const q = ((quarters % 4) + 4) % 4;
  if (q === 0) return img;
  const { width: w, height: h, data } = img;
  const ow = q === 2 ? w : h;
  const oh = q === 2 ? h : w;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      // where pixel (x, y) lands after the turn
      const [nx, ny] = q === 1 ? [h - 1 - y, x] : q === 2 ? [w - 1 - x, h - 1 - y] : [y, w - 1 - x];
      const s = (y * w + x) * 3;
      const d = (ny * ow + nx) * 3;
      out[d] = data[s];
      out[d + 1] = data[s + 1];
      out[d + 2] = data[s + 2];
    }
  }
  return { width: ow, height: oh, data: out };
}

/** Mirrors left to right. */
function mirror(img: RgbImage): RgbImage {
  const { width: w, height: h, data } = img;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const s = (y * w + x) * 3;
      const d = (y * w + (w - 1 - x)) * 3;
      out[d] = data[s];
      out[d + 1] = data[s + 1];
      out[d + 2] = data[s + 2];
    }
  }
  return { width: w, height: h, data: out };
}

/** The image as it should be seen, per its EXIF orientation (the eight cases of the EXIF spec). */
export function applyOrientation(img: RgbImage, orientation: number): RgbImage {
  switch (orientation) {
    case 2:
      return mirror(img);
    case 3:
      return rotate(img, 2);
    case 4:
      return mirror(rotate(img, 2));
    case 5:
      return rotate(mirror(img), 3);
    case 6:
      return rotate(img, 1);
    case 7:
      return rotate(mirror(img), 1);
    case 8:
      return rotate(img, 3);
    default:
      return img;
  }
}
