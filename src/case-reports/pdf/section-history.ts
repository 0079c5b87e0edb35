import { entityNames, type ReportData, TIMELINE_LIMIT } from '../load-report-data.ts';
import { join, show, words } from './format.ts';
import { htmlToText } from './html-text.ts';
import type { PdfWriter } from './writer.ts';

type Time = (v: Date | string | null) => string;

/** Case reviews, notes with their comments. */
export function reviewsAndNotesSection(w: PdfWriter, d: ReportData, time: Time): void {
  w.heading(`Case reviews (${d.reviews.length})`);
  if (!d.reviews.length) w.text('No review.', { grey: true });
  for (const r of d.reviews) {
    w.text(
      join(
        [
          time(r.reviewed_at),
          words(r.status),
          `by ${(r.user_id && d.users.get(r.user_id)) || r.reviewer_type}`,
          r.next_review_at && `next review ${r.next_review_at}`,
        ],
        ' · ',
      ),
      { bold: true },
    );
    if (r.comment) w.text(r.comment, { indent: 12 });
  }

  w.heading(`Notes (${d.notes.length})`);
  if (!d.notes.length) w.text('No note.', { grey: true });
  for (const n of d.notes) {
    w.text(`${time(n.created_at)} · ${author(d, n)}`, { bold: true });
    w.text(htmlToText(n.content), { indent: 12 });
    for (const c of n.comments) {
      w.text(`${time(c.created_at)} · ${author(d, c)} commented:`, { indent: 24, grey: true });
      w.text(htmlToText(c.content), { indent: 24 });
    }
    w.gap(4);
  }
}

/** Who wrote a note or comment: the user by name when it was one, else the author type (api...). */
function author(d: ReportData, n: { author_type: string; author_id?: string | null }): string {
  return (n.author_type === 'user' && n.author_id && d.users.get(n.author_id)) || n.author_type;
}

/**
 * `api__approved__check` → `API approved check (ekyc)`; `updated_status__case` → `updated case
 * status`; a user's activity names the user (`User Jane Doe <jane@…> approved check (aml)`).
 */
function activityText(d: ReportData, e: ReportData['events'][number], names: Map<string, string>): string {
  if (!e.activity_type) return e.type;
  const [actor, verb, subject] = e.activity_type.split('__');
  const client = e.actor_type === 'contact' ? contactSentence(e, verb, names) : null;
  if (client) return client;
  const user = actor === 'user' && e.actor_id ? d.users.get(e.actor_id) : undefined;
  const who =
    actor === 'api' ? 'API' : `${actor.charAt(0).toUpperCase()}${actor.slice(1)}${user ? ` ${user}` : ''}`;
  const [action, ...what] = verb.split('_');
  const thing = [words(subject), ...what].join(' ');
  return `${who} ${action} ${thing}${e.check_type ? ` (${words(e.check_type)})` : ''}`;
}

/**
 * What a client did through the portal, as the console's timeline says it: the reference files a
 * signature's decision as the system's approval or rejection with the contact as author, and a step
 * sent (first or again) as `contact__started__check`. The client is named (author_id is the individual).
 */
function contactSentence(
  e: ReportData['events'][number],
  verb: string,
  names: Map<string, string>,
): string | null {
  const who = `${(e.actor_id && names.get(e.actor_id)) || 'The client'} (client)`;
  if (e.check_type === 'electronic_signature' && verb === 'approved') return `${who} signed the document`;
  if (e.check_type === 'electronic_signature' && verb === 'rejected')
    return `${who} declined to sign the document`;
  if (verb === 'started')
    return `${who} sent the files of a check${e.check_type ? ` (${words(e.check_type)})` : ''}`;
  return null;
}

/** The case's activities, oldest first (the most recent TIMELINE_LIMIT of them). */
export function timelineSection(w: PdfWriter, d: ReportData, time: Time): void {
  const names = entityNames(d);
  w.heading(`Activity (${d.eventsTotal})`);
  if (d.eventsTotal > d.events.length) {
    w.text(`The ${TIMELINE_LIMIT} most recent of ${d.eventsTotal} activities.`, { grey: true });
  }
  if (!d.events.length) w.text('No activity.', { grey: true });
  for (const e of d.events) {
    const subject = names.get(e.company_id ?? e.individual_id ?? '');
    w.text(join([time(e.created_at), activityText(d, e, names), subject && show(subject)], ' · '));
  }
}
