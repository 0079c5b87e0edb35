import { ACTIVITY_TYPES, type ActivityType } from './activity-types.ts';

/** Who caused an event: an API key, the engine itself, a console user, a portal contact. */
export type ActorType = 'api' | 'system' | 'user' | 'contact';

/**
 * Recorded event name (the sub-event when there is one) → the reference's `{verb}__{subject}`.
 * Events not listed have no activity in the reference and are not shown as activities:
 * Case.FlagsUpdated, Case.ReviewerHasActionsUpdated, Case.ContactHasActionsUpdated, Case.ReviewDue,
 * Note.*, NoteComment.*. Case.TagsUpdated has no verb of its own: the reference splits it into
 * added and removed tags, so the code recording it says which (DomainEvent.activity).
 */
const VERB_OF: Readonly<Record<string, string>> = {
  'Case.Created': 'created__case',
  'Case.InfoUpdated': 'updated_info__case',
  // custom properties are edited with the case's information in the reference; events recorded
  // before they were sent as Case.InfoUpdated carry the old name
  'Case.CustomPropertiesUpdated': 'updated_info__case',
  'Case.StatusUpdated': 'updated_status__case',
  'Case.TemplateUpdated': 'updated_template__case',
  'Case.AssigneeUpdated': 'updated_assignee__case',
  'Case.MetadataUpdated': 'updated_metadata__case',
  'Case.RiskUpdated': 'updated_risk__case',
  'Case.ReviewUpdated': 'updated_review__case',
  'Case.ReviewConfirmed': 'confirmed_review__case',
  'Case.Deleted': 'deleted__case',
  'Case.RelationsUpdated': 'updated__case_relation',
  'Company.Created': 'created__company',
  'Company.InfoUpdated': 'updated__company',
  'Company.MarkedAsRelevant': 'marked_as_relevant__company',
  'Company.MarkedAsNotRelevant': 'marked_as_not_relevant__company',
  'Company.Deleted': 'deleted__company',
  'Individual.Created': 'created__individual',
  'Individual.InfoUpdated': 'updated__individual',
  'Individual.MarkedAsRelevant': 'marked_as_relevant__individual',
  'Individual.MarkedAsNotRelevant': 'marked_as_not_relevant__individual',
  'Individual.Deleted': 'deleted__individual',
  'Check.Started': 'started__check',
  'Check.ReviewNeeded': 'set_review_needed__check',
  'Check.Approved': 'approved__check',
  'Check.Rejected': 'rejected__check',
  'Check.Expired': 'expired__check',
  'Check.Deleted': 'deleted__check',
  // activities only (no webhook event: ACTIVITY_ONLY_EVENTS)
  'AmlHit.Confirmed': 'confirmed__aml_hit',
  'AmlHit.Ignored': 'ignored__aml_hit',
  // a contact's first submission of a check through the portal (contact__started__check)
  'ClientPortal.CheckSent': 'started__check',
};

const KNOWN: ReadonlySet<string> = new Set(ACTIVITY_TYPES);

/**
 * The activity an event is, or null: `{actor}__{verb}`, kept only when the reference has that
 * combination (it has no `system__created__case`, for instance).
 */
export function activityTypeOf(
  type: string,
  subEvent: string | null,
  actor: ActorType,
  /** The verb when the event name does not tell it (tags added or removed). */
  verbOverride?: string | null,
): ActivityType | null {
  const verb = verbOverride ?? VERB_OF[subEvent ?? type];
  if (!verb) return null;
  const candidate = `${actor}__${verb}`;
  if (KNOWN.has(candidate)) return candidate as ActivityType;
  // what a contact's action decided (a signature signed or declined approves or rejects its check)
  // has no contact__ name in the reference: the service took the decision on it, as its system
  const bySystem = `system__${verb}`;
  return actor === 'contact' && KNOWN.has(bySystem) ? (bySystem as ActivityType) : null;
}
