/**
 * The SIREN inside a French intra-EU VAT number (`FR` + a 2-character key + the 9-digit SIREN:
 * `FR40552100554` → `552100554`), given compact and in capitals; null for anything else. The fraud
 * list and the document analysis both take a company written by its VAT number for its SIREN.
 */
export function sirenOfFrenchVat(compact: string): string | null {
  return /^FR[0-9A-Z]{2}(\d{9})$/.exec(compact)?.[1] ?? null;
}
