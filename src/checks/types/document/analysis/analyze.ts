import { expirationDate, findDates, issuingDate, monthsBefore, todayIso } from './dates.ts';
import {
  bankDetails,
  companyName,
  customerName,
  detectKind,
  findAddress,
  holderName,
  personName,
  proofOfAddressType,
  type RegistrationNumbers,
  registrationDocumentType,
  registrationNumberMatch,
  registrationNumbers,
} from './fields.ts';
import type { AnalysisInput, AnalysisOutcome, AnalysisTarget } from './index.ts';
import { type DocumentKind, kindForKey, modelForKind } from './kinds.ts';
import {
  compactId,
  containsName,
  levenshtein,
  nameAsWritten,
  nameSlips,
  nameTokens,
  normText,
  sameName,
} from './normalize.ts';
import type {
  AnalysisModel,
  DocumentAnalysisDetailedResult,
  DocumentAnalysisDetailedResults,
  DocumentAnalysisInformation,
} from './schemas.ts';
import { readFileText } from './text.ts';

type Criterion = DocumentAnalysisDetailedResult;

/**
 * A criterion with nothing to compare against (no reference value on the target, or not relevant
 * for this document): shown with `expected: null` and left out of the verdict.
 */
const notEvaluated = (received: string | null = null): Criterion => ({
  result: null,
  expected: null,
  received,
});
const crit = (result: Criterion['result'], expected: string | null, received: string | null): Criterion => ({
  result,
  expected,
  received,
});

function targetName(t: AnalysisTarget): string | null {
  if (t.kind === 'individual') {
    const full = [t.firstName, t.lastName].filter((x) => x?.trim()).join(' ');
    return full || t.name || null;
  }
  return t.name?.trim() || null;
}

/**
 * Why a criterion left unknown is so, beyond what it expected and read: said in the comment (the
 * criterion's shape, the reference's, has no place for it).
 */
const notes = new WeakMap<Criterion, string>();
const noted = (c: Criterion, note: string): Criterion => {
  notes.set(c, note);
  return c;
};

/**
 * The target's name against the document. A labelled name (`Dénomination`, `Titulaire`...) that
 * holds every significant word of the target's name approves. When it does not: with an
 * `authoritative` label (the denomination of a registry extract, the holder of a RIB) that rejects;
 * with a weaker one (a customer or `Nom` field) the name may still be found elsewhere in the text.
 * No usable label: found in the text approves, not found is unknown; except with `labelRequired`
 * (the holder of a RIB), where it is unknown either way: the name elsewhere in bank details proves
 * nothing about whose account it is (a RIB of another holder whose payment reference names the
 * target), and nothing else on a RIB ties it to the target, where an extract's registration number
 * does. `exact` (a registry extract's denomination): the label must also hold no significant word
 * the target's name lacks.
 *
 * Only the words as written approve, in a PDF's text layer and in text read by OCR alike. A word a
 * letter or two off (`SOPHIE MARTIN` read, `Sophia Marin` expected) may be a reading or typing slip,
 * or another person's name: the OCR reads such a card perfectly, and approving on the tolerance
 * approved another person's ID card. It is unknown (a person compares), with a note naming the
 * words that differ; never approved, and never rejected either.
 */
function nameCriterion(
  text: string,
  expected: string | null,
  labelled: string | null,
  rule: { authoritative: boolean; exact?: boolean; labelRequired?: boolean; ocr: boolean },
): Criterion {
  const { authoritative, exact = false, labelRequired = false, ocr } = rule;
  const label = labelled && (labelled.match(/\p{L}/gu) ?? []).length >= 3 ? labelled : null;
  if (!expected || nameTokens(expected).length === 0) return crit(null, expected, label);
  const matches = (a: string, b: string, strict: boolean) =>
    exact ? sameName(a, b, strict) : containsName(a, b, strict);
  const slip = (where: string, received: string | null) => {
    // (an extract's denomination may instead hold a word of its own a letter off one of the target's)
    let words = nameSlips(where, expected);
    if (words.length === 0) words = nameSlips(expected, where).map(([e, r]) => [r, e]);
    const read = received ?? (words.map(([r]) => r).join(' ') || null);
    const which = words.length
      ? `${differ(words)} (${words.map(([r, e]) => `${r} for ${e}`).join(', ')})`
      : 'a character or two';
    return noted(
      crit(null, expected, read),
      `the name read differs by ${which}: ${ocr ? 'an OCR misreading' : 'a typing slip'} or another name; a person compares`,
    );
  };
  if (label && matches(label, expected, true)) return crit('approved', expected, label);
  if (label && matches(label, expected, false)) return slip(label, label);
  if (label && authoritative) return crit('rejected', expected, label);
  if (labelRequired) return crit(null, expected, null);
  // received: the name as the document writes it (it echoed the target's spelling)
  if (containsName(text, expected, true))
    return crit('approved', expected, label ?? nameAsWritten(text, expected) ?? expected);
  if (containsName(text, expected)) return slip(text, label);
  return label ? crit('rejected', expected, label) : crit(null, expected, null);
}

/** `one character` / `up to 2 characters a word` for the words of a slip (at least one). */
function differ(words: [string, string][]): string {
  const most = Math.max(...words.map(([r, e]) => levenshtein(r, e)));
  return most === 1 ? 'one character' : `up to ${most} characters a word`;
}

function typeCriterion(
  requested: DocumentKind | null,
  detected: DocumentKind | null,
  requestedKey: string,
): Criterion {
  if (requested === null) return crit(null, requestedKey, detected);
  if (detected === null) return crit(null, requested, null);
  return crit(detected === requested ? 'approved' : 'rejected', requested, detected);
}

function ageCriterion(issued: string | null, now: Date, maxAgeInDays: number | null | undefined): Criterion {
  const oldest =
    maxAgeInDays != null
      ? new Date(now.getTime() - maxAgeInDays * 86_400_000).toISOString().slice(0, 10)
      : monthsBefore(now, 3);
  const expected = `issued between ${oldest} and ${todayIso(now)}`;
  if (!issued) return crit(null, expected, null);
  const tomorrow = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
  return crit(issued >= oldest && issued <= tomorrow ? 'approved' : 'rejected', expected, issued);
}

/** Street types written short on documents (`av.`, `bd`): read as the word, on both sides. */
const STREET_WORDS: Readonly<Record<string, string>> = {
  AV: 'AVENUE',
  AVE: 'AVENUE',
  BD: 'BOULEVARD',
  BLD: 'BOULEVARD',
  BLVD: 'BOULEVARD',
  PL: 'PLACE',
  R: 'RUE',
  RTE: 'ROUTE',
  CHE: 'CHEMIN',
  IMP: 'IMPASSE',
  FG: 'FAUBOURG',
  FBG: 'FAUBOURG',
  ST: 'SAINT',
  STE: 'SAINTE',
  QU: 'QUAI',
};
const addressTokens = (s: string) =>
  normText(s)
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => STREET_WORDS[w] ?? w);

/**
 * The target's address against the one read on the document (its postal line, and the street line
 * above it), else against the page's words. Every number of the target's address (house number,
 * postal code) must be there and three quarters of its words: the page at large also holds former
 * seats, branches and officers' addresses, whose words made a moved seat pass (`3 place Vendôme
 * 75001 Paris` read, `12 avenue Foch 75016 Paris` expected, both words on the page), and a share of
 * 60% passed `12 rue de la Paix 75016 Paris` for `12 avenue Foch 75016 Paris`. An address read that
 * differs in a number or in most words is another address (rejected); one that differs a little,
 * a slip of reading or of writing, goes to a person.
 */
function addressCriterion(text: string, expected: string | null | undefined, read: string | null): Criterion {
  if (!expected?.trim()) return notEvaluated(read);
  const want = addressTokens(expected);
  const numbers = want.filter((w) => /^\d+$/.test(w));
  const words = want.filter((w) => !/^\d+$/.test(w) && w.length >= 3);
  const have = new Set(addressTokens(read ?? text));
  const numbersFound = numbers.every((n) => have.has(n));
  const share = words.length ? words.filter((w) => have.has(w)).length / words.length : 1;
  if (numbersFound && share >= 0.75) return crit('approved', expected, read);
  if (!read) return crit(null, expected, null);
  return crit(!numbersFound || share < 0.5 ? 'rejected' : null, expected, read);
}

/**
 * The registration number read against the target's. `required`: on a registration certificate a
 * missing reference or a number not found is unknown; elsewhere it is simply not evaluated.
 */
function numberCriterion(
  numbers: RegistrationNumbers,
  target: string | null | undefined,
  required: boolean,
): Criterion {
  if (!target)
    return required
      ? crit(null, 'a registration number on the company (it has none)', numbers.primary)
      : notEvaluated(numbers.primary);
  const expected = compactId(target);
  if (numbers.candidates.length === 0) return required ? crit(null, expected, null) : notEvaluated();
  const matched = registrationNumberMatch(numbers.candidates, target);
  // The document's own number comes first (a Kbis identifies the company before listing its
  // corporate officers with theirs): the target's SIREN found further down beside another SIREN
  // up there is no match to approve on, but no proof of another company either (an officer's
  // number read first): a person looks
  if (matched && frenchSirenOf(numbers.primary) && frenchSirenOf(matched)) {
    if (frenchSirenOf(numbers.primary) !== frenchSirenOf(matched))
      return crit(null, expected, `${numbers.primary} (the document's own number; ${matched} further down)`);
  }
  if (matched) return crit('approved', expected, matched);
  return crit('rejected', expected, numbers.primary);
}

/** The SIREN of a French number read (9-digit SIREN, or the first 9 digits of a 14-digit SIRET). */
function frenchSirenOf(value: string | null): string | null {
  if (!value) return null;
  if (/^\d{9}$/.test(value)) return value;
  if (/^\d{14}$/.test(value)) return value.slice(0, 9);
  return null;
}

function expiryCriterion(expires: string | null, now: Date, required: boolean): Criterion {
  const today = todayIso(now);
  if (!expires) return required ? crit(null, `expires on or after ${today}`, null) : notEvaluated();
  return crit(expires >= today ? 'approved' : 'rejected', `expires on or after ${today}`, expires);
}

const emptyInformation = (model: AnalysisModel): DocumentAnalysisInformation => {
  switch (model) {
    case 'registration_certificate':
      return {
        model,
        name: null,
        registration_number: null,
        registration_city: null,
        address: null,
        country: null,
        issuing_date: null,
        document_type: null,
        other_document_type: null,
      };
    case 'iban':
      return { model, holder_name: null, bank_name: null, iban: null, bic: null };
    case 'proof_of_address':
      return {
        model,
        issuing_date: null,
        address: null,
        name: null,
        document_type: null,
        other_document_type: null,
        country: null,
        issuer: null,
      };
    default:
      return {
        model: 'generic',
        document_type: null,
        name: null,
        registration_number: null,
        issuing_date: null,
        expiration_date: null,
      };
  }
};

const unknown = (expected: string | null = null) => crit(null, expected, null);

function emptyResults(model: AnalysisModel, requestedKey: string): DocumentAnalysisDetailedResults {
  switch (model) {
    case 'registration_certificate':
      return {
        model,
        valid_age_in_days: unknown(),
        address_matching: notEvaluated(),
        registration_number_matching: unknown(),
        name_matching: unknown(),
        valid_document_type: unknown(requestedKey),
      };
    case 'iban':
      return {
        model,
        valid_iban: unknown(),
        valid_bic: unknown(),
        name_matching: unknown(),
        iban_matching: notEvaluated(),
        bic_matching: notEvaluated(),
      };
    case 'proof_of_address':
      return {
        model,
        valid_age_in_days: unknown(),
        address_matching: notEvaluated(),
        name_matching: unknown(),
        valid_document_type: unknown(requestedKey),
      };
    default:
      return {
        model: 'generic',
        valid_document_type: unknown(requestedKey),
        name_matching: unknown(),
        registration_number_matching: notEvaluated(),
        valid_expiration_date: notEvaluated(),
      };
  }
}

/** Criteria that count: everything except the `not evaluated` ones (expected null and result null). */
function counted(results: DocumentAnalysisDetailedResults): [string, Criterion][] {
  return Object.entries(results)
    .filter((e): e is [string, Criterion] => typeof e[1] === 'object')
    .filter(([, c]) => !(c.result === null && c.expected === null));
}

const describe = ([name, c]: [string, Criterion]) => {
  const note = notes.get(c);
  return `${name.replace(/_/g, ' ')} (expected ${c.expected ?? 'a value'}, read ${c.received ?? 'nothing'}${note ? `; ${note}` : ''})`;
};

export async function analyzeDocument(input: AnalysisInput): Promise<AnalysisOutcome> {
  const requested = kindForKey(input.documentTypeKey);
  const model = modelForKind(requested);
  const texts = [];
  for (const f of input.files) texts.push(await readFileText(f.bytes, f.mime));
  const readable = texts.filter((t) => t.readable);
  const problems = texts.flatMap((t, i) => (t.readable ? [] : [`file ${i + 1}: ${t.problem}`]));

  if (readable.length === 0) {
    return {
      verdict: 'need_review',
      unreadable: true,
      comment: `The document could not be read automatically (${problems.join('; ') || 'no file'}); it needs a manual review.`,
      information: { expiration_date: null, document_analysis: emptyInformation(model) },
      detailedResults: { document_analysis: emptyResults(model, input.documentTypeKey) },
    };
  }

  // The newest document first (an up-to-date Kbis added to a check whose first one was too old):
  // its issue and expiration dates are the document's, and its labels are read before an older
  // file's. Joined in the order given, the first file's labelled issue date won, and a current
  // extract added with add_files left the check failing on the old one's age. Each file's dates
  // are read in its own text (a date at the top of one file took the end of another as its label).
  const files = readable
    .map((t, i) => {
      const dates = findDates(t.text);
      return { t, i, issued: issuingDate(dates, input.now), expires: expirationDate(dates) };
    })
    .sort((a, b) => later(a.issued, b.issued) || later(a.expires, b.expires) || a.i - b.i);
  const text = files.map((f) => f.t.text).join('\n');
  const issued = files.find((f) => f.issued)?.issued ?? null;
  const expires = files.find((f) => f.expires)?.expires ?? null;
  // some text read by OCR: a name a letter off may be a misreading (else a typing slip)
  const ocr = readable.some((t) => t.source !== 'pdf_text');
  const { kind: detected } = detectKind(text);
  const name = targetName(input.target);
  const isCompany = input.target.kind === 'company';
  const country = input.target.country?.toUpperCase() ?? null;

  let information: DocumentAnalysisInformation;
  let results: DocumentAnalysisDetailedResults;
  // Failures the model's detailed results have no place for (the reference's IBAN results carry no
  // document type): they count in the verdict and the comment all the same.
  const unlisted: [string, Criterion][] = [];

  if (model === 'registration_certificate') {
    const numbers = registrationNumbers(text);
    const labelledName = companyName(text);
    const docType = registrationDocumentType(text);
    const address = findAddress(text);
    information = {
      model,
      name: labelledName,
      registration_number: numbers.primary,
      registration_city: numbers.city,
      address,
      country: guessCountry(text, numbers.primary) ?? country,
      issuing_date: issued,
      document_type: detected === 'registration_certificate' ? docType.type : null,
      other_document_type: detected === 'registration_certificate' ? docType.other : null,
    };
    const target = input.target.registrationNumber;
    results = {
      model,
      // A certificate of incorporation is dated once, at incorporation: its age says nothing.
      valid_age_in_days:
        docType.other === 'certificate_of_incorporation' && input.maxAgeInDays == null
          ? notEvaluated(issued)
          : ageCriterion(issued, input.now, input.maxAgeInDays),
      address_matching: addressCriterion(text, input.target.address, address),
      registration_number_matching: numberCriterion(numbers, target, true),
      // a registered name is the company's whole name: "Acme Solutions SAS" is another company
      // than "Acme SAS", though it holds every word of it (legal forms are not significant words)
      name_matching: nameCriterion(text, name, labelledName, { authoritative: true, exact: true, ocr }),
      valid_document_type: typeCriterion(requested, detected, input.documentTypeKey),
    };
  } else if (model === 'iban') {
    const bank = bankDetails(text, { ocr });
    const holder = holderName(text);
    information = { model, holder_name: holder, bank_name: bank.bankName, iban: bank.iban, bic: bank.bic };
    const tIban = input.target.iban ? compactId(input.target.iban) : null;
    const tBic = input.target.bic ? compactId(input.target.bic) : null;
    results = {
      model,
      valid_iban: crit(
        bank.ibanValid === null ? null : bank.ibanValid ? 'approved' : 'rejected',
        'a valid IBAN',
        bank.iban,
      ),
      valid_bic: crit(
        bank.bicValid === null ? null : bank.bicValid ? 'approved' : 'rejected',
        'a valid BIC',
        bank.bic,
      ),
      name_matching: nameCriterion(text, name, holder, { authoritative: true, labelRequired: true, ocr }),
      iban_matching: tIban
        ? crit(bank.iban ? (bank.iban === tIban ? 'approved' : 'rejected') : null, tIban, bank.iban)
        : notEvaluated(bank.iban),
      bic_matching: tBic
        ? crit(
            bank.bic ? (bank.bic.slice(0, 8) === tBic.slice(0, 8) ? 'approved' : 'rejected') : null,
            tBic,
            bank.bic,
          )
        : notEvaluated(bank.bic),
    };
    // No IBAN on it and it reads as another kind (a registry extract, a bill): the wrong document,
    // not bank details that could not be read. With an IBAN, the IBAN decides (a bank statement or
    // a bank's letter may read as another kind and still be the account's proof).
    const kind = typeCriterion(requested, detected, input.documentTypeKey);
    if (bank.iban === null && kind.result === 'rejected') unlisted.push(['valid_document_type', kind]);
  } else if (model === 'proof_of_address') {
    const docType = proofOfAddressType(text);
    const address = findAddress(text);
    const customer = customerName(text);
    information = {
      model,
      issuing_date: issued,
      address,
      name: customer,
      document_type: detected === 'proof_of_address' ? docType.type : null,
      other_document_type: detected === 'proof_of_address' ? docType.other : null,
      country: guessCountry(text, null) ?? country,
      issuer: issuerOf(text),
    };
    results = {
      model,
      valid_age_in_days: ageCriterion(issued, input.now, input.maxAgeInDays),
      address_matching: addressCriterion(text, input.target.address, address),
      name_matching: nameCriterion(text, name, customer, { authoritative: false, ocr }),
      valid_document_type: typeCriterion(requested, detected, input.documentTypeKey),
    };
  } else {
    const numbers = registrationNumbers(text);
    const labelledName = isCompany ? companyName(text) : (personName(text) ?? customerName(text));
    const target = isCompany ? input.target.registrationNumber : null;
    const numberMatch = numberCriterion(numbers, target, false);
    information = {
      model: 'generic',
      document_type: detected,
      name: labelledName,
      registration_number: numbers.primary,
      issuing_date: issued,
      expiration_date: expires,
    };
    results = {
      model: 'generic',
      valid_document_type: typeCriterion(requested, detected, input.documentTypeKey),
      name_matching: nameCriterion(text, name, labelledName, { authoritative: false, ocr }),
      registration_number_matching: numberMatch,
      valid_expiration_date: expiryCriterion(expires, input.now, requested === 'id_card_copy'),
    };
  }

  // A name found without a label is the name read all the same: the information said null beside
  // an approved name_matching that had read it.
  if (
    'name' in information &&
    information.name === null &&
    'name_matching' in results &&
    results.name_matching.result === 'approved'
  )
    information.name = results.name_matching.received;

  const evaluated = counted(results);
  const rejected = [
    ...unlisted,
    ...evaluated.filter(([, c]) => c.result === 'rejected' || c.result === 'error'),
  ];
  const open = evaluated.filter(([, c]) => c.result === null);
  // An expired document fails whatever its model (registration certificates and RIBs rarely expire).
  const expired = expires !== null && expires < todayIso(input.now) && model !== 'generic';
  // Text read by OCR in which no kind of document is recognised may be misread (the fragments of a
  // page turned sideways are unreadable already, text.ts; this is text read with more confidence):
  // what it fails is for a person to judge, never a rejection by itself. A PDF's text layer says
  // what the issuer typed and still rejects.
  const unsure = ocr && detected === null && (rejected.length > 0 || expired);
  const verdict =
    (rejected.length > 0 || expired) && !unsure
      ? 'rejected'
      : open.length > 0 || unsure
        ? 'need_review'
        : 'approved';
  const parts: string[] = [];
  if (unsure)
    parts.push(
      'Not rejected automatically: no document wording was recognised in the text the OCR read, which may be misread.',
    );
  if (rejected.length > 0) parts.push(`Failed: ${rejected.map(describe).join('; ')}.`);
  if (expired) parts.push(`The document expired on ${expires}.`);
  if (open.length > 0) parts.push(`Could not be verified: ${open.map(describe).join('; ')}.`);
  if (problems.length > 0) parts.push(`Not read: ${problems.join('; ')}.`);
  return {
    verdict,
    unreadable: false,
    comment: parts.length > 0 ? parts.join(' ') : null,
    information: { expiration_date: expires, document_analysis: information },
    detailedResults: { document_analysis: results },
  };
}

/** Sort order putting the later of two yyyy-MM-dd dates first, a date before none. */
function later(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a > b ? -1 : 1;
}

function guessCountry(text: string, number: string | null): string | null {
  const t = normText(text);
  if (/\bKBIS\b|\bRCS\b|\bSIREN\b|\bSIRET\b|REPUBLIQUE FRANCAISE|\bFRANCE\b/.test(t)) return 'FR';
  if (/COMPANIES HOUSE|UNITED KINGDOM|ENGLAND AND WALES/.test(t)) return 'GB';
  if (/HANDELSREGISTER|DEUTSCHLAND/.test(t)) return 'DE';
  if (/VISURA CAMERALE|REGISTRO DELLE IMPRESE|ITALIA/.test(t)) return 'IT';
  if (number && /^\d{9}$/.test(number)) return 'FR';
  return null;
}

function issuerOf(text: string): string | null {
  const t = normText(text);
  const known = [
    'EDF',
    'ENGIE',
    'TOTALENERGIES',
    'VEOLIA',
    'SUEZ',
    'ORANGE',
    'SFR',
    'BOUYGUES TELECOM',
    'FREE',
    'DGFIP',
    'BRITISH GAS',
    'EDF ENERGY',
    'THAMES WATER',
    'VODAFONE',
    'BT',
  ];
  return known.find((k) => new RegExp(`\\b${k}\\b`).test(t)) ?? null;
}
