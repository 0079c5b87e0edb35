/**
 * Name-to-name scoring: best one-to-one token pairing (greedy on similarity, which is optimal or near it
 * for the 1–6 token names found on lists) using Jaro-Winkler, weighted by token length, with penalties
 * for unmatched tokens. Unmatched tokens lying between matched ones (a dropped middle name) cost much less
 * than unmatched tokens at either end (a different first or family name). A person's name given as a
 * subset of the listed names (given name + one surname: `Jose Gutierrez` for `GUTIERREZ REYES, Jose`,
 * `Saddam Hussein` for `SADDAM HUSSEIN AL-TIKRITI`) leaves listed tokens unmatched at the end only;
 * see PENALTY.listedTrailing.
 *
 *   score = Σ w·sim / (Σ w + Σ_unmatched w·penalty)
 *
 * w = mean length of the paired tokens (each ≤ 12) × the listed token's rarity; an unmatched token's w is
 * its length × its own rarity (rarity: 1 for a rare token, less for a token many listed entities carry,
 * see COMMON_TOKEN in build.ts), so the pairs on rare tokens decide the score.
 */
import { doubleMetaphone } from 'double-metaphone';
import { jaroWinkler } from './jaro-winkler.ts';
import { isPatronymic } from './patronymic.ts';

/** Token pairs below this similarity are treated as unmatched. */
export const TOKEN_FLOOR = 0.8;
/** Penalty factors for unmatched tokens (fraction of their weight added to the denominator). */
export const PENALTY = {
  queryMiddle: 0.25,
  queryEnd: 0.7,
  listedMiddle: 0.1,
  listedEnd: 0.6,
  /**
   * Persons only: unmatched listed tokens after the last matched one, when every query token matched,
   * the listed name's first token (the given name) matched and at least two full names (not initials)
   * were paired. Hispanic second surnames and Arabic trailing names (nisba, tribe) are routinely left
   * out; a query of one name, or of surnames without the given name, keeps listedEnd.
   */
  listedTrailing: 0.2,
  /**
   * A listed East Slavic patronymic (`VEKSELBERG, Viktor Feliksovich`) left out where a middle or
   * trailing name would be forgiven: customer forms have no field for it, so a query without it is the
   * normal case. At 0.10 it cost `Viktor Vekselberg` 0.07, which a near birth year or a second
   * nationality took below the threshold.
   */
  listedPatronymic: 0.04,
};
/** Discount when a pair only matches after removing a glued 'al'/'el' article from one side. */
const ARTICLE_FACTOR = 0.95;
/** Similarity of two-letter tokens with the same first letter and double-metaphone key. */
const SHORT_PHONETIC = 0.85;
/** Similarity of an initial ('m') and a name it may abbreviate ('muhammad'). */
export const INITIAL = { similarity: 0.85 };

/**
 * Whether two different tokens are the same name in another form rather than a spelling of it: an initial
 * and a name of its letter, or a name with and without a glued article (`altikriti`/`tikriti`). These
 * still pair when fuzziness allows no spelling difference (see the `floor` of scoreTokens).
 */
function sameNameOtherForm(a: string, b: string): boolean {
  if (a.length === 1 || b.length === 1) return a.length !== b.length && a[0] === b[0];
  const glued = (t: string) => t.length >= 5 && (t.startsWith('al') || t.startsWith('el'));
  return (glued(a) && a.slice(2) === b) || (glued(b) && b.slice(2) === a);
}

const phoneticCache = new Map<string, string>();

/** Primary double-metaphone key, memoised (tokens repeat heavily across names and queries). */
export function phoneticKey(token: string): string {
  let k = phoneticCache.get(token);
  if (k === undefined) {
    k = doubleMetaphone(token)[0];
    if (phoneticCache.size > 200_000) phoneticCache.clear();
    phoneticCache.set(token, k);
  }
  return k;
}

const keysCache = new Map<string, string[]>();

/** Both double-metaphone keys of a token and, for a glued article (`alkhalil`), of the rest. */
function phoneticKeys(t: string): string[] {
  let k = keysCache.get(t);
  if (!k) {
    const base = t.length >= 5 && (t.startsWith('al') || t.startsWith('el')) ? t.slice(2) : t;
    k = [...doubleMetaphone(t), ...doubleMetaphone(base)].filter(Boolean);
    if (keysCache.size > 200_000) keysCache.clear();
    keysCache.set(t, k);
  }
  return k;
}

/** Whether two tokens share a phonetic key (the same name written differently: hussein ~ husayn). */
export function soundAlike(a: string, b: string): boolean {
  const kb = phoneticKeys(b);
  return phoneticKeys(a).some((k) => kb.includes(k));
}

/** What the lists say about each token of a name (see COMMON_TOKEN in build.ts). */
export interface TokenStats {
  /** 1 for a rare token, less for one that many listed entities carry. */
  rarity: ArrayLike<number>;
  /** Carried by at least COMMON_TOKEN.knownEntities listed entities: a name in its own right. */
  known: ArrayLike<boolean>;
}

export function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const la = a.length;
  const lb = b.length;
  // Very short tokens (initials, 'ab', 'co') must match exactly, except two-letter romanisation variants
  // of the same syllable (ri~ry, ko~ku in Korean names): same first letter and same phonetic key.
  if (la <= 2 || lb <= 2) {
    if (la === 1 || lb === 1) return la !== lb && a[0] === b[0] ? INITIAL.similarity : 0;
    return la === 2 && lb === 2 && a[0] === b[0] && phoneticKey(a) === phoneticKey(b) ? SHORT_PHONETIC : 0;
  }
  let s = jaroWinkler(a, b);
  // JW is generous on 3–4 letter tokens (khan~kang 0.88, luis~plus 0.83): double their distance unless
  // the two tokens sound the same (ali~aly, omar~umar keep their JW score).
  if ((la <= 4 || lb <= 4) && phoneticKey(a) !== phoneticKey(b)) s = 1 - 2 * (1 - s);
  if (s < 0.97) {
    const aa = la >= 5 && (a.startsWith('al') || a.startsWith('el'));
    const ba = lb >= 5 && (b.startsWith('al') || b.startsWith('el'));
    if (aa !== ba) {
      const s2 = ARTICLE_FACTOR * (aa ? jaroWinkler(a.slice(2), b) : jaroWinkler(a, b.slice(2)));
      if (s2 > s) s = s2;
    }
  }
  // Spellings that differ in their vowels only (hezbollah/hizballah, JW 0.82): Arabic and Persian
  // write no short vowels, so romanisations choose them freely; JW alone counts each as a miss.
  if (s < VOWEL_VARIANT && la >= 6 && lb >= 6 && a.charCodeAt(0) === b.charCodeAt(0) && sameConsonants(a, b))
    return VOWEL_VARIANT;
  // (cheap tests first: this is the innermost loop, and the pairs it concerns are few)
  if (s >= TOKEN_FLOOR && la >= 5 && lb >= 5 && a.charCodeAt(0) !== b.charCodeAt(0) && differentNames(a, b))
    return 0;
  return s;
}

/** Similarity given to two tokens of six letters or more that differ only in their vowels. */
export const VOWEL_VARIANT = 0.9;

const skeletonCache = new Map<string, string>();

/** The token's consonants, doubled letters once (`hizballah` → hzblh). */
function consonantSkeleton(t: string): string {
  let k = skeletonCache.get(t);
  if (k === undefined) {
    k = '';
    for (const c of t) if (!'aeiouy'.includes(c) && k[k.length - 1] !== c) k += c;
    if (skeletonCache.size > 200_000) skeletonCache.clear();
    skeletonCache.set(t, k);
  }
  return k;
}

/** Whether two tokens have the same consonants in the same order (at least three of them). */
function sameConsonants(a: string, b: string): boolean {
  const ka = consonantSkeleton(a);
  return ka.length >= 3 && ka === consonantSkeleton(b);
}

/**
 * Two tokens of five letters or more that start differently and are more than one edit apart are two
 * names, not one name misspelt, unless they sound alike: `smirnov` and `mironov` (Jaro-Winkler 0.85: JW
 * finds the shared letters shifted by one place and has no common prefix to weigh) are different family
 * names, while `smirnoff`, `smirnow`, `myronov`, `mironoff` start alike or sound alike and still pair.
 *
 * "Start differently": different first letters that are not the first two letters swapped (`ibrahim`/
 * `birahim`, a typing slip) and not the same first sound in either double-metaphone key (`yusuf`/`iusuf`,
 * `kasim`/`qasim`, `ynversiones`/`inversiones`: romanisation differences). One edit: a substitution,
 * insertion, deletion or adjacent transposition, i.e. a single typo, which the recall bench requires to
 * match wherever it falls. Counted as no edit: a leading letter that romanisations add or drop (see
 * withoutLooseStart: `brahim`/`ibrahimi`, `cabdullaahi`/`abdullahi`, `djaffar`/`jaffir`). A token with a
 * glued article (`aldafeer`) is also compared without it, and the pair is kept when either comparison says
 * it may be one name (`dazeer` is one edit from `dafeer`).
 */
function differentNames(a: string, b: string): boolean {
  if (mayBeOneName(a, b)) return false;
  const sa = a.length >= 5 && (a.startsWith('al') || a.startsWith('el')) ? a.slice(2) : a;
  const sb = b.length >= 5 && (b.startsWith('al') || b.startsWith('el')) ? b.slice(2) : b;
  if ((sa === a) !== (sb === b) && mayBeOneName(sa, sb)) return false;
  return !soundAlike(a, b);
}

function mayBeOneName(a: string, b: string): boolean {
  if (!startsDifferently(a, b) || withinOneEdit(a, b)) return true;
  const la = withoutLooseStart(a);
  const lb = withoutLooseStart(b);
  return (la !== a && withinOneEdit(la, b)) || (lb !== b && withinOneEdit(a, lb));
}

const VOWELS = 'aeiou';

/**
 * The token without a first letter that romanisations write or leave out: a prothetic vowel (`Ibrahim`/
 * `Brahim`, `Emmanuel`/`Manuel`, `Elizabeth`/`Lizbeth`), `c` or `g` for the Arabic ayin before a vowel
 * (Somali `Cabdullaahi`, Tatar `Gabdulla` for Abdullah), the `d` of `dj`/`dz` (`Djafar`/`Jafar`), the `k`
 * of `kh` (`Khozhakhmedovich`/`Hozhahmedovich`) and the `t` of `ts`/`tch`. Otherwise the token itself.
 */
function withoutLooseStart(t: string): string {
  const c = t[0];
  const next = t[1];
  if (
    VOWELS.includes(c) ||
    ((c === 'c' || c === 'g') && VOWELS.includes(next)) ||
    (c === 'd' && (next === 'j' || next === 'z')) ||
    (c === 'k' && next === 'h') ||
    (c === 't' && (next === 's' || next === 'c'))
  )
    return t.slice(1);
  return t;
}

/**
 * Whether one known name is the other written with a leading letter that romanisations add: `ibrahim`/
 * `brahim`, `djamel`/`jamel`, `djaafar`/`jaafar` (both on the lists, and the two-known-names rule would
 * keep them apart since they share no phonetic key). Stricter than withoutLooseStart: the rest must be
 * the other token exactly, of five letters or more, and a dropped vowel must be an `i` or `e` before two
 * consonants (a prothetic vowel: Maghrebi `Brahim`, Spanish `Esteban`), since `italia`/`talia`,
 * `acosta`/`costa`, `ocampo`/`campo` are different names.
 */
function spelledWithLooseStart(a: string, b: string): boolean {
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  if (short.length < 5 || long.length !== short.length + 1 || !long.endsWith(short)) return false;
  if (!VOWELS.includes(long[0])) return withoutLooseStart(long) === short;
  return (long[0] === 'i' || long[0] === 'e') && !VOWELS.includes(short[0]) && !VOWELS.includes(short[1]);
}

function startsDifferently(a: string, b: string): boolean {
  if (a[0] === b[0] || (a[0] === b[1] && a[1] === b[0])) return false;
  const ib = initialSounds(b);
  for (const c of initialSounds(a)) if (ib.includes(c)) return false;
  return true;
}

const initialsCache = new Map<string, string>();

/** First letters of both double-metaphone keys (`yusuf` → 'AA', `wazir` → 'AF'), memoised. */
function initialSounds(t: string): string {
  let k = initialsCache.get(t);
  if (k === undefined) {
    k = doubleMetaphone(t)
      .map((key) => key.charAt(0))
      .join('');
    if (initialsCache.size > 200_000) initialsCache.clear();
    initialsCache.set(t, k);
  }
  return k;
}

/** Whether one substitution, insertion, deletion or adjacent transposition turns `a` into `b`. */
function withinOneEdit(a: string, b: string): boolean {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === la && i === lb) return true;
  const tailEqual = (ai: number, bi: number) => a.length - ai === b.length - bi && a.endsWith(b.slice(bi));
  if (la === lb) {
    if (tailEqual(i + 1, i + 1)) return true;
    return i + 1 < la && a[i] === b[i + 1] && a[i + 1] === b[i] && tailEqual(i + 2, i + 2);
  }
  return la > lb ? tailEqual(i + 1, i) : tailEqual(i, i + 1);
}

export interface TokenPair {
  query: string;
  listed: string;
  similarity: number;
}

export interface NameScore {
  score: number;
  pairs: TokenPair[];
  unmatchedQuery: string[];
  unmatchedListed: string[];
}

let simBuf = new Float64Array(64);

function isMatchedTwin(r: string[], j: number, used: number): boolean {
  for (let k = 0; k < r.length; k++) if (k !== j && used & (1 << k) && r[k] === r[j]) return true;
  return false;
}

/**
 * Score query tokens against one listed name's tokens. `qw`/`rw`: token lengths (tokenWeight); `qs`/`rs`:
 * the tokens' rarity on the lists (without them every token has rarity 1 and none is a known name).
 *
 * Two different known names of four letters or more (each carried by listed entities: `khalid`,
 * `khalil`) that do not sound alike are not paired, however close their spelling: they are two names, not
 * a typo of one (a typo rarely gives a name that is on the lists).
 *
 * `floor`: two different tokens pair only at this similarity or above (TOKEN_FLOOR by default; 1 at
 * fuzziness 0, see fuzzinessToTokenFloor in search.ts), except an initial and a name with or without its
 * glued article, which are the same name written otherwise.
 */
export function scoreTokens(
  q: string[],
  qw: number[],
  r: string[],
  rw: number[],
  withDetail: boolean,
  person = false,
  qs?: TokenStats,
  rs?: TokenStats,
  floor = TOKEN_FLOOR,
): NameScore | number {
  const m = q.length;
  const n = r.length;
  if (m * n > simBuf.length) simBuf = new Float64Array(m * n * 2);
  const sims = simBuf;
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let s = tokenSimilarity(q[i], r[j]);
      // (tokens of up to three letters have their own rules: initials, ri~ry, the doubled distance)
      if (s < 1 && s >= TOKEN_FLOOR && qs?.known[i] && rs?.known[j] && q[i].length > 3 && r[j].length > 3)
        if (!soundAlike(q[i], r[j]) && !spelledWithLooseStart(q[i], r[j])) s = 0;
      // a stricter fuzziness: spelling differences under the floor do not pair (typos, transliterations)
      if (s < floor && s < 1 && !sameNameOtherForm(q[i], r[j])) s = 0;
      sims[i * n + j] = s;
    }
  }
  let usedQ = 0;
  let usedR = 0;
  let num = 0;
  let den = 0;
  let qMin = m;
  let qMax = -1;
  let rMin = n;
  let rMax = -1;
  const pairs: TokenPair[] | undefined = withDetail ? [] : undefined;
  let paired = 0;
  let fullPairs = 0;
  const k = Math.min(m, n, 31);
  for (let step = 0; step < k; step++) {
    let best = TOKEN_FLOOR;
    let bi = -1;
    let bj = -1;
    for (let i = 0; i < m; i++) {
      if (usedQ & (1 << i)) continue;
      for (let j = 0; j < n; j++) {
        if (usedR & (1 << j)) continue;
        const s = sims[i * n + j];
        if (s >= best && (s > best || bi < 0)) {
          best = s;
          bi = i;
          bj = j;
        }
      }
    }
    if (bi < 0) break;
    usedQ |= 1 << bi;
    usedR |= 1 << bj;
    // the listed token's rarity: how much a match on it tells about which entity this is
    const w = ((qw[bi] + rw[bj]) / 2) * (rs ? rs.rarity[bj] : 1);
    num += w * best;
    den += w;
    if (bi < qMin) qMin = bi;
    if (bi > qMax) qMax = bi;
    if (bj < rMin) rMin = bj;
    if (bj > rMax) rMax = bj;
    paired++;
    if (q[bi].length > 1 && r[bj].length > 1) fullPairs++;
    pairs?.push({ query: q[bi], listed: r[bj], similarity: best });
  }
  if (num === 0) return withDetail ? { score: 0, pairs: [], unmatchedQuery: q, unmatchedListed: r } : 0;
  for (let i = 0; i < m; i++) {
    if (usedQ & (1 << i)) continue;
    den += qw[i] * (qs ? qs.rarity[i] : 1) * (i > qMin && i < qMax ? PENALTY.queryMiddle : PENALTY.queryEnd);
  }
  // The query names a subset of the listed person's names: its given name and at least one more, with
  // nothing of its own left over. Listed names after the last matched one were only left out.
  const subset = person && rMin === 0 && fullPairs >= 2 && paired === m;
  for (let j = 0; j < n; j++) {
    if (usedR & (1 << j)) continue;
    // A repeated listed token ("BARRERA BARRERA, Daniel") counts as a middle token when its twin matched.
    const middle = (j > rMin && j < rMax) || isMatchedTwin(r, j, usedR);
    const leftOut = middle || (subset && j > rMax);
    den +=
      rw[j] *
      (rs ? rs.rarity[j] : 1) *
      (leftOut && isPatronymic(r[j])
        ? PENALTY.listedPatronymic
        : middle
          ? PENALTY.listedMiddle
          : subset && j > rMax
            ? PENALTY.listedTrailing
            : PENALTY.listedEnd);
  }
  const score = num / den;
  if (!withDetail) return score;
  return {
    score,
    pairs: pairs!,
    unmatchedQuery: q.filter((_, i) => !(usedQ & (1 << i))),
    unmatchedListed: r.filter((_, j) => !(usedR & (1 << j))),
  };
}
