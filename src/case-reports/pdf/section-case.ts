import { personName, type ReportData } from '../load-report-data.ts';
import { join, obj, show, words } from './format.ts';
import type { PdfWriter } from './writer.ts';

/** The case itself: identity, status, risk, tags, template, assignee, dates. */
export function caseSection(w: PdfWriter, d: ReportData, time: (v: Date | string | null) => string): void {
  const k = d.kase;
  const risk = obj(k.risk);
  const template = obj(k.template);
  const review = obj(k.review);
  w.text(k.name, { size: 18, bold: true });
  w.gap(4);
  w.fields([
    ['Case id', k.id],
    ['External id', show(k.external_id)],
    ['Status', words(k.status)],
    [
      'Risk',
      risk
        ? join([
            words(risk.level),
            risk.score != null ? `score ${show(risk.score)}` : null,
            typeof risk.comment === 'string' ? risk.comment : null,
          ])
        : '-',
    ],
    ['Tags', show(k.tags)],
    ['Flags', k.flags.length ? k.flags.map(words).join(', ') : '-'],
    ['Template', template ? join([show(template.name), `(${show(template.key)})`], ' ') : '-'],
    // as every user in the report is named (a user without a name is their e-mail, not ` <e-mail>`)
    ['Assignee', d.assignee ? personName(d.assignee) : '-'],
    ['Created', time(k.created_at)],
    ['Last updated', time(k.updated_at)],
    ['Last activity', time(k.last_activity_at)],
    ['Next review', show(k.next_review_at)],
    [
      'Last review',
      review?.status ? join([words(review.status), time(review.reviewed_at as string | null)], ', ') : '-',
    ],
    [
      'Contents',
      [
        count(d.companies.length, 'company', 'companies'),
        count(d.individuals.length, 'individual', 'individuals'),
        count(d.checks.length, 'check', 'checks'),
        count(d.notes.length, 'note', 'notes'),
      ].join(', '),
    ],
  ]);
}

/** "1 company", "2 companies". */
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
