import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { safeTextFor } from '../case-reports/pdf/safe-text.ts';
import { drawLine, lineWidth } from '../shared/bidi-text.ts';
import { rgb } from '../shared/pdf-rgb.ts';
import { embedBlockFonts } from './block-fonts.ts';
import { type BlockLabels, ENGLISH_BLOCK_LABELS } from './block-labels.ts';
import { pageText } from './free-space.ts';
import { SignatureImageError, signaturePngProblem } from './signature-image.ts';

export interface BlockContent {
  signerName: string;
  signerEmail: string;
  signedAt: Date;
  reason: string;
  documentSha256: string;
  drawnSignaturePng: Buffer | null;
  typedSignature: string | null;
  /** The block's words, in the signer's language (English when not given) */
  labels?: BlockLabels;
}

const MARGIN = 36;
const WIDTH = 300;
const HEIGHT = 124;
/** Space kept between the document's last text and the block. */
const GAP = 12;
const PAD = 8;
const INK = rgb(0.05, 0.15, 0.45);
const GREY = rgb(0.35, 0.35, 0.35);
const FRAME = rgb(0.55, 0.6, 0.7);

/** `2026-11-23 20:31:05 UTC` */
export function utc(d: Date): string {
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * Draws the visible signature block in the bottom right corner of the last page (above its
 * footer) when the page's text leaves room there, else on a new page of the same size added at the
 * end (which is then the last page; page numbers printed in the document's footers do not count
 * it): signer, signature (drawn image or typed name), e-mail, date, reason and the SHA-256
 * of the document as it was before signing. Returns the page and the block's rectangle (the
 * signature widget is placed on it, so a PDF reader's click on the block shows the signature).
 */
export async function drawSignatureBlock(
  doc: PDFDocument,
  original: Buffer,
  content: BlockContent,
): Promise<{ page: PDFPage; rect: [number, number, number, number] }> {
  const problem = content.drawnSignaturePng ? signaturePngProblem(content.drawnSignaturePng) : null;
  if (problem) throw new SignatureImageError(problem);
  const pages = doc.getPages();
  let page = pages[pages.length - 1];
  const { width: pageWidth, height: pageHeight } = page.getSize();
  const layout = await pageText(original, pages.length - 1);
  const boxWidth = Math.min(WIDTH, pageWidth - 2 * MARGIN);
  let x = pageWidth - MARGIN - boxWidth;
  // above the page's footer (a page number), if any
  let y = layout.footerTop === null ? MARGIN : Math.max(MARGIN, layout.footerTop + 6);
  if (layout.bodyBottom !== null && layout.bodyBottom < y + HEIGHT + GAP) {
    page = doc.addPage([pageWidth, pageHeight]);
    x = MARGIN;
    y = pageHeight - MARGIN - HEIGHT;
  }
  // Unicode faces (Latin, Greek, Cyrillic); the hash, hex digits only, stays in the standard Courier
  const fonts = { ...(await embedBlockFonts(doc)), mono: await doc.embedFont('Courier') };
  // what a face still lacks (CJK, emoji...) is transliterated, else `?`, per face: never a failure
  const safeFor = new Map(Object.values(fonts).map((font) => [font, safeTextFor(font)]));
  const safe = (value: string, font: PDFFont) => (safeFor.get(font) as (text: string) => string)(value);
  page.drawRectangle({ x, y, width: boxWidth, height: HEIGHT, borderColor: FRAME, borderWidth: 0.8 });
  const inner = boxWidth - 2 * PAD;
  let line = y + HEIGHT - PAD;
  const text = (value: string, font: PDFFont, size: number, color = GREY) => {
    line -= size * 1.25;
    // Arabic and Hebrew read right to left (src/shared/bidi-text.ts)
    drawLine(page, fit(safe(value, font), font, size, inner), { x: x + PAD, y: line, size, font, color });
  };
  const labels = content.labels ?? ENGLISH_BLOCK_LABELS;
  text(labels.signedBy, fonts.regular, 7.5);
  // a long name is set smaller (down to 7 pt) before it is cut: the signer's name is the point
  const name = safe(content.signerName, fonts.bold);
  text(
    name,
    fonts.bold,
    Math.max(7, Math.min(10, (10 * inner) / Math.max(lineWidth(name, fonts.bold, 10), 1))),
    rgb(0, 0, 0),
  );

  // the signature itself: the drawn image scaled into its strip, else the typed name in script
  const strip = { top: line - 4, height: 40 };
  if (content.drawnSignaturePng) {
    const image = await doc.embedPng(content.drawnSignaturePng).catch(() => {
      throw new SignatureImageError('the drawn signature PNG could not be read (damaged or truncated)');
    });
    const scale = Math.min(inner / image.width, strip.height / image.height, 1);
    page.drawImage(image, {
      x: x + PAD,
      y: strip.top - image.height * scale,
      width: image.width * scale,
      height: image.height * scale,
    });
  } else {
    const typed = safe(content.typedSignature?.trim() || content.signerName, fonts.script);
    const size = Math.min(22, (22 * inner) / Math.max(lineWidth(typed, fonts.script, 22), 1));
    drawLine(page, fit(typed, fonts.script, size, inner), {
      x: x + PAD,
      y: strip.top - strip.height + 10,
      size,
      font: fonts.script,
      color: INK,
    });
  }
  line = strip.top - strip.height;
  page.drawLine({
    start: { x: x + PAD, y: line },
    end: { x: x + boxWidth - PAD, y: line },
    thickness: 0.4,
    color: FRAME,
  });
  text(`${content.signerEmail}  ·  ${utc(content.signedAt)}`, fonts.regular, 7.5);
  text(`${labels.reasonPrefix}${content.reason}`, fonts.regular, 7.5);
  text(labels.documentHash, fonts.regular, 7);
  text(content.documentSha256, fonts.mono, Math.min(7, inner / (0.6 * 64)));
  return { page, rect: [x, y, x + boxWidth, y + HEIGHT] };
}

/** Cuts a line that would overflow the block (with an ellipsis), never inside a surrogate pair. */
function fit(value: string, font: PDFFont, size: number, width: number): string {
  if (lineWidth(value, font, size) <= width) return value;
  const chars = [...value];
  while (chars.length > 1 && lineWidth(`${chars.join('')}...`, font, size) > width) chars.pop();
  return `${chars.join('')}...`;
}
