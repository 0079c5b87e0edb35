import type { PDFDocument, PDFFont } from 'pdf-lib';
import { embedUnicodeFonts } from '../shared/unicode-fonts.ts';

/**
 * The faces of the visible signature block: DejaVu (src/shared/unicode-fonts.ts), so a signer
 * named "Дмитрий Ковалёв", "Ζωή Παπαδοπούλου" or "Łukasz Żółć" is drawn as written.
 */
export interface BlockFonts {
  regular: PDFFont;
  bold: PDFFont;
  /** The typed signature ("script": an italic serif). */
  script: PDFFont;
}

export function embedBlockFonts(doc: PDFDocument): Promise<BlockFonts> {
  return embedUnicodeFonts(doc, ['regular', 'bold', 'script']);
}
