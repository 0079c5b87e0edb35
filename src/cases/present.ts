import type { CaseRow } from '../db/schema.ts';
import { iso, isoOrNull } from '../shared/time.ts';

// biome-ignore lint/suspicious/noExplicitAny: stored JSON snapshots, shaped by their own presenters
type Json = any;

/** The case object of lists, updates and webhook payloads. */
export function presentCase(c: CaseRow) {
  return {
    id: c.id,
    name: c.name,
    status: c.status as 'draft' | 'open' | 'approved' | 'rejected' | 'closed',
    review: (c.review as Json) ?? null,
    external_id: c.external_id,
    assignee_id: c.assignee_id,
    space_slug: c.space_slug,
    template: c.template_id
      ? ((c.template as { id: string; name: string; key: string } | null) ?? null)
      : null,
    template_id: c.template_id,
    contact_has_actions: c.contact_has_actions,
    reviewer_has_actions: c.reviewer_has_actions,
    flags: c.flags,
    tags: c.tags,
    risk: (c.risk as Json) ?? null,
    metadata: c.metadata ?? null,
    custom_properties: c.custom_properties ?? {},
    next_review_at: c.next_review_at,
    last_activity_at: iso(c.last_activity_at),
    last_contact_action_at: isoOrNull(c.last_contact_action_at),
    created_at: iso(c.created_at),
    updated_at: iso(c.updated_at),
  };
}
