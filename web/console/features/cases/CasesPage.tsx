/**
 * The cases list: the API's filters (status with counts, name, external id, tags, assignee, dates),
 * sort and paging, all kept in the address (a filtered list can be bookmarked and shared, and Back
 * returns to it).
 */
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api, unwrap } from '../../api/client.ts';
import type { paths } from '../../api/schema';
import { shownTotal } from '../../api/totals.ts';
import { useWorkspaceUsers } from '../../api/users.ts';
import { useFormatDate, useT } from '../../shell/i18n.tsx';
import { ListPager } from './ListPager.tsx';
import { ListTable } from './ListTable.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { useCaseCounts } from './use-case-counts.ts';

type CaseList = paths['/v1/cases']['get']['responses'][200]['content']['application/json'];
type Query = NonNullable<paths['/v1/cases']['get']['parameters']['query']>;

export const STATUSES = ['draft', 'open', 'approved', 'rejected', 'closed'] as const;
const SORTS = ['created_at.desc', 'created_at', 'last_activity_at.desc', 'name', 'name.desc'] as const;
const TEXT_FILTERS = [
  'name',
  'external_id',
  'tags',
  'assignee_id',
  'created_from',
  'created_to',
  'updated_from',
] as const;

/** The address's parameters as the API's query (names with an operator suffix where needed). */
function toApiQuery(p: URLSearchParams): Query {
  const q: Record<string, string | number> = {
    sort: p.get('sort') ?? 'created_at.desc',
    page: Number(p.get('page') ?? 1),
    limit: Number(p.get('limit') ?? 25),
  };
  const status = p.get('status');
  if (status) q.status = status;
  const name = p.get('name');
  // whatever its case and accents: "societe" finds "Société" (the API's search operator)
  if (name) q['name.search'] = name;
  const ext = p.get('external_id');
  if (ext) q.external_id = ext;
  const tags = p.get('tags');
  if (tags) q['tags.array_contains'] = tags;
  const assignee = p.get('assignee_id');
  if (assignee) q.assignee_id = assignee;
  // the date inputs give the browser's days: each is sent as the instants its local day starts
  // and ends (a date alone would be a UTC day to the API)
  const from = localDayStart(p.get('created_from'));
  if (from) q['created_at.gte'] = from;
  const to = localDayStart(p.get('created_to'), 1);
  if (to) q['created_at.lt'] = to;
  const updated = localDayStart(p.get('updated_from'));
  if (updated) q['updated_at.gte'] = updated;
  return q as Query;
}

/**
 * The instant (ISO 8601, UTC) the browser's day `day` (yyyy-MM-dd) starts, or the day `plus` days
 * after it: local midnight, whatever the day's length (a daylight saving change makes it 23 or
 * 25 hours). Null for no day or a malformed one (an address edited by hand), which filters nothing.
 */
function localDayStart(day: string | null, plus = 0): string | null {
  const m = day ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(day) : null;
  if (!m) return null;
  const start = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plus);
  return Number.isNaN(start.getTime()) ? null : start.toISOString();
}

export function CasesPage() {
  const t = useT();
  const formatDate = useFormatDate();
  const search = useSearch();
  const [, navigate] = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const [list, setList] = useState<CaseList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const users = useWorkspaceUsers();
  const userNames = useMemo(() => new Map(users?.map((u) => [u.id, u.name])), [users]);
  const counts = useCaseCounts(
    (() => {
      // the counts take the list's filters but status, sort and paging
      const {
        status: _s,
        sort: _o,
        page: _p,
        limit: _l,
        ...filters
      } = toApiQuery(params) as Record<string, unknown>;
      return filters;
    })(),
    search,
  );

  useEffect(() => {
    let live = true;
    setError(null);
    api
      .GET('/v1/cases', { params: { query: toApiQuery(params) } })
      .then(unwrap)
      .then(
        (l) => live && setList(l),
        (e: Error) => live && setError(e.message),
      );
    return () => {
      live = false;
    };
  }, [params]);

  // no case at all (a new workspace) is not "no case matches these filters"
  const filtered = [...params.keys()].some((k) => !['sort', 'page', 'limit'].includes(k));

  const go = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    if (!('page' in changes)) next.delete('page');
    const qs = next.toString();
    navigate(qs ? `/?${qs}` : '/');
  };

  const [draft, setDraft] = useState<Record<string, string>>({});
  useEffect(() => {
    setDraft(Object.fromEntries(TEXT_FILTERS.map((k) => [k, params.get(k) ?? ''])));
  }, [params]);
  const drafted = () => Object.fromEntries(TEXT_FILTERS.map((k) => [k, draft[k]?.trim() || null]));
  const applyFilters = (e: FormEvent) => {
    e.preventDefault();
    go(drafted());
  };

  const status = params.get('status');
  const pagination = list?.pagination;
  const pages = pagination ? Math.max(1, Math.ceil(pagination.count / pagination.limit)) : 1;
  const countBadge = (key: (typeof STATUSES)[number] | 'all') => {
    const n = counts[key];
    if (n === undefined) return <span className="count">…</span>;
    const estimated = counts.estimated?.includes(key);
    return (
      <span className="count" title={estimated ? t('cases.count_estimated') : undefined}>
        {shownTotal(n, estimated)}
      </span>
    );
  };

  return (
    <section className="page cases" aria-labelledby="cases-title">
      <h1 id="cases-title">{t('cases.title')}</h1>
      <nav className="status-tabs" aria-label={t('cases.col.status')}>
        <button type="button" aria-pressed={!status} onClick={() => go({ status: null })}>
          {t('cases.all')} {countBadge('all')}
        </button>
        {STATUSES.map((s) => (
          <button key={s} type="button" aria-pressed={status === s} onClick={() => go({ status: s })}>
            {t(`status.${s}`)} {countBadge(s)}
          </button>
        ))}
      </nav>
      <form className="filters" onSubmit={applyFilters} aria-label={t('cases.filters')}>
        <label>
          {t('cases.search')}
          <input
            type="search"
            value={draft.name ?? ''}
            onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          />
        </label>
        <label>
          {t('cases.externalId')}
          <input
            value={draft.external_id ?? ''}
            onChange={(e) => setDraft({ ...draft, external_id: e.target.value })}
          />
        </label>
        <label>
          {t('cases.tags')}
          <input value={draft.tags ?? ''} onChange={(e) => setDraft({ ...draft, tags: e.target.value })} />
        </label>
        <label>
          {t('cases.assignee')}
          {/* chosen by name (the API filters on the user's id) */}
          <select
            value={draft.assignee_id ?? ''}
            onChange={(e) => setDraft({ ...draft, assignee_id: e.target.value })}
          >
            <option value="">{t('cases.anyAssignee')}</option>
            {draft.assignee_id && !users?.some((u) => u.id === draft.assignee_id) ? (
              <option value={draft.assignee_id}>{draft.assignee_id}</option>
            ) : null}
            {users?.map((u) => (
              <option key={u.id} value={u.id}>
                {u.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('cases.createdFrom')}
          <input
            type="date"
            value={draft.created_from ?? ''}
            // a range that ends before it starts finds nothing: the form says so instead of filtering
            max={draft.created_to || undefined}
            onChange={(e) => setDraft({ ...draft, created_from: e.target.value })}
          />
        </label>
        <label>
          {t('cases.createdTo')}
          <input
            type="date"
            value={draft.created_to ?? ''}
            min={draft.created_from || undefined}
            onChange={(e) => setDraft({ ...draft, created_to: e.target.value })}
          />
        </label>
        <label>
          {t('cases.updatedFrom')}
          <input
            type="date"
            value={draft.updated_from ?? ''}
            onChange={(e) => setDraft({ ...draft, updated_from: e.target.value })}
          />
        </label>
        <label>
          {t('cases.sort')}
          <select
            value={params.get('sort') ?? 'created_at.desc'}
            // a sort applies the filters typed with it: reloading with the old ones emptied the fields
            onChange={(e) => go({ ...drafted(), sort: e.target.value })}
          >
            {SORTS.map((s) => (
              <option key={s} value={s}>
                {t(`cases.sort.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <div className="filter-actions">
          <button type="submit" className="primary">
            {t('common.apply')}
          </button>
          <button type="button" onClick={() => navigate(status ? `/?status=${status}` : '/')}>
            {t('common.reset')}
          </button>
        </div>
      </form>
      <ListTable
        error={error}
        rows={list?.data}
        empty={t(filtered ? 'cases.empty' : 'cases.none')}
        columns={[
          t('cases.col.name'),
          t('cases.col.status'),
          t('cases.col.flags'),
          t('cases.col.tags'),
          t('cases.col.assignee'),
          t('cases.col.activity'),
          t('cases.col.created'),
        ]}
        row={(c) => (
          <tr key={c.id}>
            <td>
              <Link href={`/cases/${c.id}`}>{c.name}</Link>
              {c.external_id ? <div className="muted small">{c.external_id}</div> : null}
            </td>
            <td>
              <StatusBadge status={c.status} />
            </td>
            <td>
              {c.reviewer_has_actions ? <span className="flag review">{t('cases.needsReview')}</span> : null}
              {c.contact_has_actions ? (
                <span className="flag contact">{t('cases.contactActions')}</span>
              ) : null}
            </td>
            <td>
              {c.tags.map((tag) => (
                <span key={tag} className="tag">
                  {tag}
                </span>
              ))}
            </td>
            <td>{c.assignee_id ? (userNames.get(c.assignee_id) ?? c.assignee_id) : '—'}</td>
            <td>{formatDate(c.last_activity_at)}</td>
            <td>{formatDate(c.created_at)}</td>
          </tr>
        )}
      />
      {pagination ? (
        <ListPager
          label={t('cases.title')}
          page={pagination.page}
          pages={pages}
          count={shownTotal(pagination.count, pagination.count_estimated)}
          onPage={(p) => go({ page: String(p) })}
        >
          <label>
            {t('cases.perPage')}
            <select value={String(pagination.limit)} onChange={(e) => go({ limit: e.target.value })}>
              {[25, 50, 100].map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
        </ListPager>
      ) : null}
    </section>
  );
}
