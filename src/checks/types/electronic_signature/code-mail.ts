import type { Static } from 'typebox';
import { codeMailHu } from './code-mail-hu.ts';
import { codeMailJa } from './code-mail-ja.ts';
import { codeMailKo } from './code-mail-ko.ts';
import { codeMailPl } from './code-mail-pl.ts';
import { codeMailPt } from './code-mail-pt.ts';
import { CODE_MAX_ATTEMPTS, CODE_TTL_MS } from './requests.ts';
import type { SendCodeBody } from './schemas.ts';

/** A language the portal page may be in (the portals' list); the mail exists in some of them. */
export type PageLanguage = NonNullable<Static<typeof SendCodeBody>['language']>;

/** What one language's mail says. `name`: the signer's; `document`: the template's name. */
export interface CodeMailValues {
  name: string;
  document: string;
  code: string;
  minutes: number;
  attempts: number;
}
export type CodeMailWriter = (v: CodeMailValues) => { subject: string; text: string };

const en: CodeMailWriter = (v) => ({
  subject: `Your signing code: ${v.code}`,
  text: [
    `Hello ${v.name},`,
    '',
    `Your code to sign "${v.document}" is: ${v.code}`,
    '',
    `It is valid for ${v.minutes} minutes and can be tried ${v.attempts} times. If you did not ask for it, ignore this message: nothing is signed without it.`,
  ].join('\n'),
});

const fr: CodeMailWriter = (v) => ({
  subject: `Votre code de signature : ${v.code}`,
  text: [
    `Bonjour ${v.name},`,
    '',
    `Votre code pour signer « ${v.document} » est : ${v.code}`,
    '',
    `Il est valable ${v.minutes} minutes et peut être essayé ${v.attempts} fois. Si vous ne l’avez pas demandé, ignorez ce message : rien n’est signé sans lui.`,
  ].join('\n'),
});

/** The languages the mail is written in, one line each (a language other than en and fr: its own file). */
const MAILS = {
  en,
  fr,
  pt: codeMailPt,
  pl: codeMailPl,
  hu: codeMailHu,
  ja: codeMailJa,
  ko: codeMailKo,
} satisfies { [L in PageLanguage]?: CodeMailWriter };

type MailLanguage = keyof typeof MAILS;

/**
 * The language of the code's mail: the page's (`language` of send-code), else the portal's default
 * language (what the page falls back to), in the languages the mail is written in; English for the
 * others.
 */
export function mailLanguage(page: string | undefined, portalDefault: string): MailLanguage {
  const lang = page ?? portalDefault;
  return Object.hasOwn(MAILS, lang) ? (lang as MailLanguage) : 'en';
}

/** The signing code's mail, in the signer's language. The template's name is the workspace's own text. */
export function codeMail(lang: MailLanguage, name: string, document: string, code: string) {
  return MAILS[lang]({ name, document, code, minutes: CODE_TTL_MS / 60_000, attempts: CODE_MAX_ATTEMPTS });
}
