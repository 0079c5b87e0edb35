import type { AppContext } from '../../../app-context.ts';
import { readFileBuffer } from '../../../files/attach-upload.ts';
import { getStorage } from '../../../files/storage.ts';
import type { CheckTarget, Outcome, ProcessInput } from '../../check-type.ts';
import { mayPass } from '../../engine/passing-failure.ts';
import { type AnalysisTarget, analyzeDocument } from './analysis/index.ts';
import type { DocumentCheckData, DocumentInternal } from './check-data.ts';
import { decide, type Finding } from './decide.ts';
import { forcedOutcome } from './sandbox.ts';

type Json = Record<string, string | null> | null | undefined;

/** The known address as one line (street, postal code, city), or null when it has no street or city. */
function addressLine(a: Json): string | null {
  if (!a?.street_address || !a.city) return null;
  return [a.street_address, a.street_address_2, a.postal_code, a.city].filter(Boolean).join(' ');
}

/** What the analysis compares the document with: the target's identity, address and bank details. */
function analysisTarget(target: CheckTarget): AnalysisTarget {
  const known = {
    address: addressLine(target.row.address as Json),
    iban: (target.row.banking_information as Json)?.iban ?? null,
    bic: (target.row.banking_information as Json)?.bic ?? null,
  };
  if (target.kind === 'company') {
    const c = target.row;
    return {
      kind: 'company',
      name: c.name,
      registrationNumber: c.registration_number,
      country: c.country,
      ...known,
    };
  }
  const i = target.row;
  return {
    kind: 'individual',
    name: `${i.first_name} ${i.last_name}`.trim(),
    registrationNumber: null,
    country: i.nationalities?.[0] ?? i.birth_country ?? null,
    firstName: i.first_name,
    lastName: i.last_name,
    ...known,
  };
}

/**
 * The document check's job: reads the attempt's files, lets a sandbox outcome decide when one is
 * set, else runs the document analysis; the settings' automatic rules then give the outcome.
 * `pending` (sandbox) leaves the check processing (force_review exists for that).
 */
export async function processDocument({
  ctx,
  check,
  target,
  finalAttempt,
}: ProcessInput): Promise<Outcome | null> {
  const internal = check.internal as unknown as DocumentInternal;
  const data = check.data as unknown as DocumentCheckData;
  if (!internal.files?.length) return null;
  let finding: Finding;
  try {
    const storage = getStorage(ctx as AppContext);
    const files = await Promise.all(
      internal.files.map(async (f) => ({ file: f, bytes: await readFileBuffer(storage, f) })),
    );
    // a file steers the sandbox only while its controls are on (VERICASE_SANDBOX_FILE_CONTROLS)
    const forced = ctx.config.sandboxFileControls ? await forcedOutcome(files.map((f) => f.bytes)) : null;
    if (forced === 'pending') return null;
    if (forced) {
      finding = { kind: 'sandbox', outcome: forced };
    } else {
      const analysis = await analyzeDocument({
        files: files.map((f) => ({ bytes: f.bytes, mime: f.file.mime, filename: f.file.id })),
        documentTypeKey: data.settings.document_type_key,
        target: analysisTarget(target),
        now: new Date(),
      });
      finding = { kind: 'analysis', analysis };
    }
  } catch (err) {
    // storage out, or the bytes not in this process's storage: retried (src/checks/engine/passing-failure.ts)
    if (!finalAttempt && mayPass(err)) throw err;
    // a file that cannot be read or analysed now will not be on a retry either: a person decides
    finding = { kind: 'error', detail: (err as Error).message };
  }
  return decide(finding, { attempt: check.attempt, data, internal });
}
