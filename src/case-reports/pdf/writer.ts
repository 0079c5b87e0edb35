import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { drawLine, lineWidth } from '../../shared/bidi-text.ts';
import { rgb } from '../../shared/pdf-rgb.ts';
import { embedUnicodeFonts } from '../../shared/unicode-fonts.ts';
import { type SafeText, safeTextFor, TRANSLITERATED_CLOSE, TRANSLITERATED_OPEN } from './safe-text.ts';

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const TOP = A4[1] - 70; // below the header
const BOTTOM = 60; // above the footer
/** `fields`: text size, line height, the label column's width; the gap `heading(_, 3)` leaves above. */
const FIELD_SIZE = 9;
const FIELD_LEAD = FIELD_SIZE * 1.35;
const LABEL_WIDTH = 130;
const FIELD_GAP_3 = 6;

/** A `label: value` row wrapped to its columns; `height` in lines. */
interface LaidField {
  value: string;
  lines: string[];
  labels: string[];
  height: number;
}
const GREY = rgb(0.4, 0.4, 0.4);
const BLACK = rgb(0, 0, 0);
const RULE = rgb(0.75, 0.75, 0.75);

export interface TextStyle {
  size?: number;
  bold?: boolean;
  indent?: number;
  grey?: boolean;
}

/**
 * Lays text out on A4 pages: wrapped paragraphs, headings kept with what follows, label/value rows;
 * `finish` draws every page's header (report title, generation time) and footer ("Page n of m").
 */
export class PdfWriter {
  readonly #doc: PDFDocument;
  readonly #font: PDFFont;
  readonly #bold: PDFFont;
  readonly #safe: SafeText;
  readonly #pages: PDFPage[] = [];
  /** Widths at size 1 of the words measured so far, per font (#width). */
  readonly #widths = new Map<PDFFont, Map<string, number>>();
  #page!: PDFPage;
  #y = 0;

  private constructor(doc: PDFDocument, font: PDFFont, bold: PDFFont) {
    this.#doc = doc;
    this.#font = font;
    this.#bold = bold;
    // the two DejaVu faces cover the same characters: one filter serves them
    this.#safe = safeTextFor(font);
    this.#newPage();
  }

  /**
   * Drawn in DejaVu Sans Condensed (src/shared/unicode-fonts.ts), so names in Latin with its extensions, Greek,
   * Cyrillic, Arabic and Hebrew are shown as written ("Łódź", "Ковалёв", "أرامكو"); what it lacks (CJK) is
   * transliterated. Every line is drawn by `drawLine` (src/shared/bidi-text.ts): Arabic and Hebrew
   * read right to left within it.
   */
  static async create(doc: PDFDocument): Promise<PdfWriter> {
    const { condensed, condensedBold } = await embedUnicodeFonts(doc, ['condensed', 'condensedBold']);
    return new PdfWriter(doc, condensed, condensedBold);
  }

  #newPage(): void {
    this.#page = this.#doc.addPage(A4);
    this.#pages.push(this.#page);
    this.#y = TOP;
  }

  /** Room for `height` more points on this page, else a new page. */
  ensure(height: number): void {
    if (this.#y - height < BOTTOM) this.#newPage();
  }

  gap(points = 6): void {
    this.#y -= points;
  }

  /**
   * The width of `text` at `size`. An embedded TrueType font measures by laying the text out
   * (fontkit), about a hundred times dearer than a standard font's table lookup: each word's width
   * is measured once per document and lines are summed from words (kerning across a space is not
   * counted: a fraction of a point).
   */
  #width(text: string, font: PDFFont, size: number): number {
    let widths = this.#widths.get(font);
    if (!widths) {
      widths = new Map();
      this.#widths.set(font, widths);
    }
    let unit = widths.get(text);
    if (unit === undefined) {
      unit = lineWidth(text, font, 1);
      widths.set(text, unit);
    }
    return unit * size;
  }

  #wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    const space = this.#width(' ', font, size);
    for (const raw of text.split(/\r?\n/)) {
      const words = this.#safe(raw).split(/ +/);
      let line = '';
      let used = 0;
      for (let word of words) {
        let w = this.#width(word, font, size);
        const candidate = line ? used + space + w : w;
        if (candidate <= width) {
          line = line ? `${line} ${word}` : word;
          used = candidate;
          continue;
        }
        if (line) lines.push(line);
        // a word wider than the line is cut, measuring each character once (a long URL stays linear)
        if (w > width) {
          const chars = [...word];
          let start = 0;
          let cut = 0;
          for (let i = 0; i < chars.length; i++) {
            const cw = this.#width(chars[i], font, size);
            if (cut + cw > width && i > start) {
              lines.push(chars.slice(start, i).join(''));
              start = i;
              cut = 0;
            }
            cut += cw;
          }
          word = chars.slice(start).join('');
          w = cut;
        }
        line = word;
        used = w;
      }
      lines.push(line);
    }
    return lines;
  }

  /** A wrapped paragraph, continuing on the next page when it does not fit. */
  text(text: string, style: TextStyle = {}): void {
    const size = style.size ?? 9;
    const font = style.bold ? this.#bold : this.#font;
    const x = MARGIN + (style.indent ?? 0);
    const lead = size * 1.35;
    for (const line of this.#wrap(text, font, size, A4[0] - MARGIN - x)) {
      this.ensure(lead);
      this.#y -= lead;
      drawLine(this.#page, line, {
        x,
        y: this.#y + size * 0.3,
        size,
        font,
        color: style.grey ? GREY : BLACK,
      });
    }
  }

  /**
   * A section or sub-section title, never alone at the bottom of a page: it needs room for a few
   * lines below it, and a section title (level 1) room for its first sub-heading too, which would
   * otherwise move to the next page alone and leave the section title behind.
   */
  heading(text: string, level: 1 | 2 | 3 = 1): void {
    const size = level === 1 ? 14 : level === 2 ? 11 : 10;
    this.gap(level === 1 ? 10 : 6);
    this.ensure(size * 1.4 + (level === 1 ? 110 : 40));
    this.text(text, { size, bold: true });
    if (level === 1) {
      this.#page.drawLine({
        start: { x: MARGIN, y: this.#y - 2 },
        end: { x: A4[0] - MARGIN, y: this.#y - 2 },
        thickness: 0.5,
        color: RULE,
      });
      this.gap(6);
    }
  }

  /**
   * A sub-heading and its `label: value` rows kept on one page (an audit-trail event): when the
   * block does not fit below, it starts on the next page; one taller than a page flows as `fields`.
   */
  block(title: string, rows: [string, string][]): void {
    const laid = this.#fieldLines(rows, 0);
    const height = FIELD_GAP_3 + 10 * 1.35 + laid.reduce((n, r) => n + r.height, 0) * FIELD_LEAD;
    if (height < TOP - BOTTOM) this.ensure(height);
    this.heading(title, 3);
    this.#drawFields(laid, {});
  }

  /** Each row wrapped: its label's lines in the label column, its value's in the value column. */
  #fieldLines(rows: [string, string][], indent: number): LaidField[] {
    return rows.map(([label, value]) => {
      const lines = this.#wrap(value, this.#font, FIELD_SIZE, A4[0] - 2 * MARGIN - indent - LABEL_WIDTH);
      // a label longer than its column wraps inside it rather than running into the value
      const labels = this.#wrap(label, this.#bold, FIELD_SIZE, LABEL_WIDTH - 8);
      return { value, lines, labels, height: Math.max(lines.length, labels.length) };
    });
  }

  /** `label: value` rows, the labels in a column of their own. */
  fields(rows: [string, string][], opts: { indent?: number; skipEmpty?: boolean } = {}): void {
    this.#drawFields(this.#fieldLines(rows, opts.indent ?? 0), opts);
  }

  #drawFields(laid: LaidField[], opts: { indent?: number; skipEmpty?: boolean }): void {
    const size = FIELD_SIZE;
    const lead = FIELD_LEAD;
    const indent = opts.indent ?? 0;
    const labelWidth = LABEL_WIDTH;
    for (const { value, lines, labels, height } of laid) {
      if (opts.skipEmpty && value === '-') continue;
      this.ensure(lead * Math.min(height, 3));
      for (let i = 0; i < height; i++) {
        if (i > 0) this.ensure(lead);
        this.#y -= lead;
        if (labels[i]) {
          drawLine(this.#page, labels[i], {
            x: MARGIN + indent,
            y: this.#y + size * 0.3,
            size,
            font: this.#bold,
            color: GREY,
          });
        }
        if (lines[i]) {
          drawLine(this.#page, lines[i], {
            x: MARGIN + indent + labelWidth,
            y: this.#y + size * 0.3,
            size,
            font: this.#font,
            color: BLACK,
          });
        }
      }
    }
  }

  /** Header and footer on every page, now that the page count is known. */
  finish(title: string, subtitle: string): void {
    const total = this.#pages.length;
    const safeTitle = this.#safe(title);
    const safeSub = this.#safe(subtitle);
    // names in a script the font lacks were transliterated: every page says what the marks mean
    const legend = this.#safe.transliterated
      ? `Text between ${TRANSLITERATED_OPEN} ${TRANSLITERATED_CLOSE} is transliterated from a script this document cannot show; the API holds it as written.`
      : null;
    this.#pages.forEach((page, i) => {
      const y = A4[1] - 40;
      const subWidth = lineWidth(safeSub, this.#font, 8);
      let head = safeTitle;
      const room = A4[0] - 2 * MARGIN - subWidth - 20;
      while (head.length > 1 && lineWidth(head, this.#bold, 9) > room) head = `${head.slice(0, -2)}…`;
      drawLine(page, head, { x: MARGIN, y, size: 9, font: this.#bold, color: BLACK });
      drawLine(page, safeSub, { x: A4[0] - MARGIN - subWidth, y, size: 8, font: this.#font, color: GREY });
      page.drawLine({
        start: { x: MARGIN, y: y - 6 },
        end: { x: A4[0] - MARGIN, y: y - 6 },
        thickness: 0.5,
        color: RULE,
      });
      const footer = `Page ${i + 1} of ${total}`;
      const w = this.#font.widthOfTextAtSize(footer, 8);
      page.drawText(footer, { x: (A4[0] - w) / 2, y: 30, size: 8, font: this.#font, color: GREY });
      if (legend) page.drawText(legend, { x: MARGIN, y: 18, size: 7, font: this.#font, color: GREY });
    });
  }
}
