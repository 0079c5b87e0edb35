/**
 * Refusals of the API the console meets in its own forms, said in the console's words and language:
 * the server's messages are written for API developers, in English (`url must not point to a
 * non-public address ... VERICASE_WEBHOOK_ALLOW_PRIVATE=true`, `checks[0].targets[0]: ekyc checks
 * target individual entities; ...`). Any other message is shown as the server gives it.
 */
type Lang = 'en' | 'fr';

const who = (kind: string, lang: Lang) =>
  kind === 'individual'
    ? lang === 'fr'
      ? 'des personnes'
      : 'people'
    : lang === 'fr'
      ? 'des sociétés'
      : 'companies';

const KNOWN: { pattern: RegExp; say: Record<Lang, (m: RegExpExecArray) => string> }[] = [
  {
    pattern: /must not point to a non-public address/,
    say: {
      en: () =>
        'This address is private or local: webhooks are sent to addresses reachable on the internet only.',
      fr: () =>
        'Cette adresse est privée ou locale : les webhooks ne sont envoyés qu’à des adresses joignables sur internet.',
    },
  },
  {
    pattern: /a source relates to a company at most once/,
    say: {
      en: () => 'This relation already exists: change the one there instead.',
      fr: () => 'Cette relation existe déjà : modifiez celle qui est là.',
    },
  },
  {
    pattern: /(\w+) checks target (individual|company) entities/,
    say: {
      en: (m) =>
        `Checks of type ${m[1]} are run on ${who(m[2], 'en')}: choose ${who(m[2], 'en')} as their targets.`,
      fr: (m) =>
        `Les contrôles de type ${m[1]} portent sur ${who(m[2], 'fr')} : choisissez ${who(m[2], 'fr')} comme cibles.`,
    },
  },
];

/** The console's words for a known refusal, else null. */
export function knownRefusal(message: string, lang: string): string | null {
  for (const known of KNOWN) {
    const m = known.pattern.exec(message);
    if (m) return known.say[lang === 'fr' ? 'fr' : 'en'](m);
  }
  return null;
}
