/** The signing code's mail in Italian (formal address: Lei). */
import type { CodeMailWriter } from './code-mail.ts';

export const it: CodeMailWriter = ({ name, document, code, minutes, attempts }) => ({
  subject: 'Il suo codice di firma',
  text: [
    `Gentile ${name},`,
    '',
    `il suo codice per firmare «${document}» è: ${code}`,
    '',
    `È valido per ${minutes} minuti e può essere inserito al massimo ${attempts} volte. Se non lo ha richiesto, ignori questo messaggio: senza questo codice non viene firmato nulla.`,
  ].join('\n'),
});
