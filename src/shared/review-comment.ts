/**
 * A review's comment as stored: what the reviewer wrote, or null when they wrote nothing but
 * blanks (a comment of spaces said nothing, yet showed as one in the console and the reports).
 */
export function reviewComment(comment: string | null | undefined): string | null {
  return comment?.trim() ? comment : null;
}
