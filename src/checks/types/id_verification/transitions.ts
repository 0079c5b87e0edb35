import type { Transition } from '../../check-type.ts';
import { FORCE_REVIEW_TRANSITION } from '../../common-transitions.ts';

/**
 * id_verification's transitions, as data (the spec does not show them; ours). Triggers: `create`,
 * `submit` (the contact sends the capture through the client portal), `verifier_result` (the
 * worker's run), `force_review`; review and expiry are the common rows.
 */
export const ID_VERIFICATION_TRANSITIONS: readonly Transition[] = [
  {
    from: null,
    trigger: 'create',
    to: 'in_progress',
    also: 'a check-scoped portal link is issued (data.vendor.verification_url)',
  },
  {
    from: 'in_progress',
    trigger: 'submit',
    to: 'processing',
    condition: 'the contact submitted the document front and a selfie in the portal',
    also: 'files attached, vendor.started_at set, verification queued',
  },
  {
    from: 'rejected',
    trigger: 'submit',
    to: 'processing',
    condition: 'the contact submitted a new capture after a rejection',
    also: 'new attempt opened, previous attempt moved to the check history, Check.Started emitted again',
  },
  {
    from: 'processing',
    trigger: 'verifier_result',
    to: 'approved',
    condition: 'every verification passed, automatic_approval true, mode auto or default',
    also: 'reviewer recorded as system',
  },
  {
    from: 'processing',
    trigger: 'verifier_result',
    to: 'rejected',
    condition: 'a verification failed, automatic_rejection true, mode not expert or certified',
    also: 'reviewer recorded as system',
  },
  {
    from: 'processing',
    trigger: 'verifier_result',
    to: 'need_review',
    condition:
      'undecided (no MRZ, a face distance in the grey zone), an error, the matching automatic setting false, or a mode that sends results to a person',
  },
  FORCE_REVIEW_TRANSITION,
];
