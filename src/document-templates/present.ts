import type { DocumentTemplateRow, DocumentTemplateVersionRow } from '../db/schema.ts';
import { iso, isoOrNull } from '../shared/time.ts';

type Kind = 'electronic_signature' | 'report';

/** The version in use: published last (ties: the higher number). */
export function inUse(versions: DocumentTemplateVersionRow[]): DocumentTemplateVersionRow | undefined {
  let best: DocumentTemplateVersionRow | undefined;
  for (const v of versions) {
    if (v.status !== 'published' || !v.published_at) continue;
    if (
      !best ||
      v.published_at.getTime() > (best.published_at as Date).getTime() ||
      (v.published_at.getTime() === (best.published_at as Date).getTime() && v.number > best.number)
    )
      best = v;
  }
  return best;
}

export function presentVersionSummary(v: DocumentTemplateVersionRow) {
  return {
    number: v.number,
    status: v.status as 'draft' | 'published',
    published_at: isoOrNull(v.published_at),
    created_at: iso(v.created_at),
  };
}

export function presentVersion(t: DocumentTemplateRow, v: DocumentTemplateVersionRow) {
  return { template_key: t.key, ...presentVersionSummary(v), content: v.content };
}

export function presentTemplateItem(t: DocumentTemplateRow, versions: DocumentTemplateVersionRow[]) {
  return {
    id: t.id,
    key: t.key,
    name: t.name,
    kind: t.kind as Kind,
    published_version: inUse(versions)?.number ?? null,
    latest_version: versions.reduce<number | null>(
      (n, v) => (n === null || v.number > n ? v.number : n),
      null,
    ),
    created_at: iso(t.created_at),
    updated_at: iso(t.updated_at),
  };
}

export function presentTemplate(t: DocumentTemplateRow, versions: DocumentTemplateVersionRow[]) {
  const sorted = [...versions].sort((a, b) => a.number - b.number);
  return { ...presentTemplateItem(t, sorted), versions: sorted.map(presentVersionSummary) };
}
