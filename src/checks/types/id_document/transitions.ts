import type { Transition } from '../../check-type.ts';
import { FORCE_REVIEW_TRANSITION } from '../../common-transitions.ts';

/**
 * id_document rows of the spec's "Check transitions shown", as data. Triggers name what happens:
 * `create`, `submit` (images sent to the provider), `provider_result`, `provider_refusal`,
 * `automatic_rejection` (the third one in a row), `add_files`, `force_review`.
 */
export const ID_DOCUMENT_TRANSITIONS: readonly Transition[] = [
  { from: null, trigger: 'create', to: 'in_progress', condition: 'no front image', also: 'waits for images' },
  {
    from: null,
    trigger: 'create',
    to: 'processing',
    condition: 'front image given at creation',
    also: 'submitted to the provider at once (the in_progress → processing row, in one step)',
  },
  { from: 'in_progress', trigger: 'submit', to: 'processing', condition: 'images received and submitted' },
  {
    from: 'processing',
    trigger: 'provider_result',
    to: 'approved',
    condition: 'approved and automatic_approval true',
    also: 'reviewer recorded as system',
  },
  {
    from: 'processing',
    trigger: 'provider_result',
    to: 'rejected',
    condition: 'rejected and automatic_rejection true',
    also: 'reviewer recorded as system',
  },
  {
    from: 'processing',
    trigger: 'provider_result',
    to: 'rejected',
    condition: 'approved but data comparison failed, automatic_rejection true',
    also: 'reviewer recorded as system',
  },
  {
    from: 'processing',
    trigger: 'provider_result',
    to: 'need_review',
    condition: 'no result, or the matching automatic setting false',
  },
  {
    from: 'processing',
    trigger: 'provider_result',
    to: 'need_review',
    condition: 'provider error (our decision: data.result error, a person decides)',
  },
  {
    from: 'processing',
    trigger: 'provider_refusal',
    to: 'rejected',
    condition: 'automatic_rejection true',
    also: 'vendor.comment: the upload could not be processed, or the file exceeds the maximum size',
  },
  {
    from: 'processing',
    trigger: 'provider_refusal',
    to: 'need_review',
    condition: 'automatic_rejection false',
    also: 'same comments',
  },
  {
    from: 'processing',
    trigger: 'automatic_rejection',
    to: 'need_review',
    condition: 'the two preceding submissions on the same check were both rejected automatically',
    also: 'automatic_rejection disregarded',
  },
  {
    from: 'in_progress',
    trigger: 'add_files',
    to: 'in_progress',
    also: 'images attached to the current attempt (then submitted: in_progress → processing)',
  },
  {
    from: 'rejected',
    trigger: 'add_files',
    to: 'processing',
    also: 'new attempt opened, previous attempt moved to check history, Check.Started emitted again, check id unchanged',
  },
  {
    from: 'expired',
    trigger: 'add_files',
    to: 'processing',
    also: 'new attempt opened, previous attempt moved to check history, Check.Started emitted again, check id unchanged',
  },
  FORCE_REVIEW_TRANSITION,
];
