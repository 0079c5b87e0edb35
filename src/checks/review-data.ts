import { Type } from 'typebox';
import { Nullable } from '../http/common-schemas.ts';
import { NullableNestedUser } from '../users/nested-user.ts';

/**
 * `data.review` of a check (the reference's Review): who decided, when, and why. Every check type
 * carries it; the engine's review and the types' automatic decisions write it.
 */
export const CheckReview = Type.Object({
  comment: Nullable(Type.String()),
  reviewed_at: Nullable(Type.String()),
  reviewer_type: Nullable(Type.Enum(['user', 'system', 'api'])),
  user: NullableNestedUser,
});

/** No decision yet. A new object each time: callers put it into check data they then modify. */
export const emptyReview = () => ({ comment: null, reviewed_at: null, reviewer_type: null, user: null });

/** An automatic decision, recorded as made by the system now. */
export const systemReview = (comment: string | null = null, at: Date = new Date()) => ({
  comment,
  reviewed_at: at.toISOString(),
  reviewer_type: 'system' as const,
  user: null,
});

/**
 * No decision yet, and why a person must look (`data.review.comment`: the console and API users
 * read it). `off`: the automatic rule that would have decided is switched off. The frame is one the
 * console translates (web/console/features/checks/automatic-comments.ts); the reason names the
 * match or the provider's reason.
 */
export const reviewNeeded = (reason: string, off?: 'automatic_approval' | 'automatic_rejection') => ({
  comment: off ? `Needs a review (${off} is off): ${reason}` : `Needs a review: ${reason}`,
  reviewed_at: null,
  reviewer_type: null,
  user: null,
});
