import type { BlockLabels } from '../../../signing/block-labels.ts';
import { ENGLISH_BLOCK_LABELS } from '../../../signing/block-labels.ts';
import type { PageLanguage } from './code-mail.ts';

/**
 * What vericase itself writes on a signed document, in the signer's language: the visible block's
 * words and the signature's reason (shown in the block and stored in the PDF signature's /Reason).
 * The template's name inside the reason is the workspace's own text, kept as written.
 */
export interface SignatureTexts {
  labels: BlockLabels;
  reason: (templateName: string) => string;
}

const en: SignatureTexts = {
  labels: ENGLISH_BLOCK_LABELS,
  reason: (t) => `Signature of "${t}"`,
};

/**
 * Every portal language (TypeScript refuses one missing). Japanese and Korean are written in
 * English: the block's embedded fonts (DejaVu) have no CJK glyphs, and a CJK font would add
 * megabytes to every install for four lines (docs/electronic-signature.md); the e-mail with the code
 * and the portal page are in those languages.
 */
const TEXTS = {
  en,
  fr: {
    labels: {
      signedBy: 'Signé électroniquement par',
      reasonPrefix: 'Motif : ',
      documentHash: 'SHA-256 du document (avant signature) :',
    },
    reason: (t) => `Signature de « ${t} »`,
  },
  de: {
    labels: {
      signedBy: 'Elektronisch unterschrieben von',
      reasonPrefix: 'Grund: ',
      documentHash: 'SHA-256 des Dokuments (vor der Unterschrift):',
    },
    reason: (t) => `Unterschrift für „${t}“`,
  },
  es: {
    labels: {
      signedBy: 'Firmado electrónicamente por',
      reasonPrefix: 'Motivo: ',
      documentHash: 'SHA-256 del documento (antes de la firma):',
    },
    reason: (t) => `Firma de «${t}»`,
  },
  it: {
    labels: {
      signedBy: 'Firmato elettronicamente da',
      reasonPrefix: 'Motivo: ',
      documentHash: 'SHA-256 del documento (prima della firma):',
    },
    reason: (t) => `Firma di «${t}»`,
  },
  nl: {
    labels: {
      signedBy: 'Elektronisch ondertekend door',
      reasonPrefix: 'Reden: ',
      documentHash: 'SHA-256 van het document (vóór ondertekening):',
    },
    reason: (t) => `Ondertekening van “${t}”`,
  },
  pt: {
    labels: {
      signedBy: 'Assinado eletronicamente por',
      reasonPrefix: 'Motivo: ',
      documentHash: 'SHA-256 do documento (antes da assinatura):',
    },
    reason: (t) => `Assinatura de “${t}”`,
  },
  pl: {
    labels: {
      signedBy: 'Podpisano elektronicznie przez',
      reasonPrefix: 'Powód: ',
      documentHash: 'SHA-256 dokumentu (przed podpisaniem):',
    },
    reason: (t) => `Podpisanie dokumentu „${t}”`,
  },
  hu: {
    labels: {
      signedBy: 'Elektronikusan aláírta',
      reasonPrefix: 'Indok: ',
      documentHash: 'A dokumentum SHA-256 kivonata (aláírás előtt):',
    },
    reason: (t) => `„${t}” aláírása`,
  },
  ja: en,
  ko: en,
} satisfies Record<PageLanguage, SignatureTexts>;

export function signatureTexts(lang: PageLanguage): SignatureTexts {
  return TEXTS[lang];
}
