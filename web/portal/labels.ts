/** Display names of action types and slots, through the dictionary. */
import type { Action, Slot } from './api.ts';
import type { Translate } from './i18n.tsx';

export function actionTitle(t: Translate, action: Action): string {
  if (action.label) return action.label;
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

/** 1234567 → "1.2 MB" (language-neutral units, localised digits). */
export function formatSize(bytes: number, lang: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let n = bytes;
  let i = 0;
  while (n >= 1000 && i < units.length - 1) {
    n /= 1000;
    i++;
  }
  return `${n.toLocaleString(lang, { maximumFractionDigits: i === 0 ? 0 : 1 })} ${units[i]}`;
}
