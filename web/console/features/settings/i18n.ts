/**
 * The settings pages' words (web/console/i18n/settings.{en,fr}.ts) in the console's language, and
 * what the signed-in user's role allows (the server enforces it: this only shapes the pages).
 */
import { useCallback } from 'react';
import { fill } from '../../../shared/i18n.ts';
import { settingsEn } from '../../i18n/settings.en.ts';
import { settingsFr } from '../../i18n/settings.fr.ts';
import { useLang } from '../../shell/i18n.tsx';
import { type Role, useRole, useSession } from '../../shell/session.tsx';

export type { Role };
export type SettingsKey = keyof typeof settingsEn;
export type SettingsT = (key: SettingsKey, vars?: Record<string, string | number>) => string;

export function useSettingsLang(): 'en' | 'fr' {
  return useLang().lang;
}

export function useSettingsT(): SettingsT {
  const lang = useSettingsLang();
  return useCallback(
    (key, vars) => {
      const dict: Record<string, string> = lang === 'fr' ? settingsFr : settingsEn;
      const text = dict[key] ?? settingsEn[key] ?? key;
      return vars ? fill(text, vars, lang) : text;
    },
    [lang],
  );
}

/** Workspace configuration is written by admins only (the server refuses the others too). */
export function useIsAdmin(): boolean {
  return useRole() === 'admin';
}

/** The signed-in user's id (to mark "you" in the users list). */
export function useCurrentUserId(): string | null {
  return useSession().session?.user.id ?? null;
}
