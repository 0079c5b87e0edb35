import type { CheckTypeDefinition, CreatePlan } from '../../check-type.ts';
import { processAfter } from '../../engine/queues.ts';
import { attemptData, type DocumentInternal } from './check-data.ts';
import { usableDocumentType } from './document-type.ts';
import { attachFiles } from './files.ts';
import { documentPortal } from './portal.ts';
import { processDocument } from './process.ts';
import { registerDocumentRoutes } from './routes.ts';
import { DocumentCreateBody, DocumentData } from './schemas.ts';
import { resolveDocumentSettings } from './settings.ts';
import { DOCUMENT_TRANSITIONS } from './transitions.ts';

/**
 * The `document` check: a requested document of a document type (GET /v1/document_types) for a
 * company or an individual. Its files are analysed by a job (./analysis), or decided by a sandbox
 * outcome carried in the files (docs/sandbox.md); the settings' automatic rules give the status.
 */
export const documentCheck: CheckTypeDefinition = {
  type: 'document',
  docs: {
    title: 'Document',
    about:
      'Checks a document the case must hold (a registration certificate, a proof of address, a bank statement...) against its document type: the files are analysed, their extracted data compared with the company or individual, and the check is decided or sent to review.',
  },
  targets: ['company', 'individual'],
  isInternal: false,
  createBody: DocumentCreateBody,
  dataSchema: DocumentData,
  transitions: DOCUMENT_TRANSITIONS,
  forceReview: true,
  slowProcess: true,
  collectsData: true,
  async create({ ctx, trx, workspaceId, target, body, workspaceTypeSettings }): Promise<CreatePlan> {
    const type = await usableDocumentType(trx, workspaceId, body.settings.document_type_key, target.kind);
    const settings = resolveDocumentSettings(type, body.settings, workspaceTypeSettings);
    const files = await attachFiles(trx, workspaceId, body.data?.files ?? [], 'data.files');
    const internal: DocumentInternal = { files, submissions: [] };
    return {
      status: files.length ? 'processing' : 'in_progress',
      subtype: documentCheck.subtypeOf?.(body.settings) ?? null,
      isInternal: type.is_internal,
      data: attemptData(settings, files) as unknown as Record<string, unknown>,
      internal: internal as unknown as Record<string, unknown>,
      process: files.length ? processAfter(ctx) : null,
    };
  },
  subtypeOf: (settings) => `document_type:${settings.document_type_key}`,
  async validateTemplateSettings(db, workspaceId, settings, kinds) {
    // the rule applied at creation, for each kind of entity the template will give it a check on
    for (const kind of kinds) {
      const problem = await usableDocumentType(
        db,
        workspaceId,
        String(settings.document_type_key),
        kind,
      ).then(
        () => null,
        (err: Error) => err.message,
      );
      if (problem) return { setting: 'document_type_key', message: problem };
    }
    return null;
  },
  process: processDocument,
  portal: documentPortal(() => documentCheck),
  routes: (app, ctx) => registerDocumentRoutes(app, ctx, documentCheck),
};
