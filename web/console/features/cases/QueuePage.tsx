/**
 * The review queue: checks in need_review across the workspace, longest waiting first, with what each
 * is on and its case (GET /v1/review-queue/checks: one call), below the cases whose reviewer has
 * actions (QueueCases). A check's link opens its case with the check unfolded.
 */
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client.ts';
import type { paths } from '../../api/schema';
import { shownTotal } from '../../api/totals.ts';
import { useFormatDate, useT } from '../../shell/i18n.tsx';
import { hasActKey, useActT } from '../act-i18n.ts';
import { useSubtypeLabel } from '../checks/subtype-labels.ts';
import { ListPager } from './ListPager.tsx';
import { ListTable } from './ListTable.tsx';
import { QueueCases } from './QueueCases.tsx';

type QueueChecks = paths['/v1/review-queue/checks']['get']['responses'][200]['content']['application/json'];
const LIMIT = 25;

export function QueuePage() {
  const t = useT();
  const subtypeLabel = useSubtypeLabel();
  const actT = useActT();
  const typeLabel = (type: string) => {
    const key = `check.type.${type}`;
    return hasActKey(key) ? actT(key) : type;
  };
  const formatDate = useFormatDate();
  const [page, setPage] = useState(1);
  const [list, setList] = useState<QueueChecks | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    // a page that failed before must not hide this one once it loads
    setError(null);
    api
      .GET('/v1/review-queue/checks', { params: { query: { page, limit: LIMIT } } })
      .then(unwrap)
      .then(
        (l) => live && setList(l),
        (e: Error) => live && setError(e.message),
      );
    return () => {
      live = false;
    };
  }, [page]);

  const count = list?.pagination.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / LIMIT));
  return (
    <section className="page queue" aria-labelledby="queue-title">
      <h1 id="queue-title">{t('queue.title')}</h1>
      <QueueCases />
      <h2 id="queue-checks-title">{t('queue.checks.title')}</h2>
      <p className="muted">{t('queue.intro')}</p>
      <ListTable
        error={error}
        rows={list?.data}
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
              <Link href={`/cases/${r.case.id}?check=${r.check.id}`}>{r.case.name}</Link>
            </td>
            <td>{formatDate(r.check.updated_at)}</td>
          </tr>
        )}
      />
      {count > LIMIT ? (
        <ListPager
          label={t('queue.title')}
          page={page}
          pages={pages}
          count={shownTotal(count, list?.pagination.count_estimated)}
          onPage={setPage}
        />
      ) : null}
    </section>
  );
}
