import { emptyDetailedResults, emptyInformation } from './check-data.ts';
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

/** How a reading's names may be taken (see compareWithPerson). */
export interface NameReading {
  /** Which names fill their MRZ field and may be cut short (MrzReading.namesTruncated). */
  truncated: { first_name: boolean; last_name: boolean };
  /**
   * The names came from OCR. No check digit covers a name, so the OCR's misreadings (a filler read
   * as `S`, `JEANS` for `JEAN`) would pass as mismatches: a name that differs, or that is missing on
   * the reading, leaves the comparison to a person instead of rejecting anyone. The birth date is
   * under a check digit and still decides.
   */
  ocr: boolean;
}

/** A reading that is the individual's own data (nothing read): names compare whole. */
const OWN_DATA: NameReading = { truncated: { first_name: false, last_name: false }, ocr: false };

/**
 * First name, last name and birth date of the document against the individual: `approved` when
 * every attribute present on both sides matches, `rejected` when one differs, null when none
 * could be compared or, for an OCR reading, when only names differ (`uncertain` names them).
 */
export function compareWithPerson(
  info: Info,
  person: DeclaredPerson,
  reading: NameReading,
): { verdict: Verdict; mismatches: string[]; uncertain: string[] } {
  const mismatches: string[] = [];
  const uncertain: string[] = [];
  let compared = 0;
  const name = (field: 'first_name' | 'last_name', matches: boolean) => {
    compared++;
    if (!matches) (reading.ocr ? uncertain : mismatches).push(field);
  };
  if (info.first_name && person.first_name) {
    name('first_name', namesMatch(person.first_name, info.first_name, reading.truncated.first_name));
  } else if (reading.ocr && person.first_name) uncertain.push('first_name');
  if (info.last_name && person.last_name) {
    const mayCut = reading.truncated.last_name;
    const asMaiden = person.maiden_name ? namesMatch(person.maiden_name, info.last_name, mayCut) : false;
    name('last_name', namesMatch(person.last_name, info.last_name, mayCut) || asMaiden);
  } else if (reading.ocr && person.last_name) uncertain.push('last_name');
  if (info.birth_date && person.birth_date) {
    compared++;
    if (info.birth_date !== person.birth_date) mismatches.push('birth_date');
  }
  const verdict: Verdict = mismatches.length
    ? 'rejected'
    : uncertain.length || compared === 0
      ? null
      : 'approved';
  return { verdict, mismatches, uncertain };
}

const NOT_EVALUATED = {
  image_integrity: null,
  visual_authenticity: null,
  compromised_document: null,
} as const;

/** Nothing read: every field null (the check keeps its own file ids). */
const { front_file_id: _front, back_file_id: _back, ...NOTHING_READ } = emptyInformation(null);

/** The provider's rejection, its reasons in the comment. */
const rejection = (
  information: Info,
  detailed: DocumentDetailedResults,
  reasons: string[],
): ProviderAnswer => ({
  kind: 'result',
  decision: 'rejected',
  information,
  detailed,
  comment: `The document was rejected: ${reasons.join('; ')}`,
});

/** A no-result answer that tells the reviewer why (production mode: answerFromPixels). */
const toPerson = (information: Info, detailed: DocumentDetailedResults, comment: string): ProviderAnswer => ({
  kind: 'result',
  decision: null,
  information,
  detailed,
  comment,
});

/**
 * With the sandbox file controls off (VERICASE_SANDBOX_FILE_CONTROLS=false): the MRZ is read by OCR
 * from the pixels (front, else back) and kept only with every check digit right. What the pixels
 * establish decides; what they cannot goes to a person:
 * - nothing read, or lines whose check digits do not match them (a misreading or a wrong
 *   document): no result, the comment saying which;
 * - an expired document, or a birth date (under a check digit) that is not the individual's: rejected;
 * - names that differ from the individual's: no result (no check digit covers a name: maybe the OCR);
 * - everything read and matching: still no result. Authenticity is not evaluated and an MRZ is
 *   public arithmetic: an image of nothing but drawn MRZ lines would otherwise be approved
 *   (production walk). The reading, its check digits and the comparison are there for the person.
 */
async function answerFromPixels(submission: Submission, now: Date): Promise<ProviderAnswer> {
  const today = now.toISOString().slice(0, 10);
  const sides = [submission.front, submission.back].flatMap((f) => (f ? [f.bytes] : []));
  const { found, misread } = await findMrz(sides, now, { text: false, ocr: true });
  const mrz = found?.mrz;
  const nothing = emptyDetailedResults();
  if (!mrz)
    return toPerson(
      NOTHING_READ,
      nothing,
      misread
        ? `The machine-readable zone was read as ${misread.join(' / ')} but its check digits do not match that reading (a misreading or a wrong document): a person must look at it`
        : 'No machine-readable zone could be read from the document: a person must look at it',
    );
  const information = withDeclaredCentury(mrz.information, submission.person);
  const comparison = compareWithPerson(information, submission.person, {
    truncated: mrz.namesTruncated,
    ocr: true,
  });
  const expired = !information.expiration_date || information.expiration_date < today;
  const detailed: DocumentDetailedResults = {
    ...nothing,
    data_validation: 'approved',
    data_consistency: mrz.carriesExpiry ? (expired ? 'rejected' : 'approved') : null,
    data_comparison: comparison.verdict,
  };
  const reasons: string[] = [];
  if (detailed.data_consistency === 'rejected')
    reasons.push(
      information.expiration_date
        ? `the document expired on ${information.expiration_date}`
        : 'the document has no readable expiration date',
    );
  if (comparison.mismatches.includes('birth_date'))
    reasons.push(
      `the birth date read (${information.birth_date}) is not the individual's (${submission.person.birth_date})`,
    );
  if (reasons.length) return rejection(information, detailed, reasons);
  if (comparison.uncertain.length)
    return toPerson(
      information,
      detailed,
      `The names read by OCR (${information.last_name ?? '-'}, ${information.first_name ?? '-'}) do not match the individual's: no check digit covers a name, so a person compares them`,
    );
  return toPerson(
    information,
    detailed,
    "The machine-readable zone was read and matches the individual; the document's authenticity is not evaluated: a person must look at it",
  );
}

/**
 * The sandbox provider (the default): real limits, real MRZ parsing, deterministic outcomes.
 * 1. Each file is checked against the vendor's limits (refusal `size`).
 * 2. The MRZ is read from the front, else the back: PNG `tEXt` keyword `mrz`, JPEG comment, PDF text.
 * 3. A PNG `tEXt` keyword `sandbox_outcome` forces the verdict; else an MRZ decides (check digits
 *    or, for the Swiss driving licence, the form of its fields; expiry where the format has one); else the document is approved with the individual's own data.
 * With `fileControls` off, what a file carries as text steers nothing: answerFromPixels.
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
      if (!fileControls) return answerFromPixels(submission, new Date());
      const forced = forcedOutcome(submission);
      if (forced === 'refused')
        return { kind: 'refused', reason: 'unprocessable', detail: 'sandbox_outcome refused' };
      if (forced === 'error') return { kind: 'error', detail: 'sandbox_outcome error' };
      if (forced === 'pending') return { kind: 'pending' };

      const now = new Date();
      const today = now.toISOString().slice(0, 10);
      const sides = [submission.front, submission.back].flatMap((f) => (f ? [f.bytes] : []));
      const mrz = (await findMrz(sides, now, { text: true, ocr: false })).found?.mrz ?? null;
      const information = mrz
        ? withDeclaredCentury(mrz.information, submission.person)
        : fromPerson(submission.person);
      const comparison = compareWithPerson(
        information,
        submission.person,
        mrz ? { truncated: mrz.namesTruncated, ocr: false } : OWN_DATA,
      );
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

      // with no MRZ nothing was read: say that the information is the individual's own, so an
      // approval is not taken for a document that was compared (the walk took it for one)
      const ownData = mrz
        ? null
        : 'No machine-readable zone was found in the file (sandbox file controls): the information is the individual’s own data, not read from the document';
      if (forced === 'approved')
        return { kind: 'result', decision: 'approved', information, detailed, comment: ownData };
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
      if (reasons.length) return rejection(information, detailed, reasons);
      return { kind: 'result', decision: 'approved', information, detailed, comment: ownData };
    },
  };
}
