/**
 * East Slavic patronymics (`Feliksovich`, `Akhmatovich`, `Vladimirovich`, `Anatolijevitch`, Ukrainian
 * `Ivanovych`, `Petrivna`, feminine `Ivanovna`, `Ilyinichna`): the father's name, which lists write
 * between the given name and the family name and customer forms leave out (they have no field for it).
 * A listed patronymic missing from the query costs less than another missing middle name (see
 * PENALTY.listedPatronymic in score.ts). Serbo-Croatian `-ović`/`-ević` are family names, not
 * patronymics, and are not matched (no final `h`).
 */
const PATRONYMIC = /(?:ov|ev|yev|iev|jev)(?:itch|ich|ych)$|(?:ov|ev|iv|in|yev)(?:na|ichna)$|ichna$/;

/** Whether a normalised token (lower case, ASCII) reads as an East Slavic patronymic. */
export function isPatronymic(token: string): boolean {
  return token.length >= 7 && PATRONYMIC.test(token);
}
