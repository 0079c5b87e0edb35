/**
 * Webhooks (/v1/webhooks) and their deliveries (/v1/webhook-logs). Admins only, reads included (a
 * webhook carries its signing secret). The list with status and events; create, edit, pause, delete,
 * rotate the secret, show it; the delivery log of all webhooks or one, filtered by status, a
 * delivery's attempts (status, error, response) and retrying it now.
 */
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { api } from '../../api/client.ts';
import {
  ConfirmButton,
  Dialog,
  ErrorNote,
  formatDateTime,
  type Json,
  LoadState,
  ok,
  Pager,
  useAction,
  useLoad,
  usePage,
} from './common.tsx';
import { FormActions } from './FormActions.tsx';
import { type SettingsKey, type SettingsT, useSettingsLang, useSettingsT } from './i18n.ts';
import { SettingsHead } from './SettingsHead.tsx';
import { SettingsTable } from './SettingsTable.tsx';
import { WebhookEventPicker } from './WebhookEventPicker.tsx';
import { normaliseEvents } from './webhook-events.ts';

type Webhook = Json<'/v1/webhooks'>['data'][number];
type WebhookLog = Json<'/v1/webhook-logs'>['data'][number];

const DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'failed', 'pending_offline'] as const;

export function WebhooksPage() {
  const t = useSettingsT();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [revealed, setRevealed] = useState<string | null>(null);
  const [logsOf, setLogsOf] = useState<string>('');
  // bumped by a row's Deliveries button: the log below takes the focus
  const [showLogs, setShowLogs] = useState(0);
  const act = useAction();
  const list = useLoad(
    async () => ok(await api.GET('/v1/webhooks', { params: { query: { page } } })),
    [page],
  );
  const webhooks = list.data?.data ?? [];

  return (
    <>
      <SettingsHead
        title={t('settings.section.webhooks')}
        hint={t('webhooks.intro')}
        newLabel={t('webhooks.new')}
        onNew={() => setEditing('new')}
      />
      <LoadState load={list} t={t} />
      <ErrorNote message={act.error} />
      <SettingsTable
        rows={list.data?.data}
        none={t('webhooks.none')}
        columns={[
          t('webhooks.name'),
          t('webhooks.url'),
          t('webhooks.events'),
          t('webhooks.status'),
          t('webhooks.secret'),
          t('settings.actions'),
        ]}
        row={(w) => (
          <tr key={w.id}>
            <td>{w.name}</td>
            <td className="wrap">
              <code>{w.url}</code>
            </td>
            <td className="words">{w.events.join(', ')}</td>
            <td>
              <span className={`settings-badge ${w.status}`}>
                {t(w.status === 'online' ? 'webhooks.online' : 'webhooks.offline')}
              </span>
            </td>
            <td className="wrap">
              {revealed === w.id ? (
                <code data-testid="webhook-secret">{w.secret}</code>
              ) : (
                <span>••••••••</span>
              )}{' '}
              <button
                type="button"
                className="link"
                onClick={() => setRevealed(revealed === w.id ? null : w.id)}
              >
                {revealed === w.id ? t('webhooks.hideSecret') : t('webhooks.showSecret')}
              </button>
            </td>
            <td className="settings-row-actions">
              <button type="button" onClick={() => setEditing(w)}>
                {t('settings.edit')}
              </button>
              <button
                type="button"
                disabled={act.busy}
                onClick={async () => {
                  if (
                    await act.run(async () =>
                      ok(
                        await api.PATCH('/v1/webhooks/{id}', {
                          params: { path: { id: w.id } },
                          body: { status: w.status === 'online' ? 'offline' : 'online' },
                        }),
                      ),
                    )
                  )
                    list.reload();
                }}
              >
                {w.status === 'online' ? t('webhooks.pause') : t('webhooks.resume')}
              </button>
              <button
                type="button"
                onClick={() => {
                  setLogsOf(w.id);
                  setShowLogs((n) => n + 1);
                }}
              >
                {t('webhooks.deliveries')}
              </button>
              <ConfirmButton
                label={t('webhooks.rotate')}
                title={t('webhooks.rotateTitle')}
                question={t('webhooks.rotateQuestion')}
                confirm={t('webhooks.rotate')}
                action={async () =>
                  ok(
                    await api.POST('/v1/webhooks/{id}/rotate-secret', {
                      params: { path: { id: w.id } },
                      body: {},
                    }),
                  )
                }
                onDone={() => {
                  setRevealed(w.id);
                  list.reload();
                }}
              />
              <ConfirmButton
                danger
                label={t('settings.delete')}
                title={t('webhooks.deleteTitle')}
                question={t('webhooks.deleteQuestion', { name: w.name })}
                confirm={t('settings.delete')}
                action={async () =>
                  ok(await api.DELETE('/v1/webhooks/{id}', { params: { path: { id: w.id } } }))
                }
                onDone={list.reload}
              />
            </td>
          </tr>
        )}
      />
      <Pager pagination={list.data?.pagination} onPage={setPage} />
      <Deliveries webhooks={webhooks} webhookId={logsOf} onWebhook={setLogsOf} focus={showLogs} />
      <Dialog
        wide
        title={editing === 'new' ? t('webhooks.new') : t('webhooks.edit')}
        open={editing !== null}
        onClose={() => setEditing(null)}
      >
        {editing !== null ? (
          <WebhookForm
            t={t}
            webhook={editing === 'new' ? null : editing}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              list.reload();
            }}
          />
        ) : null}
      </Dialog>
    </>
  );
}

function WebhookForm(props: {
  t: SettingsT;
  webhook: Webhook | null;
  onCancel: () => void;
  onSaved: () => void;
}) {
  const { t, webhook } = props;
  const [name, setName] = useState(webhook?.name ?? '');
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [events, setEvents] = useState<Set<string>>(() => new Set(webhook?.events ?? ['Case.*', 'Check.*']));
  const [online, setOnline] = useState(webhook ? webhook.status === 'online' : true);
  const [signature, setSignature] = useState<Webhook['signature']>(webhook?.signature ?? 'standard_webhooks');
  const [header, setHeader] = useState(webhook?.signature_header ?? '');
  // what was refused (a private address, no event) is said until the address or the events are
  // edited: it is about what was sent, not what the form now holds
  const act = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const chosen = normaliseEvents(events);
    if (!chosen.length) {
      await act.run(async () => {
        throw new Error(t('webhooks.noEvents'));
      });
      return;
    }
    const body = {
      ...(name.trim() ? { name: name.trim() } : {}),
      url: url.trim(),
      events: chosen,
      status: online ? ('online' as const) : ('offline' as const),
      signature,
      ...(signature === 'hmac_sha256_hex' && header.trim() ? { signature_header: header.trim() } : {}),
    };
    const done = await act.run(async () => {
      if (webhook) ok(await api.PATCH('/v1/webhooks/{id}', { params: { path: { id: webhook.id } }, body }));
      else ok(await api.POST('/v1/webhooks', { body }));
    });
    if (done) props.onSaved();
  };
  return (
    <form className="settings-form" onSubmit={submit}>
      <label>
        {t('webhooks.name')}
        <input maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        {t('webhooks.url')}
        <input
          type="url"
          required
          maxLength={2048}
          value={url}
          onChange={(e) => {
            setUrl(e.target.value);
            act.clear();
          }}
        />
      </label>
      <WebhookEventPicker
        t={t}
        chosen={events}
        onChange={(next) => {
          setEvents(next);
          act.clear();
        }}
      />
      <label>
        {t('webhooks.signature')}
        <select value={signature} onChange={(e) => setSignature(e.target.value as Webhook['signature'])}>
          <option value="standard_webhooks">{t('webhooks.signature.standard_webhooks')}</option>
          <option value="hmac_sha256_hex">{t('webhooks.signature.hmac_sha256_hex')}</option>
        </select>
      </label>
      {signature === 'hmac_sha256_hex' ? (
        <label>
          {t('webhooks.signatureHeader')}
          <input
            maxLength={100}
            pattern="[A-Za-z0-9\-]+"
            placeholder="dotfile-signature"
            value={header}
            onChange={(e) => setHeader(e.target.value)}
          />
        </label>
      ) : null}
      <label className="check">
        <input type="checkbox" checked={online} onChange={(e) => setOnline(e.target.checked)} />
        {t('webhooks.onlineLong')}
      </label>
      <FormActions
        error={act.error}
        busy={act.busy}
        submitLabel={webhook ? t('settings.save') : t('settings.create')}
        onCancel={props.onCancel}
      />
    </form>
  );
}

function Deliveries(props: {
  webhooks: Webhook[];
  webhookId: string;
  onWebhook: (id: string) => void;
  focus: number;
}) {
  const t = useSettingsT();
  const lang = useSettingsLang();
  const [status, setStatus] = useState('');
  // back to page 1 when the webhook changes here or from a row's Deliveries button above
  const [page, setPage] = usePage(props.webhookId, status);
  const [open, setOpen] = useState<string | null>(null);
  const act = useAction();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (props.focus > 0) {
      heading.current?.scrollIntoView({ block: 'start' });
      heading.current?.focus();
    }
  }, [props.focus]);
  const logs = useLoad(
    async () =>
      ok(
        await api.GET('/v1/webhook-logs', {
          params: {
            query: {
              page,
              limit: 20,
              // the latest deliveries first (the API's default is the spec's oldest first)
              sort: 'created_at.desc',
              ...(props.webhookId ? { webhook_id: props.webhookId } : {}),
              ...(status ? { status } : {}),
            },
          },
        }),
      ),
    [page, props.webhookId, status],
  );
  return (
    <section className="settings-panel" aria-labelledby="webhook-deliveries">
      <h3 id="webhook-deliveries" ref={heading} tabIndex={-1}>
        {t('webhooks.deliveries')}
      </h3>
      <div className="settings-filters">
        <label>
          {t('webhooks.webhook')}
          <select value={props.webhookId} onChange={(e) => props.onWebhook(e.target.value)}>
            <option value="">{t('webhooks.allWebhooks')}</option>
            {props.webhooks.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('webhooks.status')}
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">{t('settings.all')}</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`webhooks.delivery.${s}` as SettingsKey)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={logs.reload}>
          {t('settings.refresh')}
        </button>
      </div>
      <ErrorNote message={act.error} />
      <LoadState load={logs} t={t} />
      <SettingsTable
        rows={logs.data?.data}
        none={t('webhooks.noDeliveries')}
        columns={[
          t('webhooks.event'),
          t('webhooks.status'),
          t('webhooks.httpStatus'),
          t('webhooks.retries'),
          t('webhooks.lastAttempt'),
          t('settings.actions'),
        ]}
        row={(l) => (
          <DeliveryRow
            key={l.id}
            log={l}
            lang={lang}
            t={t}
            open={open === l.id}
            busy={act.busy}
            onToggle={() => setOpen(open === l.id ? null : l.id)}
            onRetry={async () => {
              if (
                await act.run(async () =>
                  ok(await api.POST('/v1/webhook-logs/{id}/retry', { params: { path: { id: l.id } } })),
                )
              ) {
                setOpen(l.id);
                logs.reload();
              }
            }}
          />
        )}
      />
      <Pager pagination={logs.data?.pagination} onPage={setPage} />
    </section>
  );
}

function DeliveryRow(props: {
  log: WebhookLog;
  lang: string;
  t: SettingsT;
  open: boolean;
  busy: boolean;
  onToggle: () => void;
  onRetry: () => void;
}) {
  const { log: l, t } = props;
  return (
    <>
      <tr data-delivery={l.id}>
        <td>
          <button type="button" className="link" aria-expanded={props.open} onClick={props.onToggle}>
            {l.event}
          </button>
        </td>
        <td>
          <span className={`settings-badge ${l.status}`}>
            {t(`webhooks.delivery.${l.status}` as SettingsKey)}
          </span>
        </td>
        <td>{l.status_code || '—'}</td>
        <td>{l.retry_count}</td>
        <td>{formatDateTime(l.last_attempt_at, props.lang)}</td>
        <td className="settings-row-actions">
          {l.status !== 'sending' ? (
            <button type="button" disabled={props.busy} onClick={props.onRetry}>
              {t('webhooks.retry')}
            </button>
          ) : null}
        </td>
      </tr>
      {props.open ? (
        <tr className="settings-detail-row">
          <td colSpan={6}>
            <p>
              {t('webhooks.endpoint')}: <code>{l.endpoint}</code>
              {l.next_retry_at
                ? ` — ${t('webhooks.nextRetry')} ${formatDateTime(l.next_retry_at, props.lang)}`
                : ''}
            </p>
            {l.attempts.length === 0 ? (
              <p className="settings-muted">{t('webhooks.noAttempts')}</p>
            ) : (
              <ol className="settings-attempts">
                {l.attempts.map((a) => (
                  <li key={a.attempted_at + a.type}>
                    <strong>{t(`webhooks.attempt.${a.type}` as SettingsKey)}</strong> —{' '}
                    {formatDateTime(a.attempted_at, props.lang)} —{' '}
                    {/* no status when the receiver never answered (refused, reset, timed out): said so */}
                    {a.status_code ? `HTTP ${a.status_code}` : t('webhooks.noAnswer')} — {a.duration_ms} ms
                    {a.error ? <div className="settings-error-text">{a.error}</div> : null}
                    {a.response_body ? <pre className="mono">{a.response_body}</pre> : null}
                  </li>
                ))}
              </ol>
            )}
            <details>
              <summary>{t('webhooks.payload')}</summary>
              <pre className="mono">{JSON.stringify(l.payload, null, 2)}</pre>
            </details>
          </td>
        </tr>
      ) : null}
    </>
  );
}
