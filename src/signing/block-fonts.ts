import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import { lazyImport } from '../shared/lazy-module.ts';

/**
 * The faces of the visible signature block. The standard PDF fonts only encode WinAnsi, so a signer
 * named "Дмитрий Ковалёв", "Ζωή Παπαδοπούλου" or "Łukasz Żółć" would be drawn transliterated; the
 * block uses DejaVu instead (the `dejavu-fonts-ttf` package: TrueType files covering Latin with its
 * extensions, Greek and Cyrillic), subset-embedded so a signed file grows by a few KB per face.
 */
export interface BlockFonts {
  regular: PDFFont;
  bold: PDFFont;
  /** The typed signature ("script": an italic serif). */
  script: PDFFont;
}

const FILES = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  script: 'DejaVuSerif-Italic.ttf',
} as const;

const require = createRequire(import.meta.url);

/**
 * fontkit and the font files are read with the first signature, once (not at server start: most
 * processes never sign). The files come from node_modules: nothing is fetched at run time.
 */
const loadFaces = lazyImport(async () => {
  const fontkit = (await import('@pdf-lib/fontkit')).default;
  const read = (file: string) => fs.readFile(require.resolve(`dejavu-fonts-ttf/ttf/${file}`));
  const [regular, bold, script] = await Promise.all([
    read(FILES.regular),
    read(FILES.bold),
    read(FILES.script),
  ]);
  return { fontkit, bytes: { regular, bold, script } };
});

/**
 * Embeds the block's faces into `doc` (subsets: only the glyphs drawn are written). Ligatures are
 * off so that every drawn glyph maps back to one character: a reader's copy or search of the name
 * or the e-mail gives exactly what was drawn.
 */
export async function embedBlockFonts(doc: PDFDocument): Promise<BlockFonts> {
  const { fontkit, bytes } = await loadFaces();
  doc.registerFontkit(fontkit);
  const options = { subset: true, features: { liga: false, clig: false, dlig: false } };
  return {
    regular: await doc.embedFont(bytes.regular, options),
    bold: await doc.embedFont(bytes.bold, options),
    script: await doc.embedFont(bytes.script, options),
  };
}
