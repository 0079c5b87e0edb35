/**
 * The review queue's cases: those whose reviewer has actions (GET /v1/review-queue/cases: one
 * call, each with how many of its checks wait in need_review), least recently active first, so the
 * case that has waited longest is on top. A row opens its case.
 */
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client.ts';
import { useFormatDate, useT } from '../../shell/i18n.tsx';
import { ListTable } from './ListTable.tsx';
import { QueuePager } from './QueuePager.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { useQueuePage } from './use-queue-page.ts';

const LIMIT = 25;

export function QueueCases() {
  const t = useT();
  const formatDate = useFormatDate();
  const queue = useQueuePage(
    (p) => api.GET('/v1/review-queue/cases', { params: { query: { page: p, limit: LIMIT } } }).then(unwrap),
    LIMIT,
  );

  return (
    <section className="queue-cases" aria-labelledby="queue-cases-title">
      <h2 id="queue-cases-title">{t('queue.cases.title')}</h2>
      <p className="muted">{t('queue.cases.intro')}</p>
      <ListTable
        error={queue.error}
        rows={queue.list?.data}
        empty={t('queue.cases.empty')}
        columns={[
          t('queue.col.case'),
          t('queue.cases.col.status'),
          t('queue.cases.col.checks'),
          t('queue.cases.col.activity'),
        ]}
        row={(c) => (
          <tr key={c.id}>
            <td>
              <Link href={`/cases/${c.id}`}>{c.name}</Link>
            </td>
            <td>
              <StatusBadge status={c.status} />
            </td>
            <td>{c.checks_need_review}</td>
            <td>{formatDate(c.last_activity_at)}</td>
          </tr>
        )}
      />
      <QueuePager label={t('queue.cases.title')} queue={queue} />
    </section>
  );
}
