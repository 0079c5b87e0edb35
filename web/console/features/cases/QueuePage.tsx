/**
 * The review queue: checks in need_review across the workspace, longest waiting first, with what each
 * is on and its case (GET /v1/review-queue/checks: one call), below the cases whose reviewer has
 * actions (QueueCases). A check's link opens its case with the check unfolded; it is named after the
 * case, then (for screen readers) the check and its subject, as a case often has several.
 */
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client.ts';
import { useFormatDate, useT } from '../../shell/i18n.tsx';
import { useCheckTypeLabel } from '../act-i18n.ts';
import { useSubtypeLabel } from '../checks/subtype-labels.ts';
import { ListTable } from './ListTable.tsx';
import { QueueCases } from './QueueCases.tsx';
import { QueuePager } from './QueuePager.tsx';
import { useQueuePage } from './use-queue-page.ts';

const LIMIT = 25;

export function QueuePage() {
  const t = useT();
  const subtypeLabel = useSubtypeLabel();
  const typeLabel = useCheckTypeLabel();
  const formatDate = useFormatDate();
  const queue = useQueuePage(
    (p) => api.GET('/v1/review-queue/checks', { params: { query: { page: p, limit: LIMIT } } }).then(unwrap),
    LIMIT,
  );

  return (
    <section className="page queue" aria-labelledby="queue-title">
      <h1 id="queue-title">{t('queue.title')}</h1>
      <QueueCases />
      <h2 id="queue-checks-title">{t('queue.checks.title')}</h2>
      <p className="muted">{t('queue.intro')}</p>
      <ListTable
        error={queue.error}
        rows={queue.list?.data}
        empty={t('queue.empty')}
        columns={[t('queue.col.check'), t('queue.col.subject'), t('queue.col.case'), t('queue.col.since')]}
        row={(r) => (
          <tr key={r.check.id}>
            <td>
              {typeLabel(r.check.type)}
              {r.check.subtype ? (
                // a document check's subtype (document_type:{key}) is what tells it apart: in words
                <span className="muted small"> · {subtypeLabel(r.check.subtype)}</span>
              ) : null}
            </td>
            <td>{r.subject.name}</td>
            <td>
              {/* several checks of one case each have a link: the hidden words tell them apart to a
                  screen reader (its name still starts with the visible case name) */}
              <Link href={`/cases/${r.case.id}?check=${r.check.id}`}>
                {r.case.name}
                <span className="visually-hidden">
                  {' '}
                  — {typeLabel(r.check.type)}
                  {r.check.subtype ? ` (${subtypeLabel(r.check.subtype)})` : ''}, {r.subject.name}
                </span>
              </Link>
            </td>
            <td>{formatDate(r.waiting_since)}</td>
          </tr>
        )}
      />
      <QueuePager label={t('queue.title')} queue={queue} />
    </section>
  );
}
