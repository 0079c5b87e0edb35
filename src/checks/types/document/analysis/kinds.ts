import type { AnalysisModel } from './schemas.ts';

/**
 * The kinds of documents the analysis recognises, and how a check's `document_type_key` maps to
 * one. Built-in keys are matched exactly; a custom key is matched by the words it contains
 * (`kbis`, `rib`, `iban`, `address`...), else it is `unknown` (type not verified).
 */
export const DOCUMENT_KINDS = [
  'registration_certificate',
  'articles_of_association',
  'proof_of_address',
  'bank_account_details',
  'id_card_copy',
  'ubo_register_extract',
  'tax_certificate',
] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

const KEY_WORDS: [RegExp, DocumentKind][] = [
  [
    /registration|kbis|certificate_of_incorporation|incorporation|company_extract|sirene|rne/,
    'registration_certificate',
  ],
  [/articles|statuts|bylaws|memorandum/, 'articles_of_association'],
  [/address|domicile|utility|bill/, 'proof_of_address'],
  [/bank|rib|iban/, 'bank_account_details'],
  [/ubo|beneficial|beneficiaires|rbe|psc/, 'ubo_register_extract'],
  [/tax|fiscal|urssaf|vat/, 'tax_certificate'],
  [/id_card|identity|passport|cni|id_document/, 'id_card_copy'],
];

/** The kind a document type key asks for, or null for a custom type the analysis cannot name. */
export function kindForKey(key: string): DocumentKind | null {
  const k = key.toLowerCase();
  if ((DOCUMENT_KINDS as readonly string[]).includes(k)) return k as DocumentKind;
  for (const [re, kind] of KEY_WORDS) if (re.test(k)) return kind;
  return null;
}

/** The reference analysis model used for a kind (`generic` where the reference has none). */
export function modelForKind(kind: DocumentKind | null): AnalysisModel {
  if (kind === 'registration_certificate') return 'registration_certificate';
  if (kind === 'bank_account_details') return 'iban';
  if (kind === 'proof_of_address') return 'proof_of_address';
  return 'generic';
}
