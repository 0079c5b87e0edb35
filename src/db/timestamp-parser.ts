/**
 * A `timestamptz` column's text as the database sends it to a UTC session
 * (`2026-11-28 08:01:17.017+00`, 0 to 6 fraction digits) read into a Date by arithmetic on its
 * characters. node-postgres's parser (postgres-date) runs a regular expression, `parseInt` per field
 * and `parseFloat` for the fraction, PGlite's hands the text to V8's legacy date parser: about four
 * times the cost, and a list page reads sixty of them (docs/performance.md, "Lists"). Anything else
 * (another session time zone, a year before 1000 or after 9999, BC, infinity) goes to the driver's
 * own parser, so the result is always the driver's: the same instant, milliseconds truncated as
 * both drivers truncate them (checked against both for every fraction, test/timestamp-parser.test.ts).
 */
export function timestampParser<T>(fallback: (text: string) => T): (text: string) => Date | T {
  return (text) => parseUtcTimestamp(text) ?? fallback(text);
}

const ZERO = 48;

/** The Date of `YYYY-MM-DD HH:MM:SS[.f{1,6}]+00` with YYYY >= 1000, or null for any other text. */
export function parseUtcTimestamp(text: string): Date | null {
  const n = text.length;
  // 22 characters without a fraction, 24 to 29 with one
  if (n < 22 || n > 29 || n === 23) return null;
  if (
    text.charCodeAt(n - 3) !== 43 /* + */ ||
    text.charCodeAt(n - 2) !== ZERO ||
    text.charCodeAt(n - 1) !== ZERO ||
    text.charCodeAt(4) !== 45 /* - */ ||
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 32 /* space */ ||
    text.charCodeAt(13) !== 58 /* : */ ||
    text.charCodeAt(16) !== 58 ||
    (n > 22 && text.charCodeAt(19) !== 46) /* . */
  )
    return null;
  let ms = 0;
  for (let i = 20, scale = 100; i < n - 3; i++, scale /= 10) {
    const digit = text.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) return null;
    if (scale >= 1) ms += digit * scale;
  }
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (year < 1000 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return null;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms));
}

/** The number written by `length` decimal digits at `start`, or -1 if one is not a digit. */
function digits(text: string, start: number, length: number): number {
  let value = 0;
  for (let i = start; i < start + length; i++) {
    const digit = text.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}
