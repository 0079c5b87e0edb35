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

export function documentTypeLabel(label: string, lang: string): string {
  return lang === 'fr' ? (BUILT_IN_FR[label] ?? label) : label;
}
