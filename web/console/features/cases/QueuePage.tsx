/**
 * The review queue: checks in need_review across the workspace, longest waiting first, with what each
 * is on and its case (GET /v1/review-queue/checks: one call), and the cases whose reviewer has
 * actions. A check's link opens its case with the check unfolded.
 */
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client.ts';
import type { paths } from '../../api/schema';
import { shownTotal } from '../../api/totals.ts';
import { useFormatDate, useT } from '../../shell/i18n.tsx';
import { hasActKey, useActT } from '../act-i18n.ts';

type QueueChecks = paths['/v1/review-queue/checks']['get']['responses'][200]['content']['application/json'];
const LIMIT = 25;

export function QueuePage() {
  const t = useT();
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
      <p className="muted">{t('queue.intro')}</p>
      {error ? (
        <p className="error" role="alert">
          {t('common.error', { message: error })}
        </p>
      ) : !list ? (
        <p className="muted">{t('common.loading')}</p>
      ) : list.data.length === 0 ? (
        <p className="muted">{t('queue.empty')}</p>
      ) : (
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">{t('queue.col.check')}</th>
              <th scope="col">{t('queue.col.subject')}</th>
              <th scope="col">{t('queue.col.case')}</th>
              <th scope="col">{t('queue.col.since')}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((r) => (
              <tr key={r.check.id}>
                <td>
                  {typeLabel(r.check.type)}
                  {r.check.subtype ? (
                    // a document check's subtype is document_type:{key}: the key is what tells it apart
                    <span className="muted small"> · {r.check.subtype.replace(/^document_type:/, '')}</span>
                  ) : null}
                </td>
                <td>{r.subject.name}</td>
                <td>
                  <Link href={`/cases/${r.case.id}?check=${r.check.id}`}>{r.case.name}</Link>
                </td>
                <td>{formatDate(r.check.updated_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {count > LIMIT ? (
        <nav className="pager" aria-label={t('queue.title')}>
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t('common.previous')}
          </button>
          <span>
            {t('common.pageOf', {
              page,
              pages,
              count: shownTotal(count, list?.pagination.count_estimated),
            })}
          </span>
          <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            {t('common.next')}
          </button>
        </nav>
      ) : null}
    </section>
  );
}
