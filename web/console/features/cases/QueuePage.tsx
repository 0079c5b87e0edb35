/**
 * The review queue: checks in need_review across the workspace, oldest first, each with what it is
 * on and a way to its case. A check's case is found through its company or individual (the check
 * envelope names those), read once per page for all the checks on it.
 */
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client.ts';
import type { paths } from '../../api/schema';
import { useFormatDate, useT } from '../../shell/i18n.tsx';

type Checks = paths['/v1/checks']['get']['responses'][200]['content']['application/json'];
type Row = Checks['data'][number] & { subject: string; caseId: string | null; caseName: string | null };

async function subjectOf(check: Checks['data'][number]): Promise<{ subject: string; caseId: string | null }> {
  if (check.company_id) {
    const c = await api.GET('/v1/companies/{id}', { params: { path: { id: check.company_id } } });
    return { subject: c.data?.name ?? check.company_id, caseId: c.data?.case_id ?? null };
  }
  if (check.individual_id) {
    const i = await api.GET('/v1/individuals/{id}', { params: { path: { id: check.individual_id } } });
    const name = i.data
      ? [i.data.first_name, i.data.last_name].filter(Boolean).join(' ')
      : check.individual_id;
    return { subject: name, caseId: i.data?.case_id ?? null };
  }
  return { subject: '—', caseId: null };
}

export function QueuePage() {
  const t = useT();
  const formatDate = useFormatDate();
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<Row[] | null>(null);
  const [count, setCount] = useState(0);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    (async () => {
      const list = unwrap(
        await api.GET('/v1/checks', {
          params: { query: { status: 'need_review', sort: 'updated_at', page, limit: 25 } as never },
        }),
      );
      const subjects = await Promise.all(list.data.map(subjectOf));
      const caseIds = [...new Set(subjects.map((s) => s.caseId).filter((id): id is string => !!id))];
      const cases = await Promise.all(
        caseIds.map((id) =>
          api
            .GET('/v1/cases/{id}', { params: { path: { id } } })
            .then((r) => [id, r.data?.name ?? id] as const),
        ),
      );
      const names = new Map(cases);
      if (!live) return;
      setCount(list.pagination.count);
      setRows(
        list.data.map((c, i) => ({
          ...c,
          subject: subjects[i].subject,
          caseId: subjects[i].caseId,
          caseName: subjects[i].caseId ? (names.get(subjects[i].caseId as string) ?? null) : null,
        })),
      );
    })().catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [page]);

  const pages = Math.max(1, Math.ceil(count / 25));
  return (
    <section className="page queue" aria-labelledby="queue-title">
      <h1 id="queue-title">{t('queue.title')}</h1>
      <p className="muted">{t('queue.intro')}</p>
      {error ? (
        <p className="error" role="alert">
          {t('common.error', { message: error })}
        </p>
      ) : !rows ? (
        <p className="muted">{t('common.loading')}</p>
      ) : rows.length === 0 ? (
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
            {rows.map((r) => (
              <tr key={r.id}>
                <td>
                  {r.type}
                  {r.subtype ? <span className="muted small"> · {r.subtype}</span> : null}
                </td>
                <td>{r.subject}</td>
                <td>
                  {r.caseId ? (
                    <Link href={`/cases/${r.caseId}?check=${r.id}`}>{r.caseName ?? t('queue.open')}</Link>
                  ) : (
                    '—'
                  )}
                </td>
                <td>{formatDate(r.updated_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {count > 25 ? (
        <nav className="pager" aria-label={t('queue.title')}>
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t('common.previous')}
          </button>
          <span>{t('common.pageOf', { page, pages, count })}</span>
          <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            {t('common.next')}
          </button>
        </nav>
      ) : null}
    </section>
  );
}
