import { entityNames, personName, type ReportData } from '../load-report-data.ts';
import { checkStatusWords, join, keyData, obj, show, words } from './format.ts';
import type { PdfWriter } from './writer.ts';

type Time = (v: Date | string | null) => string;

/** A review object of a check's data or of an aml hit: `by Jane Doe <jane@…>, <when>, "<comment>"`. */
function reviewText(review: Record<string, unknown> | null, time: Time): string {
  if (!review || (!review.reviewed_at && !review.comment)) return '-';
  const user = obj(review.user);
  const who = user ? personName(user) : null;
  return join([
    who ? `by ${who}` : review.reviewer_type ? `by ${show(review.reviewer_type)}` : null,
    review.reviewed_at ? time(review.reviewed_at as string) : null,
    typeof review.comment === 'string' ? `"${review.comment}"` : null,
  ]);
}

/**
 * The attempts a check had before its current one (a document rejected, then sent again): each
 * one's outcome and review, so a reviewer's reason for refusing the earlier files stays on record.
 */
function earlierAttempts(history: unknown, time: Time): [string, string][] {
  if (!Array.isArray(history)) return [];
  return history.flatMap((h): [string, string][] => {
    const entry = obj(h);
    if (!entry) return [];
    const data = obj(entry.data) ?? {};
    const review = reviewText(obj(data.review), time);
    return [
      [
        `Attempt ${show(entry.attempt)}`,
        join([
          checkStatusWords(entry.status),
          typeof entry.ended_at === 'string' ? `ended ${time(entry.ended_at)}` : null,
          review === '-' ? null : `review ${review}`,
        ]),
      ],
    ];
  });
}

/** A criterion of `detailed_results`: `rejected (expected …, read …)`, or null when not evaluated. */
function criterionText(v: unknown): string | null {
  if (typeof v === 'string') return words(v);
  const c = obj(v);
  if (!c || !('result' in c)) return null;
  if (c.result == null && c.expected == null) return null; // nothing to compare with: not evaluated
  const parts = join([
    c.expected != null ? `expected ${show(c.expected, 120)}` : null,
    `read ${c.received != null ? show(c.received, 120) : 'nothing'}`,
  ]);
  return `${c.result == null ? 'could not be verified' : words(c.result)} (${parts})`;
}

/**
 * Calls `fn` with each criterion of a check's `detailed_results` (a verdict string, or an object
 * with `result`), one level of grouping flattened (`document`, `face`, `document_analysis`); the
 * analysis `model` is not one.
 */
export function eachCriterion(detailed: unknown, fn: (key: string, v: unknown) => void): void {
  const visit = (key: string, v: unknown, depth: number) => {
    if (key === 'model') return;
    const group = obj(v);
    if (typeof v === 'string' || (group && 'result' in group)) fn(key, v);
    else if (group && depth === 0) for (const [k, v2] of Object.entries(group)) visit(k, v2, 1);
  };
  for (const [k, v] of Object.entries(obj(detailed) ?? {})) visit(k, v, 0);
}

/** The criteria of a check's `detailed_results` that were evaluated, as rows. */
function criteriaRows(detailed: unknown): [string, string][] {
  const rows: [string, string][] = [];
  eachCriterion(detailed, (key, v) => {
    const text = criterionText(v);
    if (text) rows.push([`Criterion ${words(key)}`, text]);
  });
  return rows;
}

/** An aml check's hits: the listed entity, its lists, score and status, and who reviewed it. */
function hitsPart(w: PdfWriter, hits: unknown[], time: Time): void {
  for (const [i, h] of hits.entries()) {
    const hit = obj(h);
    if (!hit) continue;
    const entity = obj(hit.entity);
    w.text(
      join(
        [
          `Hit ${i + 1}: ${show(hit.name)}`,
          show(hit.list_types),
          words(hit.status),
          typeof hit.score === 'number' ? `score ${hit.score.toFixed(2)}` : null,
        ],
        ' · ',
      ),
      { indent: 12, bold: true },
    );
    w.fields(
      [
        ['Matched name', show(hit.matched_name)],
        [
          'Listed entity',
          entity
            ? join([
                join([show(entity.source), show(entity.id)], ' '),
                Array.isArray(entity.programs) && entity.programs.length
                  ? `programmes ${show(entity.programs)}`
                  : null,
                Array.isArray(entity.birth_dates) && entity.birth_dates.length
                  ? `born ${show(entity.birth_dates)}`
                  : null,
                Array.isArray(entity.countries) && entity.countries.length
                  ? `countries ${show(entity.countries)}`
                  : null,
              ])
            : '-',
        ],
        ['Why', show(obj(hit.explanation)?.summary)],
        ['Review', reviewText(obj(hit.review), time)],
      ],
      { indent: 24, skipEmpty: true },
    );
  }
}

/** A fraud_database check's matches: which identifiers, when reported, and whether by this workspace. */
function matchesPart(w: PdfWriter, matches: unknown[], time: Time): void {
  for (const [i, m] of matches.entries()) {
    const match = obj(m);
    if (!match) continue;
    w.text(
      join(
        [
          `Match ${i + 1}: ${show(match.identifier_kinds)}`,
          // another workspace's report is dated to the day only (its midnight UTC): shown as that day
          match.reported_at
            ? `reported ${match.reported_by_this_workspace === false ? String(match.reported_at).slice(0, 10) : time(match.reported_at as string)}`
            : null,
          match.reported_by_this_workspace === true
            ? 'by this workspace'
            : match.reported_by_this_workspace === false
              ? 'by another workspace'
              : null,
        ],
        ' · ',
      ),
      { indent: 12 },
    );
  }
}

/**
 * Each check: its target, status, result, review (who, when, comment), the criteria of its
 * detailed results, the key facts of its data, its aml hits and fraud list matches.
 */
export function checksSection(w: PdfWriter, d: ReportData, time: Time): void {
  const names = entityNames(d);
  w.heading(`Checks (${d.checks.length})`);
  if (!d.checks.length) w.text('No check.', { grey: true });
  for (const c of d.checks) {
    const data = obj(c.data) ?? {};
    const target = names.get(c.company_id ?? c.individual_id ?? '') ?? '-';
    w.heading(
      `${words(c.type)}${c.subtype ? ` (${c.subtype})` : ''} · ${checkStatusWords(c.status)} · ${target}`,
      3,
    );
    const hits = Array.isArray(data.hits) ? data.hits : [];
    const matches = Array.isArray(data.matches) ? data.matches : [];
    w.fields(
      [
        ['Status', checkStatusWords(c.status)],
        ['Result', words(data.result)],
        ['Review', reviewText(obj(data.review), time)],
        ['Started', time(c.created_at)],
        ['Updated', time(c.updated_at)],
        ...criteriaRows(data.detailed_results),
        ...keyData(data, time),
        ...(Array.isArray(data.hits) ? ([['Hits', String(hits.length)]] as [string, string][]) : []),
        ...(Array.isArray(data.matches) ? ([['Matches', String(matches.length)]] as [string, string][]) : []),
        ...earlierAttempts(c.history, time),
      ],
      { indent: 12, skipEmpty: true },
    );
    hitsPart(w, hits, time);
    matchesPart(w, matches, time);
  }
}
