/**
 * The eKYC reading (`data.ai.interpretation`) in the console's language. The API stores one English
 * sentence that vericase builds from the decision, the country and the score
 * (src/checks/types/ekyc/index.ts, docs/sandbox.md); the console recognises that sentence from the
 * same three fields and says it with its own words, as it does the automatic comments. A reading it
 * does not recognise (another wording, a provider's) is shown as written.
 * test/console-automatic-comments.test.ts runs the server's sentences through this table.
 */

type Decision = 'match' | 'inconsistent' | 'inconclusive';

/** The server's sentences, word for word: only an exact match is reworded. */
const STORED: Readonly<Record<Decision, (country: string, score: number) => string>> = {
  match: (c, s) => `The declared identity matches the data sources for ${c} (score ${s}/100).`,
  inconsistent: (c, s) =>
    `The declared identity contradicts the data sources for ${c} (score ${s}/100): at least one attribute differs.`,
  inconclusive: (c, s) =>
    `The data sources for ${c} could not confirm or contradict the declared identity (score ${s}/100).`,
};

export type EkycReadingKey = `check.ekycReading.${Decision}`;

/**
 * The dictionary key and its values for `interpretation`, when it is the sentence vericase wrote for
 * this decision, country and score; null when it is anything else.
 */
export function ekycReading(
  interpretation: string,
  decision: unknown,
  country: unknown,
  score: unknown,
): { key: EkycReadingKey; vars: { country: string; score: number } } | null {
  if (typeof country !== 'string' || typeof score !== 'number') return null;
  // the server says "could not confirm or contradict" for any decision but these two
  const d: Decision = decision === 'match' || decision === 'inconsistent' ? decision : 'inconclusive';
  if (interpretation !== STORED[d](country, score)) return null;
  return { key: `check.ekycReading.${d}`, vars: { country, score } };
}
