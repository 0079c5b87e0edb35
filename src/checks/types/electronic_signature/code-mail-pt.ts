import type { CodeMailWriter } from './code-mail.ts';

/** The signing code's mail in Portuguese (formal address). */
export const pt: CodeMailWriter = (v) => ({
  subject: 'O seu código de assinatura',
  text: [
    `Olá, ${v.name},`,
    '',
    `O seu código para assinar “${v.document}” é: ${v.code}`,
    '',
    `O código é válido durante ${v.minutes} minutos e permite ${v.attempts} tentativas. Se não o pediu, ignore esta mensagem: nada é assinado sem ele.`,
  ].join('\n'),
});
