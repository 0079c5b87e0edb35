import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import { lazyImport } from './lazy-module.ts';

/**
 * The faces the service draws PDFs with (signature blocks, case reports, audit trails, verification
 * reports). The standard PDF fonts only encode WinAnsi, so "Łukasz Żółć", "Дмитрий Ковалёв" or
 * "Ζωή" would be drawn transliterated; DejaVu (the `dejavu-fonts-ttf` package: TrueType files
 * covering Latin with its extensions, Greek and Cyrillic) draws them as written. Subset-embedded: a
 * document grows by a few KB per face used.
 */
export type UnicodeFace = 'regular' | 'bold' | 'script' | 'condensed' | 'condensedBold';

const FILES: Record<UnicodeFace, string> = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  /** The typed signature: an italic serif. */
  script: 'DejaVuSerif-Italic.ttf',
  /**
   * Reports' text: about as wide as Helvetica, which they were laid out in (a SHA-256 still fits
   * its column on one line).
   */
  condensed: 'DejaVuSansCondensed.ttf',
  condensedBold: 'DejaVuSansCondensed-Bold.ttf',
};

const require = createRequire(import.meta.url);

/**
 * fontkit loads with the first PDF drawn, and each font file with the first document that uses it,
 * once (not at server start: many processes never draw one). The files come from node_modules:
 * nothing is fetched at run time.
 */
const loadFaces = lazyImport(async () => {
  const fontkit = (await import('@pdf-lib/fontkit')).default;
  return { fontkit, bytes: new Map<UnicodeFace, Promise<Buffer>>() };
});

/** A face's file, read once, when a document first needs it. */
function faceBytes(cache: Map<UnicodeFace, Promise<Buffer>>, face: UnicodeFace): Promise<Buffer> {
  let bytes = cache.get(face);
  if (!bytes) {
    bytes = fs.readFile(require.resolve(`dejavu-fonts-ttf/ttf/${FILES[face]}`));
    // a failed read is not kept: the next document tries again
    bytes.catch(() => cache.delete(face));
    cache.set(face, bytes);
  }
  return bytes;
}

/**
 * Embeds the faces asked for into `doc` (subsets: only the glyphs drawn are written). Ligatures are
 * off so that every drawn glyph maps back to one character: a reader's copy or search of a name or
 * an e-mail gives exactly what was drawn.
 */
export async function embedUnicodeFonts<F extends UnicodeFace>(
  doc: PDFDocument,
  faces: readonly F[],
): Promise<Record<F, PDFFont>> {
  const { fontkit, bytes } = await loadFaces();
  doc.registerFontkit(fontkit);
  const options = { subset: true, features: { liga: false, clig: false, dlig: false } };
  const out = {} as Record<F, PDFFont>;
  for (const face of faces) out[face] = await doc.embedFont(await faceBytes(bytes, face), options);
  return out;
}
