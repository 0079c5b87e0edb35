/** The actions' words (web/console/i18n/act.{en,fr}.ts) in the console's language. */
import { useCallback } from 'react';
import { fill } from '../../shared/i18n.ts';
import { type ActKey, actEn } from '../i18n/act.en.ts';
import { actFr } from '../i18n/act.fr.ts';
import { useLang } from '../shell/i18n.tsx';
import { automaticComment } from './checks/automatic-comments.ts';

export type ActT = (key: ActKey, vars?: Record<string, string | number>) => string;

/** Whether the dictionaries have `key` (values from the server without a label are shown as they are). */
export function hasActKey(key: string): key is ActKey {
  return key in actEn;
}

export function useActT(): ActT {
  const { lang } = useLang();
  return useCallback(
    (key, vars) => {
      const dict = lang === 'fr' ? actFr : actEn;
      // `{key}.one` is the singular: for 1 in English, for 0 and 1 in French
      const count = vars?.count;
      const one = `${key}.one`;
      const singular =
        typeof count === 'number' && (lang === 'fr' ? count < 2 : count === 1) && hasActKey(one);
      const k = singular ? (one as ActKey) : key;
      const text = dict[k] ?? actEn[k] ?? key;
      return vars ? fill(text, vars, lang) : text;
    },
    [lang],
  );
}

/** A check type's name in the console's language (`electronic_signature` → Electronic signature). */
export function useCheckTypeLabel(): (type: string) => string {
  const t = useActT();
  return useCallback(
    (type: string) => {
      const key = `check.type.${type}`;
      return hasActKey(key) ? t(key) : type;
    },
    [t],
  );
}

/**
 * A check review's comment in the console's language: vericase's own messages (stored in English)
 * in French too, their codes in words in English, anyone else's as written
 * (features/checks/automatic-comments.ts).
 */
export function useAutomaticComment(): (comment: string, reviewerType: unknown) => string {
  const { lang } = useLang();
  const t = useActT();
  return useCallback(
    (comment, reviewerType) =>
      automaticComment(comment, reviewerType, lang, {
        checkType: (type) => labelOr(t, `check.type.${type}`, type),
        result: (value) => labelOr(t, `check.resultValue.${value}`, value),
        reputationRisk: (risk) => labelOr(t, `check.reputationRisk.${risk}`, risk),
      }),
    [lang, t],
  );
}

/** The label under `key`, or `code` itself when the dictionaries have none (a value they do not know yet). */
function labelOr(t: ActT, key: string, code: string): string {
  return hasActKey(key) ? t(key) : code;
}

/** Runs a write and keeps its error message and whether it is under way. */
export { useAction } from '../features/settings/common.tsx';
