/** The actions' words (web/console/i18n/act.{en,fr}.ts) in the console's language. */
import { useCallback } from 'react';
import { fill } from '../../shared/i18n.ts';
import { type ActKey, actEn } from '../i18n/act.en.ts';
import { actFr } from '../i18n/act.fr.ts';
import { useLang } from '../shell/i18n.tsx';

export type ActT = (key: ActKey, vars?: Record<string, string | number>) => string;

export function useActT(): ActT {
  const { lang } = useLang();
  return useCallback(
    (key, vars) => {
      const text = (lang === 'fr' ? actFr : actEn)[key] ?? actEn[key] ?? key;
      return vars ? fill(text, vars) : text;
    },
    [lang],
  );
}

/** Runs a write and keeps its error message and whether it is under way. */
export { useAction } from '../features/settings/common.tsx';
