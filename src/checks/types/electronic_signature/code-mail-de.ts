/** The signing code's mail in German (formal address: Sie). */
import type { CodeMailWriter } from './code-mail.ts';

export const de: CodeMailWriter = ({ name, document, code, minutes, attempts }) => ({
  subject: 'Ihr Code zum Unterschreiben',
  text: [
    `Guten Tag ${name},`,
    '',
    `Ihr Code zum Unterschreiben von „${document}“ lautet: ${code}`,
    '',
    `Er ist ${minutes} Minuten gültig und kann ${attempts}-mal eingegeben werden. Falls Sie ihn nicht angefordert haben, ignorieren Sie bitte diese Nachricht: Ohne diesen Code wird nichts unterschrieben.`,
  ].join('\n'),
});
