/**
 * Name normalisation shared by the index (list side) and the query side.
 *
 * Pipeline (`normalizeText`): Unicode NFKD → drop combining marks (diacritics) → transliterate whatever is
 * still non-ASCII with any-ascii (Cyrillic, Greek, Arabic, CJK, ...) → lower case → drop apostrophes
 * (o'brien → obrien) → join dotted initials (s.a. → sa, u.s.a. → usa; not in a person's name, where
 * `a.b. smith` is two initials) → '&' → 'and' → every other
 * non-alphanumeric character becomes a space.
 *
 * Tokenising (`nameTokens`) then depends on the kind of name:
 * - persons: "LAST, First Middle" (exactly one comma) is reordered to "first middle last"; titles
 *   (mr, mrs, dr, jr, ...) are dropped; low-information particles (de, del, la, van, von, da, dos, bin, ibn,
 *   bint, ..., `ben`, `ould`, Turkic patronymics `ogly`, `kyzy`, `uulu`, `uly`, ...) only between two other
 *   name tokens, and never a dotted initial (`Le`, `Do`, `Ben` are also names, `Y.` an initial; see
 *   personTokens).
 * - organisations, vessels, aircraft: stopwords (the, of, and, for, de, la, et, und, ...) are dropped and
 *   legal-form designations are stripped from the end (and a few Russian/Indonesian ones from the start):
 *   a built-in list plus, when supplied, the abbreviations columns of the ISO 20275 ELF code list.
 *   Stripping never removes the last remaining token.
 * - 'al' / 'el' are NOT stopwords: in Arabic names the article is part of the family name, so it is glued
 *   to the following token ("Al-Tikriti", "al Tikriti", "Altikriti" → "altikriti"). The scorer also
 *   compares tokens with the article removed so "Tikriti" still matches (slightly discounted).
 */
import anyAscii from 'any-ascii';
import { parseElfCsv } from '../shared/elf-csv.ts';

export type NameVariant = 'person' | 'org';

/** Titles: dropped wherever they stand. */
const PERSON_TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'dr', 'prof', 'jr', 'sr']);

/**
 * Low-information particles, dropped wherever they stand as long as two name tokens remain (a name of
 * one word and a particle keeps both: `Ibn Taymiyyah`).
 */
const PERSON_PARTICLES = new Set([
  'de',
  'del',
  'della',
  'der',
  'den',
  'von',
  'da',
  'das',
  'dos',
  'la',
  'las',
  'los',
  'bin',
  'ibn',
  'bint',
  'binti',
  // the same particles as any-ascii transliterates them from other scripts: Cyrillic фон → fon (von);
  // Arabic بن / ابن → bn, بنت → bnt (Arabic script is transliterated without vowels). Cyrillic бин,
  // ибн, бинт already give bin, ibn, bint.
  'fon',
  'bn',
  'bnt',
]);

/**
 * Particles that are also names or initials, dropped only between two other name tokens (see
 * personTokens): `le`, `do`, `du`, `di` are Vietnamese, Korean and Chinese family names and `van` a
 * Vietnamese middle name (`Van Le`, `Nguyen Van Le` were screened as nothing or as `nguyen`), `y` is
 * also an initial (`Y. Prigozhin` was screened as `prigozhin`).
 */
const PERSON_NAME_PARTICLES = new Set(['van', 'do', 'du', 'di', 'le', 'y']);

/**
 * Particles dropped only between two other tokens (as PERSON_NAME_PARTICLES), kept apart for what they are:
 * - `ben` is "son of" in Maghrebi and Hebrew names (`Habib Ben Ahmed`, Cyrillic `бен`) but `Ben` is an
 *   English given name (`Ben Smith`);
 * - `ould` is "son of" in Mauritanian names (`Saleck Ould Cheikh`, Arabic `ولد` → wld); Azerbaijani and
 *   Central Asian patronymics end in "son of" / "daughter of": `ogly`, `oglu`, `ogli` (Azerbaijani `oğlu`,
 *   Uzbek `o'g'li`, Cyrillic `оглы`, `оглу`, `огли`, Uzbek Cyrillic `ўғли` → ughli) and `kyzy`, `qizi`,
 *   `gyzy`, `kizi` (`qızı`, `кызы`, `гызы`, `қизи`, `кизи`); Kyrgyz `uulu` (`уулу`) and Kazakh `uly`
 *   (`ұлы`, Tatar and Bashkir `улы`), "son of", and Kazakh `qyzy` (`қызы`), "daughter of". A name can be
 *   just a particle and a name (`Ould Kheirou`, `Heydar oglu`, `Kadyr uulu`), and a particle alone is
 *   all there is to match, so at either end they stay.
 */
const PERSON_MIDDLE_PARTICLES = new Set([
  'ben',
  'ould',
  'wld',
  'ogly',
  'oglu',
  'ogli',
  'ughli',
  'kyzy',
  'gyzy',
  'qizi',
  'kizi',
  'uulu',
  'uly',
  'qyzy',
]);

const ORG_STOPWORDS = new Set([
  'the',
  'of',
  'and',
  'for',
  'de',
  'del',
  'la',
  'le',
  'les',
  'los',
  'las',
  'des',
  'du',
  'di',
  'da',
  'do',
  'y',
  'et',
  'und',
  'a',
  'an',
]);

/** Articles glued to the following token. */
const ARTICLES = new Set(['al', 'el']);

/** Legal forms that commonly lead an organisation name. */
const PREFIX_FORMS = [
  'ooo',
  'oao',
  'zao',
  'pao',
  'ao',
  'ano',
  'tov',
  'pat',
  'fgup',
  'gup',
  'mup',
  'pt',
  'jsc',
  'ojsc',
  'cjsc',
  'pjsc',
  'llc',
  'ip',
];

/** Built-in legal-form suffixes, used with or without the ELF list. */
const BUILTIN_FORMS = [
  'ltd',
  'limited',
  'llc',
  'llp',
  'lp',
  'plc',
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'gmbh',
  'mbh',
  'ag',
  'kg',
  'ohg',
  'ug',
  'se',
  'sa',
  'sas',
  'sarl',
  'sl',
  'srl',
  'spa',
  'sro',
  'sp z oo',
  'bv',
  'nv',
  'ab',
  'as',
  'asa',
  'oy',
  'oyj',
  'aps',
  'kft',
  'zrt',
  'doo',
  'dd',
  'ad',
  'ood',
  'ooo',
  'oao',
  'zao',
  'pao',
  'ao',
  'jsc',
  'ojsc',
  'cjsc',
  'pjsc',
  'pte',
  'pty',
  'pvt',
  'bhd',
  'sdn bhd',
  'fze',
  'fzco',
  'fzc',
  'fz llc',
  'wll',
  'ltda',
  'cia',
  'sa de cv',
  'de cv',
  'cv',
  'rl',
  's de rl',
  's de rl de cv',
  'sapi de cv',
  'saic',
  'sac',
  'saa',
  'eirl',
  'joint stock company',
  'open joint stock company',
  'closed joint stock company',
  'public joint stock company',
  'limited liability company',
  'limited liability partnership',
  'private limited',
  'public limited company',
  'sociedad anonima',
  'sociedad limitada',
  'company limited',
  'holding',
  'holdings',
  'group',
];

export interface LegalForms {
  /** Token sequences (joined by a space) that are legal forms. */
  forms: Set<string>;
  /** Longest sequence length, in tokens. */
  maxTokens: number;
}

/** Normalise free text to lower-case ASCII words separated by single spaces. */
export function normalizeText(input: string, joinInitials = true): string {
  let t = input.normalize('NFKD').replace(/\p{M}+/gu, '');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII range check
  if (/[^\x00-\x7f]/.test(t)) t = anyAscii(t);
  t = t.toLowerCase();
  t = t.replace(/['`]/g, '');
  if (joinInitials) t = t.replace(/\b([a-z0-9])\.(?=[a-z0-9]\b)/g, '$1');
  t = t.replace(/&/g, ' and ');
  t = t.replace(/[^a-z0-9]+/g, ' ').trim();
  return t;
}

function buildForms(list: Iterable<string>, base?: LegalForms): LegalForms {
  const forms = new Set(base?.forms ?? []);
  let maxTokens = base?.maxTokens ?? 1;
  for (const raw of list) {
    const f = normalizeText(raw);
    if (!f || !/[a-z]/.test(f)) continue;
    const n = f.split(' ').length;
    if (n > 5) continue;
    if (n === 1 && f.length < 2) continue;
    forms.add(f);
    if (n > maxTokens) maxTokens = n;
  }
  return { forms, maxTokens };
}

/** The built-in legal-form list (works without the ELF file). */
export const DEFAULT_LEGAL_FORMS: LegalForms = buildForms(BUILTIN_FORMS);
const PREFIXES = new Set(PREFIX_FORMS);

/**
 * Build a legal-form set from the ISO 20275 ELF CSV (columns "Abbreviations Local language" and
 * "Abbreviations transliterated", ';'-separated), merged with the built-in list. Multi-word descriptive
 * abbreviations longer than 5 words are ignored.
 */
export function legalFormsFromElfCsv(csvText: string): LegalForms {
  const abbr: string[] = [];
  for (const row of parseElfCsv(csvText))
    abbr.push(...row.abbreviationsLocal, ...row.abbreviationsTransliterated);
  return buildForms(abbr, DEFAULT_LEGAL_FORMS);
}

/** Put "LAST, First Middle" into "First Middle LAST" order (only when there is exactly one comma). */
export function reorderCommaName(name: string): string {
  const i = name.indexOf(',');
  if (i < 0 || name.indexOf(',', i + 1) >= 0) return name;
  const last = name.slice(0, i).trim();
  const first = name.slice(i + 1).trim();
  if (!last || !first) return name;
  return `${first} ${last}`;
}

function glueArticles(tokens: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (ARTICLES.has(t) && i + 1 < tokens.length) {
      out.push(t + tokens[++i]);
    } else out.push(t);
  }
  return out;
}

function stripLegalForms(tokens: string[], legal: LegalForms): string[] {
  let end = tokens.length;
  let start = 0;
  let changed = true;
  while (changed && end - start > 1) {
    changed = false;
    for (let n = Math.min(legal.maxTokens, end - start - 1); n >= 1; n--) {
      if (legal.forms.has(tokens.slice(end - n, end).join(' '))) {
        end -= n;
        changed = true;
        break;
      }
    }
  }
  while (end - start > 1 && PREFIXES.has(tokens[start])) start++;
  return tokens.slice(start, end);
}

/** A person's word, and whether it was written as a dotted initial (`Y.`, each letter of `A.B.`). */
interface PersonWord {
  token: string;
  initial: boolean;
}

/**
 * A person's name as normalised words. A person's dotted initials are initials each (`A.B. Smith` → a b
 * smith, as `A. B. Smith`), not an abbreviation to join like an organisation's `S.A.`; each word is
 * normalised on its own so that the dot is still known (normalizeText works within a word).
 */
function personWords(name: string): PersonWord[] {
  const out: PersonWord[] = [];
  for (const chunk of name.split(/\s+/)) {
    if (!chunk) continue;
    const initial = /^(?:\p{L}\.)+[,;]?$/u.test(chunk);
    for (const token of normalizeText(chunk, false).split(' ')) if (token) out.push({ token, initial });
  }
  return out;
}

/**
 * Titles dropped anywhere. Particles that are also names (PERSON_NAME_PARTICLES) and "son of" particles
 * (PERSON_MIDDLE_PARTICLES) only when a name token that is not a particle stands somewhere before and
 * somewhere after them; then the other particles (PERSON_PARTICLES) wherever they stand, unless fewer
 * than two tokens would remain. A dotted initial is never a particle. So `Juan de la Cruz` → juan cruz,
 * `Usama bin Laden` and `Laden Usama bin` → usama laden, `Tran Van Thanh` → tran thanh, but `Van Le`,
 * `Nguyen Van Le`, `Du Yurong` and `Y. Prigozhin` keep every token, and a name of only titles keeps them
 * (something to screen).
 */
function personTokens(name: string): string[] {
  const words = personWords(name);
  const named = words.filter((w) => !PERSON_TITLES.has(w.token));
  const base = named.length ? named : words;
  const anyParticle = (w: PersonWord) =>
    !w.initial &&
    (PERSON_PARTICLES.has(w.token) ||
      PERSON_NAME_PARTICLES.has(w.token) ||
      PERSON_MIDDLE_PARTICLES.has(w.token));
  let first = -1;
  let last = -1;
  for (let i = 0; i < base.length; i++) {
    if (anyParticle(base[i])) continue;
    if (first < 0) first = i;
    last = i;
  }
  const between = base.filter(
    (w, i) =>
      !(
        i > first &&
        i < last &&
        !w.initial &&
        (PERSON_NAME_PARTICLES.has(w.token) || PERSON_MIDDLE_PARTICLES.has(w.token))
      ),
  );
  const kept = between.filter((w) => w.initial || !PERSON_PARTICLES.has(w.token));
  return (kept.length >= 2 ? kept : between).map((w) => w.token);
}

/**
 * Tokens of a name for matching. `variant` 'person' reorders "LAST, First" and drops person particles;
 * 'org' drops organisation stopwords and legal forms.
 */
export function nameTokens(
  name: string,
  variant: NameVariant,
  legal: LegalForms = DEFAULT_LEGAL_FORMS,
): string[] {
  if (variant === 'person') {
    return glueArticles(personTokens(reorderCommaName(name)));
  }
  // Legal forms first (they may contain stopwords: "s de rl de cv"), then stopwords, then forms again.
  const raw = stripLegalForms(joinLetterRuns(normalizeText(name).split(' ').filter(Boolean)), legal);
  const kept = raw.filter((t) => !ORG_STOPWORDS.has(t));
  const base = kept.length ? kept : raw;
  return glueArticles(stripLegalForms(base, legal)).map((t) => ORG_SYNONYMS.get(t) ?? t);
}

/**
 * Words an organisation's name is written with in several forms, one form each, so that `Mahan
 * Airlines` is `MAHAN AIR` and not a name with a word missing (every word of a multi-word query must
 * be found, and `air` is too short to be a misspelling of `airlines`), and a country's adjective its
 * name. Kept small on purpose: only forms of the same word, never two different words.
 */
const ORG_SYNONYMS = new Map([
  ['airlines', 'air'],
  ['airline', 'air'],
  ['airways', 'air'],
  ['intl', 'international'],
  // a country's adjective is its name (`KOREAN NATIONAL INSURANCE COMPANY` is also listed as `KOREA
  // NATIONAL INSURANCE CORPORATION`, and `korean` does not pair with `korea` as a misspelling): the
  // countries whose adjective the lists' organisation names use
  ['korean', 'korea'],
  ['iranian', 'iran'],
  ['syrian', 'syria'],
  ['iraqi', 'iraq'],
  ['libyan', 'libya'],
  ['russian', 'russia'],
  ['belarusian', 'belarus'],
  ['cuban', 'cuba'],
  ['venezuelan', 'venezuela'],
  ['sudanese', 'sudan'],
  ['lebanese', 'lebanon'],
  ['yemeni', 'yemen'],
  ['somali', 'somalia'],
  ['afghan', 'afghanistan'],
  ['pakistani', 'pakistan'],
  ['chinese', 'china'],
]);

/**
 * An organisation's initials written apart are one token, as when written with dots (`A.A. Trading`
 * → aa trading): `A A TRADING FZCO` → aa trading. Otherwise each `a` went as a stopword and the name
 * was `trading` alone, which any query naming a trading company matched in full.
 */
function joinLetterRuns(tokens: string[]): string[] {
  const out: string[] = [];
  let run = '';
  for (const t of tokens) {
    if (t.length === 1) {
      run += t;
      continue;
    }
    if (run) out.push(run);
    run = '';
    out.push(t);
  }
  if (run) out.push(run);
  // a lone letter stays what it was (a stopword such as `a`, or an initial)
  return out;
}

/** Normalised display form: the tokens joined by single spaces. */
export function normalizeName(name: string, variant: NameVariant, legal?: LegalForms): string {
  return nameTokens(name, variant, legal).join(' ');
}

/** Normalise an identifier for comparison: upper-case alphanumerics only. */
export function normalizeIdentifier(value: string): string {
  return normalizeText(value).replace(/ /g, '').toUpperCase();
}

/** Name parts written glued to the next word or apart from it, as the writer pleases. */
const GLUED_PREFIX = /\b(abd|abdel|abdul|abdal|abdoul|abdur|abu|bin|ibn)[\s-]+(?=[a-z]{3,}\b)/gi;
/** `Abd…` written glued: `Abdallah`, `Abdelrahman`, `Abdulaziz` (the rest four letters or more). */
const SPLIT_PREFIX = /\b(abd(?:el|ul|al|oul|ur)?)(?=[a-z]{4,}\b)/gi;

/**
 * Other spellings of a listed name that split or glue its compound parts: `BIN LADEN, Osama` is
 * also `BINLADEN, Osama`, `ABD ALLAH …` also `ABDALLAH …`, and `Abdelrahman` also `Abdel Rahman`.
 * Indexed as more records of the entity, so a query written the other way finds it (`Osama
 * Binladin`, `Abdallah … Abdelrahman` found nothing: `bin` is dropped from a person's name and
 * `binladin` matched no token; `abdallah` met `abd` and `allah` apart). Empty when none applies.
 */
export function compoundForms(name: string): string[] {
  const out = new Set<string>();
  const glued = name.replace(GLUED_PREFIX, '$1');
  if (glued !== name) out.add(glued);
  const split = name.replace(SPLIT_PREFIX, '$1 ');
  if (split !== name) out.add(split);
  return [...out];
}

/** A bracketed part of a name: `(KNIC)`, `(PAKISTAN)`, `(HONG KONG)`. */
const BRACKET = /\s*\(([^()]*)\)/g;

/**
 * Other records of a listed name with a bracketed part (`KOREAN NATIONAL INSURANCE COMPANY (KNIC)`,
 * `AL-HARAMAIN FOUNDATION (PAKISTAN)`, `UGANDA COMMERCIAL IMPEX (UCI) LTD`): the name without it, and an
 * organisation's acronym of four characters or more on its own (`KNIC`). Before, the bracket stayed a
 * token of the name, and kept a legal form before it from being stripped (`company knic`), so the name
 * as people write it (`Korean National Insurance Company`) scored 0.80 and was not found. Shorter
 * acronyms (`SIG`, `OMM`, `MIT`) are not names of their own: a company called `MIT` or `SEP` is not one
 * of the listed ones. The bracket is an acronym when its letters appear in order in the words before it,
 * starting with the first one's first letter (`SAPICO`: Sahand Aluminum Parts Industrial COmpany); a
 * place or a remark (`PAKISTAN`, `BRANCH LOCATED IN …`) is not indexed on its own.
 */
export function bracketForms(name: string, variant: NameVariant): string[] {
  if (!name.includes('(')) return [];
  const out: string[] = [];
  const bare = name.replace(BRACKET, ' ').replace(/\s+/g, ' ').trim();
  if (bare && bare !== name.trim() && /[\p{L}\p{N}]/u.test(bare)) out.push(bare);
  if (variant !== 'org') return out;
  for (const m of name.matchAll(BRACKET)) {
    const before = normalizeText(name.slice(0, m.index));
    for (const part of m[1].split(/[,;]/)) {
      const acronym = normalizeText(part).replace(/ /g, '');
      if (acronym.length >= 4 && !/\s/.test(part.trim()) && isAcronymOf(acronym, before))
        out.push(part.trim());
    }
  }
  return out;
}

/** Whether `acronym`'s letters appear in order in `words`, the first being the first word's first letter. */
function isAcronymOf(acronym: string, words: string): boolean {
  if (!words || acronym[0] !== words[0]) return false;
  let i = 0;
  for (const c of words) if (c === acronym[i]) i++;
  return i === acronym.length;
}

/** Longest word of a given name or syllable that gluedTokenForms joins to the next (`kyong`, `zhang`). */
const SYLLABLE_MAX = 5;

/**
 * A person's name with two adjacent short words written as one, one pair at a time: `kang chol su` →
 * `kangchol su`, `kang cholsu`. East Asian given names are written apart or glued as the writer pleases
 * (`KANG CHOL SU` / `Kang Cholsu`, `KIM, Jong Un` / `Kim Jongun`, `LI, Fangwei` / `Li Fang Wei`); the
 * index holds these forms of every listed person (so a query that glues finds a name listed apart) and a
 * query tries them when the glued word is a listed token (so a query written apart finds a name listed
 * glued). Words of two to five letters only (syllables), never an initial.
 */
export function gluedTokenForms(tokens: string[]): { tokens: string[]; glued: string }[] {
  const out: { tokens: string[]; glued: string }[] = [];
  const short = (t: string) => t.length >= 2 && t.length <= SYLLABLE_MAX && /^[a-z]+$/.test(t);
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (!short(tokens[i]) || !short(tokens[i + 1])) continue;
    const glued = tokens[i] + tokens[i + 1];
    out.push({ tokens: [...tokens.slice(0, i), glued, ...tokens.slice(i + 2)], glued });
  }
  return out;
}

/**
 * Every other form of a listed name indexed as a record of its entity: compound parts glued or split
 * (compoundForms), the name without its bracketed part and an organisation's acronym (bracketForms), a
 * person's given-name syllables glued (gluedTokenForms).
 */
export function listedNameForms(name: string, variant: NameVariant): string[] {
  const out = new Set<string>();
  for (const base of [name, ...bracketForms(name, variant)]) {
    if (base !== name) out.add(base);
    for (const f of compoundForms(base)) out.add(f);
  }
  if (variant === 'person')
    for (const base of [name, ...out])
      for (const form of gluedTokenForms(nameTokens(base, 'person'))) out.add(form.tokens.join(' '));
  out.delete(name);
  return [...out];
}
