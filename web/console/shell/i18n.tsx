/**
 * The console's language: English or French, chosen by the user (kept in this browser), else the
 * browser's. `useT()` gives the shell's words; feature folders keep their own dictionaries and read
 * the language with `useLang()`. The page's `lang` attribute follows.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { fill, pickLanguage } from '../../shared/i18n.ts';
import { type ShellKey, shellEn } from '../i18n/shell.en.ts';
import { shellFr } from '../i18n/shell.fr.ts';

export const LANGUAGES = ['en', 'fr'] as const;
export type Lang = (typeof LANGUAGES)[number];
const STORAGE_KEY = 'vericase.console.lang';

interface LangState {
  lang: Lang;
  setLang: (l: Lang) => void;
}

const LangContext = createContext<LangState>({ lang: 'en', setLang: () => undefined });

function initialLang(): Lang {
  const stored = localStorage.getItem(STORAGE_KEY);
  const lang = stored === 'en' || stored === 'fr' ? stored : pickLanguage(LANGUAGES, null);
  document.documentElement.lang = lang;
  return lang;
}

export function LangProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Lang>(initialLang);
  const setLang = useCallback((l: Lang) => {
    localStorage.setItem(STORAGE_KEY, l);
    // before the re-render: pages' plain date formatters read the page's lang
    document.documentElement.lang = l;
    setLangState(l);
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  const value = useMemo(() => ({ lang, setLang }), [lang, setLang]);
  return <LangContext.Provider value={value}>{children}</LangContext.Provider>;
}

export function useLang(): LangState {
  return useContext(LangContext);
}

export type ShellT = (key: ShellKey, vars?: Record<string, string | number>) => string;

export function useT(): ShellT {
  const { lang } = useLang();
  return useCallback(
    (key, vars) => {
      const text = (lang === 'fr' ? shellFr : shellEn)[key] ?? shellEn[key] ?? key;
      return vars ? fill(text, vars, lang) : text;
    },
    [lang],
  );
}

/** A date and time in the console's language. */
export function useFormatDate(): (iso: string | null | undefined) => string {
  const { lang } = useLang();
  return useCallback(
    (iso) =>
      iso
        ? new Date(iso).toLocaleString(lang === 'fr' ? 'fr-FR' : 'en-GB', {
            dateStyle: 'medium',
            timeStyle: 'short',
          })
        : '—',
    [lang],
  );
}
