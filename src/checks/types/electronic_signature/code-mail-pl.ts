import type { CodeMailWriter } from './code-mail.ts';

/** Polish forms after a number: 1 minutę, 2-4 minuty, 5+ minut (Intl's plural categories). */
function plural(n: number, forms: { one: string; few: string; many: string }): string {
  const category = new Intl.PluralRules('pl').select(n);
  return `${n} ${category === 'one' ? forms.one : category === 'few' ? forms.few : forms.many}`;
}

/** The signing code's mail in Polish (formal, impersonal address). */
export const pl: CodeMailWriter = (v) => ({
  subject: 'Kod do podpisu',
  text: [
    `Dzień dobry, ${v.name},`,
    '',
    `Kod do podpisania dokumentu „${v.document}” to: ${v.code}`,
    '',
    `Kod jest ważny przez ${plural(v.minutes, { one: 'minutę', few: 'minuty', many: 'minut' })} i można go wpisać maksymalnie ${plural(v.attempts, { one: 'raz', few: 'razy', many: 'razy' })}. Jeżeli ten kod nie był zamawiany, prosimy zignorować tę wiadomość: bez niego nic nie zostanie podpisane.`,
  ].join('\n'),
});
