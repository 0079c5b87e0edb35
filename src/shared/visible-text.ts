/**
 * Whether a text shows anything: at least one character that is neither white space nor an
 * invisible format character (`\p{Cf}`: zero-width space U+200B, zero-width joiners, the BOM, soft
 * hyphens, direction marks...). A name of such characters passes `trim()`, then names a company by
 * something nobody can read.
 */
export const hasVisibleText = (v: string | undefined): v is string =>
  v !== undefined && /[^\s\p{Cf}]/u.test(v);
