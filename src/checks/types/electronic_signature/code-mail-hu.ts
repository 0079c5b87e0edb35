import type { CodeMailWriter } from './code-mail.ts';

/** The signing code's mail in Hungarian (formal address, "Ön"). */
export const hu: CodeMailWriter = (v) => ({
  subject: 'Az Ön aláírási kódja',
  text: [
    `Kedves ${v.name}!`,
    '',
    `Az aláírandó dokumentum: „${v.document}”`,
    `Az aláíráshoz szükséges kód: ${v.code}`,
    '',
    `A kód ${v.minutes} percig érvényes, és legfeljebb ${v.attempts} alkalommal próbálható meg. Ha nem Ön kérte, kérjük, hagyja figyelmen kívül ezt az üzenetet: a kód nélkül semmi sem kerül aláírásra.`,
  ].join('\n'),
});
