import type { Transition } from '../../check-type.ts';

/**
 * The aml check's lifecycle (reference: "Transitions for aml: not shown"; ours, docs/sandbox.md "aml").
 * Review and expiry rows are the common ones (src/checks/common-transitions.ts).
 */
export const AML_TRANSITIONS: readonly Transition[] = [
  {
    from: null,
    trigger: 'create',
    to: 'processing',
    condition: 'always',
    also: 'screening job enqueued after the sandbox delay',
  },
  {
    from: 'processing',
    trigger: 'screening_result',
    to: 'approved',
    condition: 'no hit',
    also: 'match_status no_match; reviewer_type system',
  },
  {
    from: 'processing',
    trigger: 'screening_result',
    to: 'need_review',
    condition: 'at least one hit',
    also: 'match_status potential_match; every hit potential_match',
  },
  {
    from: 'processing',
    trigger: 'screening_error',
    to: 'need_review',
    condition: 'no list loaded, none holding any of settings.list_types, or the screening failed',
    also: 'result error; match_status potential_match with no hit (nothing was screened); review.comment says nothing was screened',
  },
  {
    from: 'approved',
    trigger: 'monitoring_update',
    to: 'need_review',
    condition:
      'monitored; a list version change brought a hit to decide again: new, removed, or a false positive the listing now fits better',
  },
  {
    from: 'rejected',
    trigger: 'monitoring_update',
    to: 'need_review',
    condition:
      'monitored; a list version change brought a hit to decide again: new, removed, or a false positive the listing now fits better',
  },
  {
    from: 'need_review',
    trigger: 'monitoring_update',
    to: 'need_review',
    condition:
      'monitored; a list version change brought a hit to decide again: new, removed, or a false positive the listing now fits better',
    also: 'Check.ReviewNeeded emitted again',
  },
  {
    from: 'need_review',
    trigger: 'monitoring_update',
    to: 'approved',
    condition: 'monitored; the check had result error (no list) and the re-screening finds no hit',
    also: 'reviewer_type system',
  },
];
