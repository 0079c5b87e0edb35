import type { Static } from 'typebox';
import { CODE_MAX_ATTEMPTS, CODE_TTL_MS } from './requests.ts';
import type { SendCodeBody } from './schemas.ts';

/** A language the portal page may be in (the portals' list); the mail exists in some of them. */
export type PageLanguage = NonNullable<Static<typeof SendCodeBody>['language']>;

type MailLanguage = 'en' | 'fr';

/**
 * The language of the code's mail: the page's (`language` of send-code), else the portal's default
 * language (what the page falls back to), in the languages the mail is written in; English for the
 * others.
 */
export function mailLanguage(page: string | undefined, portalDefault: string): MailLanguage {
  const lang = page ?? portalDefault;
  return lang === 'fr' ? 'fr' : 'en';
}

/** The signing code's mail, in the signer's language. The template's name is the workspace's own text. */
export function codeMail(lang: MailLanguage, name: string, document: string, code: string) {
  const minutes = CODE_TTL_MS / 60_000;
  if (lang === 'fr') {
    return {
      subject: `Votre code de signature : ${code}`,
      text: [
        `Bonjour ${name},`,
        '',
        `Votre code pour signer « ${document} » est : ${code}`,
        '',
        `Il est valable ${minutes} minutes et peut être essayé ${CODE_MAX_ATTEMPTS} fois. Si vous ne l’avez pas demandé, ignorez ce message : rien n’est signé sans lui.`,
      ].join('\n'),
    };
  }
  return {
    subject: `Your signing code: ${code}`,
    text: [
      `Hello ${name},`,
      '',
      `Your code to sign "${document}" is: ${code}`,
      '',
      `It is valid for ${minutes} minutes and can be tried ${CODE_MAX_ATTEMPTS} times. If you did not ask for it, ignore this message: nothing is signed without it.`,
    ].join('\n'),
  };
}
