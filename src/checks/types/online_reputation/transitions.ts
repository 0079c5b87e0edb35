import type { Transition } from '../../check-type.ts';

/** online_reputation (spec: "Check transitions shown"): asynchronous analysis of the company. */
export const ONLINE_REPUTATION_TRANSITIONS: readonly Transition[] = [
  {
    from: null,
    trigger: 'create',
    to: 'processing',
    condition: 'always',
    also: 'report empty until analysis ends',
  },
  { from: 'processing', trigger: 'analysis_ends', to: 'approved', condition: 'low or moderate risk' },
  {
    from: 'processing',
    trigger: 'analysis_ends',
    to: 'need_review',
    condition: 'high or prohibited risk, inconclusive, or no reading',
  },
];
