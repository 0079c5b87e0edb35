import anyAscii from 'any-ascii';
import type { PDFFont } from 'pdf-lib';

/**
 * Text a standard (WinAnsi) font can draw: characters it encodes are kept (é, ü, ø, €...), others are
 * transliterated (Ł → L, Cyrillic → Latin) and what is still not drawable becomes `?`. Control
 * characters (tabs, line breaks inside a value) become spaces. Never throws.
 */
export function safeTextFor(font: PDFFont): (text: string) => string {
  const drawable = new Set(font.getCharacterSet());
  const cache = new Map<string, string>();
  const one = (ch: string): string => {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return ' ';
    if (drawable.has(cp)) return ch;
    let out = cache.get(ch);
    if (out === undefined) {
      out = [...anyAscii(ch)].map((c) => (drawable.has(c.codePointAt(0) as number) ? c : '?')).join('');
      cache.set(ch, out || '?');
    }
    return out || '?';
  };
  return (text) => {
    let out = '';
    for (const ch of text) out += one(ch);
    return out;
  };
}
