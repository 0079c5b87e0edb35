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
  return full.length > 0 && (sameWords(given, full) || sameWords(given, short));
}

function words(name: string): string[] {
  return (
    name
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLocaleLowerCase('und')
      // letters a decomposition does not simplify (`Ł`, `ø`, `ß`) are compared as they are
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
  );
}

function sameWords(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((w, i) => w === y[i]);
}
