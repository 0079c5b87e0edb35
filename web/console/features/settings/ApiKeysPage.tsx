/**
 * API keys (/v1/api-keys), admins only: the workspace's keys by name and prefix (never the key),
 * who created them, revoked ones on demand; creating one shows the key once, revoking asks first.
 */
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client.ts';
import { CreatedPanel } from './CreatedPanel.tsx';
import {
  ConfirmButton,
  Dialog,
  formatDateTime,
  LoadState,
  OnceSecret,
  ok,
  Pager,
  useAction,
  useLoad,
  usePage,
  userLabel,
} from './common.tsx';
import { FormActions } from './FormActions.tsx';
import { useSettingsLang, useSettingsT } from './i18n.ts';
import { SettingsHead } from './SettingsHead.tsx';
import { SettingsTable } from './SettingsTable.tsx';

export function ApiKeysPage() {
  const t = useSettingsT();
  const lang = useSettingsLang();
  const [revoked, setRevoked] = useState(false);
  const [page, setPage] = usePage(revoked);
  const [creating, setCreating] = useState(false);
  // a revoked key leaves the list (revoked ones are hidden by default): said, or it just vanished
  const [notice, setNotice] = useState<string | null>(null);
  const list = useLoad(
    async () =>
      ok(
        await api.GET('/v1/api-keys', {
          params: { query: { page, include_revoked: revoked, sort: 'created_at.desc' } },
        }),
      ),
    [page, revoked],
  );
  return (
    <>
      <SettingsHead
        title={t('settings.section.api-keys')}
        hint={t('apiKeys.intro')}
        newLabel={t('apiKeys.new')}
        onNew={() => {
          setNotice(null);
          setCreating(true);
        }}
      />
      <label className="check">
        <input type="checkbox" checked={revoked} onChange={(e) => setRevoked(e.target.checked)} />
        {t('apiKeys.includeRevoked')}
      </label>
      {notice ? (
        <p role="status" className="settings-ok">
          {notice}
        </p>
      ) : null}
      <LoadState load={list} t={t} />
      <SettingsTable
        rows={list.data?.data}
        none={t('apiKeys.none')}
        columns={[
          t('apiKeys.name'),
          t('apiKeys.prefix'),
          t('apiKeys.createdBy'),
          t('apiKeys.created'),
          t('apiKeys.revoked'),
          t('settings.actions'),
        ]}
        row={(k) => (
          <tr key={k.id} className={k.revoked_at ? 'archived' : undefined}>
            <td>{k.name ?? <span className="settings-muted">{t('apiKeys.unnamed')}</span>}</td>
            <td>
              <code>{k.prefix}…</code>
            </td>
            <td>{k.created_by ? userLabel(k.created_by) : t('apiKeys.bySystem')}</td>
            <td>{formatDateTime(k.created_at, lang)}</td>
            <td>{k.revoked_at ? formatDateTime(k.revoked_at, lang) : '—'}</td>
            <td className="settings-row-actions">
              {k.revoked_at ? null : (
                <ConfirmButton
                  danger
                  label={t('apiKeys.revoke')}
                  title={t('apiKeys.revokeTitle')}
                  question={t('apiKeys.revokeQuestion', { name: k.name ?? k.prefix })}
                  confirm={t('apiKeys.revoke')}
                  action={async () =>
                    ok(await api.DELETE('/v1/api-keys/{id}', { params: { path: { id: k.id } } }))
                  }
                  onDone={() => {
                    setNotice(t('apiKeys.revokedDone', { name: k.name ?? `${k.prefix}…` }));
                    list.reload();
                  }}
                />
              )}
            </td>
          </tr>
        )}
      />
      <Pager pagination={list.data?.pagination} onPage={setPage} />
      <Dialog title={t('apiKeys.new')} open={creating} onClose={() => setCreating(false)}>
        {creating ? (
          <CreateKey
            onChanged={list.reload}
            onClose={() => {
              setCreating(false);
            }}
          />
        ) : null}
      </Dialog>
    </>
  );
}

function CreateKey(props: { onChanged: () => void; onClose: () => void }) {
  const t = useSettingsT();
  const [name, setName] = useState('');
  const [key, setKey] = useState<string | null>(null);
  const act = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await act.run(async () => {
      const created = ok(await api.POST('/v1/api-keys', { body: { name } }));
      setKey(created.api_key);
      props.onChanged();
    });
  };
  if (key)
    return (
      <CreatedPanel onClose={props.onClose}>
        <OnceSecret label={t('apiKeys.theKey')} value={key} note={t('apiKeys.shownOnce')} />
      </CreatedPanel>
    );
  return (
    <form className="settings-form" onSubmit={submit}>
      <label>
        {t('apiKeys.name')}
        <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <FormActions
        error={act.error}
        busy={act.busy}
        submitLabel={t('settings.create')}
        onCancel={props.onClose}
      />
    </form>
  );
}
