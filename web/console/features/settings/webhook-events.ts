/**
 * The events the webhook form offers, by family, in the order shown. Typed against the API's own
 * enumeration (`events` of POST /v1/webhooks): a name the API drops fails the console's type check,
 * and so does a new one until it is placed here or in NOT_OFFERED.
 */
import type { Body } from './common.tsx';

export type EventName = Body<'/v1/webhooks', 'post'>['events'][number];

export const EVENT_FAMILIES = [
  {
    family: 'Case',
    events: [
      'Case.Created',
      'Case.Updated',
      'Case.InfoUpdated',
      'Case.StatusUpdated',
      'Case.AssigneeUpdated',
      'Case.MetadataUpdated',
      'Case.TagsUpdated',
      'Case.TemplateUpdated',
      'Case.RiskUpdated',
      'Case.RelationsUpdated',
      'Case.FlagsUpdated',
      'Case.ContactHasActionsUpdated',
      'Case.ReviewerHasActionsUpdated',
      'Case.ReviewConfirmed',
      'Case.ReviewDue',
      'Case.ClientPortalWaitStepTriggered',
      'Case.Deleted',
    ],
  },
  {
    family: 'Check',
    events: [
      'Check.Started',
      'Check.ReviewNeeded',
      'Check.Approved',
      'Check.Rejected',
      'Check.Expired',
      'Check.Deleted',
    ],
  },
  {
    family: 'Company',
    events: [
      'Company.Created',
      'Company.Updated',
      'Company.InfoUpdated',
      'Company.MarkedAsRelevant',
      'Company.MarkedAsNotRelevant',
      'Company.Deleted',
    ],
  },
  {
    family: 'Individual',
    events: [
      'Individual.Created',
      'Individual.Updated',
      'Individual.InfoUpdated',
      'Individual.MarkedAsRelevant',
      'Individual.MarkedAsNotRelevant',
      'Individual.Deleted',
    ],
  },
  { family: 'CaseReport', events: ['CaseReport.Generated'] },
  { family: 'DocumentOrder', events: ['DocumentOrder.Completed', 'DocumentOrder.Failed'] },
  { family: 'Note', events: ['Note.Created'] },
  { family: 'NoteComment', events: ['NoteComment.Created'] },
] as const satisfies readonly { family: string; events: readonly EventName[] }[];

/**
 * Names the API accepts that the form does not offer: never sent by this service (docs/webhooks.md)
 * or an old name of another. A webhook subscribed to one through the API keeps it when edited here.
 */
const NOT_OFFERED = [
  'AutonomyChatRun.*',
  'AutonomyChatRun.Completed',
  'AutonomyChatRun.Failed',
  'Case.ReviewUpdated',
  'Case.CustomPropertiesUpdated',
  'Note.Updated',
  'Note.Deleted',
  'NoteComment.Updated',
  'NoteComment.Deleted',
] as const satisfies readonly EventName[];

export type Family = (typeof EVENT_FAMILIES)[number]['family'];
type Offered =
  | '*'
  | `${Family}.*`
  | (typeof EVENT_FAMILIES)[number]['events'][number]
  | (typeof NOT_OFFERED)[number];
// every name of the API's enumeration is offered or deliberately not (a compile-time check)
const everyNamePlaced: Exclude<EventName, Offered> extends never ? true : false = true;
void everyNamePlaced;

/** The form's state → the body's `events`: `*` alone, a family's wildcard instead of its names. */
export function normaliseEvents(chosen: ReadonlySet<string>): EventName[] {
  if (chosen.has('*')) return ['*'];
  const out: string[] = [];
  for (const name of chosen) {
    const family = name.split('.')[0];
    if (!name.endsWith('.*') && chosen.has(`${family}.*`)) continue;
    out.push(name);
  }
  return out as EventName[];
}

/** The names of `chosen` the form has no box for (kept as they are). */
export function notOffered(chosen: Iterable<string>): string[] {
  const offered = new Set<string>(['*', ...EVENT_FAMILIES.flatMap((f) => [`${f.family}.*`, ...f.events])]);
  return [...chosen].filter((n) => !offered.has(n));
}
