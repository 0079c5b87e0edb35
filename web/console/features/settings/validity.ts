/**
 * The browser's own validation messages (an e-mail without "@", a password too short, a number
 * out of its range) are in the browser's language, not the console's: a French console showed
 * "Please include an '@' in the email address". These handlers keep the browser's checks (the
 * same attributes, the same bubble) and give it the message in the console's language instead,
 * from the field's own constraints. Spread them on an <input>.
 */
import type { FormEvent } from 'react';
import { type SettingsT, useSettingsLang, useSettingsT } from './i18n.ts';

type Field = HTMLInputElement;

/** The console's sentence for what `el` fails, or '' when it passes (or fails only our own message). */
function messageFor(el: Field, t: SettingsT, lang: string): string {
  const v = el.validity;
  const num = (s: string) => (lang === 'fr' ? s.replace('.', ',') : s);
  if (v.valueMissing) return t('validity.required');
  if (v.badInput) return el.type === 'number' ? t('validity.number') : t('validity.invalid');
  if (v.typeMismatch && el.type === 'email') return t('validity.email');
  if (v.typeMismatch && el.type === 'url') return t('validity.url');
  if (v.tooShort) return t('validity.tooShort', { min: el.minLength, length: el.value.length });
  if (v.tooLong) return t('validity.tooLong', { max: el.maxLength });
  if (v.rangeUnderflow || v.rangeOverflow) {
    if (el.min !== '' && el.max !== '') return t('validity.range', { min: num(el.min), max: num(el.max) });
    return v.rangeUnderflow
      ? t('validity.min', { min: num(el.min) })
      : t('validity.max', { max: num(el.max) });
  }
  if (v.stepMismatch) return t('validity.step', { step: num(el.step) });
  if (v.patternMismatch || v.typeMismatch) return t('validity.invalid');
  return '';
}

/** onInvalid / onInput for an input: the browser's check, the console's words. */
export function useConsoleValidity() {
  const t = useSettingsT();
  const lang = useSettingsLang();
  return {
    onInvalid: (e: FormEvent<Field>) => {
      const el = e.currentTarget;
      // the message from the constraints alone: our earlier message is cleared first
      el.setCustomValidity('');
      if (!el.validity.valid) el.setCustomValidity(messageFor(el, t, lang));
    },
    // an edit is checked afresh (a custom message would otherwise keep the field invalid)
    onInput: (e: FormEvent<Field>) => e.currentTarget.setCustomValidity(''),
  };
}
