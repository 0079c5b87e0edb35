/**
 * The French national identity card issued until August 2021 (MRZ "IDFRA", 2×36) carries no expiry
 * date in its MRZ: only its issue month (the card number's first four digits, YYMM) and the holder's
 * birth date. Its validity follows from them by law: 10 years, and 15 years for a card issued to an
 * adult from 2 January 2004 on (décret n° 2013-1188, which extended the cards of 2004–2013 by five
 * years, and every adult card issued from 2014). Without this, every such card, still the most common
 * French identity document, had "no readable expiration date" and was rejected.
 */

import { addMonths } from '../../../reviews/next-review-date.ts';

/** The first issue month whose adult cards are valid 15 years (2 January 2004 on). */
const FIFTEEN_YEARS_FROM = '2004-01';

/**
 * The last day the card can be valid, or null when the issue month cannot be read. A card is valid
 * until the day before its issue date's anniversary; only the month is known, so the earliest day of
 * that month is assumed (the date returned is never later than the real one). The holder counts as
 * an adult only when 18 on the first day of the issue month (in doubt, the shorter validity).
 */
export function frenchIdCardExpiry(
  issueYymm: string | null | undefined,
  birthDate: string | null,
  today: Date,
): string | null {
  if (!issueYymm || !/^\d{2}(0[1-9]|1[0-2])$/.test(issueYymm)) return null;
  const yy = Number(issueYymm.slice(0, 2));
  const year = yy > today.getUTCFullYear() % 100 ? 1900 + yy : 2000 + yy;
  const month = issueYymm.slice(2, 4);
  const issued = `${year}-${month}`;
  const adult = birthDate !== null && addMonths(birthDate, 18 * 12) <= `${issued}-01`;
  const years = adult && issued >= FIFTEEN_YEARS_FROM ? 15 : 10;
  // the day before the first of the month, `years` later
  const end = new Date(Date.UTC(year + years, Number(month) - 1, 1) - 86_400_000);
  return end.toISOString().slice(0, 10);
}
