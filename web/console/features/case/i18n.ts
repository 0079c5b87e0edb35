/**
 * The case page's words and formats: its dictionaries (web/console/i18n/case.{en,fr}.ts) through the
 * console's language, dates in that language, and the server's error message.
 */
import { caseEn } from '../../i18n/case.en.ts';
import { caseFr } from '../../i18n/case.fr.ts';

// PROVISIONAL until the console shell lands: language from <html lang>, everyone may write
const lang = () => (document.documentElement.lang.startsWith('fr') ? 'fr' : 'en');

export type CaseT = (key: string, vars?: Record<string, string | number>) => string;

function translate(key: string, vars?: Record<string, string | number>): string {
  const dict = (lang() === 'fr' ? caseFr : caseEn) as Record<string, string>;
  const text = dict[key] ?? (caseEn as Record<string, string>)[key] ?? key;
  return vars ? text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m)) : text;
}

export function useCaseT(): CaseT {
  return translate;
}

export function useCanWrite(): boolean {
  return true;
}

export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString(lang() === 'fr' ? 'fr-FR' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
}

export function formatDate(isoDate: string): string {
  return new Date(`${isoDate.slice(0, 10)}T00:00:00Z`).toLocaleDateString(
    lang() === 'fr' ? 'fr-FR' : 'en-GB',
    {
      dateStyle: 'medium',
      timeZone: 'UTC',
    },
  );
}

/** The server's message from an error body, or a generic one. */
export function problemMessage(error: unknown, t: CaseT): string {
  const body = error as { message?: unknown; details?: { path?: string; message?: string }[] } | undefined;
  const detail = body?.details?.[0];
  if (typeof body?.message === 'string' && body.message) {
    return detail?.message && !body.message.includes(detail.message)
      ? `${body.message}: ${detail.message}`
      : body.message;
  }
  return t('case.error');
}
