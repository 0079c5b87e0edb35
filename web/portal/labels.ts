/** Display names of action types and slots, through the dictionary. */
import type { Action, Slot } from './api.ts';
import type { Translate } from './i18n.tsx';
import type { Messages } from './messages.ts';

/** The name every portal has until its operator names it (src/client-portals/default-portal.ts). */
const DEFAULT_PORTAL_NAME = 'Client portal';

/** The portal's name: the operator's own, or the default one in the page's language. */
export function portalName(t: Translate, name: string): string {
  return name === DEFAULT_PORTAL_NAME ? t('defaultPortalName') : name;
}

/**
 * The built-in document types' labels (src/db/migrations/0016_document_types.ts) in the page's
 * language: a document step is labelled with its type's label, which is workspace data in English
 * for the built-in types; a workspace's own types keep the label their operator wrote.
 */
const BUILT_IN_DOCUMENT_LABELS = new Map<string, keyof Messages>(
  Object.entries({
    'Registration certificate': 'docRegistrationCertificate',
    'Articles of association': 'docArticlesOfAssociation',
    'Proof of address': 'docProofOfAddress',
    'Bank account details (RIB)': 'docBankAccountDetails',
    'ID card copy': 'docIdCardCopy',
    'UBO register extract': 'docUboRegisterExtract',
    'Tax certificate': 'docTaxCertificate',
    'Shareholder register': 'docShareholderRegister',
    'Financial statements': 'docFinancialStatements',
    'Power of attorney': 'docPowerOfAttorney',
  } satisfies Record<string, keyof Messages>),
);

export function actionTitle(t: Translate, action: Action): string {
  if (action.label) {
    const builtIn = action.type === 'document' ? BUILT_IN_DOCUMENT_LABELS.get(action.label) : undefined;
    return builtIn ? t(builtIn) : action.label;
  }
  switch (action.type) {
    case 'document':
      return t('typeDocument');
    case 'id_document':
      return t('typeIdDocument');
    case 'id_verification':
      return t('typeIdVerification');
    case 'electronic_signature':
      return t('typeElectronicSignature');
    default:
      return action.type;
  }
}

/**
 * What the step asks, in the page's language: the server's description when it has one (the
 * workspace's own text), else the type's own (the server sends none for built-in steps).
 */
export function actionDescription(t: Translate, action: Action): string | null {
  if (action.description) return action.description;
  switch (action.type) {
    case 'id_verification':
      return t('descIdVerification');
    case 'electronic_signature':
      return t('descElectronicSignature');
    default:
      return null;
  }
}

export function slotTitle(t: Translate, slot: Slot): string {
  switch (slot.key) {
    case 'files':
      return t('slotFiles');
    case 'front':
      return t('slotFront');
    case 'back':
      return t('slotBack');
    case 'face':
      return t('slotFace');
    case 'video':
      return t('slotVideo');
    default:
      return t('slotOther');
  }
}

/** The units a size is written in, by Intl's unit names (decimal, as the upload limit's "20 MB"). */
const SIZE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/**
 * 1234567 → "1.2 MB" in English, "1,2 Mo" in French: the number and its unit by `Intl` in the
 * page's language (docs/client-portal.md), as the dates are; English units on a French page read
 * as a foreign word ("17,1 KB" where a French reader expects "17,1 ko").
 */
export function formatSize(bytes: number, lang: string): string {
  let n = bytes;
  let i = 0;
  while (n >= 1000 && i < SIZE_UNITS.length - 1) {
    n /= 1000;
    i++;
  }
  return new Intl.NumberFormat(lang, {
    style: 'unit',
    unit: SIZE_UNITS[i],
    unitDisplay: 'short',
    maximumFractionDigits: i === 0 ? 0 : 1,
  }).format(n);
}
