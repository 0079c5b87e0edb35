/**
 * A check's subtype in words: `document_type:registration_certificate` is the document type's label
 * ("Registration certificate"), `document_template:engagement` the signature template's name
 * ("Engagement letter"). The check envelopes carry keys only; the labels come from the workspace's
 * document types and document templates, read once a minute at most for the whole page.
 */
import { useEffect, useState } from 'react';
import { api } from '../../api/client.ts';
import { useSession } from '../../shell/session.tsx';
import { useDocumentTypeLabel } from '../document-type-label.ts';

const KEEP_MS = 60_000;
// kept for one workspace: after a sign-in to another, its labels are read afresh (never shown there)
let kept: { workspaceId: string; at: number; labels: Promise<Map<string, string>> } | null = null;

function loadLabels(workspaceId: string): Promise<Map<string, string>> {
  if (kept && kept.workspaceId === workspaceId && Date.now() - kept.at < KEEP_MS) return kept.labels;
  const labels = (async () => {
    const [types, templates] = await Promise.all([
      // an archived type still names the checks made with it
      api.GET('/v1/document_types', { params: { query: { limit: 100, include_archived: true } } }),
      api.GET('/v1/document-templates', { params: { query: { limit: 100 } } }),
    ]);
    const out = new Map<string, string>();
    for (const d of types.data?.data ?? []) out.set(`document_type:${d.key}`, d.label);
    for (const d of templates.data?.data ?? []) out.set(`document_template:${d.key}`, d.name);
    return out;
  })().catch(() => {
    kept = null; // not kept: the next page tries again
    return new Map<string, string>();
  });
  kept = { workspaceId, at: Date.now(), labels };
  return labels;
}

/** The subtype's label, else its key (what follows `kind:`), else null when there is none. */
export function useSubtypeLabel(): (subtype: string | null | undefined) => string | null {
  const workspaceId = useSession().session?.workspace.id ?? '';
  const [labels, setLabels] = useState<Map<string, string> | null>(null);
  useEffect(() => {
    let live = true;
    void loadLabels(workspaceId).then((m) => {
      if (live) setLabels(m);
    });
    return () => {
      live = false;
    };
  }, [workspaceId]);
  const typeLabel = useDocumentTypeLabel();
  return (subtype) => {
    if (!subtype) return null;
    const label = labels?.get(subtype);
    if (label === undefined) return subtype.split(':').slice(1).join(':');
    return subtype.startsWith('document_type:') ? typeLabel(label) : label;
  };
}
