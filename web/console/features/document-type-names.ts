/**
 * A document type's label in the console's language. The built-in types' labels are workspace data
 * written in English (src/db/migrations/0016_document_types.ts): while a label is still the
 * built-in one, French shows its French name (as the client portal does, web/portal/labels.ts); a
 * label an operator wrote is shown as written.
 */
const BUILT_IN_FR: Record<string, string> = {
  'Registration certificate': 'Extrait d’immatriculation',
  'Articles of association': 'Statuts',
  'Proof of address': 'Justificatif de domicile',
  'Bank account details (RIB)': 'Relevé d’identité bancaire (RIB)',
  'ID card copy': 'Copie de la pièce d’identité',
  'UBO register extract': 'Extrait du registre des bénéficiaires effectifs',
  'Tax certificate': 'Attestation fiscale',
  'Shareholder register': 'Registre des actionnaires',
  'Financial statements': 'Comptes annuels',
  'Power of attorney': 'Procuration',
};

/**
 * The built-in types' keys (src/db/migrations/0016_document_types.ts). A workspace's own type may
 * not take one of them, so a key tells a built-in type apart; the server refuses to archive one.
 */
export const BUILT_IN_DOCUMENT_TYPE_KEYS: ReadonlySet<string> = new Set([
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
]);

export function documentTypeLabel(label: string, lang: string): string {
  return lang === 'fr' ? (BUILT_IN_FR[label] ?? label) : label;
}
