import { Type } from 'typebox';
import { DateOnly, DateOrDateTime, DateTime, Nullable, Uuid } from '../http/common-schemas.ts';
import { NullableNestedUser } from '../users/nested-user.ts';

export const ReviewerType = Type.Enum(['user', 'system', 'api']);

export const CaseReview = Type.Object({
  id: Uuid,
  status: Type.Enum(['approved', 'rejected', 'closed']),
  comment: Nullable(Type.String()),
  reviewer_type: ReviewerType,
  user: NullableNestedUser,
  reviewed_at: DateTime,
  next_review_at: Nullable(DateOnly),
});

/** One body for the three variants, each with an optional comment and next_review_at (the spec). */
export const CaseReviewCreate = Type.Object({
  status: Type.Enum(['approved', 'rejected', 'closed']),
  comment: Type.Optional(Type.String({ maxLength: 10_000 })),
  reviewed_at: Type.Optional(DateTime),
  next_review_at: Type.Optional(Nullable(DateOrDateTime)),
});
