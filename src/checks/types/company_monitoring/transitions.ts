import type { Transition } from '../../check-type.ts';

/**
 * company_monitoring (reference: "Transitions for company_monitoring: not shown"; ours,
 * docs/sandbox.md "company monitoring"). The registry data the company was created from is the
 * baseline, so the check starts approved; a monitoring run that finds a change asks for a review.
 * A run that finds nothing changes nothing. Review and expiry rows are the common ones.
 */
export const COMPANY_MONITORING_TRANSITIONS: readonly Transition[] = [
  {
    from: null,
    trigger: 'create',
    to: 'approved',
    condition: 'the workspace monitors companies and the company is linked to its registry record',
    also: 'result approved; reviewer_type system; the registry profile of the link is the baseline',
  },
  {
    from: 'approved',
    trigger: 'registry_change',
    to: 'need_review',
    condition:
      "a monitoring run found a change of status, name, address, officers (or an officer's position) or owners (or an owner's roles, ownership or voting rights)",
    also: 'data.changes holds old/new per field, added/removed/changed officers and owners',
  },
  {
    from: 'rejected',
    trigger: 'registry_change',
    to: 'need_review',
    condition: 'a monitoring run found a change',
  },
  {
    from: 'expired',
    trigger: 'registry_change',
    to: 'need_review',
    condition: 'a monitoring run found a change',
  },
  {
    from: 'need_review',
    trigger: 'registry_change',
    to: 'need_review',
    condition: 'a further change before the review',
    also: 'data.changes holds every difference since the state last reviewed (the unreviewed earlier changes stay, the latest values as new); no new event (the status is unchanged)',
  },
  ...(['approved', 'rejected', 'expired'] as const).map(
    (to): Transition => ({
      from: 'need_review',
      trigger: 'registry_change_undone',
      to,
      condition: `every change awaiting review was undone in the registry before the review, and the check was ${to} when the first of them asked for it`,
      also: 'data back to what it was then (its result, review and changes); no review is left to do',
    }),
  ),
];
