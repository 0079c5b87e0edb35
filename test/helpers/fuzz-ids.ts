/**
 * The ids a fuzz run aims at: what one workspace's responses revealed (cases, companies,
 * individuals, relations, checks, notes, tags, templates, webhooks, uploads...), so that generated
 * requests mostly name resources that exist and reach the code behind the 404s.
 */

export interface IdEntry {
  id: string;
  /** The case the resource belongs to, when it has one (to keep a request's ids in one case). */
  caseId?: string;
}

/** Array keys of response bodies whose items are resources of a kind. */
const ARRAY_KINDS: Record<string, string> = {
  companies: 'companies',
  individuals: 'individuals',
  relations: 'relations',
  checks: 'checks',
  hits: 'hits',
  notes: 'notes',
  comments: 'comments',
  document_orders: 'company-data/document-orders',
};

/** Body property (create/update inputs) → the kind of id it names. */
export const PROPERTY_KINDS: Record<string, string> = {
  case_id: 'cases',
  company_id: 'companies',
  to_company_id: 'companies',
  from_company_id: 'companies',
  company_ids: 'companies',
  individual_id: 'individuals',
  from_individual_id: 'individuals',
  individual_ids: 'individuals',
  template_id: 'templates',
  template_key: 'template-keys',
  webhook_id: 'webhooks',
  note_id: 'notes',
  event_id: 'events',
  hit_id: 'hits',
  hit_ids: 'hits',
  front_upload_ref: 'uploads',
  back_upload_ref: 'uploads',
  upload_ref: 'uploads',
  front_file_id: 'files',
  back_file_id: 'files',
  file_ids: 'files',
  tags: 'tag-labels',
  business_contact_id: 'individuals',
  client_portal_id: 'client-portals',
  logo_upload_ref: 'uploads',
};

const MAX_PER_KIND = 200;

export class IdPool {
  private readonly byKind = new Map<string, IdEntry[]>();

  add(kind: string, entry: IdEntry): void {
    let list = this.byKind.get(kind);
    if (!list) {
      list = [];
      this.byKind.set(kind, list);
    }
    if (list.some((e) => e.id === entry.id)) return;
    list.push(entry);
    if (list.length > MAX_PER_KIND) list.shift();
  }

  list(kind: string): IdEntry[] {
    return this.byKind.get(kind) ?? [];
  }

  kinds(): string[] {
    return [...this.byKind.keys()];
  }

  /** Records the ids a successful response reveals; `kind` is the resource of the operation. */
  harvest(kind: string | undefined, body: unknown): void {
    if (!body || typeof body !== 'object') return;
    const top = body as Record<string, unknown>;
    if (Array.isArray(top.data)) {
      for (const item of top.data) this.harvestItem(kind, item);
      return;
    }
    this.harvestItem(kind, top);
  }

  private harvestItem(kind: string | undefined, item: unknown, caseId?: string): void {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return;
    const o = item as Record<string, unknown>;
    const ownCase = typeof o.case_id === 'string' ? o.case_id : kind === 'cases' ? (o.id as string) : caseId;
    // document templates are addressed by key, not id
    if (kind === 'document-templates' && typeof o.key === 'string') this.add(kind, { id: o.key });
    else if (kind && typeof o.id === 'string') {
      this.add(kind, { id: o.id, caseId: ownCase });
      if (kind.startsWith('checks/')) this.add('checks', { id: o.id, caseId: ownCase });
      if (kind === 'checks' && typeof o.type === 'string')
        this.add(`checks/${o.type}`, { id: o.id, caseId: ownCase });
    }
    if (kind === 'tags' && typeof o.label === 'string') this.add('tag-labels', { id: o.label });
    if (kind === 'templates' && typeof o.key === 'string') this.add('template-keys', { id: o.key });
    if (typeof o.upload_ref === 'string') this.add('uploads', { id: o.upload_ref });
    for (const [key, value] of Object.entries(o)) {
      const sub = ARRAY_KINDS[key];
      if (sub && Array.isArray(value)) for (const v of value) this.harvestItem(sub, v, ownCase);
      else if (value && typeof value === 'object' && !Array.isArray(value) && key === 'data')
        this.harvestItem(undefined, value, ownCase);
    }
  }
}

/**
 * The kind of each path parameter: the literal segments before it, from the previous parameter
 * (`/v1/checks/aml/{id}/review` → `checks/aml`, `/v1/cases/{caseId}/relations/{caseRelationId}`
 * → `cases`, `relations`).
 */
export function pathParamKinds(path: string): { name: string; kind: string }[] {
  const out: { name: string; kind: string }[] = [];
  let literal: string[] = [];
  for (const seg of path.split('/').filter(Boolean)) {
    const m = /^\{(\w+)\}$/.exec(seg);
    if (m) {
      out.push({ name: m[1], kind: literal.join('/') });
      literal = [];
    } else if (seg !== 'v1' && seg !== 'admin') literal.push(seg);
  }
  return out;
}
