import type { CheckRow } from '../../db/schema.ts';
import { entityNames, type ReportData } from '../load-report-data.ts';
import { checkStatusWords, join, obj, show, words } from './format.ts';
import { eachCriterion } from './section-checks.ts';
import type { PdfWriter } from './writer.ts';

type Time = (v: Date | string | null) => string;

/** Statuses in the order a reader weighs them; the count line follows it. */
const STATUS_ORDER = ['approved', 'rejected', 'need_review', 'expired', 'processing', 'in_progress'];

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Confirmed and undecided aml hits of a check (none for other types). */
function hitCounts(check: CheckRow): { confirmed: number; pending: number; lists: string[] } {
  const data = obj(check.data);
  const hits = Array.isArray(data?.hits) ? data.hits.map(obj) : [];
  const confirmed = hits.filter((h) => h?.status === 'true_positive');
  return {
    confirmed: confirmed.length,
    pending: hits.filter((h) => h?.status === 'potential_match').length,
    lists: [...new Set(confirmed.flatMap((h) => (Array.isArray(h?.list_types) ? h.list_types : [])))].map(
      String,
    ),
  };
}

/** The failed criteria of a check's `detailed_results`, by name. */
function failedCriteria(detailed: unknown): string[] {
  const out: string[] = [];
  eachCriterion(detailed, (key, v) => {
    if (v === 'rejected' || obj(v)?.result === 'rejected') out.push(words(key));
  });
  return out;
}

/** Why a check needs a reader's attention, in a few words, or null when it does not. */
function attention(check: CheckRow): string | null {
  const hits = hitCounts(check);
  const data = obj(check.data) ?? {};
  const matches = Array.isArray(data.matches) ? data.matches.length : 0;
  const open = ['rejected', 'need_review', 'expired', 'processing', 'in_progress'].includes(check.status);
  if (!open && hits.confirmed === 0 && matches === 0) return null;
  const failed = failedCriteria(data.detailed_results);
  const review = obj(data.review);
  // an aml check whose hits were all decided since its screening said "found 1 hit to confirm or
  // ignore": that reason no longer holds; the check awaits its own decision
  const hitsDone =
    check.type === 'aml' &&
    check.status === 'need_review' &&
    !review?.reviewed_at &&
    Array.isArray(data.hits) &&
    data.hits.length > 0 &&
    hits.pending === 0;
  const comment = hitsDone
    ? 'every hit is confirmed or ignored: the check awaits its decision'
    : review?.comment;
  return (
    join([
      hits.confirmed
        ? `${plural(hits.confirmed, 'confirmed hit')}${hits.lists.length ? ` (${hits.lists.map(words).join(', ')})` : ''}`
        : null,
      hits.pending ? `${plural(hits.pending, 'hit')} to decide` : null,
      matches ? `${plural(matches, 'match', 'matches')} in the fraud list` : null,
      failed.length ? `failed: ${failed.join(', ')}` : null,
      hitsDone
        ? 'every hit is confirmed or ignored: the check awaits its decision'
        : typeof comment === 'string' && comment
          ? `"${show(comment, 160)}"`
          : null,
    ]) ||
    (check.status === 'in_progress'
      ? 'waiting for data'
      : check.status === 'processing'
        ? 'being verified'
        : '-')
  );
}

/**
 * What a reader must see first: the decision, the checks by status, and every check that is not
 * plainly approved (rejected, to review, expired or unfinished, or approved with a confirmed hit
 * or a fraud list match), with why. A decision that goes against its checks (an approved case with
 * rejected checks or checks still to review) is said in one line above all.
 */
export function summarySection(w: PdfWriter, d: ReportData, time: Time): void {
  const k = d.kase;
  const review = obj(k.review);
  w.heading('Summary');
  const byStatus = new Map<string, number>();
  for (const c of d.checks) byStatus.set(c.status, (byStatus.get(c.status) ?? 0) + 1);
  const rejected = byStatus.get('rejected') ?? 0;
  const toReview = byStatus.get('need_review') ?? 0;
  if (k.status === 'approved' && (rejected || toReview)) {
    w.text(
      `Approved with ${join(
        [
          rejected ? plural(rejected, 'rejected check') : null,
          toReview ? `${plural(toReview, 'check')} still to review` : null,
        ],
        ' and ',
      )}.`,
      { bold: true },
    );
  }
  const statuses = [...byStatus.keys()].sort(
    (a, b) => (STATUS_ORDER.indexOf(a) + 1 || 99) - (STATUS_ORDER.indexOf(b) + 1 || 99),
  );
  w.fields([
    [
      'Decision',
      review?.status
        ? join([words(review.status), time(review.reviewed_at as string | null)], ', ')
        : `not reviewed (case ${words(k.status)})`,
    ],
    ['Risk', obj(k.risk)?.level ? words(obj(k.risk)?.level) : 'not assessed'],
    [
      'Checks',
      d.checks.length
        ? `${d.checks.length}: ${statuses.map((s) => `${byStatus.get(s)} ${checkStatusWords(s)}`).join(', ')}`
        : 'none',
    ],
  ]);
  const names = entityNames(d);
  const flagged = d.checks
    .map((c) => ({ c, why: attention(c) }))
    .filter((x): x is { c: CheckRow; why: string } => x.why !== null);
  if (!flagged.length) {
    if (d.checks.length)
      w.text('Every check is approved; no confirmed hit, no fraud list match.', { grey: true });
    return;
  }
  w.gap(4);
  w.text(`Needs attention (${flagged.length})`, { bold: true });
  for (const { c, why } of flagged) {
    const target = names.get(c.company_id ?? c.individual_id ?? '') ?? '-';
    w.text(
      `${words(c.type)}${c.subtype ? ` (${c.subtype})` : ''} · ${checkStatusWords(c.status)} · ${target}: ${why}`,
      { indent: 12 },
    );
  }
}
