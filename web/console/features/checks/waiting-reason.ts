/**
 * Why a check waits for a person, under "Why it waits for a review:": vericase writes it as "Needs a
 * review: <reason>" (src/checks/review-data.ts), so quoting it whole read "Why it waits for a review:
 * “Needs a review: the screening found 1 hit…”". The reason alone is quoted; a rule that is off
 * ("Needs a review (automatic_approval is off): …") is said after it. Anyone else's comment is
 * quoted as written.
 */
export function waitingReason(
  comment: string,
  reviewerType: unknown,
): { reason: string; ruleOff: string | null } {
  if (reviewerType !== 'system' && reviewerType != null) return { reason: comment, ruleOff: null };
  const off = /^Needs a review \((automatic_approval|automatic_rejection) is off\): ([\s\S]+)$/.exec(comment);
  if (off) return { reason: off[2] as string, ruleOff: off[1] as string };
  const plain = /^Needs a review: ([\s\S]+)$/.exec(comment);
  return { reason: plain ? (plain[1] as string) : comment, ruleOff: null };
}
