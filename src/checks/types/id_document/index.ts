import type { AppContext } from '../../../app-context.ts';
import type { Config } from '../../../config.ts';
import type { IndividualRow } from '../../../db/schema.ts';
import { readFileBuffer, type StoredFile } from '../../../files/attach-upload.ts';
import { getStorage } from '../../../files/storage.ts';
import { badRequest } from '../../../http/errors.ts';
import type { CheckTypeDefinition, CreatePlan, Outcome, ProcessInput } from '../../check-type.ts';
import { mayPass } from '../../engine/passing-failure.ts';
import { processAfter } from '../../engine/queues.ts';
import { resolveSettings } from '../../settings.ts';
import {
  attemptData,
  type IdDocumentInternal,
  type IdDocumentSettings,
  withSubmissionSent,
} from './check-data.ts';
import { decide } from './decide.ts';
import { VENDOR_LIMITS } from './limits.ts';
import { idDocumentPortal } from './portal.ts';
import type { DeclaredPerson, IdDocumentProvider, SubmittedFile } from './provider.ts';
import { registerIdDocumentRoutes } from './routes.ts';
import { sandboxIdDocumentProvider } from './sandbox-provider.ts';
import { IdDocumentCreateBody, IdDocumentData } from './schemas.ts';
import { attachFiles } from './submission.ts';
import { ID_DOCUMENT_TRANSITIONS } from './transitions.ts';

export const ID_DOCUMENT_DEFAULTS: IdDocumentSettings = {
  vendor: 'idd_provider_1',
  automatic_approval: true,
  automatic_rejection: true,
};

/** Both vendors run the sandbox implementation with their own limits (docs/sandbox.md). */
const isVendor = (name: string) => Object.hasOwn(VENDOR_LIMITS, name);

const providerFor = (vendor: string, config: Config): IdDocumentProvider =>
  sandboxIdDocumentProvider(isVendor(vendor) ? vendor : ID_DOCUMENT_DEFAULTS.vendor, {
    fileControls: config.sandboxFileControls,
  });

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

async function read(ctx: AppContext, file: StoredFile): Promise<SubmittedFile> {
  return { file, bytes: await readFileBuffer(getStorage(ctx), file) };
}

async function processSubmission({
  ctx,
  check,
  target,
  finalAttempt,
}: ProcessInput): Promise<Outcome | null> {
  const internal = check.internal as unknown as IdDocumentInternal;
  const data = check.data as Record<string, unknown>;
  const settings = data.settings as IdDocumentSettings;
  const files = internal.files;
  if (!files || target.kind !== 'individual') return null;
  const provider = providerFor(settings.vendor, ctx.config);
  let answer: Awaited<ReturnType<IdDocumentProvider['submit']>>;
  let front: SubmittedFile;
  let back: SubmittedFile | null;
  try {
    front = await read(ctx, files.front);
    back = files.back ? await read(ctx, files.back) : null;
  } catch (err) {
    if (!finalAttempt && mayPass(err)) throw err;
    return decide(
      { kind: 'error', detail: (err as Error).message },
      { attempt: check.attempt, data, internal },
    );
  }
  try {
    answer = await provider.submit({ front, back, person: declaredPerson(target.row) });
  } catch (err) {
    // bytes the provider cannot read will not be readable on a retry either: it sees no document
    answer = { kind: 'error', detail: (err as Error).message };
  }
  if (answer.kind === 'pending') return null;
  return decide(answer, { attempt: check.attempt, data, internal });
}

export const idDocumentCheck: CheckTypeDefinition = {
  type: 'id_document',
  docs: {
    title: 'ID document',
    about:
      "Reads an identity document (passport, ID card, residence permit, driving licence) from its images: the MRZ and its check digits, expiry, and the holder's name and birth date against the individual.",
  },
  targets: ['individual'],
  isInternal: false,
  createBody: IdDocumentCreateBody,
  dataSchema: IdDocumentData,
  transitions: ID_DOCUMENT_TRANSITIONS,
  forceReview: true,
  collectsData: true,
  // reading an MRZ by OCR takes seconds: off the queue of quick provider calls then
  slowProcess: (config) => !config.sandboxFileControls,
  async create({ ctx, trx, workspaceId, checkId, target, body, workspaceTypeSettings }): Promise<CreatePlan> {
    if (target.kind !== 'individual') throw badRequest('id_document targets individuals', 'individual_id');
    const settings = resolveSettings(ID_DOCUMENT_DEFAULTS, workspaceTypeSettings, body.settings);
    if (!isVendor(settings.vendor))
      throw badRequest(`Unknown id_document vendor ${settings.vendor}`, 'settings.vendor');
    const files = body.data ? await attachFiles(trx, workspaceId, body.data, 'data.') : null;
    const internal: IdDocumentInternal = { files, submissions: files ? withSubmissionSent(null, 1) : [] };
    return {
      status: files ? 'processing' : 'in_progress',
      data: attemptData(settings, checkId, files),
      internal: internal as unknown as Record<string, unknown>,
      process: files ? processAfter(ctx) : null,
    };
  },
  process: processSubmission,
  portal: idDocumentPortal(() => idDocumentCheck),
  routes: (app, ctx) => registerIdDocumentRoutes(app, ctx, idDocumentCheck),
};
