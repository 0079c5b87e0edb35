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

/**
 * `said` after "Check 2: " for a template's `checks[1]` (its number in the template dialog), or on
 * its own, capitalised, without one (the same refusal of a check created alone).
 */
const numbered = (index: string | undefined, lang: Lang, said: string) =>
  index === undefined
    ? said[0].toUpperCase() + said.slice(1)
    : `${lang === 'fr' ? `Contrôle ${Number(index) + 1} : ` : `Check ${Number(index) + 1}: `}${said}`;

/** A day (`2090-01-01`) as the console writes dates: 1 Jan 2090, 1 janv. 2090. */
const day = (iso: string, lang: Lang) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString(lang === 'fr' ? 'fr-FR' : 'en-GB', {
    dateStyle: 'medium',
    timeZone: 'UTC',
  });

/** A role in words, as the top bar names it (`viewer` → viewer / lecteur). */
const ROLE: Record<Lang, Record<string, string>> = {
  en: { admin: 'administrator', reviewer: 'reviewer', viewer: 'viewer' },
  fr: { admin: 'administrateur', reviewer: 'réviseur', viewer: 'lecteur' },
};
/** Who may do what a route needs: the role it names, or any above it. */
const needs = (needed: string, lang: Lang) =>
  needed === 'admin'
    ? lang === 'fr'
      ? 'aux administrateurs'
      : 'an administrator'
    : lang === 'fr'
      ? `aux ${ROLE.fr[needed] ?? needed}s et aux administrateurs`
      : `a ${ROLE.en[needed] ?? needed} or an administrator`;

/** A path's field in words (`individuals[0].first_name` → "First name"), by the caller's dictionary. */
type FieldLabel = (field: string) => string;
const fieldOf = (path: string, label: FieldLabel) =>
  label(
    path
      .replace(/\[\d+\]/g, '')
      .split('.')
      .pop() ?? path,
  );
const plain: FieldLabel = (field) => field.replace(/_/g, ' ');

const KNOWN: {
  pattern: RegExp;
  say: Record<Lang, (m: RegExpExecArray, label: FieldLabel) => string>;
  /** A service out of reach, not a refusal of what was asked: said without "Refused:". */
  outage?: true;
}[] = [
  // the input formats every form meets (src/http/schema-formats.ts), named by the field's label
  {
    pattern: /^(\S+) must be an ISO 3166-1 alpha-2 country code/,
    say: {
      en: (m, l) => `${fieldOf(m[1], l)}: give the country's two-letter ISO code (FR, DE, GB...).`,
      fr: (m, l) => `${fieldOf(m[1], l)} : indiquez le code ISO du pays, en deux lettres (FR, DE, GB…).`,
    },
  },
  {
    pattern: /^(\S+) must not be blank$/,
    say: {
      en: (m, l) => `${fieldOf(m[1], l)} is required: it cannot be left blank.`,
      fr: (m, l) => `${fieldOf(m[1], l)} est obligatoire : ce champ ne peut pas rester vide.`,
    },
  },
  {
    pattern: /^(\S+) must be an e-mail address$/,
    say: {
      en: (m, l) => `${fieldOf(m[1], l)}: this is not an e-mail address.`,
      fr: (m, l) => `${fieldOf(m[1], l)} : ce n’est pas une adresse e-mail.`,
    },
  },
  {
    pattern: /^(\S+) must be a phone number in E\.164 format/,
    say: {
      en: (m, l) => `${fieldOf(m[1], l)}: write the number with its country code, e.g. +33612345678.`,
      fr: (m, l) => `${fieldOf(m[1], l)} : écrivez le numéro avec l’indicatif du pays, par ex. +33612345678.`,
    },
  },
  // a birth date that cannot be one: after today (2090 for 1990), or before 1900 (0001 for "unknown")
  {
    pattern: /^(\S+) must not be in the future: it is (\d{4}-\d{2}-\d{2})/,
    say: {
      en: (m, l) => `${fieldOf(m[1], l)}: ${day(m[2], 'en')} is in the future: check the year.`,
      fr: (m, l) => `${fieldOf(m[1], l)} : le ${day(m[2], 'fr')} est dans le futur : vérifiez l’année.`,
    },
  },
  {
    pattern: /^(\S+) must be on or after (\d{4})-\d{2}-\d{2}: it is (\d{4}-\d{2}-\d{2})/,
    say: {
      en: (m, l) => `${fieldOf(m[1], l)}: ${day(m[3], 'en')} is before ${m[2]}: check the year.`,
      fr: (m, l) => `${fieldOf(m[1], l)} : le ${day(m[3], 'fr')} est antérieur à ${m[2]} : vérifiez l’année.`,
    },
  },
  {
    pattern: /^A case with external_id "(.*)" already exists$/,
    say: {
      en: (m) => `Another case already has the reference "${m[1]}": choose another one.`,
      fr: (m) => `Un autre dossier porte déjà la référence « ${m[1]} » : choisissez-en une autre.`,
    },
  },
  {
    pattern: /^The company registry \(([^)]+)\) is unavailable/,
    outage: true,
    say: {
      en: (m) =>
        `The company registry (${m[1]}) cannot be reached for now: try again in a moment, or create the case by hand.`,
      fr: (m) =>
        `Le registre des sociétés (${m[1]}) est injoignable pour le moment : réessayez dans un instant, ou créez le dossier à la main.`,
    },
  },
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
  // the console offers only what the role allows: a role refusal means the role changed under the
  // page (an admin made the user a viewer); the shell reads the session again (api/client.ts)
  {
    pattern: /^Your role \((\w+)\) does not allow this: .* needs (\w+)$/,
    say: {
      en: (m) => `Your role is now ${ROLE.en[m[1]] ?? m[1]}: this needs ${needs(m[2], 'en')}.`,
      fr: (m) =>
        `Votre rôle est désormais ${ROLE.fr[m[1]] ?? m[1]} : cette action est réservée ${needs(m[2], 'fr')}.`,
    },
  },
  // a template's check, named as the template dialog names it (`checks[1]` is its "Check 2")
  {
    pattern: /(?:checks\[(\d+)\]\S*: )?(\w+) checks target (individual|company) entities/,
    say: {
      en: (m) =>
        numbered(
          m[1],
          'en',
          `checks of type ${m[2]} are run on ${who(m[3], 'en')}: choose ${who(m[3], 'en')} as their targets.`,
        ),
      fr: (m) =>
        numbered(
          m[1],
          'fr',
          `les contrôles de type ${m[2]} portent sur ${who(m[3], 'fr')} : choisissez ${who(m[3], 'fr')} comme cibles.`,
        ),
    },
  },
  // a document check whose document type is asked of the other kind of entity (a company's
  // registration certificate on people)
  {
    pattern:
      /(?:checks\[(\d+)\]\S*: )?Document type (\S+) is for (individual|company) entities, not (individual|company) entities/,
    say: {
      en: (m) =>
        numbered(
          m[1],
          'en',
          `the document type ${m[2]} is asked of ${who(m[3], 'en')}, not of ${who(m[4], 'en')}: choose ${who(m[3], 'en')} as the check's targets, or a document type for ${who(m[4], 'en')}.`,
        ),
      fr: (m) =>
        numbered(
          m[1],
          'fr',
          `le type de document ${m[2]} se demande à ${who(m[3], 'fr')}, pas à ${who(m[4], 'fr')} : choisissez ${who(m[3], 'fr')} comme cibles du contrôle, ou un type de document pour ${who(m[4], 'fr')}.`,
        ),
    },
  },
];

/** The console's words for a known refusal, else null; `label` names a field in the page's language. */
export function knownRefusal(message: string, lang: string, label: FieldLabel = plain): string | null {
  for (const known of KNOWN) {
    const m = known.pattern.exec(message);
    if (m) return known.say[lang === 'fr' ? 'fr' : 'en'](m, label);
  }
  return null;
}

/** A service that could not be reached is no refusal of what was asked: said without "Refused:". */
export function isOutage(message: string): boolean {
  return KNOWN.some((known) => known.outage && known.pattern.test(message));
}
