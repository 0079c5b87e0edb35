import type { CaseReviewRow } from '../db/schema.ts';
import { iso } from '../shared/time.ts';

export function presentCaseReview(r: CaseReviewRow) {
  return {
    id: r.id,
    status: r.status as 'approved' | 'rejected' | 'closed',
    comment: r.comment,
    reviewer_type: r.reviewer_type as 'user' | 'system' | 'api',
    user: null,
    reviewed_at: iso(r.reviewed_at),
    next_review_at: r.next_review_at,
  };
}
