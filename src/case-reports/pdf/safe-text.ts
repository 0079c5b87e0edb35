import anyAscii from 'any-ascii';
import type { PDFFont } from 'pdf-lib';

/** Marks around a run of text transliterated from a script the font lacks (`‹Dong Jing›`). */
export const TRANSLITERATED_OPEN = '‹';
export const TRANSLITERATED_CLOSE = '›';

/** Scripts written one syllable per character: their transliterations are spaced apart. */
const SYLLABIC = /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * The bidi controls (marks, embeddings, isolates): kept for the lines' layout, which applies them
 * and never draws them (src/shared/bidi-text.ts). An isolate (not in the fonts) was a `?`.
 */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

export interface SafeText {
  (text: string): string;
  /** Whether any text so far was transliterated (and marked): the document then says what the marks mean. */
  readonly transliterated: boolean;
}

/**
 * Text a font can draw: characters it has are kept (é, ü, ø, €, and with DejaVu Greek and
 * Cyrillic), letters of scripts it lacks (CJK...) are transliterated and marked as such, in one
 * run between ‹ ›, since a reader could not otherwise tell "Dong Jing" from a name written so
 * (東京); what is still not drawable becomes `?`. Control characters (tabs, line breaks inside a
 * value) become spaces. Arabic and Hebrew are in the DejaVu Sans faces: kept as written, and laid
 * out right to left when drawn (src/shared/bidi-text.ts). Never throws.
 */
export function safeTextFor(font: PDFFont): SafeText {
  const drawable = new Set(font.getCharacterSet());
  const cache = new Map<string, string>();
  let transliterated = false;
  const one = (ch: string): string => {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return ' ';
    if (BIDI_CONTROL.test(ch)) return ch;
    if (drawable.has(cp)) return ch;
    // an emoji is no text to transliterate: any-ascii's `:rocket:` reads as if typed so
    if (/\p{Extended_Pictographic}/u.test(ch)) return '?';
    // the joiners and presentation selectors inside an emoji are nothing of their own
    if (cp === 0x200d || cp === 0xfe0e || cp === 0xfe0f) return '';
    return transliteration(ch) || '?';
  };
  /**
   * any-ascii's spelling of a character, what the font cannot draw of it as `?`; empty for what it
   * spells as nothing (an Arabic alef, a vowel sign): inside a transliterated name that is no `?`
   * (`العتيبي` read `‹?l`tyby›`, as if a letter could not be shown).
   */
  const transliteration = (ch: string): string => {
    let out = cache.get(ch);
    if (out === undefined) {
      out = [...anyAscii(ch)].map((c) => (drawable.has(c.codePointAt(0) as number) ? c : '?')).join('');
      cache.set(ch, out);
    }
    return out;
  };
  const marks = drawable.has(TRANSLITERATED_OPEN.codePointAt(0) as number);
  const safe = (text: string) => {
    let out = '';
    let run: string[] = [];
    let spaced = false;
    const flush = () => {
      if (!run.length) return;
      const spelt = run.filter(Boolean).join(spaced ? ' ' : '') || '?';
      out += `${TRANSLITERATED_OPEN}${spelt}${TRANSLITERATED_CLOSE}`;
      run = [];
      transliterated = true;
    };
    for (const ch of text) {
      const cp = ch.codePointAt(0) as number;
      // a letter, or a mark on one (Arabic and Hebrew vowel signs), of a script the font lacks
      if (marks && !drawable.has(cp) && (/\p{L}/u.test(ch) || (run.length && /\p{M}/u.test(ch)))) {
        if (!run.length) spaced = SYLLABIC.test(ch);
        run.push(transliteration(ch));
        continue;
      }
      flush();
      out += one(ch);
    }
    flush();
    return out;
  };
  return Object.defineProperty(safe, 'transliterated', { get: () => transliterated }) as SafeText;
}
