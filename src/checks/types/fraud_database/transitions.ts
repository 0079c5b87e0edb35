import type { Transition } from '../../check-type.ts';

/** fraud_database resolves synchronously at creation: the list is searched in the request. */
export const FRAUD_DATABASE_TRANSITIONS: readonly Transition[] = [
  {
    from: null,
    trigger: 'create',
    to: 'approved',
    condition: 'no match, automatic_approval true',
    also: 'synchronous',
  },
  { from: null, trigger: 'create', to: 'need_review', condition: 'no match, automatic_approval false' },
  { from: null, trigger: 'create', to: 'need_review', condition: 'a match, automatic_rejection false' },
  { from: null, trigger: 'create', to: 'rejected', condition: 'a match, automatic_rejection true' },
  {
    from: null,
    trigger: 'create',
    to: 'need_review',
    condition: 'the entity has no identifier to search (never automatic)',
  },
];
