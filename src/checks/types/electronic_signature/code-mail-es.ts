/** The signing code's mail in Spanish (formal address: usted). */
import type { CodeMailWriter } from './code-mail.ts';

export const es: CodeMailWriter = ({ name, document, code, minutes, attempts }) => ({
  subject: 'Su código de firma',
  text: [
    `Hola, ${name}:`,
    '',
    `Su código para firmar «${document}» es: ${code}`,
    '',
    `Es válido durante ${minutes} minutos y admite ${attempts} intentos. Si no lo ha solicitado, ignore este mensaje: sin este código no se firma nada.`,
  ].join('\n'),
});
