import type { Settings } from '../settings/defaults.ts';

export type RiskLevelName = keyof Settings['case_review']['frequency_in_months'];

/** yyyy-MM-dd plus whole months; the day is clamped to the end of a shorter month (Jan 31 + 1 → Feb 28/29). */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number);
  const monthIndex = m - 1 + months;
  const year = y + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const date = new Date(Date.UTC(year, month, Math.min(d, lastDay)));
  return date.toISOString().slice(0, 10);
}

/**
 * Next periodic review of an approved case: the review day (UTC) plus the workspace frequency for
 * the case risk level; null when that frequency is null (no review due).
 */
export function computeNextReviewAt(settings: Settings, riskLevel: string | undefined, reviewedAt: Date) {
  const frequencies = settings.case_review.frequency_in_months;
  const level = (riskLevel && riskLevel in frequencies ? riskLevel : 'not_defined') as RiskLevelName;
  const months = frequencies[level];
  if (months == null) return null;
  return addMonths(reviewedAt.toISOString().slice(0, 10), months);
}
