import { createRequire } from 'node:module';
import type { Bidi } from 'bidi-js';
import type { PDFFont, PDFPage, PDFPageDrawTextOptions } from 'pdf-lib';

/**
 * Right-to-left text in the service's PDFs (case reports, registry extracts, audit trails,
 * signature blocks). pdf-lib draws a string's glyphs left to right in the order fontkit lays them
 * out, and fontkit turns the whole string around when the first letter it meets is of a
 * right-to-left script: `أرامكو Holding: 40 %` came out `% 04 :gnidloH أرامكو`, and
 * `Company name: أرامكو` (first letter Latin) kept the Arabic in typing order, letters unjoined.
 *
 * A line holding right-to-left characters is laid out by the Unicode Bidirectional Algorithm
 * (bidi-js, UAX #9) in a left-to-right paragraph, the documents being English: runs of Arabic or
 * Hebrew read right to left, digits and Latin left to right, each run drawn on its own in visual
 * order. fontkit still shapes each Arabic run (joined letters, lam-alef), and each glyph keeps the
 * characters it stands for, so copying the text gives them back in the order written.
 */

/** First strong isolate / pop directional isolate (UAX #9): see `isolate`. */
const FSI = '\u2068';
const PDI = '\u2069';

/**
 * Characters of the right-to-left scripts' blocks (Hebrew, Arabic, Syriac, Thaana, N'Ko,
 * Samaritan, Mandaic, the presentation forms, the historic scripts beyond the BMP) and the controls
 * that open right-to-left text: a line without any is drawn as it always was.
 */
const RTL =
  /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\u{10800}-\u{10fff}\u{1e800}-\u{1efff}\u061c\u200f\u2067]/u;

/** The bidi controls: directions for the layout, never drawn (not in the fonts, or zero-width). */
const CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');

/**
 * Embeddings and overrides (LRE, RLE, PDF, LRO, RLO) are not applied: an override would draw a
 * name's letters in another order than they were written (the "Trojan Source" trick). They were
 * never applied before either (drawn as nothing).
 */
const EMBEDDINGS = /[\u202a-\u202e]/g;

/** The scripts fontkit lays out right to left (its `Script.direction`): it reverses a run of them. */
const FONTKIT_RTL =
  /\p{Script=Arabic}|\p{Script=Hebrew}|\p{Script=Syriac}|\p{Script=Thaana}|\p{Script=Cypriot}|\p{Script=Kharoshthi}|\p{Script=Phoenician}|\p{Script=Nko}|\p{Script=Lydian}|\p{Script=Avestan}|\p{Script=Imperial_Aramaic}|\p{Script=Inscriptional_Pahlavi}|\p{Script=Inscriptional_Parthian}|\p{Script=Old_South_Arabian}|\p{Script=Old_Turkic}|\p{Script=Samaritan}|\p{Script=Mandaic}|\p{Script=Meroitic_Cursive}|\p{Script=Meroitic_Hieroglyphs}|\p{Script=Manichaean}|\p{Script=Mende_Kikakui}|\p{Script=Nabataean}|\p{Script=Old_North_Arabian}|\p{Script=Palmyrene}|\p{Script=Psalter_Pahlavi}/u;
/** fontkit picks a string's direction from its first character of a script (not Common or Inherited). */
const SCRIPTED = /[^\p{Script=Common}\p{Script=Inherited}\p{Script=Unknown}]/u;

const require = createRequire(import.meta.url);
let instance: Bidi | undefined;
/**
 * bidi-js, loaded and its Unicode tables built with the first line that needs them (most documents
 * have none). Its entry is a UMD bundle whose `module.exports` is the factory.
 */
const bidi = (): Bidi => {
  instance ??= (require('bidi-js') as () => Bidi)();
  return instance;
};

/** Whether a line needs the bidirectional layout. */
export const hasRtl = (text: string): boolean => RTL.test(text);

/**
 * A value set inside a sentence or after a label (a name, a title), marked as an isolate when it
 * holds right-to-left text: its direction then neither reaches the words around it nor takes
 * theirs. Without it, in `أرامكو: 40 %` the number after Arabic letters counts as Arabic and the
 * line read `40 :أرامكو %`. Left-to-right text is returned as it is. The marks are not drawn.
 */
export function isolate(value: string): string {
  return hasRtl(value) ? `${FSI}${value}${PDI}` : value;
}

const reversed = (s: string) => [...s].reverse().join('');

/**
 * One line as the strings to draw one after the other from left to right, each as fontkit must
 * be given it for its glyphs to come out in visual order: a right-to-left run of Arabic or Hebrew
 * in typing order (fontkit shapes and turns it), anything else in display order (turned around
 * beforehand if fontkit is going to turn it: Arabic-Indic digits read left to right).
 */
export function visualPieces(line: string): string[] {
  const text = line.replace(EMBEDDINGS, '');
  if (!hasRtl(text)) return [text.replace(CONTROLS, '')];
  const levels = Uint8Array.from(bidi().getEmbeddingLevels(text, 'ltr').levels);
  const mirrors = bidi().getMirroredCharactersMap(text, levels);
  // L1: spaces and isolate marks ending the line take the paragraph's level
  for (let i = text.length - 1; i >= 0 && /[\s\u2066-\u2069]/.test(text[i]); i--) levels[i] = 0;
  // a control takes its neighbour's level, so that it splits no run (it is not drawn)
  for (let i = 0; i < text.length; i++) if (CONTROL.test(text[i])) levels[i] = i ? levels[i - 1] : 0;
  // runs of one level, in typing order: [start, end), level
  const runs: { start: number; end: number; level: number }[] = [];
  for (let i = 0; i < text.length; i++) {
    const last = runs.at(-1);
    if (last && last.level === levels[i]) last.end = i + 1;
    else runs.push({ start: i, end: i + 1, level: levels[i] });
  }
  // L2: from the highest level down to the lowest odd one, every sequence of runs at that level or
  // above is reversed (a run's own characters are turned when it is drawn, by its level's parity)
  const max = Math.max(...runs.map((r) => r.level));
  const minOdd = Math.min(...runs.map((r) => r.level | 1));
  for (let level = max; level >= minOdd; level--) {
    for (let i = 0; i < runs.length; i++) {
      if (runs[i].level < level) continue;
      let j = i;
      while (j + 1 < runs.length && runs[j + 1].level >= level) j++;
      runs.splice(i, j - i + 1, ...runs.slice(i, j + 1).reverse());
      i = j;
    }
  }
  const out: string[] = [];
  for (const run of runs) {
    const rtl = run.level % 2 === 1;
    // the run split where fontkit's direction would change (its scripts), so each part is turned as a whole
    const parts: { text: string; fontkitRtl: boolean | null }[] = [];
    for (let i = run.start; i < run.end; i++) {
      const ch = text[i];
      if (CONTROL.test(ch)) continue;
      const shown = (rtl && mirrors.get(i)) || ch;
      const code = text.codePointAt(i) as number;
      const whole = code > 0xffff ? String.fromCodePoint(code) : ch;
      const kind = SCRIPTED.test(whole) ? FONTKIT_RTL.test(whole) : null;
      const last = parts.at(-1);
      if (last && (kind === null || last.fontkitRtl === null || last.fontkitRtl === kind)) {
        last.text += shown;
        last.fontkitRtl ??= kind;
      } else parts.push({ text: shown, fontkitRtl: kind });
    }
    if (rtl) parts.reverse();
    for (const p of parts) out.push((p.fontkitRtl ?? false) === rtl ? p.text : reversed(p.text));
  }
  return out.filter(Boolean);
}

type DrawOptions = PDFPageDrawTextOptions & { x: number; y: number; size: number; font: PDFFont };

/** Draws one line (no line breaks) at `x`, right-to-left runs in their order (see `visualPieces`). */
export function drawLine(page: PDFPage, line: string, options: DrawOptions): void {
  let x = options.x;
  for (const piece of visualPieces(line)) {
    page.drawText(piece, { ...options, x });
    x += options.font.widthOfTextAtSize(piece, options.size);
  }
}

/** The width of a line as `drawLine` draws it. */
export function lineWidth(line: string, font: PDFFont, size: number): number {
  let width = 0;
  for (const piece of visualPieces(line)) width += font.widthOfTextAtSize(piece, size);
  return width;
}
