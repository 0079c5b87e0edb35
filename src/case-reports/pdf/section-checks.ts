import type { ReportData } from '../load-report-data.ts';
import { join, keyData, obj, show, words } from './format.ts';
import type { PdfWriter } from './writer.ts';

/** Each check: its target, status, result, review and the key facts of its data. */
export function checksSection(w: PdfWriter, d: ReportData, time: (v: Date | string | null) => string): void {
  const names = new Map<string, string>([
    ...d.companies.map((c) => [c.id, c.name] as [string, string]),
    ...d.individuals.map((i) => [i.id, `${i.first_name} ${i.last_name}`] as [string, string]),
  ]);
  w.heading(`Checks (${d.checks.length})`);
  if (!d.checks.length) w.text('No check.', { grey: true });
  for (const c of d.checks) {
    const data = obj(c.data) ?? {};
    const review = obj(data.review);
    const target = names.get(c.company_id ?? c.individual_id ?? '') ?? '-';
    w.heading(`${words(c.type)}${c.subtype ? ` (${c.subtype})` : ''} · ${words(c.status)} · ${target}`, 3);
    w.fields(
      [
        ['Status', words(c.status)],
        ['Result', words(data.result)],
        [
          'Review',
          review?.reviewed_at || review?.comment
            ? join([
                review.reviewer_type ? `by ${show(review.reviewer_type)}` : null,
                review.reviewed_at ? time(review.reviewed_at as string) : null,
                typeof review.comment === 'string' ? `"${review.comment}"` : null,
              ])
            : '-',
        ],
        ['Started', time(c.created_at)],
        ['Updated', time(c.updated_at)],
        ...keyData(data),
      ],
      { indent: 12, skipEmpty: true },
    );
  }
}
