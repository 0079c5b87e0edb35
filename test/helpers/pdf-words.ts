import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A PDF read by poppler's pdftotext (poppler-utils, see the README): where its glyphs were drawn,
 * not only the text a reader copies.
 */
function pdftotext(pdf: Uint8Array, args: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-pdfwords-'));
  try {
    fs.writeFileSync(path.join(dir, 'd.pdf'), pdf);
    return execFileSync('pdftotext', [...args, path.join(dir, 'd.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The text, as pdftotext gives it back: a word drawn right to left (Arabic, Hebrew) comes back in
 * typing order, so a name drawn mirrored reads backwards. The embedding marks poppler sets around
 * right-to-left words are taken out.
 */
export function pdfPlainText(pdf: Uint8Array): string {
  return pdftotext(pdf, []).replace(/[\u202a-\u202e]/g, '');
}

const ENTITIES: Record<string, string> = {
  '&quot;': '"',
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&apos;': "'",
};

/**
 * Every line of the PDF (pages in order, lines top to bottom), its words from left to right as
 * drawn: `pdftotext -bbox` writes each word's glyphs in the order they stand on the page.
 */
export function pdfLines(pdf: Uint8Array): string[][] {
  const html = pdftotext(pdf, ['-bbox']);
  const lines: string[][] = [];
  for (const page of html.split('<page ').slice(1)) {
    const words = [...page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([^<]*)<\/word>/g)].map(
      (m) => ({
        x: Number(m[1]),
        y: Math.round(Number(m[2])),
        text: m[3].replace(/&\w+;/g, (e) => ENTITIES[e] ?? e),
      }),
    );
    const ys = [...new Set(words.map((w) => w.y))].sort((a, b) => a - b);
    for (const y of ys)
      lines.push(
        words
          .filter((w) => w.y === y)
          .sort((a, b) => a.x - b.x)
          .map((w) => w.text),
      );
  }
  return lines;
}
