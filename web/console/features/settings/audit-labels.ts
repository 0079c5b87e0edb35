/**
 * The audit log's action codes and resource types in words (EN/FR), for the list: a compliance
 * reader in French met "case.review.create". Known codes only; any other is shown as its code, and
 * an entry's detail always shows the code (the API's filter takes it).
 */
type Words = { en: string; fr: string };

const ACTIONS: Record<string, Words> = {
  'console.login': { en: 'Signed in', fr: 'Connexion' },
  'console.login_failed': { en: 'Sign-in refused', fr: 'Connexion refusée' },
  'console.logout': { en: 'Signed out', fr: 'Déconnexion' },
  'console.password_change': { en: 'Password change', fr: 'Changement de mot de passe' },
  'case.create': { en: 'Case created', fr: 'Dossier créé' },
  'case.update': { en: 'Case updated', fr: 'Dossier modifié' },
  'case.delete': { en: 'Case deleted', fr: 'Dossier supprimé' },
  'case.review.create': { en: 'Case reviewed', fr: 'Dossier décidé' },
  'case.risk.create': { en: 'Risk set', fr: 'Risque défini' },
  'case.tag.create': { en: 'Tags added', fr: 'Étiquettes ajoutées' },
  'case.note.create': { en: 'Note added', fr: 'Note ajoutée' },
  'user.create': { en: 'User created', fr: 'Utilisateur créé' },
  'user.update': { en: 'User updated', fr: 'Utilisateur modifié' },
  'user.delete': { en: 'User deleted', fr: 'Utilisateur supprimé' },
  'user.session.delete': { en: 'User signed out everywhere', fr: 'Utilisateur déconnecté partout' },
  'api_key.create': { en: 'API key created', fr: 'Clé d’API créée' },
  'api_key.delete': { en: 'API key revoked', fr: 'Clé d’API révoquée' },
  'webhook.create': { en: 'Webhook created', fr: 'Webhook créé' },
  'webhook.update': { en: 'Webhook updated', fr: 'Webhook modifié' },
  'webhook.delete': { en: 'Webhook deleted', fr: 'Webhook supprimé' },
  'workspace.settings.update': { en: 'Settings updated', fr: 'Paramètres modifiés' },
};

/** `check.{type}.{verb}`: the verbs a check's entries carry. */
const CHECK_VERBS: Record<string, Words> = {
  create: { en: 'Check launched', fr: 'Contrôle lancé' },
  review: { en: 'Check reviewed', fr: 'Contrôle décidé' },
  force_review: { en: 'Check sent for review', fr: 'Contrôle mis en revue' },
};

const RESOURCES: Record<string, Words> = {
  case: { en: 'case', fr: 'dossier' },
  user: { en: 'user', fr: 'utilisateur' },
  check: { en: 'check', fr: 'contrôle' },
  company: { en: 'company', fr: 'société' },
  individual: { en: 'individual', fr: 'personne physique' },
  api_key: { en: 'API key', fr: 'clé d’API' },
  webhook: { en: 'webhook', fr: 'webhook' },
  document: { en: 'document', fr: 'document' },
  template: { en: 'template', fr: 'modèle' },
  workspace: { en: 'workspace', fr: 'espace de travail' },
};

const pick = (w: Words | undefined, lang: string) => (w ? (lang === 'fr' ? w.fr : w.en) : null);

/** The action in words, or null when it is not a known one (the code is shown then). */
export function auditActionLabel(action: string, lang: string): string | null {
  const known = pick(ACTIONS[action], lang);
  if (known) return known;
  const check = /^check\.[a-z_]+\.([a-z_]+)$/.exec(action);
  return check ? pick(CHECK_VERBS[check[1]], lang) : null;
}

/** The resource type in words, or the type itself. */
export function auditResourceLabel(type: string, lang: string): string {
  return pick(RESOURCES[type], lang) ?? type;
}
