/** The signing code's mail in Dutch (formal address: u). */
import type { CodeMailWriter } from './code-mail.ts';

export const nl: CodeMailWriter = ({ name, document, code, minutes, attempts }) => ({
  subject: 'Uw ondertekeningscode',
  text: [
    `Beste ${name},`,
    '',
    `Uw code om ‘${document}’ te ondertekenen is: ${code}`,
    '',
    `De code is ${minutes} minuten geldig en kan ${attempts} keer worden geprobeerd. Hebt u hem niet aangevraagd? Dan kunt u dit bericht negeren: zonder deze code wordt niets ondertekend.`,
  ].join('\n'),
});
