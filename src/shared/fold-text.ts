/**
 * Text folded for a search that ignores accents: a Latin letter with a diacritic becomes its base
 * letter (`Société` → `Societe`, `Łódź` → `Lodz`), and œ, æ, ß their two letters. The same
 * table is the database's `vericase_fold(text)` (migration 0048); test/fold-text.test.ts holds
 * the two to the same answer for every letter of the table. Case is left to `ilike`.
 */
export const FOLD_FROM =
  'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžØøĐđŁłĦħıŦŧĿŀÐðÞþ';
export const FOLD_TO =
  'AAAAAACEEEEIIIINOOOOOUUUUYaaaaaaceeeeiiiinooooouuuuyyAaAaAaCcCcCcCcDdEeEeEeEeEeGgGgGgGgHhIiIiIiIiIJjKkLlLlLlNnNnNnOoOoOoRrRrRrSsSsSsSsTtTtUuUuUuUuUuUuWwYyYZzZzZzOoDdLlHhiTtLlDdTt';
/** Letters that fold to two (translate() maps one character to one). */
export const FOLD_LIGATURES: readonly (readonly [string, string])[] = [
  ['Œ', 'OE'],
  ['œ', 'oe'],
  ['Æ', 'AE'],
  ['æ', 'ae'],
  ['ß', 'ss'],
];

const MAP = new Map<string, string>([
  ...[...FOLD_FROM].map((c, i): [string, string] => [c, FOLD_TO[i]]),
  ...FOLD_LIGATURES,
]);

export function foldText(text: string): string {
  let out = '';
  for (const c of text) out += MAP.get(c) ?? c;
  return out;
}
