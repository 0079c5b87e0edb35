/**
 * The comments vericase writes itself on a check's review (`data.review.comment` when an automatic
 * rule decides, or says why a check waits for a review), shown in the console's language.
 *
 * The API stores and returns them in English, as integrators read them (and as the reference
 * service does): changing what is stored would change the API. The console instead recognises each
 * message the server writes (the patterns below, anchored, one per message) and shows its French
 * wording; a part that comes from elsewhere (a provider's comment, an error's text, the reasons a
 * sandbox gives) is kept as written, translated only when it is itself a known message. A comment
 * that matches nothing (a person's, or a message this table does not know yet) is shown as stored.
 * A code inside a message (a result `rejected`, a risk `prohibited`, a change category) is shown
 * as the console's word for it in both languages: the English console shows such a message
 * reworded too (the rules with an `en`), not the code a reader would have to know.
 * test/console-automatic-comments.test.ts runs the server's producers of these messages through
 * this table, so a new or reworded message without a French wording fails there.
 */

/** Words the table needs from the console's dictionaries. */
export interface CommentLabels {
  /** A check type in words (`fraud_database` → *Base anti-fraude*), or the code when unknown. */
  checkType(type: string): string;
  /** A check's `data.result` as the console labels it (`rejected` → *Refusé*), or the code. */
  result(value: string): string;
  /** An online reputation risk in words (`prohibited` → *interdit*), or the code when unknown. */
  reputationRisk(risk: string): string;
}

type Render = (m: RegExpExecArray, inner: (s: string) => string, labels: CommentLabels) => string;

type Rule = {
  en: RegExp;
  fr: Render;
  /** The English console's wording, where the stored message holds a code; else shown as stored. */
  shownEn?: Render;
};

const fixed = (en: string, fr: string): Rule => ({
  en: new RegExp(`^${en.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
  fr: () => fr,
});

/** A frame around another message (`Needs a review: …`): in English the frame stays, the inside is looked up. */
const frameEn =
  (group: number): Render =>
  (m, inner) =>
    m[0].slice(0, m[0].length - m[group].length) + inner(m[group]);

/** The fraud list's identifier kinds (src/fraud-database/identifiers.ts), in words. */
const FRAUD_KINDS: Readonly<Record<string, string>> = {
  email: 'l’e-mail',
  phone: 'le téléphone',
  iban: 'l’IBAN',
  registration_number: 'le numéro d’immatriculation',
  name_birth_date: 'le nom et la date de naissance',
};
const FRAUD_KINDS_EN: Readonly<Record<string, string>> = {
  email: 'the e-mail',
  phone: 'the phone',
  iban: 'the IBAN',
  registration_number: 'the registration number',
  name_birth_date: 'the name and birth date',
};

/** The categories of a registry change (src/company-data/monitoring/diff.ts, alertCategories), in words. */
/** A names list's English tail (`A; B; C and 21 more`) in French (`… et 21 autres`). */
function andMore(names: string): string {
  return names.replace(/ and (\d+) more$/, ' et $1 autres');
}

const CHANGE_CATEGORIES: Readonly<Record<string, { en: string; fr: string }>> = {
  company_status: { en: 'company status', fr: 'statut de la société' },
  operational_changes: { en: 'company details', fr: 'informations de la société' },
  legal_and_compliance: { en: 'officers', fr: 'dirigeants' },
  shareholder_changes: { en: 'shareholders', fr: 'actionnaires' },
  other: { en: 'other', fr: 'autre' },
};

const listed = (codes: string, words: (code: string) => string | undefined) =>
  codes
    .split(', ')
    .map((c) => words(c) ?? c)
    .join(', ');

/** The document analysis's criteria (`address matching`, as analyze.ts writes their keys), in words. */
const CRITERIA: Readonly<Record<string, string>> = {
  'address matching': 'adresse',
  'name matching': 'nom',
  'registration number matching': 'numéro d’immatriculation',
  'valid age in days': 'date d’émission',
  'valid document type': 'type de document',
  'valid expiration date': 'date d’expiration',
  'valid iban': 'IBAN valide',
  'valid bic': 'BIC valide',
  'iban matching': 'IBAN',
  'bic matching': 'BIC',
};

/**
 * The analysis's findings in French: the frames, each criterion's name, `expected … read …`; the
 * values read stay as they were read, and a file's reason not read stays the analysis's.
 */
function analysisInFrench(en: string): string {
  return en
    .replace(/^Failed: |(?<=\. )Failed: /g, 'Échec : ')
    .replace(/Could not be verified: /g, 'Non vérifié : ')
    .replace(/Not read: /g, 'Non lus : ')
    .replace(/The document expired on (\S+)\./g, 'Le document a expiré le $1.')
    .replace(/\bfile (\d+): /g, 'fichier $1 : ')
    .replace(
      /([a-z ]+) \(expected ([^()]*?), read ([^()]*)\)/g,
      (_all, name: string, expected: string, read: string) => {
        const key = name.trim();
        const label = CRITERIA[key] ?? key;
        const shown = (v: string) => (v === 'a value' ? 'une valeur' : v === 'nothing' ? 'rien' : v);
        return `${name.startsWith(' ') ? ' ' : ''}${label} (attendu ${shown(expected)}, lu ${shown(read)})`;
      },
    );
}

const RULES: Rule[] = [
  // src/checks/engine/system-review.ts, and the types that frame their own reason the same way
  {
    en: /^Approved automatically \(automatic_approval\): ([\s\S]+)$/,
    fr: (m, inner) => `Approuvé automatiquement (automatic_approval) : ${inner(m[1])}`,
    shownEn: frameEn(1),
  },
  {
    en: /^Rejected automatically \(automatic_rejection\): ([\s\S]+)$/,
    fr: (m, inner) => `Refusé automatiquement (automatic_rejection) : ${inner(m[1])}`,
    shownEn: frameEn(1),
  },
  {
    en: /^(Approved|Rejected) automatically by the (\S+) check's (automatic_approval|automatic_rejection) rule(?: \(result: ([^)]*)\))?$/,
    fr: (m, _inner, labels) =>
      `${m[1] === 'Approved' ? 'Approuvé' : 'Refusé'} automatiquement par la règle ${m[3]} du contrôle « ${labels.checkType(m[2])} »${
        m[4] !== undefined ? ` (résultat : ${labels.result(m[4])})` : ''
      }`,
    shownEn: (m, _inner, labels) =>
      `${m[1]} automatically by the ${labels.checkType(m[2])} check's ${m[3]} rule${
        m[4] !== undefined ? ` (result: ${labels.result(m[4])})` : ''
      }`,
  },
  // why a check waits for a person (src/checks/review-data.ts, reviewNeeded)
  {
    en: /^Needs a review \((automatic_approval|automatic_rejection) is off\): ([\s\S]+)$/,
    fr: (m, inner) => `À revoir (${m[1]} désactivé) : ${inner(m[2])}`,
    shownEn: frameEn(2),
  },
  {
    en: /^Needs a review: ([\s\S]+)$/,
    fr: (m, inner) => `À revoir : ${inner(m[1])}`,
    shownEn: frameEn(1),
  },
  // fraud_database
  fixed('no match in the fraud list', 'aucune correspondance dans la liste de fraude'),
  fixed(
    'the entity has no identifier the fraud list holds, so nothing could be searched',
    'l’entité n’a aucun identifiant que la liste de fraude contient : rien n’a pu être recherché',
  ),
  {
    en: /^the fraud list holds (.+) of this entity$/,
    fr: (m) => `la liste de fraude contient ${listed(m[1], (k) => FRAUD_KINDS[k])} de cette entité`,
    shownEn: (m) => `the fraud list holds ${listed(m[1], (k) => FRAUD_KINDS_EN[k])} of this entity`,
  },
  // online_reputation
  fixed(
    'Approved automatically: the online reputation analysis found a low or moderate risk',
    'Approuvé automatiquement : l’analyse de la réputation en ligne a trouvé un risque faible ou modéré',
  ),
  // electronic_signature
  fixed(
    'Approved automatically: the signer signed with a valid one-time code (automatic_approval)',
    'Approuvé automatiquement : le signataire a signé avec un code à usage unique valide (automatic_approval)',
  ),
  // src/checks/engine/force-review.ts
  fixed(
    'pushed to review (force_review) while its analysis had not finished: the files are to be judged by a person',
    'envoyé en revue (force_review) avant la fin de son analyse : les fichiers sont à juger par une personne',
  ),
  // aml and its monitoring
  fixed(
    'the screening could not run: no sanctions list is loaded on this service. Nothing was screened: create the check again once an administrator has loaded the lists, or decide it yourself',
    'le criblage n’a pas pu être effectué : aucune liste de sanctions n’est chargée sur ce service. Rien n’a été criblé : créez le contrôle à nouveau une fois les listes chargées par un administrateur, ou décidez-en vous-même',
  ),
  fixed(
    'the screening could not run: the sanctions lists were still loading. Nothing was screened: create the check again in a few minutes',
    'le criblage n’a pas pu être effectué : les listes de sanctions étaient encore en cours de chargement. Rien n’a été criblé : créez le contrôle à nouveau dans quelques minutes',
  ),
  fixed(
    'the screening could not run: the sanctions lists could not be loaded. Nothing was screened: create the check again once an administrator has loaded them, or decide it yourself',
    'le criblage n’a pas pu être effectué : les listes de sanctions n’ont pas pu être chargées. Rien n’a été criblé : créez le contrôle à nouveau une fois les listes chargées par un administrateur, ou décidez-en vous-même',
  ),
  {
    // the wording before 2026-12-07 (the operator's message): stored comments still read in French
    en: /^the screening could not run: ([\s\S]+)$/,
    fr: (m) => `le criblage n’a pas pu être effectué : ${m[1]}`,
  },
  {
    // the wording before session 56 (recorded as a system review): stored comments still read in French
    en: /^Screening could not run\. ([\s\S]+)$/,
    fr: (m) => `Le criblage n’a pas pu être effectué. ${m[1]}`,
  },
  {
    en: /^Monitoring after a list version change: hits (\d+) new, (\d+) updated, (\d+) removed$/,
    fr: (m) =>
      `Surveillance après une nouvelle version des listes : correspondances nouvelles ${m[1]}, mises à jour ${m[2]}, retirées ${m[3]}`,
  },
  {
    // the wording before 2026-12: comments stored then still read in French
    en: /^Monitoring after a list version change: (\d+) new, (\d+) updated, (\d+) removed hit\(s\)$/,
    fr: (m) =>
      `Surveillance après une nouvelle version des listes : correspondances nouvelles ${m[1]}, mises à jour ${m[2]}, retirées ${m[3]}`,
  },
  // company_monitoring
  fixed(
    'Monitoring started: the registry data the company was linked with is the baseline',
    'Surveillance démarrée : les données du registre auxquelles la société a été liée servent de référence',
  ),
  // document (src/checks/types/document/decide.ts, analysis/analyze.ts)
  {
    // the analysis's findings (analyze.ts): "Failed: …. Could not be verified: …. Not read: …."
    en: /^(?:Failed: |The document expired on |Could not be verified: |Not read: )[\s\S]*$/,
    fr: (m) => analysisInFrench(m[0]),
  },
  fixed(
    'every criterion of the document analysis passed',
    'tous les critères de l’analyse du document sont remplis',
  ),
  {
    // the files it could not read keep the analysis's own words (a file's number and why)
    en: /^every criterion of the document analysis passed on the files it read; not read: ([\s\S]+)$/,
    fr: (m) =>
      `tous les critères de l’analyse du document sont remplis sur les fichiers lus ; non lus : ${m[1]}`,
  },
  fixed(
    'the document was approved (sandbox_outcome approved)',
    'le document a été approuvé (sandbox_outcome approved)',
  ),
  fixed(
    'a criterion of the document analysis failed',
    'un critère de l’analyse du document n’est pas rempli',
  ),
  fixed('the document analysis could not decide', 'l’analyse du document n’a pas pu trancher'),
  fixed('the document analysis failed', 'l’analyse du document a échoué'),
  // the two below: how document checks said it before they used the "Needs a review" frame (kept
  // for the comments already stored)
  fixed(
    'The document was approved (sandbox_outcome approved); automatic_approval is off',
    'Le document a été approuvé (sandbox_outcome approved) ; automatic_approval est désactivé',
  ),
  fixed(
    'The document analysis approved the document; automatic_approval is off',
    'L’analyse du document a approuvé le document ; automatic_approval est désactivé',
  ),
  fixed(
    'The document was rejected (sandbox_outcome rejected)',
    'Le document a été rejeté (sandbox_outcome rejected)',
  ),
  fixed(
    'The document could not be decided (sandbox_outcome undecided)',
    'Le document n’a pas pu être tranché (sandbox_outcome undecided)',
  ),
  fixed(
    'The document analysis failed (sandbox_outcome error)',
    'L’analyse du document a échoué (sandbox_outcome error)',
  ),
  {
    en: /^The document analysis failed: ([\s\S]+)$/,
    fr: (m) => `L’analyse du document a échoué : ${m[1]}`,
  },
  {
    en: /^The document could not be read automatically \(([\s\S]*)\); it needs a manual review\.$/,
    fr: (m) => `Le document n’a pas pu être lu automatiquement (${m[1]}) ; il doit être revu à la main.`,
  },
  // id_document (src/checks/types/id_document/decide.ts, sandbox-provider.ts)
  fixed(
    'the file exceeds the maximum allowed size; upload a smaller file',
    'le fichier dépasse la taille maximale autorisée ; envoyez un fichier plus petit',
  ),
  fixed(
    'the document could not be processed; try a different document',
    'le document n’a pas pu être traité ; essayez un autre document',
  ),
  fixed(
    'The document failed the visual authenticity checks (sandbox_outcome rejected)',
    'Le document n’a pas passé les contrôles visuels d’authenticité (sandbox_outcome rejected)',
  ),
  fixed(
    'No machine-readable zone could be read from the document: a person must look at it',
    'Aucune zone de lecture automatique (MRZ) n’a pu être lue sur le document : une personne doit l’examiner',
  ),
  {
    en: /^The machine-readable zone was read as ([\s\S]+) but its check digits do not match that reading \(a misreading or a wrong document\): a person must look at it$/,
    fr: (m) =>
      `La zone de lecture automatique (MRZ) a été lue ainsi : ${m[1]}, mais ses chiffres de contrôle ne correspondent pas à cette lecture (erreur de lecture ou mauvais document) : une personne doit l’examiner`,
  },
  {
    en: /^The names read by OCR \(([\s\S]*)\) do not match the individual's: no check digit covers a name, so a person compares them$/,
    fr: (m) =>
      `Les noms lus par OCR (${m[1]}) ne correspondent pas à ceux de la personne : aucun chiffre de contrôle ne couvre un nom, une personne les compare`,
  },
  fixed(
    "The machine-readable zone was read and matches the individual; the document's authenticity is not evaluated: a person must look at it",
    'La zone de lecture automatique (MRZ) a été lue et correspond à la personne ; l’authenticité du document n’est pas évaluée : une personne doit l’examiner',
  ),
  {
    en: /^The document was rejected: ([\s\S]+)$/,
    fr: (m) => `Le document a été rejeté : ${m[1]}`,
  },
  fixed(
    'the document provider failed to verify the document',
    'le fournisseur n’a pas pu vérifier le document',
  ),
  fixed('the document provider approved the document', 'le fournisseur a approuvé le document'),
  fixed('the document provider rejected the document', 'le fournisseur a rejeté le document'),
  fixed(
    'the document provider could not decide on the document',
    'le fournisseur n’a pas pu se prononcer sur le document',
  ),
  {
    en: /^the document provider could not decide on the document: ([\s\S]+)$/,
    fr: (m, inner) => `le fournisseur n’a pas pu se prononcer sur le document : ${inner(m[1])}`,
  },
  fixed(
    'The document data does not match the individual (data comparison failed)',
    'Les données du document ne correspondent pas à la personne (comparaison des données en échec)',
  ),
  {
    en: /^a third automatic rejection in a row is left to a person: ([\s\S]+)$/,
    fr: (m, inner) => `un troisième rejet automatique de suite est laissé à une personne : ${inner(m[1])}`,
  },
  // ekyc
  {
    en: /^the data sources for (\S+) (match|contradict|could not confirm) the declared identity$/,
    fr: (m) =>
      `les sources de données pour ${m[1]} ${
        m[2] === 'match' ? 'confirment' : m[2] === 'contradict' ? 'contredisent' : 'n’ont pas pu confirmer'
      } l’identité déclarée`,
  },
  // online_reputation
  fixed(
    'the online reputation analysis could not rate the risk',
    'l’analyse de la réputation en ligne n’a pas pu évaluer le risque',
  ),
  {
    en: /^the online reputation analysis rated the risk (\S+)$/,
    fr: (m, _inner, labels) =>
      `l’analyse de la réputation en ligne a évalué le risque : ${labels.reputationRisk(m[1])}`,
    shownEn: (m, _inner, labels) =>
      `the online reputation analysis rated the risk as ${labels.reputationRisk(m[1])}`,
  },
  // aml (src/checks/types/aml/approval-comment.ts, src/checks/types/aml/index.ts)
  {
    en: /^Approved automatically: (the screening|the re-screening after a list update) found no match on the sanctions and watch lists(?: \(lists: ([^);]*)(?:; only their ([^)]*) entries)?\))?$/,
    fr: (m) =>
      `Approuvé automatiquement : ${m[1] === 'the screening' ? 'le criblage' : 'le nouveau criblage après une mise à jour des listes'} n’a trouvé aucune correspondance dans les listes de sanctions et de surveillance${m[2] ? ` (listes : ${m[2]}${m[3] ? ` ; seulement leurs entrées ${m[3]}` : ''})` : ''}`,
  },
  {
    // `hit(s)`: the wording of comments stored before 2026-12
    en: /^the screening found (\d+) hit(?:s|\(s\))? to confirm or ignore: ([\s\S]+)$/,
    fr: (m) =>
      `le criblage a trouvé ${m[1]} ${Number(m[1]) < 2 ? 'correspondance' : 'correspondances'} à confirmer ou ignorer : ${andMore(m[2])}`,
  },
  {
    // more matches than a check keeps (src/checks/types/aml/screen.ts MAX_HITS)
    en: /^the screening found (\d+) hits; the (\d+) closest are kept to confirm or ignore: ([\s\S]+)$/,
    fr: (m) =>
      `le criblage a trouvé ${m[1]} correspondances ; les ${m[2]} plus proches sont gardées, à confirmer ou ignorer : ${andMore(m[3])}`,
  },
  // electronic_signature
  fixed(
    'the signer signed with a valid one-time code; a person confirms the signature',
    'le signataire a signé avec un code à usage unique valide ; une personne confirme la signature',
  ),
  // company_monitoring
  {
    en: /^the company's registry data changed \(([^)]*)\); confirm the changes$/,
    fr: (m) =>
      `les données du registre de la société ont changé (${listed(m[1], (c) => CHANGE_CATEGORIES[c]?.fr)}) ; confirmez les changements`,
    shownEn: (m) =>
      `the company's registry data changed (${listed(m[1], (c) => CHANGE_CATEGORIES[c]?.en)}); confirm the changes`,
  },
  {
    en: /^the registry \(([^)]*)\) no longer has the company's record; confirm the company still exists$/,
    fr: (m) =>
      `le registre (${m[1]}) n’a plus la fiche de la société ; confirmez que la société existe toujours`,
  },
  // id_verification
  fixed('the verifier approved the identity', 'le vérificateur a approuvé l’identité'),
  {
    en: /^the verifier (approved|rejected) the identity(?:: ([\s\S]+?))?(?:; mode (\S+) has a person decide)?$/,
    fr: (m, inner) =>
      `le vérificateur a ${m[1] === 'approved' ? 'approuvé' : 'rejeté'} l’identité${m[2] ? ` : ${inner(m[2])}` : ''}${
        m[3] ? ` ; en mode ${m[3]}, une personne décide` : ''
      }`,
  },
  {
    en: /^the verifier could not decide(?:: ([\s\S]+))?$/,
    fr: (m, inner) => `le vérificateur n’a pas pu se prononcer${m[1] ? ` : ${inner(m[1])}` : ''}`,
  },
  fixed('the verification could not run', 'la vérification n’a pas pu être effectuée'),
  {
    en: /^The verification could not run: ([\s\S]+)$/,
    fr: (m) => `La vérification n’a pas pu être effectuée : ${m[1]}`,
  },
];

function translate(comment: string, lang: string, labels: CommentLabels, depth: number): string {
  if (depth > 2) return comment;
  for (const rule of RULES) {
    const m = rule.en.exec(comment);
    if (!m) continue;
    const inner = (s: string) => translate(s, lang, labels, depth + 1);
    if (lang === 'fr') return rule.fr(m, inner, labels);
    return rule.shownEn ? rule.shownEn(m, inner, labels) : comment;
  }
  return comment;
}

/**
 * `comment` as the console shows it in `lang` (French, or English with its codes in words). Only a comment vericase may have written is looked
 * up: the reviewer is `system`, or nobody yet (a reason a check waits for a review); a person's or
 * an API key's comment is theirs, shown as written.
 */
export function automaticComment(
  comment: string,
  reviewerType: unknown,
  lang: string,
  labels: CommentLabels,
): string {
  if (reviewerType !== 'system' && reviewerType != null) return comment;
  return translate(comment, lang, labels, 0);
}

/** Whether the table knows `comment` (tests: every message the server writes must be known). */
export function isKnownAutomaticComment(comment: string): boolean {
  return RULES.some((r) => r.en.test(comment));
}
