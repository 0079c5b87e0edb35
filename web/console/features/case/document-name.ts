/**
 * A case document's name in the console's language. The server names them in English
 * (src/cases/documents/list-case-documents.ts: a check kind, `ID document (passport)`, a document
 * type's label); French shows its own words for those and a label an operator wrote as written.
 */
import { documentTypeLabel } from '../document-type-names.ts';

const KIND_FR: Record<string, string> = {
  Document: 'Document',
  'ID document': 'Pièce d’identité',
  'ID verification': 'Vérification d’identité',
  'Electronic signature': 'Signature électronique',
  'Case report': 'Rapport du dossier',
};

const ID_TYPE_FR: Record<string, string> = {
  passport: 'passeport',
  'identity card': 'carte d’identité',
  'driving license': 'permis de conduire',
  'residence permit': 'titre de séjour',
  visa: 'visa',
  other: 'autre',
};

export function documentName(name: string, lang: string): string {
  if (lang !== 'fr') return name;
  if (KIND_FR[name]) return KIND_FR[name];
  const m = /^(ID document|Electronic signature|Document|Case report) \((.+)\)$/.exec(name);
  if (m) return `${KIND_FR[m[1]]} (${m[1] === 'ID document' ? (ID_TYPE_FR[m[2]] ?? m[2]) : m[2]})`;
  return documentTypeLabel(name, lang);
}

/**
 * A document's name as the name of its downloaded file. A report is named after its time zone
 * (`Case report (Europe/Paris)`) and an operator's document type label may hold a slash, which a
 * browser drops or turns into a folder separator; so do the characters Windows refuses.
 */
export function safeFileName(name: string): string {
  const cleaned = name
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.replace(/^[.-]+|[.-]+$/g, '').slice(0, 150) || 'document';
}
