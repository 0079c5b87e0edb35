/**
 * A free-text comment as stored (a review's, an AML hit review's, a risk assessment's): what was
 * written, or null when it was nothing but blanks (a comment of spaces said nothing, yet showed as
 * one in the console and the reports).
 */
export function commentOrNull(comment: string | null | undefined): string | null {
  return comment?.trim() ? comment : null;
}
