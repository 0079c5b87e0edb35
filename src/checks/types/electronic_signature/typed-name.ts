import { foldText } from '../../../shared/fold-text.ts';

/**
 * A typed signature is the signer's name, not any text: it must read as the name on record. The
 * comparison forgives what a person types differently without writing another name: letter case,
 * accents (`Zoe` for `Zoë`), punctuation and hyphens (`Jean Pierre` for `Jean-Pierre`), spacing,
 * the order of the names (`Lovelace Ada`) and the middle name, given or left out.
 */
export function typedNameMatches(
  typed: string,
  person: { first_name: string | null; middle_name: string | null; last_name: string | null },
): boolean {
  const given = words(typed);
  const full = words([person.first_name, person.middle_name, person.last_name].join(' '));
  const short = words([person.first_name, person.last_name].join(' '));
  if (full.length === 0) return false;
  if (sameWords(given, full) || sameWords(given, short)) return true;
  // written without spaces, as Chinese, Japanese and Korean names are (`王小明` for 小明 王), or run
  // together: the names in either order, glued
  const glued = given.join('');
  return [full, short].some((names) => orders(names).some((o) => o.join('') === glued));
}

function words(name: string): string[] {
  // letters a decomposition leaves whole are typed plainly on a keyboard without them (`Sklodowska`
  // for `Skłodowska`, `ss` for `ß`): the project's search folding reads them so
  return foldText(name)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase('und')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Every order of a few names (a name has at most a handful of words: 3 give 6 orders). */
function orders(names: string[]): string[][] {
  if (names.length <= 1 || names.length > 4) return [names];
  return names.flatMap((n, i) =>
    orders([...names.slice(0, i), ...names.slice(i + 1)]).map((rest) => [n, ...rest]),
  );
}

/** Han, kana and hangul: scripts whose names are written family name first, without a space. */
const EAST_ASIAN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * The signer's name as it is written, for the messages and the page that ask for it: `小明 王` (first
 * name, last name, as stored) is written `王小明`.
 */
export function writtenName(person: { first_name: string | null; last_name: string | null }): string {
  const first = person.first_name?.trim() ?? '';
  const last = person.last_name?.trim() ?? '';
  if (EAST_ASIAN.test(first + last)) return `${last}${first}`;
  return [first, last].filter(Boolean).join(' ');
}

function sameWords(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((w, i) => w === y[i]);
}
