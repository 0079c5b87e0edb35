import type { Static } from 'typebox';
import { Type } from 'typebox';
import { DateOnly, Nullable } from '../../../../http/common-schemas.ts';

/**
 * Shapes of what the document analysis writes into a document check's data, after the reference
 * OpenAPI (`DocumentCheckDataInformation`, `DocumentCheckDataDetailedResults` and the per-model
 * `DocumentAnalysis*Information` / `DocumentAnalysis*DetailedResults`). Each variant carries its
 * `model` (the reference's discriminator). `generic` is a vericase extension for the document types
 * the reference has no model for (articles of association, ID card copy, UBO register extract, tax
 * certificate, custom types).
 */

const NullableDate = Nullable(DateOnly);
const NullableString = Nullable(Type.String());

export const ANALYSIS_MODELS = ['registration_certificate', 'iban', 'proof_of_address', 'generic'] as const;
export type AnalysisModel = (typeof ANALYSIS_MODELS)[number];

export const REGISTRATION_DOCUMENT_TYPES = [
  'kbis',
  'sirene_extract',
  'pappers_extract',
  'inscription_rne',
  'infonet_extract',
  'repertoire_metiers_extract',
  'handelsregister',
  'visura_camerale',
  'other',
] as const;

export const PROOF_OF_ADDRESS_DOCUMENT_TYPES = [
  'energy_bill',
  'telco_bill',
  'official_document',
  'other',
] as const;

/** One criterion: approved / rejected / error, or null when it could not be evaluated. */
export const DocumentAnalysisDetailedResult = Type.Object({
  result: Nullable(Type.Enum(['approved', 'rejected', 'error'])),
  expected: Nullable(
    Type.String({ description: 'What the criterion looked for (from the target or the rules)' }),
  ),
  received: Nullable(Type.String({ description: 'What was read from the document' })),
});
export type DocumentAnalysisDetailedResult = Static<typeof DocumentAnalysisDetailedResult>;

const criterion = DocumentAnalysisDetailedResult;
const model = <M extends AnalysisModel>(m: M) => Type.Literal(m);

export const DocumentAnalysisRegistrationCertificateInformation = Type.Object({
  model: model('registration_certificate'),
  name: NullableString,
  registration_number: NullableString,
  registration_city: NullableString,
  address: NullableString,
  country: NullableString,
  issuing_date: NullableDate,
  document_type: Nullable(Type.Enum(REGISTRATION_DOCUMENT_TYPES)),
  other_document_type: Nullable(Type.String({ description: 'Document type found for the "other" category' })),
});

export const DocumentAnalysisIBANInformation = Type.Object({
  model: model('iban'),
  holder_name: NullableString,
  bank_name: NullableString,
  iban: NullableString,
  bic: NullableString,
});

export const DocumentAnalysisProofOfAddressInformation = Type.Object({
  model: model('proof_of_address'),
  issuing_date: NullableDate,
  address: NullableString,
  name: NullableString,
  document_type: Nullable(Type.Enum(PROOF_OF_ADDRESS_DOCUMENT_TYPES)),
  other_document_type: Nullable(Type.String({ description: 'Document type found for the "other" category' })),
  country: NullableString,
  issuer: Nullable(Type.String({ description: 'Issuer of the document' })),
});

export const DocumentAnalysisGenericInformation = Type.Object({
  model: model('generic'),
  document_type: Nullable(
    Type.String({ description: 'The kind of document the text looks like (e.g. `articles_of_association`)' }),
  ),
  name: NullableString,
  registration_number: NullableString,
  issuing_date: NullableDate,
  expiration_date: NullableDate,
});

export const DocumentAnalysisInformation = Type.Union([
  DocumentAnalysisRegistrationCertificateInformation,
  DocumentAnalysisIBANInformation,
  DocumentAnalysisProofOfAddressInformation,
  DocumentAnalysisGenericInformation,
]);
export type DocumentAnalysisInformation = Static<typeof DocumentAnalysisInformation>;

/** `data.information` of a document check. */
export const DocumentCheckDataInformation = Type.Object({
  expiration_date: Nullable(Type.String({ format: 'date', description: 'Expiration date read, yyyy-MM-dd' })),
  document_analysis: Nullable(DocumentAnalysisInformation),
});
export type DocumentCheckDataInformation = Static<typeof DocumentCheckDataInformation>;

export const DocumentAnalysisRegistrationCertificateDetailedResults = Type.Object({
  model: model('registration_certificate'),
  valid_age_in_days: criterion,
  address_matching: criterion,
  registration_number_matching: criterion,
  name_matching: criterion,
  valid_document_type: criterion,
});

export const DocumentAnalysisIBANDetailedResults = Type.Object({
  model: model('iban'),
  valid_iban: criterion,
  valid_bic: criterion,
  name_matching: criterion,
  iban_matching: criterion,
  bic_matching: criterion,
});

export const DocumentAnalysisProofOfAddressDetailedResults = Type.Object({
  model: model('proof_of_address'),
  valid_age_in_days: criterion,
  address_matching: criterion,
  name_matching: criterion,
  valid_document_type: criterion,
});

export const DocumentAnalysisGenericDetailedResults = Type.Object({
  model: model('generic'),
  valid_document_type: criterion,
  name_matching: criterion,
  registration_number_matching: criterion,
  valid_expiration_date: criterion,
});

export const DocumentAnalysisDetailedResults = Type.Union([
  DocumentAnalysisRegistrationCertificateDetailedResults,
  DocumentAnalysisIBANDetailedResults,
  DocumentAnalysisProofOfAddressDetailedResults,
  DocumentAnalysisGenericDetailedResults,
]);
export type DocumentAnalysisDetailedResults = Static<typeof DocumentAnalysisDetailedResults>;

/** `data.detailed_results` of a document check (deprecated in the reference, still its only breakdown). */
export const DocumentCheckDataDetailedResults = Type.Object({
  document_analysis: Nullable(DocumentAnalysisDetailedResults),
});
export type DocumentCheckDataDetailedResults = Static<typeof DocumentCheckDataDetailedResults>;
