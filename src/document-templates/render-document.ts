import type { AppContext } from '../app-context.ts';
import { findCaseById } from '../cases/repository.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { renderForCase } from '../pdf-render/render-for-case.ts';
import { publishedVersionOf } from './published.ts';

/** Header listing the placeholders that had no value (rendered empty), comma-separated. */
export const MISSING_HEADER = 'x-missing-placeholders';
/** At most this many are listed; the count header gives them all. */
export const MISSING_LISTED = 100;

/** Placeholder paths are ASCII words and dots; anything else (a custom property's name) is %-encoded. */
function headerSafe(path: string): string {
  return path.replace(/[^A-Za-z0-9_.[\]-]/g, (c) => encodeURIComponent(c));
}

/**
 * `POST /cases/{id}/document-templates/{key}/render`: the template's version in use, rendered for the
 * case, as PDF bytes and the headers that describe them.
 */
export async function renderDocumentTemplate(
  ctx: AppContext,
  workspaceId: string,
  caseId: string,
  key: string,
  individualId: string | undefined,
) {
  const kase = await findCaseById(ctx.db, workspaceId, caseId);
  if (!kase) throw notFound('Case');
  const found = await publishedVersionOf(ctx.db, workspaceId, key);
  if (!found.ok) {
    if (found.reason.startsWith('no document template')) throw notFound('Document template');
    throw new ApiError(
      400,
      `The ${found.reason}: publish a version first`,
      undefined,
      'DOCUMENT_TEMPLATE_NOT_PUBLISHED',
    );
  }
  const out = await renderForCase(ctx, ctx.db, {
    workspaceId,
    caseId: kase.id,
    version: found.version,
    signerIndividualId: individualId ?? null,
    title: found.template.name,
  });
  return {
    pdf: out.pdf,
    headers: {
      [MISSING_HEADER]: out.missing.slice(0, MISSING_LISTED).map(headerSafe).join(', '),
      'x-missing-placeholders-count': String(out.missing.length),
      'x-document-template-version': String(found.version.number),
      'x-document-pages': String(out.pages),
    },
  };
}
