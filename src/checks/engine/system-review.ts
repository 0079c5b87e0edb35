import type { CheckStatus } from '../check-type.ts';

/**
 * An automatic decision says why, where clients read a review: `data.review.comment` with reviewer
 * `system`. A type that knows its reason writes the comment itself; otherwise the provider's own
 * comment (`data.vendor.comment`) is used, and failing that the rule that decided.
 */
export function withSystemReviewReason(
  type: string,
  status: CheckStatus,
  data: Record<string, unknown>,
): Record<string, unknown> {
  const review = data.review as { reviewer_type?: unknown; comment?: unknown } | undefined;
  if (review?.reviewer_type !== 'system' || (review.comment ?? null) !== null) return data;
  if (status !== 'approved' && status !== 'rejected') return data;
  const vendorComment = (data.vendor as { comment?: unknown } | undefined)?.comment;
  const rule = status === 'approved' ? 'automatic_approval' : 'automatic_rejection';
  const comment =
    typeof vendorComment === 'string' && vendorComment.trim()
      ? `${status === 'approved' ? 'Approved' : 'Rejected'} automatically (${rule}): ${vendorComment}`
      : `${status === 'approved' ? 'Approved' : 'Rejected'} automatically by the ${type} check's ${rule} rule${
          typeof data.result === 'string' ? ` (result: ${data.result})` : ''
        }`;
  return { ...data, review: { ...review, comment } };
}
