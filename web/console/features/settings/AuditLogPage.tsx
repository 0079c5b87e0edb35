/**
 * The workspace audit log (GET /v1/audit-log): who did what, when and from where, newest first;
 * filters on the actor's kind, the resource, the action and the time; an entry's details.
 */
import { type FormEvent, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { api } from '../../api/client.ts';
import { auditChanges } from './audit-changes.ts';
import { auditActionLabel, auditResourceLabel } from './audit-labels.ts';
import {
  formatDateTime,
  type Json,
  LoadState,
  ok,
  Pager,
  type Query,
  useLoad,
  usePage,
  userLabel,
} from './common.tsx';
import { type SettingsKey, useSettingsLang, useSettingsT } from './i18n.ts';
import { SettingsTable } from './SettingsTable.tsx';

type Entry = Json<'/v1/audit-log'>['data'][number];
type AuditQuery = Query<'/v1/audit-log'>;

interface Filters {
  actorType: string;
  userId: string;
  resourceType: string;
  resourceId: string;
  action: string;
  from: string;
  to: string;
}
const EMPTY: Filters = {
  actorType: '',
  userId: '',
  resourceType: '',
  resourceId: '',
  action: '',
  from: '',
  to: '',
};

function toQuery(f: Filters, page: number): AuditQuery {
  const q: Record<string, string | number> = { page, limit: 25 };
  if (f.actorType) q.actor_type = f.actorType;
  if (f.userId) {
    q.actor_type = 'user';
    q.actor_id = f.userId;
  }
  if (f.resourceType.trim()) q.resource_type = f.resourceType.trim();
  if (f.resourceId.trim()) q.resource_id = f.resourceId.trim();
  if (f.action.trim()) q.action = f.action.trim();
  // datetime-local values are local times: sent as instants
  if (f.from) q['occurred_at.gte'] = new Date(f.from).toISOString();
  if (f.to) q['occurred_at.lte'] = new Date(f.to).toISOString();
  return q as AuditQuery;
}

export function AuditLogPage() {
  const t = useSettingsT();
  const lang = useSettingsLang();
  const [draft, setDraft] = useState<Filters>(EMPTY);
  // the workspace's users, to choose whose actions to see
  const users = useLoad(
    async () =>
      ok(await api.GET('/v1/users', { params: { query: { limit: 100, include_suspended: true } } })),
    [],
  );
  // the same users name a user resource ("user ea2b8fc0-…" said nothing): no read per row
  const userNames = useMemo(
    () => new Map((users.data?.data ?? []).map((u) => [u.id, `${userLabel(u)} (${u.email})`])),
    [users.data],
  );
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [page, setPage] = usePage(filters);
  const [open, setOpen] = useState<string | null>(null);
  const list = useLoad(
    async () => ok(await api.GET('/v1/audit-log', { params: { query: toQuery(filters, page) } })),
    [filters, page],
  );
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setPage(1);
    setFilters(draft);
  };
  return (
    <>
      <h2>{t('settings.section.audit-log')}</h2>
      <p className="settings-hint">{t('audit.intro')}</p>
      <form className="settings-filters" onSubmit={apply} aria-label={t('audit.filters')}>
        <label>
          {t('audit.actorType')}
          <select value={draft.actorType} onChange={(e) => setDraft({ ...draft, actorType: e.target.value })}>
            <option value="">{t('settings.all')}</option>
            <option value="user">{t('audit.actor.user')}</option>
            <option value="api_key">{t('audit.actor.api_key')}</option>
            <option value="system">{t('audit.actor.system')}</option>
          </select>
        </label>
        <label>
          {t('audit.user')}
          <select value={draft.userId} onChange={(e) => setDraft({ ...draft, userId: e.target.value })}>
            <option value="">{t('settings.all')}</option>
            {(users.data?.data ?? []).map((u) => (
              <option key={u.id} value={u.id}>
                {userLabel(u)} ({u.email})
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('audit.action')}
          <input
            value={draft.action}
            placeholder="case.review.create"
            onChange={(e) => setDraft({ ...draft, action: e.target.value })}
          />
        </label>
        <label>
          {t('audit.resourceType')}
          <input
            value={draft.resourceType}
            placeholder="case"
            onChange={(e) => setDraft({ ...draft, resourceType: e.target.value })}
          />
        </label>
        <label>
          {t('audit.resourceId')}
          <input
            value={draft.resourceId}
            onChange={(e) => setDraft({ ...draft, resourceId: e.target.value })}
          />
        </label>
        <label>
          {t('audit.from')}
          <input
            type="datetime-local"
            value={draft.from}
            onChange={(e) => setDraft({ ...draft, from: e.target.value })}
          />
        </label>
        <label>
          {t('audit.to')}
          <input
            type="datetime-local"
            value={draft.to}
            onChange={(e) => setDraft({ ...draft, to: e.target.value })}
          />
        </label>
        <button type="submit" className="primary">
          {t('audit.apply')}
        </button>
        <button
          type="button"
          onClick={() => {
            setDraft(EMPTY);
            setFilters(EMPTY);
            setPage(1);
          }}
        >
          {t('settings.reset')}
        </button>
      </form>
      <LoadState load={list} t={t} />
      <SettingsTable
        rows={list.data?.data}
        none={t('audit.none')}
        columns={[
          t('audit.when'),
          t('audit.who'),
          t('audit.action'),
          t('audit.resource'),
          t('audit.status'),
          t('audit.from_ip'),
        ]}
        row={(e) => (
          <AuditRow
            key={e.id}
            entry={e}
            userNames={userNames}
            lang={lang}
            open={open === e.id}
            onToggle={() => setOpen(open === e.id ? null : e.id)}
          />
        )}
      />
      <Pager pagination={list.data?.pagination} onPage={setPage} />
    </>
  );
}

/**
 * What an entry was done to: a user by name and e-mail (from the users the page reads for its filter),
 * a case as a link to its page; anything else, or a user the page did not read, by its id.
 */
function Resource(props: { type: string; id: string | null; lang: string; userNames: Map<string, string> }) {
  const { id } = props;
  const type = auditResourceLabel(props.type, props.lang);
  if (!id) return <>{type}</>;
  const user = props.type === 'user' ? props.userNames.get(id) : undefined;
  if (user)
    return (
      <>
        {type} <span title={id}>{user}</span>
      </>
    );
  if (props.type === 'case')
    return (
      <>
        {type}{' '}
        <Link href={`/cases/${id}`}>
          <code className="settings-id">{id}</code>
        </Link>
      </>
    );
  return (
    <>
      {type}
      <code className="settings-id"> {id}</code>
    </>
  );
}

function AuditRow(props: {
  entry: Entry;
  lang: string;
  userNames: Map<string, string>;
  open: boolean;
  onToggle: () => void;
}) {
  const t = useSettingsT();
  const e = props.entry;
  const failed = e.status_code != null && e.status_code >= 400;
  const label = auditActionLabel(e.action, props.lang);
  const changes = auditChanges(e.details as Record<string, unknown> | undefined, props.userNames);
  return (
    <>
      <tr className={failed ? 'failed' : undefined}>
        <td>
          <button type="button" className="link" aria-expanded={props.open} onClick={props.onToggle}>
            {formatDateTime(e.occurred_at, props.lang, true)}
          </button>
        </td>
        <td>
          <span className="settings-badge">{t(`audit.actor.${e.actor.type}` as SettingsKey)}</span>{' '}
          {e.actor.label ?? e.actor.id ?? '—'}
        </td>
        <td>{label ? <span title={e.action}>{label}</span> : <code>{e.action}</code>}</td>
        <td className="wrap">
          {e.resource_type ? (
            <Resource
              type={e.resource_type}
              id={e.resource_id ?? null}
              lang={props.lang}
              userNames={props.userNames}
            />
          ) : (
            '—'
          )}
        </td>
        <td>{e.status_code ?? '—'}</td>
        <td>{e.ip ?? '—'}</td>
      </tr>
      {props.open ? (
        <tr className="settings-detail-row">
          <td colSpan={6}>
            <dl className="settings-dl">
              <dt>{t('audit.when')}</dt>
              {/* to the millisecond, with its offset: the entry pinned to the second (the list is local) */}
              <dd>
                <time dateTime={e.occurred_at}>{e.occurred_at}</time>
              </dd>
              <dt>{t('audit.action')}</dt>
              <dd>
                <code>{e.action}</code>
              </dd>
              <dt>{t('audit.request')}</dt>
              <dd>
                <code>
                  {e.method ?? ''} {e.route ?? ''}
                </code>
              </dd>
              <dt>{t('audit.requestId')}</dt>
              <dd>
                <code>{e.request_id ?? '—'}</code>
              </dd>
              <dt>{t('audit.userAgent')}</dt>
              <dd>{e.user_agent ?? '—'}</dd>
              {changes.length ? (
                <>
                  <dt>{t('audit.changes')}</dt>
                  <dd>
                    <ul className="audit-changes">
                      {changes.map((c) => (
                        <li key={c.field}>
                          <code>{c.field}</code>: {c.before}
                          {c.after !== null ? ` → ${c.after}` : ''}
                        </li>
                      ))}
                    </ul>
                  </dd>
                </>
              ) : null}
            </dl>
            {e.details && Object.keys(e.details).length ? (
              <pre className="mono">{JSON.stringify(e.details, null, 2)}</pre>
            ) : null}
          </td>
        </tr>
      ) : null}
    </>
  );
}
