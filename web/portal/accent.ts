/**
 * The portal's accent colour is the operator's choice, any `#rrggbb`: a light one (a yellow, a
 * pastel) would leave white button labels and accent-coloured text on white unreadable. So the page
 * derives from it the colour of text on the accent (white or near-black, whichever contrasts more)
 * and a shade of the accent dark enough for text on white (WCAG AA: 4.5:1), keeping the accent
 * itself for backgrounds and borders.
 */

type Rgb = [number, number, number];

const INK: Rgb = [0x11, 0x18, 0x27];
const WHITE: Rgb = [0xff, 0xff, 0xff];

function parse(hex: string): Rgb {
  return [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

function css([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG 2 relative luminance. */
function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** `--on-accent` (labels on the accent) and `--accent-text` (the accent as text on white). */
export function accentColours(hex: string): { onAccent: string; accentText: string } {
  const accent = parse(hex);
  const onAccent = contrast(accent, WHITE) >= contrast(accent, INK) ? WHITE : INK;
  let text = accent;
  // darken step by step towards black until it reads on white (black itself does: 21:1)
  for (let i = 0; i < 20 && contrast(text, WHITE) < 4.5; i++) text = text.map((c) => c * 0.9) as Rgb;
  return { onAccent: css(onAccent), accentText: css(text) };
}
