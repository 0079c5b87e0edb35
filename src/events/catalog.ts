/**
 * The event catalog: the names webhooks can subscribe to, and how a recorded event maps onto the
 * delivered `{event, sub_event}` pair.
 *
 * Sub-events belong to an `X.Updated` family: a change recorded as `Case.Updated` with sub_event
 * `Case.StatusUpdated` (or, equivalently, recorded directly as `Case.StatusUpdated`) is delivered as
 * `{event: 'Case.Updated', sub_event: 'Case.StatusUpdated'}` to subscribers of either name.
 */

/** Sub-event → its family event. */
export const SUB_EVENT_FAMILY: Readonly<Record<string, string>> = {
  'Case.AssigneeUpdated': 'Case.Updated',
  'Case.ContactHasActionsUpdated': 'Case.Updated',
  'Case.FlagsUpdated': 'Case.Updated',
  'Case.InfoUpdated': 'Case.Updated',
  'Case.MetadataUpdated': 'Case.Updated',
  'Case.RelationsUpdated': 'Case.Updated',
  'Case.ReviewerHasActionsUpdated': 'Case.Updated',
  'Case.RiskUpdated': 'Case.Updated',
  'Case.StatusUpdated': 'Case.Updated',
  'Case.TagsUpdated': 'Case.Updated',
  'Case.TemplateUpdated': 'Case.Updated',
  'Company.InfoUpdated': 'Company.Updated',
  'Company.MarkedAsNotRelevant': 'Company.Updated',
  'Company.MarkedAsRelevant': 'Company.Updated',
  'Individual.InfoUpdated': 'Individual.Updated',
  'Individual.MarkedAsNotRelevant': 'Individual.Updated',
  'Individual.MarkedAsRelevant': 'Individual.Updated',
};

/** Top-level events (the `event` field of a delivery). */
export const TOP_LEVEL_EVENTS = [
  'AutonomyChatRun.Completed',
  'AutonomyChatRun.Failed',
  'Case.ClientPortalWaitStepTriggered',
  'Case.Created',
  'Case.Deleted',
  'Case.ReviewConfirmed',
  'Case.ReviewDue',
  'Case.ReviewUpdated',
  'Case.Updated',
  'CaseReport.Generated',
  'Check.Approved',
  'Check.Deleted',
  'Check.Expired',
  'Check.Rejected',
  'Check.ReviewNeeded',
  'Check.Started',
  'Company.Created',
  'Company.Deleted',
  'Company.Updated',
  'DocumentOrder.Completed',
  'DocumentOrder.Failed',
  'Individual.Created',
  'Individual.Deleted',
  'Individual.Updated',
  'Note.Created',
  'Note.Deleted',
  'Note.Updated',
  'NoteComment.Created',
  'NoteComment.Deleted',
  'NoteComment.Updated',
] as const;

/** Every subscribable event name (top-level and sub-events), sorted. */
export const EVENT_NAMES: readonly string[] = [...TOP_LEVEL_EVENTS, ...Object.keys(SUB_EVENT_FAMILY)].sort();

/** Wildcards: `*` (everything) and `<Family>.*` (every event of one entity kind, sub-events included). */
export const EVENT_WILDCARDS: readonly string[] = [
  '*',
  ...[...new Set(EVENT_NAMES.map((n) => n.split('.')[0]))].sort().map((f) => `${f}.*`),
];

/**
 * Names no longer sent, still accepted in a subscription for the one sent in their place. Custom
 * property changes were once delivered as `Case.CustomPropertiesUpdated`, a sub-event the
 * reference does not have (a client validating `sub_event` against its enumeration refused them);
 * they are `Case.InfoUpdated` now, and events recorded under the old name are delivered so too.
 */
const RENAMED_SUB_EVENTS: Readonly<Record<string, string>> = {
  'Case.CustomPropertiesUpdated': 'Case.InfoUpdated',
};

/** Every name a client may give for one event: the names sent, and the renamed ones. */
export const ACCEPTED_EVENT_NAMES: readonly string[] = [
  ...EVENT_NAMES,
  ...Object.keys(RENAMED_SUB_EVENTS),
].sort();

export const SUBSCRIBABLE: readonly string[] = [...EVENT_WILDCARDS, ...ACCEPTED_EVENT_NAMES];

/**
 * The names a webhook log's `event` may hold for a name a client asks for: an event and its
 * sub-events (`Case.Updated` → itself, `Case.StatusUpdated`, ...), as a subscription to it receives them.
 */
export function loggedNamesOf(name: string): string[] {
  return [name, ...Object.keys(SUB_EVENT_FAMILY).filter((sub) => SUB_EVENT_FAMILY[sub] === name)];
}

export interface DeliveredName {
  event: string;
  sub_event: string | null;
}

/** The delivered `{event, sub_event}` of a recorded event. */
export function deliveredName(type: string, subEvent: string | null | undefined): DeliveredName {
  if (subEvent) return { event: type, sub_event: RENAMED_SUB_EVENTS[subEvent] ?? subEvent };
  const family = SUB_EVENT_FAMILY[type];
  return family ? { event: family, sub_event: type } : { event: type, sub_event: null };
}

/**
 * Events recorded as activities only, never delivered (recordEvents puts no outbox row): the
 * reference lists AML hit reviews among activities but has no webhook event for them. A contact's
 * first submission through the portal (`ClientPortal.CheckSent`: the check goes from in_progress
 * to processing, the same start, so no second Check.Started is delivered) is the activity
 * `contact__started__check`, as a retry sent through the portal is.
 */
export const ACTIVITY_ONLY_EVENTS: ReadonlySet<string> = new Set([
  'AmlHit.Confirmed',
  'AmlHit.Ignored',
  'ClientPortal.CheckSent',
]);

/** Whether a webhook subscribed to `subscriptions` receives this event. */
export function subscribes(subscriptions: readonly string[], name: DeliveredName): boolean {
  // not even `*`: a replay reads every recorded event, these included
  if (ACTIVITY_ONLY_EVENTS.has(name.event)) return false;
  const family = name.event.split('.')[0];
  for (const s of subscriptions) {
    if (s === '*' || s === name.event || s === `${family}.*`) return true;
    if (name.sub_event && (s === name.sub_event || RENAMED_SUB_EVENTS[s] === name.sub_event)) return true;
  }
  return false;
}
