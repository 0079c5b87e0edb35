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
  'shareholder_register',
  'financial_statements',
  'power_of_attorney',
] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** Words of a custom key (split on `_`, `-`, spaces and dots; `_x_` matches a whole word only). */
const KEY_WORDS: [RegExp, DocumentKind][] = [
  [
    /registration|kbis|incorporation|company_extract|_extrait_|sirene|_rne_|_rcs_|handelsregister/,
    'registration_certificate',
  ],
  [/articles|statut|bylaws|memorandum|constitution/, 'articles_of_association'],
  [/address|adresse|domicile|utility|_bill_|facture|justificatif/, 'proof_of_address'],
  [/bank|_rib_|iban|bancaire/, 'bank_account_details'],
  [/_ubo_|beneficial|beneficiaires|_rbe_|_psc_/, 'ubo_register_extract'],
  [/shareholder|actionnaires|register_of_members|mouvements_de_titres/, 'shareholder_register'],
  [/financial|bilan|accounts|comptes_annuels|balance_sheet|liasse/, 'financial_statements'],
  [/attorney|pouvoir|procuration|mandat/, 'power_of_attorney'],
  [/_tax_|fiscal|urssaf|_vat_|vigilance/, 'tax_certificate'],
  [
    /id_card|identity|identite|passport|passeport|_cni_|id_document|driving|permis|residence_permit|titre_de_sejour/,
    'id_card_copy',
  ],
];

/** The kind a document type key asks for, or null for a custom type the analysis cannot name. */
export function kindForKey(key: string): DocumentKind | null {
  const k = key.toLowerCase();
  if ((DOCUMENT_KINDS as readonly string[]).includes(k)) return k as DocumentKind;
  const words = `_${k.replace(/[^a-z0-9]+/g, '_')}_`;
  for (const [re, kind] of KEY_WORDS) if (re.test(words)) return kind;
  return null;
}

/** The reference analysis model used for a kind (`generic` where the reference has none). */
export function modelForKind(kind: DocumentKind | null): AnalysisModel {
  if (kind === 'registration_certificate') return 'registration_certificate';
  if (kind === 'bank_account_details') return 'iban';
  if (kind === 'proof_of_address') return 'proof_of_address';
  return 'generic';
}
