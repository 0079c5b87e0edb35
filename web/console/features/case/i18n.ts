/**
 * The case page's words and formats: its dictionaries (web/console/i18n/case.{en,fr}.ts) through the
 * console's language, dates in that language, and the server's error message.
 */
import { useCallback } from 'react';
import { fill } from '../../../shared/i18n.ts';
import { problemMessage as serverMessage } from '../../api/problem-message.ts';
import { caseEn } from '../../i18n/case.en.ts';
import { caseFr } from '../../i18n/case.fr.ts';
import { type Lang, useLang } from '../../shell/i18n.tsx';
import { useCanWrite as useShellCanWrite } from '../../shell/session.tsx';
import { knownRefusal } from '../known-refusals.ts';

// the console's language (shell); plain functions below read the page's lang, which the shell keeps in step
const lang = () => (document.documentElement.lang.startsWith('fr') ? 'fr' : 'en');

export type CaseT = (key: string, vars?: Record<string, string | number>) => string;

function translate(language: Lang, key: string, vars?: Record<string, string | number>): string {
  const dict = (language === 'fr' ? caseFr : caseEn) as Record<string, string>;
  const text = dict[key] ?? (caseEn as Record<string, string>)[key] ?? key;
  return vars ? fill(text, vars, language) : text;
}

export function useCaseT(): CaseT {
  const { lang: language } = useLang();
  return useCallback((key, vars) => translate(language, key, vars), [language]);
}

/**
 * The key of a check's status: a check waiting for data says whose (the signer, the person, the
 * images) where its type knows, as the end customer is the one to chase.
 */
export function checkStatusKey(check: { type: string; status: string }): string {
  const specific = `case.checkStatus.${check.status}.${check.type}`;
  return specific in caseEn ? specific : `case.checkStatus.${check.status}`;
}

/** Reviewers and admins act on cases; a viewer reads (the server refuses its writes too). */
export const useCanWrite = useShellCanWrite;

/** A date and time; with `seconds`, to tell apart things made a minute apart (case reports). */
export function formatDateTime(iso: string, seconds = false): string {
  return new Date(iso).toLocaleString(lang() === 'fr' ? 'fr-FR' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: seconds ? 'medium' : 'short',
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

/**
 * The server's message from an error body (api/problem-message.ts), the console's words for the
 * refusals it knows (a role changed under the page, ...: features/known-refusals.ts), or a generic one.
 */
export function problemMessage(error: unknown, t: CaseT): string {
  const message = (error as { message?: unknown } | undefined)?.message;
  if (typeof message !== 'string' || !message) return t('case.error');
  const said = serverMessage(error, message);
  return knownRefusal(said, lang()) ?? said;
}
