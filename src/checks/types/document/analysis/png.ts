import zlib from 'node:zlib';

/** Minimal PNG encoder for raw 8-bit pixels (gray, RGB or RGBA), used to hand PDF images to the OCR. */

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

const COLOR_TYPE: Record<1 | 3 | 4, number> = { 1: 0, 3: 2, 4: 6 };

export function encodePng(
  width: number,
  height: number,
  channels: 1 | 3 | 4,
  pixels: Uint8Array | Uint8ClampedArray,
): Buffer {
  const stride = width * channels;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (stride + 1)] = 0;
    raw.set(pixels.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = COLOR_TYPE[channels];
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface RawImage {
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
  data: Uint8Array | Uint8ClampedArray;
}

/**
 * Decodes an 8-bit, non-interlaced, non-palette PNG (gray, gray+alpha, RGB, RGBA) into raw pixels;
 * null for any other PNG (the OCR then reads it directly).
 */
export function decodePng(png: Buffer): RawImage | null {
  if (png.length < 33 || png.readUInt32BE(0) !== 0x89504e47) return null;
  let off = 8;
  let width = 0;
  let height = 0;
  let channels: RawImage['channels'] | 0 = 0;
  const idat: Buffer[] = [];
  while (off + 12 <= png.length) {
    const len = png.readUInt32BE(off);
    const type = png.toString('latin1', off + 4, off + 8);
    const body = png.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || interlace !== 0) return null;
      channels = ({ 0: 1, 4: 2, 2: 3, 6: 4 } as Record<number, RawImage['channels']>)[colour] ?? 0;
      if (!channels) return null;
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    off += 12 + len;
  }
  if (!channels || width === 0 || height === 0 || width * height > 40_000_000) return null;
  let raw: Buffer;
  try {
    // no more than the image's rows can hold: a small IDAT can inflate to gigabytes
    raw = zlib.inflateSync(Buffer.concat(idat), { maxOutputLength: (width * channels + 1) * height + 1024 });
  } catch {
    return null;
  }
  const stride = width * channels;
  if (raw.length < (stride + 1) * height) return null;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[row + x - channels] : 0;
      const b = y > 0 ? out[row - stride + x] : 0;
      const c = x >= channels && y > 0 ? out[row - stride + x - channels] : 0;
      let v = raw[src + x];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[row + x] = v & 0xff;
    }
  }
  return { width, height, channels, data: out };
}

/**
 * Share of sampled pixels differing sharply (by more than 64 levels) from their right-hand
 * neighbour, on the first channel. A printed page is mostly plain background (a few percent);
 * random noise is around 70 %.
 */
export function edgeDensity(img: RawImage): number {
  const { width, height, channels, data } = img;
  if (width < 2 || height < 1) return 0;
  const rowStep = Math.max(1, Math.floor(height / 400));
  let edges = 0;
  let samples = 0;
  for (let y = 0; y < height; y += rowStep) {
    const row = y * width * channels;
    for (let x = 0; x + 1 < width; x++) {
      samples++;
      if (Math.abs(data[row + x * channels] - data[row + (x + 1) * channels]) > 64) edges++;
    }
  }
  return samples === 0 ? 0 : edges / samples;
}
