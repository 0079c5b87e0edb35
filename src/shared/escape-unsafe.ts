/**
 * A client's text as an error message may quote it: control characters, bidirectional overrides and
 * lone surrogates written as \uXXXX escapes, so a refused key or file name can neither hide part of
 * the message, reorder it on screen, nor break a log line; over `max` characters it is cut with "…".
 */
export function escapeUnsafe(text: string, max = Number.POSITIVE_INFINITY): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return cut.replace(
    // with the u flag a surrogate pair is one code point: only lone halves match
    // biome-ignore lint/suspicious/noControlCharactersInRegex: escaping control characters is its job
    /[\u0000-\u001F\u007F\u202D\u202E\uD800-\uDFFF]/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
