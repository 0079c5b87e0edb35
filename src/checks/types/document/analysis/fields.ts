import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { sirenOfFrenchVat } from '../../../../shared/french-vat.ts';
import { foldText } from './dates.ts';
import type { DocumentKind } from './kinds.ts';
import { compactId, digitsOnly, luhnValid, normText } from './normalize.ts';
import type { PROOF_OF_ADDRESS_DOCUMENT_TYPES, REGISTRATION_DOCUMENT_TYPES } from './schemas.ts';

/** What can be read from a document's text, field by field (heuristics over French and English wording). */

const KIND_SIGNS: Record<DocumentKind, [RegExp, number][]> = {
  registration_certificate: [
    [/EXTRAIT KBIS|\bK ?BIS\b/, 5],
    [/REGISTRE DU COMMERCE|\bR ?C ?S\b|GREFFE DU TRIBUNAL|IMMATRICULATION PRINCIPALE/, 3],
    [/CERTIFICATE OF INCORPORATION|COMPANIES HOUSE|REGISTRAR OF COMPANIES/, 5],
    // an English registry extract (the sandbox registry's ordered one among them)
    [/REGISTRY EXTRACT|EXTRACT FROM THE (?:\w+ )?REGIST|(?:TRADE|COMMERCIAL|COMPANIES) REGISTER\b/, 5],
    [/AVIS DE SITUATION|REPERTOIRE SIRENE|REGISTRE NATIONAL DES ENTREPRISES|REPERTOIRE DES METIERS/, 5],
    [/HANDELSREGISTER|VISURA CAMERALE|REGISTRO DELLE IMPRESE|HANDELSREGISTERAUSZUG/, 5],
    [/\bSIREN\b|\bSIRET\b|COMPANY NUMBER|REGISTRATION NUMBER/, 1],
    [/FORME JURIDIQUE|CAPITAL SOCIAL|DATE D IMMATRICULATION/, 1],
  ],
  articles_of_association: [
    [/\bSTATUTS\b|ARTICLES OF ASSOCIATION|MEMORANDUM OF ASSOCIATION|BYLAWS|SATZUNG/, 5],
    [/OBJET SOCIAL|SIEGE SOCIAL|ARTICLE 1\b|ARTICLE PREMIER|DUREE DE LA SOCIETE/, 1],
  ],
  proof_of_address: [
    [/JUSTIFICATIF DE DOMICILE|ATTESTATION DE DOMICILE|PROOF OF ADDRESS|ATTESTATION D HEBERGEMENT/, 5],
    [/FACTURE|INVOICE|\bBILL\b|AVIS D ECHEANCE|QUITTANCE DE LOYER/, 3],
    [
      /ELECTRICITE|ELECTRICITY|\bGAZ\b|\bGAS\b|\bEAU\b|WATER|\bKWH\b|ENERGIE|TELEPHONE|MOBILE|INTERNET|\bBOX\b/,
      2,
    ],
    [/ADRESSE DE CONSOMMATION|POINT DE LIVRAISON|ADRESSE DE FACTURATION|BILLING ADDRESS|SERVICE ADDRESS/, 3],
    [/AVIS D IMPOSITION|TAXE D HABITATION|TAXE FONCIERE/, 4],
  ],
  bank_account_details: [
    [/RELEVE D ?IDENTITE BANCAIRE|\bRIB\b|BANK DETAILS|BANK ACCOUNT DETAILS|COORDONNEES BANCAIRES/, 5],
    [/\bIBAN\b/, 2],
    [/\bBIC\b|\bSWIFT\b|TITULAIRE DU COMPTE|ACCOUNT HOLDER|CODE BANQUE|CODE GUICHET|CLE RIB/, 2],
  ],
  id_card_copy: [
    [/CARTE NATIONALE D IDENTITE|IDENTITY CARD|PASSEPORT|PASSPORT|PERSONALAUSWEIS|CARTA D IDENTITA/, 5],
    [/PERMIS DE CONDUIRE|DRIVING LICEN[CS]E|TITRE DE SEJOUR|RESIDENCE PERMIT/, 5],
    [/IDFRA|\bP<|I<[A-Z]{3}|NATIONALITE|NATIONALITY|DATE DE NAISSANCE|DATE OF BIRTH|\bSEXE\b/, 2],
  ],
  shareholder_register: [
    [
      /REGISTRE DES MOUVEMENTS DE TITRES|REGISTRE DES ACTIONNAIRES|SHAREHOLDER REGISTER|REGISTER OF MEMBERS|REGISTER OF SHAREHOLDERS|LISTE DES ASSOCIES/,
      5,
    ],
    [/NOMBRE D ACTIONS|NUMBER OF SHARES|ACTIONS ORDINAIRES|ORDINARY SHARES|PARTS SOCIALES/, 2],
  ],
  financial_statements: [
    [
      /COMPTES ANNUELS|BALANCE SHEET|INCOME STATEMENT|PROFIT AND LOSS|LIASSE FISCALE|FINANCIAL STATEMENTS|ETATS FINANCIERS/,
      5,
    ],
    [/\bBILAN\b|COMPTE DE RESULTAT|CHIFFRE D AFFAIRES|TOTAL ACTIF|TOTAL PASSIF|CAPITAUX PROPRES|TURNOVER/, 2],
  ],
  power_of_attorney: [
    [/POUVOIR|PROCURATION|POWER OF ATTORNEY|DELEGATION DE POUVOIRS?|\bMANDAT\b/, 5],
    [/SOUSSIGNE|UNDERSIGNED|DONNE POUVOIR|HEREBY APPOINT|BON POUR POUVOIR/, 2],
  ],
  ubo_register_extract: [
    [
      /BENEFICIAIRES? EFFECTIFS?|BENEFICIAL OWNERS?|PERSONS WITH SIGNIFICANT CONTROL|TRANSPARENZREGISTER|\bRBE\b/,
      5,
    ],
    [/MODALITES DE CONTROLE|NATURE OF CONTROL|DETENTION DIRECTE|DETENTION INDIRECTE/, 2],
  ],
  tax_certificate: [
    [/ATTESTATION DE REGULARITE FISCALE|TAX CERTIFICATE|TAX COMPLIANCE|ATTESTATION DE VIGILANCE/, 5],
    [/\bDGFIP\b|FINANCES PUBLIQUES|URSSAF|SERVICE DES IMPOTS|\bHMRC\b|OBLIGATIONS FISCALES/, 2],
  ],
};

/** The kind of document the text looks like (highest score; null when nothing points anywhere). */
export function detectKind(text: string): { kind: DocumentKind | null; scores: Record<string, number> } {
  const t = normText(text).replace(/\n/g, ' ');
  const scores: Record<string, number> = {};
  let best: DocumentKind | null = null;
  for (const [kind, signs] of Object.entries(KIND_SIGNS) as [DocumentKind, [RegExp, number][]][]) {
    scores[kind] = signs.reduce((s, [re, w]) => s + (re.test(t) ? w : 0), 0);
    if (scores[kind] >= 3 && (best === null || scores[kind] > scores[best])) best = kind;
  }
  return { kind: best, scores };
}

export function registrationDocumentType(text: string): {
  type: (typeof REGISTRATION_DOCUMENT_TYPES)[number];
  other: string | null;
} {
  const t = normText(text).replace(/\n/g, ' ');
  if (/K ?BIS/.test(t)) return { type: 'kbis', other: null };
  if (/AVIS DE SITUATION|SIRENE/.test(t)) return { type: 'sirene_extract', other: null };
  if (/PAPPERS/.test(t)) return { type: 'pappers_extract', other: null };
  if (/REGISTRE NATIONAL DES ENTREPRISES|INSCRIPTION AU RNE|\bRNE\b/.test(t))
    return { type: 'inscription_rne', other: null };
  if (/INFONET/.test(t)) return { type: 'infonet_extract', other: null };
  if (/REPERTOIRE DES METIERS/.test(t)) return { type: 'repertoire_metiers_extract', other: null };
  if (/HANDELSREGISTER/.test(t)) return { type: 'handelsregister', other: null };
  if (/VISURA CAMERALE|REGISTRO DELLE IMPRESE/.test(t)) return { type: 'visura_camerale', other: null };
  if (/CERTIFICATE OF INCORPORATION/.test(t)) return { type: 'other', other: 'certificate_of_incorporation' };
  return { type: 'other', other: 'registry_extract' };
}

export function proofOfAddressType(text: string): {
  type: (typeof PROOF_OF_ADDRESS_DOCUMENT_TYPES)[number];
  other: string | null;
} {
  const t = normText(text).replace(/\n/g, ' ');
  if (/ELECTRICITE|ELECTRICITY|\bGAZ\b|\bGAS\b|\bKWH\b|ENERGIE|ENERGY|\bEDF\b|ENGIE|\bEAU\b|WATER/.test(t))
    return { type: 'energy_bill', other: null };
  if (/TELEPHONE|MOBILE|INTERNET|\bBOX\b|FIBRE|ORANGE|\bSFR\b|BOUYGUES|\bFREE\b|TELECOM|BROADBAND/.test(t))
    return { type: 'telco_bill', other: null };
  if (/AVIS D IMPOSITION|TAXE|IMPOTS|ATTESTATION|PREFECTURE|MAIRIE|COUNCIL TAX|HMRC/.test(t))
    return { type: 'official_document', other: null };
  if (/QUITTANCE DE LOYER|LOYER|RENT/.test(t)) return { type: 'other', other: 'rent_receipt' };
  return { type: 'other', other: null };
}

/** The value after a label on the same line (after `:` or spaces), or on the next line when empty. */
export function labelledValue(text: string, label: RegExp): string | null {
  const lines = foldText(text).split(/\r?\n/);
  const original = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const m = label.exec(lines[i]);
    if (!m) continue;
    const rest = original[i]
      .slice(m.index + m[0].length)
      .replace(/^[\s:.\-–—]+/, '')
      .trim();
    if (rest.length >= 2) return rest;
    const next = original[i + 1]?.trim();
    if (next && next.length >= 2) return next;
  }
  return null;
}

const NAME_LABELS =
  /(DENOMINATION OU RAISON SOCIALE|DENOMINATION(?: SOCIALE)?|RAISON SOCIALE|NOM COMMERCIAL|COMPANY NAME|NAME OF COMPANY|NOM DE LA SOCIETE|FIRMA|DENOMINAZIONE)\s*:?/;
const HOLDER_LABELS =
  /(TITULAIRE(?: DU COMPTE)?|ACCOUNT HOLDER|ACCOUNT NAME|BENEFICIAIRE|INTITULE DU COMPTE|HOLDER)\s*:?/;
const CUSTOMER_LABELS =
  /(NOM DU CLIENT|CLIENT|TITULAIRE DU CONTRAT|TITULAIRE|CUSTOMER NAME|CUSTOMER|NOM|NAME)\s*:/;

export const companyName = (text: string) => labelledValue(text, NAME_LABELS);

const SURNAME_LABELS = /(?<![A-Z])(NOM D USAGE|NOM|SURNAME|LAST NAME|FAMILY NAME)\s*:/;
const GIVEN_NAME_LABELS = /(PRENOM\(S\)|PRENOMS?|GIVEN NAMES?|FORENAMES?|FIRST NAMES?)\s*:/;

/**
 * A person's full name on an identity document, which labels the surname (`Nom`) and the given
 * names (`Prénom(s)`) apart: both, given names first; null when either is missing (the caller
 * falls back to a single name label). Reading `Nom :` alone gave the surname as the name read.
 */
export function personName(text: string): string | null {
  const surname = labelledValue(text, SURNAME_LABELS);
  const given = labelledValue(text, GIVEN_NAME_LABELS);
  return surname && given ? `${given} ${surname}` : null;
}
export const holderName = (text: string) => labelledValue(text, HOLDER_LABELS);
export const customerName = (text: string) => labelledValue(text, CUSTOMER_LABELS);

export interface RegistrationNumbers {
  /** The number to show: the labelled one, else the first candidate. */
  primary: string | null;
  /** Every identifier-looking value, compacted (letters and digits). */
  candidates: string[];
  city: string | null;
}

/** SIREN / SIRET / RCS numbers, Companies House numbers and other labelled registration numbers. */
export function registrationNumbers(text: string): RegistrationNumbers {
  const t = foldText(text);
  const candidates: string[] = [];
  const labelled: string[] = [];
  const add = (v: string, isLabelled: boolean) => {
    if (!candidates.includes(v)) candidates.push(v);
    if (isLabelled && !labelled.includes(v)) labelled.push(v);
  };
  // French: 9-digit SIREN or 14-digit SIRET, written with or without spaces; OCR may confuse O/0 etc.
  for (const m of t.matchAll(
    /(?<![A-Z0-9])([0-9OIL]{3}) ?([0-9OIL]{3}) ?([0-9OIL]{3})(?: ?([0-9OIL]{5}))?(?![0-9])/g,
  )) {
    const digits = digitsOnly(m[0]);
    if (!/\d{9}/.test(digits) || (m[0].match(/\d/g) ?? []).length < 7) continue;
    const before = t.slice(Math.max(0, m.index - 40), m.index);
    const isLabelled =
      /SIREN|SIRET|R\.? ?C\.? ?S|IMMATRICULATION|IDENTIFICATION|REGISTRATION|NUMERO|N°|NO\b/.test(before);
    if (isLabelled || luhnValid(digits)) add(digits, isLabelled);
  }
  // Labelled identifiers elsewhere (Companies House: 8 characters; other registers).
  for (const m of t.matchAll(
    /(COMPANY (?:REGISTRATION )?NUMBER|COMPANY NO\.?|REGISTRATION (?:NUMBER|NO\.?)|REG\. ?NO\.?|HANDELSREGISTER(?:NUMMER)?|HRB|NUMERO D IMMATRICULATION|ORGANISASJONSNUMMER|CODICE FISCALE)\s*:?\s*([A-Z0-9][A-Z0-9 ]{4,16}[A-Z0-9])/g,
  )) {
    const first = m[2].split(/\s{2,}/)[0];
    const value = compactId(first);
    if (/\d{4}/.test(value)) add(value, true);
  }
  const city =
    /R\.? ?C\.? ?S\.?\s+(?:DE\s+)?([A-Z][A-Z' -]{1,30}?)(?:\s+[AB]\b|\s+\d|\s*$|\n)/m.exec(t)?.[1]?.trim() ??
    /GREFFE DU TRIBUNAL (?:DE COMMERCE|JUDICIAIRE|DES ACTIVITES ECONOMIQUES) D[E']\s*([A-Z][A-Z' -]{1,30})/m
      .exec(t)?.[1]
      ?.trim() ??
    null;
  return { primary: labelled[0] ?? candidates[0] ?? null, candidates, city: city ? titleCase(city) : null };
}

const titleCase = (s: string) => s.toLowerCase().replace(/(^|[\s'-])\p{L}/gu, (c) => c.toUpperCase());

/**
 * The number read that matches the target's, or null (SIREN inside a SIRET, either way; OCR
 * look-alikes folded in what was read). The target is typed data, not OCR: besides its look-alike
 * folding, its plain digits count when they make a SIREN or SIRET (`RCS Paris B 552 100 554`), and
 * a French VAT number gives its SIREN (`FR40552100554`).
 */
export function registrationNumberMatch(found: string[], target: string): string | null {
  const want = compactId(target);
  const plain = target.replace(/\D/g, '');
  const wants = new Set([digitsOnly(target)]);
  if (plain.length === 9 || plain.length === 14) wants.add(plain);
  const vat = sirenOfFrenchVat(want);
  if (vat) wants.add(vat);
  const matches = (f: string, wantDigits: string) => {
    if (/^\d+$/.test(wantDigits) && /^\d+$/.test(f)) {
      if (wantDigits === f) return true;
      if (wantDigits.length === 9 && f.length === 14 && f.startsWith(wantDigits)) return true;
      if (wantDigits.length === 14 && f.length === 9 && wantDigits.startsWith(f)) return true;
    }
    return digitsOnly(f) === wantDigits && wantDigits.length >= 6;
  };
  return found.find((f) => f === want || [...wants].some((w) => matches(f, w))) ?? null;
}

export interface BankDetails {
  iban: string | null;
  ibanValid: boolean | null;
  bic: string | null;
  bicValid: boolean | null;
  bankName: string | null;
}

/**
 * IBAN and BIC found in the text, validated with ibantools (country rules and check digits).
 * `ocr`: the text was read by OCR, whose letters for digits (O for 0...) are turned back; a text
 * layer holds what the issuer typed, so an IBAN with a letter for a digit there is read as written
 * (and fails its check digits) rather than silently corrected.
 */
export function bankDetails(text: string, { ocr }: { ocr: boolean }): BankDetails {
  const t = foldText(text);
  const ibanCandidates: string[] = [];
  const labelled = /IBAN\s*(?:\([^)]*\))?\s*:?\s*([A-Z0-9][A-Z0-9 ]{13,45})/.exec(t);
  if (labelled) ibanCandidates.push(labelled[1]);
  for (const m of t.matchAll(/\b([A-Z]{2}\s?\d{2}(?:\s?[A-Z0-9]){10,32})/g)) ibanCandidates.push(m[1]);
  let iban: string | null = null;
  let ibanValid: boolean | null = null;
  for (const raw of ibanCandidates) {
    const compact = electronicFormatIBAN(raw) ?? raw.replace(/\s+/g, '');
    // The run may swallow the next word: try the longest valid prefix; then the same with the
    // letters OCR puts for digits (O for 0...) turned back into digits, which the check digits
    // must still accept.
    const variants = ocr ? [compact, compact.slice(0, 2) + digitsOnly(compact.slice(2))] : [compact];
    for (const variant of variants) {
      for (let len = Math.min(34, variant.length); len >= 15; len--) {
        if (isValidIBAN(variant.slice(0, len))) {
          iban = variant.slice(0, len);
          ibanValid = true;
          break;
        }
      }
      if (iban) break;
    }
    if (iban) break;
  }
  if (!iban && ibanCandidates.length > 0) {
    // Nothing valid: report what was read, cut to the raw run's groups of 4 (how IBANs are printed).
    const first = ibanCandidates[0].trim();
    const groups = first.split(/\s+/);
    const kept: string[] = [];
    for (const g of groups) {
      if (kept.length > 0 && !/\d/.test(g) && g.length > 4) break;
      kept.push(g);
      if (kept.join('').length >= 34) break;
    }
    iban = kept.join('').slice(0, 34);
    ibanValid = false;
  }
  let bic: string | null = null;
  let bicValid: boolean | null = null;
  // `BIC: …`, `BIC / SWIFT …`, `SWIFT code …`, and the French RIB's `BIC (Bank Identifier Code)` with
  // its value on the next line, as the IBAN's label is read above
  const bicMatch =
    /\b(?:BIC|SWIFT)(?:\s*\/\s*(?:SWIFT|BIC))?(?:\s*CODE)?(?:\s*\([^)]*\))?\s*:?\s*([A-Z0-9]{8}(?:[A-Z0-9]{3})?)\b/.exec(
      t,
    );
  if (bicMatch) {
    bic = bicMatch[1];
    bicValid = isValidBIC(bic);
  }
  // not the RIB's `Code banque :` / `Code établissement :` (the bank's code, digits), and a name has
  // letters: a value of digits alone is no bank name
  const bankLabel = labelledValue(
    text,
    /(?<!CODE\s{0,3})\b(BANQUE|DOMICILIATION|BANK NAME|BANK|ETABLISSEMENT)\s*:/,
  );
  const bankName = bankLabel && /\p{L}{2}/u.test(bankLabel) ? bankLabel : null;
  return { iban, ibanValid, bic, bicValid, bankName };
}

/**
 * A postal code then a city, at the end of a line (`75002 Paris`, `75002, Paris, FR`); not an
 * amount (`Capital social : 69000 EUR` has five digits and a word too).
 */
const POSTAL_CITY = /\b(\d{5}),?\s+(\p{L}[\p{L}' -]*?)(?:\s*,\s*\p{L}[\p{L} ]*)?$/u;
const CURRENCY = /^(?:EUR|EUROS?|USD|GBP|CHF|DOLLARS?|FRANCS?|LIVRES?|POUNDS?)$/i;
const AMOUNT_LABEL = /CAPITAL|MONTANT|TOTAL|AMOUNT|SOLDE|BALANCE|PRIX|PRICE|\bTVA\b|\bVAT\b/;
/** A label written before the address without a colon (a table's label cell read on one line). */
const ADDRESS_LABEL =
  /^(?:adresse(?: du si[eè]ge(?: social)?| de consommation| de facturation| postale)?|si[eè]ge social|registered office(?: address)?|billing address|service address|address)\s+/i;

/** A line naming the address it holds as the document's own (not a former seat or a branch). */
const OWN_ADDRESS_LABEL = /^(?:ADRESSE|SIEGE|REGISTERED OFFICE|ADDRESS|BILLING ADDRESS|SERVICE ADDRESS)\b/;

/**
 * A French postal address line (street number, postal code and city), best effort: a line labelled
 * as the address or seat first (`Adresse du siège : …`), else the first postal line (a branch or a
 * former seat listed above the seat was read as the address).
 */
export function findAddress(text: string): string | null {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const postal = (i: number) => {
    const m = POSTAL_CITY.exec(lines[i]);
    return m && !CURRENCY.test(m[2].trim()) && !AMOUNT_LABEL.test(foldText(lines[i])) ? m : null;
  };
  const order = lines.map((_, i) => i);
  const labelled = order.filter((i) => OWN_ADDRESS_LABEL.test(foldText(lines[i])));
  for (const i of [...labelled, ...order]) {
    const m = postal(i);
    if (!m) continue;
    const afterLabel = lines[i].includes(':')
      ? lines[i].slice(lines[i].lastIndexOf(':') + 1).trim()
      : lines[i];
    const line = afterLabel.replace(ADDRESS_LABEL, '');
    const hasStreet = !line.startsWith(m[1]);
    const previous = i > 0 ? lines[i - 1] : '';
    const street = !hasStreet && /^\d+\s*(?:BIS|TER)?[\s,]/i.test(previous) ? `${previous}, ` : '';
    return `${street}${line}`;
  }
  return null;
}
