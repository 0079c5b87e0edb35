import type { Transition } from '../../check-type.ts';

/**
 * electronic_signature's transitions, as data. Triggers: `create`; `sign` (the signer signed in the
 * portal with a valid one-time code); `decline` (the signer declined, with a reason); review and
 * expiry are the common rows. Starting the request in the portal changes data only, not the status.
 */
export const ELECTRONIC_SIGNATURE_TRANSITIONS: readonly Transition[] = [
  {
    from: null,
    trigger: 'create',
    to: 'in_progress',
    condition: 'the template exists, is of kind electronic_signature and has a published version',
    also: 'signature_link null: the request starts when the signer reaches the client portal',
  },
  {
    from: 'in_progress',
    trigger: 'sign',
    to: 'approved',
    condition: 'signed with a valid one-time code, automatic_approval true',
    also: 'data.information file_id, signed_file_id, audit_trail_id set; reviewer recorded as system',
  },
  {
    from: 'in_progress',
    trigger: 'sign',
    to: 'need_review',
    condition: 'signed with a valid one-time code, automatic_approval false',
    also: 'data.information file_id, signed_file_id, audit_trail_id set',
  },
  {
    from: 'in_progress',
    trigger: 'decline',
    to: 'rejected',
    condition: 'the signer declined in the portal',
    also: 'the reason is the review comment (reviewer_type system)',
  },
];
