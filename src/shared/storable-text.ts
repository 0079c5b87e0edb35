/**
 * Text as PostgreSQL can store it: NUL characters (which it refuses, in text and in jsonb) and lone
 * surrogates replaced by U+FFFD. A client's text in the audit log (a NUL in a path segment...) and a
 * webhook receiver's answer (a binary or compressed body) both carry them.
 */
export const storableText = (v: string): string =>
  (v.replaceAll('\u0000', '\ufffd') as string & { toWellFormed(): string }).toWellFormed();
