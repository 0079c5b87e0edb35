import { hasVisibleText } from './visible-text.ts';

/**
 * A free-text comment as stored (a review's, an AML hit review's, a risk assessment's): what was
 * written, or null when it was nothing but blanks (a comment of spaces said nothing, yet showed as
 * one in the console and the reports), invisible characters included (a lone U+200B satisfied a
 * mandatory review comment).
 */
export function commentOrNull(comment: string | null | undefined): string | null {
  return hasVisibleText(comment) ? comment : null;
}
