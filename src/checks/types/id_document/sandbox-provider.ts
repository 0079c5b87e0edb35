import { isPng, pngTextChunks } from './document-reader.ts';
import { findMrz } from './find-mrz.ts';
import { limitRefusal, VENDOR_LIMITS } from './limits.ts';
import { mrzValidationProblems, namesMatch } from './mrz-reader.ts';
import type {
  DeclaredPerson,
  DocumentDetailedResults,
  DocumentInformation,
  IdDocumentProvider,
  ProviderAnswer,
  Submission,
  Verdict,
} from './provider.ts';

/** Values of the PNG `tEXt` keyword `sandbox_outcome` (docs/sandbox.md). */
export const SANDBOX_OUTCOMES = ['approved', 'rejected', 'undecided', 'refused', 'error', 'pending'] as const;
type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number];

type Info = Omit<DocumentInformation, 'front_file_id' | 'back_file_id'>;

function forcedOutcome(submission: Submission): SandboxOutcome | null {
  for (const side of [submission.front, submission.back]) {
    if (!side || !isPng(side.bytes)) continue;
    const value = pngTextChunks(side.bytes).sandbox_outcome?.trim().toLowerCase();
    if (value && (SANDBOX_OUTCOMES as readonly string[]).includes(value)) return value as SandboxOutcome;
  }
  return null;
}

function fromPerson(p: DeclaredPerson): Info {
  return {
    document_type: null,
    document_number: null,
    first_name: p.first_name,
    last_name: p.last_name,
    maiden_name: p.maiden_name,
    gender: p.gender,
    nationality: p.nationality,
    birth_date: p.birth_date,
    birth_country: p.birth_country,
    issuing_date: null,
    issuing_country: null,
    expiration_date: null,
  };
}

/**
 * The MRZ writes a birth year with two digits, read as the most recent past year (`25` → 2025): the
 * declared birth date's century is taken when the two agree on the rest (`1925-03-04` declared,
 * `250304` in the MRZ), so a person born a hundred years ago or more is not a mismatch.
 */
export function withDeclaredCentury(info: Info, person: DeclaredPerson): Info {
  const read = info.birth_date;
  const declared = person.birth_date;
  return read && declared && read !== declared && read.slice(2) === declared.slice(2)
    ? { ...info, birth_date: declared }
    : info;
}

/**
 * First name, last name and birth date of the document against the individual: `approved` when
 * every attribute present on both sides matches, `rejected` when one differs, null when none
 * could be compared.
 */
export function compareWithPerson(
  info: Info,
  person: DeclaredPerson,
): { verdict: Verdict; mismatches: string[] } {
  const mismatches: string[] = [];
  let compared = 0;
  if (info.first_name && person.first_name) {
    compared++;
    if (!namesMatch(person.first_name, info.first_name)) mismatches.push('first_name');
  }
  if (info.last_name && person.last_name) {
    compared++;
    const asMaiden = person.maiden_name ? namesMatch(person.maiden_name, info.last_name) : false;
    if (!namesMatch(person.last_name, info.last_name) && !asMaiden) mismatches.push('last_name');
  }
  if (info.birth_date && person.birth_date) {
    compared++;
    if (info.birth_date !== person.birth_date) mismatches.push('birth_date');
  }
  return { verdict: compared === 0 ? null : mismatches.length ? 'rejected' : 'approved', mismatches };
}

const NOT_EVALUATED = {
  image_integrity: null,
  visual_authenticity: null,
  compromised_document: null,
} as const;

const NOTHING_READ: Info = {
  document_type: null,
  document_number: null,
  first_name: null,
  last_name: null,
  maiden_name: null,
  gender: null,
  nationality: null,
  birth_date: null,
  birth_country: null,
  issuing_date: null,
  issuing_country: null,
  expiration_date: null,
};

/**
 * The sandbox provider (the default): real limits, real MRZ parsing, deterministic outcomes.
 * 1. Each file is checked against the vendor's limits (refusal `size`).
 * 2. The MRZ is read from the front, else the back: PNG `tEXt` keyword `mrz`, JPEG comment, PDF text.
 * 3. A PNG `tEXt` keyword `sandbox_outcome` forces the verdict; else an MRZ decides (check digits
 *    or, for the Swiss driving licence, the form of its fields; expiry where the format has one); else the document is approved with the individual's own data.
 * With `fileControls` off (VERICASE_SANDBOX_FILE_CONTROLS), what a file carries as text steers
 * nothing: no `sandbox_outcome`, the MRZ read by OCR from the pixels only, and a document whose MRZ
 * cannot be read is left to a person (no result) instead of approved.
 */
export function sandboxIdDocumentProvider(
  name: string,
  { fileControls }: { fileControls: boolean },
): IdDocumentProvider {
  const limits = VENDOR_LIMITS[name];
  return {
    name,
    limits,
    async submit(submission): Promise<ProviderAnswer> {
      for (const [side, f] of [
        ['front', submission.front],
        ['back', submission.back],
      ] as const) {
        const refusal = f ? limitRefusal(limits, side, f) : null;
        if (refusal) return refusal;
      }
      const forced = fileControls ? forcedOutcome(submission) : null;
      if (forced === 'refused')
        return { kind: 'refused', reason: 'unprocessable', detail: 'sandbox_outcome refused' };
      if (forced === 'error') return { kind: 'error', detail: 'sandbox_outcome error' };
      if (forced === 'pending') return { kind: 'pending' };

      const now = new Date();
      const today = now.toISOString().slice(0, 10);
      const sides = [submission.front, submission.back].flatMap((f) => (f ? [f.bytes] : []));
      const found = await findMrz(sides, now, { text: fileControls, ocr: !fileControls });
      const mrz = found?.mrz ?? null;
      if (!mrz && !fileControls)
        return {
          kind: 'result',
          decision: null,
          information: NOTHING_READ,
          detailed: {
            data_validation: null,
            data_consistency: null,
            data_comparison: null,
            ...NOT_EVALUATED,
          },
          comment: 'No machine-readable zone could be read from the document: a person must look at it',
        };
      const information = mrz
        ? withDeclaredCentury(mrz.information, submission.person)
        : fromPerson(submission.person);
      const comparison = compareWithPerson(information, submission.person);
      const problems = mrz ? mrzValidationProblems(mrz) : [];
      const detailed: DocumentDetailedResults = {
        data_validation: mrz ? (problems.length ? 'rejected' : 'approved') : null,
        // an MRZ format without expiry date (the Swiss driving licence) leaves it not evaluated
        data_consistency: mrz?.carriesExpiry
          ? information.expiration_date && information.expiration_date >= today
            ? 'approved'
            : 'rejected'
          : null,
        data_comparison: comparison.verdict,
        ...NOT_EVALUATED,
      };
      const reasons: string[] = [...problems];
      if (detailed.data_consistency === 'rejected')
        reasons.push(
          information.expiration_date
            ? `the document expired on ${information.expiration_date}`
            : 'the document has no readable expiration date',
        );

      if (forced === 'approved')
        return { kind: 'result', decision: 'approved', information, detailed, comment: null };
      if (forced === 'rejected')
        return {
          kind: 'result',
          decision: 'rejected',
          information,
          detailed: { ...detailed, visual_authenticity: 'rejected' },
          comment: 'The document failed the visual authenticity checks (sandbox_outcome rejected)',
        };
      if (forced === 'undecided')
        return { kind: 'result', decision: null, information, detailed, comment: null };
      if (reasons.length)
        return {
          kind: 'result',
          decision: 'rejected',
          information,
          detailed,
          comment: `The document was rejected: ${reasons.join('; ')}`,
        };
      return { kind: 'result', decision: 'approved', information, detailed, comment: null };
    },
  };
}
