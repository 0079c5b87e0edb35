import type { AppContext } from '../../../app-context.ts';
import type { IndividualRow } from '../../../db/schema.ts';
import { readFileBuffer, type StoredFile } from '../../../files/attach-upload.ts';
import { storeGeneratedFile } from '../../../files/generated-file.ts';
import { getStorage } from '../../../files/storage.ts';
import { badRequest } from '../../../http/errors.ts';
import type { CheckTypeDefinition, CreatePlan, Outcome, ProcessInput } from '../../check-type.ts';
import { resolveSettings } from '../../settings.ts';
import type { DeclaredPerson } from '../id_document/provider.ts';
import {
  emptyDocumentResults,
  emptyFaceResults,
  ID_VERIFICATION_DEFAULTS,
  type IdVerificationInternal,
  type IdVerificationSettings,
  initialData,
} from './check-data.ts';
import { decide } from './decide.ts';
import { issueVerificationLink } from './link.ts';
import { idVerificationPortal } from './portal.ts';
import { renderVerificationReport } from './report.ts';
import { registerIdVerificationRoutes } from './routes.ts';
import { IdVerificationCreateBody, IdVerificationData } from './schemas.ts';
import { ID_VERIFICATION_TRANSITIONS } from './transitions.ts';
import { verifyCapture } from './verify.ts';

function declaredPerson(row: IndividualRow): DeclaredPerson {
  return {
    first_name: row.first_name,
    last_name: row.last_name,
    maiden_name: row.maiden_name,
    birth_date: row.birth_date,
    birth_country: row.birth_country,
    gender: row.gender,
    nationality: row.nationalities?.[0] ?? null,
  };
}

/**
 * What is wrong with a redirect the portal sends the person to afterwards, or null: http(s) only
 * (never javascript: or data:).
 */
function redirectUrlProblem(url: unknown): string | null {
  if (url === null || url === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    return 'must be an absolute http or https URL';
  }
  return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? null : 'must be an http or https URL';
}

function checkRedirectUrl(url: string | null): void {
  const problem = redirectUrlProblem(url);
  if (problem) throw badRequest(`settings.redirect_url ${problem}`, 'settings.redirect_url');
}

const read = (ctx: AppContext, f: StoredFile) => readFileBuffer(getStorage(ctx), f);

/**
 * The worker's run (slow queue: the face model takes a second or two per image): verify the
 * capture, decide, write the PDF report. Runs outside any transaction; the engine applies the
 * outcome (and records the report file) under the check's lock.
 */
async function processCapture({ ctx, check, target }: ProcessInput): Promise<Outcome | null> {
  const internal = check.internal as unknown as IdVerificationInternal;
  const files = internal.files;
  if (!files || target.kind !== 'individual') return null;
  const data = check.data as Record<string, unknown>;
  let run: Awaited<ReturnType<typeof verifyCapture>>;
  try {
    run = await verifyCapture(
      {
        front: await read(ctx, files.front),
        back: files.back ? await read(ctx, files.back) : null,
        face: await read(ctx, files.face),
        person: declaredPerson(target.row),
      },
      { fileControls: ctx.config.sandboxFileControls },
    );
  } catch (err) {
    // unreadable bytes or a model failure: a person looks at the capture
    run = {
      decision: 'error',
      information: {
        document_type: null,
        document_number: null,
        first_name: null,
        last_name: null,
        gender: null,
        nationality: null,
        birth_date: null,
        birth_country: null,
        expiration_date: null,
        issuing_date: null,
        issuing_country: null,
        mrz: null,
      },
      document: emptyDocumentResults(),
      face: emptyFaceResults(),
      comment: `The verification could not run: ${(err as Error).message}`,
      analysis: {
        sandbox_outcome: null,
        selfie_faces: null,
        document_faces: null,
        distance: null,
        model: null,
      },
    };
  }
  if (!run) return null; // sandbox pending: no answer yet (force_review exists for this)
  const outcome = decide(run, { data, internal }, null);
  const at = new Date();
  const pdf = await renderVerificationReport({
    checkId: check.id,
    status: outcome.status,
    data: outcome.data,
    analysis: run.analysis,
    person: target.row,
    at,
  });
  const file = await storeGeneratedFile(getStorage(ctx), check.workspace_id, pdf, 'application/pdf');
  const vendor = outcome.data.vendor as Record<string, unknown>;
  return {
    ...outcome,
    data: { ...outcome.data, vendor: { ...vendor, report_file_id: file.id } },
    generatedFiles: [file],
  };
}

export const idVerificationCheck: CheckTypeDefinition = {
  type: 'id_verification',
  docs: {
    title: 'ID verification',
    about:
      "The individual photographs an identity document and takes a selfie in the client portal; the document is read as for id_document and the face compared with the document's portrait.",
  },
  targets: ['individual'],
  isInternal: false,
  createBody: IdVerificationCreateBody,
  dataSchema: IdVerificationData,
  transitions: ID_VERIFICATION_TRANSITIONS,
  forceReview: true,
  collectsData: true,
  slowProcess: true,
  // refused when the template is written, as a check's create would, not at each case it runs on
  async validateTemplateSettings(_db, _workspaceId, settings) {
    const problem = redirectUrlProblem(settings.redirect_url);
    return problem ? `redirect_url ${problem}` : null;
  },
  async create({ target, body, workspaceTypeSettings }): Promise<CreatePlan> {
    if (target.kind !== 'individual')
      throw badRequest('id_verification targets individuals', 'individual_id');
    const settings = resolveSettings<IdVerificationSettings>(
      ID_VERIFICATION_DEFAULTS,
      workspaceTypeSettings,
      body.settings,
    );
    checkRedirectUrl(settings.redirect_url);
    const internal: IdVerificationInternal = { files: null, analysis: null };
    return {
      status: 'in_progress',
      data: initialData(settings),
      internal: internal as unknown as Record<string, unknown>,
    };
  },
  afterCreate: ({ ctx, trx, check }) => issueVerificationLink(ctx, trx, check, 'individual_id'),
  process: processCapture,
  portal: idVerificationPortal(() => idVerificationCheck),
  routes: (app, ctx) => registerIdVerificationRoutes(app, ctx, idVerificationCheck),
};
