import type { Transition } from '../../check-type.ts';

/** eKYC resolves synchronously at creation (spec: "Check transitions shown"). */
export const EKYC_TRANSITIONS: readonly Transition[] = [
  {
    from: null,
    trigger: 'create',
    to: 'approved',
    condition: 'decision match, automatic_approval true',
    also: 'synchronous',
  },
  { from: null, trigger: 'create', to: 'need_review', condition: 'decision match, automatic_approval false' },
  {
    from: null,
    trigger: 'create',
    to: 'rejected',
    condition: 'decision inconsistent, automatic_rejection true',
  },
  {
    from: null,
    trigger: 'create',
    to: 'need_review',
    condition: 'decision inconsistent, automatic_rejection false',
  },
  { from: null, trigger: 'create', to: 'need_review', condition: 'decision inconclusive (never automatic)' },
];
