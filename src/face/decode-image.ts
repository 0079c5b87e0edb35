import jpeg from 'jpeg-js';
import { decodePng } from '../checks/types/document/analysis/png.ts';
import { isJpeg, isPng } from '../checks/types/id_document/document-reader.ts';
import { applyOrientation, jpegOrientation } from './orientation.ts';

/** 8-bit RGB pixels, row by row (what the face model takes). */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Images over this many pixels are refused rather than decoded (uploads are checked before too). */
const MAX_PIXELS = 40_000_000;
/** The longer side the face model gets: a face on a phone photo of a card stays well over 100 px. */
export const MODEL_LONG_SIDE = 1280;

/**
 * JPEG or PNG bytes → RGB pixels, scaled down (nearest neighbour, whole steps) so the longer side is
 * at most `longSide`, and turned upright per a JPEG's EXIF orientation. Null for any other format
 * or an image that cannot be decoded.
 */
export function decodeImage(bytes: Buffer, longSide = MODEL_LONG_SIDE): RgbImage | null {
  const img = decodePixels(bytes, longSide);
  return img && isJpeg(bytes) ? applyOrientation(img, jpegOrientation(bytes)) : img;
}

function decodePixels(bytes: Buffer, longSide: number): RgbImage | null {
  let width: number;
  let height: number;
  let channels: number;
  let pixels: Uint8Array | Uint8ClampedArray;
  if (isJpeg(bytes)) {
    try {
      const d = jpeg.decode(bytes, {
        useTArray: true,
        formatAsRGBA: true,
        maxResolutionInMP: MAX_PIXELS / 1_000_000,
        maxMemoryUsageInMB: 1024,
      });
      ({ width, height } = d);
      channels = 4;
      pixels = d.data;
    } catch {
      return null;
    }
  } else if (isPng(bytes)) {
    const d = decodePng(bytes);
    if (!d) return null;
    ({ width, height, channels } = d);
    pixels = d.data;
  } else return null;
  const step = Math.max(1, Math.ceil(Math.max(width, height) / longSide));
  const w = Math.floor(width / step);
  const h = Math.floor(height / step);
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const s = (y * step * width + x * step) * channels;
      const d = (y * w + x) * 3;
      if (channels >= 3) {
        out[d] = pixels[s];
        out[d + 1] = pixels[s + 1];
        out[d + 2] = pixels[s + 2];
      } else {
        out[d] = out[d + 1] = out[d + 2] = pixels[s]; // gray (and gray + alpha)
      }
    }
  }
  return { width: w, height: h, data: out };
}
