import type { Static } from 'typebox';
import { de } from './code-mail-de.ts';
import { es } from './code-mail-es.ts';
import { hu } from './code-mail-hu.ts';
import { it } from './code-mail-it.ts';
import { ja } from './code-mail-ja.ts';
import { ko } from './code-mail-ko.ts';
import { nl } from './code-mail-nl.ts';
import { pl } from './code-mail-pl.ts';
import { pt } from './code-mail-pt.ts';
import { CODE_MAX_ATTEMPTS, CODE_TTL_MS } from './requests.ts';
import type { SendCodeBody } from './schemas.ts';

/** A language the portal page may be in (the portals' list); the mail exists in each of them. */
export type PageLanguage = NonNullable<Static<typeof SendCodeBody>['language']>;

/** What a language's mail says: the template's name is the workspace's own text. */
export type CodeMailWriter = (mail: {
  name: string;
  document: string;
  code: string;
  minutes: number;
  attempts: number;
}) => { subject: string; text: string };

const en: CodeMailWriter = ({ name, document, code, minutes, attempts }) => ({
  subject: 'Your signing code',
  text: [
    `Hello ${name},`,
    '',
    `Your code to sign "${document}" is: ${code}`,
    '',
    `It is valid for ${minutes} minutes and can be tried ${attempts} times. If you did not ask for it, ignore this message: nothing is signed without it.`,
  ].join('\n'),
});

const fr: CodeMailWriter = ({ name, document, code, minutes, attempts }) => ({
  subject: 'Votre code de signature',
  text: [
    `Bonjour ${name},`,
    '',
    `Votre code pour signer « ${document} » est : ${code}`,
    '',
    `Il est valable ${minutes} minutes et peut être essayé ${attempts} fois. Si vous ne l’avez pas demandé, ignorez ce message : rien n’est signé sans lui.`,
  ].join('\n'),
});

/**
 * The mail in every language of the portals' list (TypeScript refuses one missing). English and
 * French are here; every other language has its own file (code-mail-de.ts…), one line each.
 */
const MAILS = {
  en,
  fr,
  de,
  es,
  it,
  nl,
  pt,
  pl,
  hu,
  ja,
  ko,
} satisfies Record<PageLanguage, CodeMailWriter>;

type MailLanguage = keyof typeof MAILS;

const written = (lang: string): lang is MailLanguage => Object.hasOwn(MAILS, lang);

/**
 * The language of the code's mail and of the signed document's block: the page's (`language` of
 * send-code and sign), else the portal's default language (what the page falls back to); English
 * for a value outside the list (a stored language the list no longer has).
 */
export function mailLanguage(page: string | undefined, portalDefault: string): MailLanguage {
  const lang = page ?? portalDefault;
  return written(lang) ? lang : 'en';
}

/** The signing code's mail, in the signer's language. */
export function codeMail(lang: MailLanguage, name: string, document: string, code: string) {
  return MAILS[lang]({ name, document, code, minutes: CODE_TTL_MS / 60_000, attempts: CODE_MAX_ATTEMPTS });
}
