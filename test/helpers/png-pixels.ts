import { encodePng } from '../../src/checks/types/document/analysis/png.ts';
import { crc32 } from './files.ts';

/** An RGB PNG of the given pixels (src's encoder) with `tEXt` chunks inserted before IEND. */
export function makePngFromPixels(
  width: number,
  height: number,
  rgb: Uint8Array,
  text: Record<string, string> = {},
): Buffer {
  const png = encodePng(width, height, 3, rgb);
  const chunks = Object.entries(text).map(([k, v]) => {
    const data = Buffer.concat([Buffer.from(k, 'latin1'), Buffer.from([0]), Buffer.from(v, 'latin1')]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const type = Buffer.from('tEXt', 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(type, data));
    return Buffer.concat([len, type, data, crc]);
  });
  const iend = png.length - 12;
  return Buffer.concat([png.subarray(0, iend), ...chunks, png.subarray(iend)]);
}
