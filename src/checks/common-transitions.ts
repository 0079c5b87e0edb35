import type { CheckStatus, Transition } from './check-type.ts';

/** Statuses a manual review may start from. Decided ones change only with `override: true`. */
export const REVIEWABLE: readonly CheckStatus[] = [
  'in_progress',
  'processing',
  'need_review',
  'expired',
  'approved',
  'rejected',
];

/** Transitions shared by every type: manual review and expiration. */
export const COMMON_TRANSITIONS: readonly Transition[] = [
  ...REVIEWABLE.flatMap((from): Transition[] => [
    {
      from,
      trigger: 'review',
      to: 'approved',
      condition: from === 'approved' || from === 'rejected' ? 'override: true' : undefined,
      also: 'reviewer_type api',
    },
    {
      from,
      trigger: 'review',
      to: 'rejected',
      condition: from === 'approved' || from === 'rejected' ? 'override: true' : undefined,
      also: 'reviewer_type api',
    },
  ]),
  ...(['in_progress', 'processing', 'need_review', 'approved'] as const).map(
    (from): Transition => ({ from, trigger: 'expire', to: 'expired', condition: 'expiration date passed' }),
  ),
];

/** force_review: a document or id_document check stuck in processing goes to review. */
export const FORCE_REVIEW_TRANSITION: Transition = {
  from: 'processing',
  trigger: 'force_review',
  to: 'need_review',
};

export function findTransition(
  table: readonly Transition[],
  from: CheckStatus | null,
  trigger: string,
  to: CheckStatus,
): Transition | undefined {
  return table.find((t) => t.from === from && t.trigger === trigger && t.to === to);
}

/** The event a check emits when it enters a status. */
export const STATUS_EVENTS: Record<CheckStatus, string> = {
  in_progress: 'Check.Started',
  processing: 'Check.Started',
  need_review: 'Check.ReviewNeeded',
  approved: 'Check.Approved',
  rejected: 'Check.Rejected',
  expired: 'Check.Expired',
};
