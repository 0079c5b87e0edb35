/**
 * Users and roles (/v1/users): everyone may read the list; admins create users (a generated password
 * is shown once), change a role, suspend or reactivate (suspending ends the user's sessions) and sign
 * a user out everywhere. The server keeps the last active admin: its refusal is shown as it says it.
 */
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client.ts';
import { CreatedPanel } from './CreatedPanel.tsx';
import {
  ConfirmButton,
  Dialog,
  ErrorNote,
  formatDateTime,
  type Json,
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
import {
  type Role,
  type SettingsKey,
  useCurrentUserId,
  useIsAdmin,
  useSettingsLang,
  useSettingsT,
} from './i18n.ts';
import { SettingsHead } from './SettingsHead.tsx';
import { SettingsTable } from './SettingsTable.tsx';
import { useConsoleValidity } from './validity.ts';

type User = Json<'/v1/users'>['data'][number];
const ROLES: Role[] = ['admin', 'reviewer', 'viewer'];

export function UsersPage() {
  const t = useSettingsT();
  const lang = useSettingsLang();
  const isAdmin = useIsAdmin();
  const me = useCurrentUserId();
  const [suspended, setSuspended] = useState(false);
  const [page, setPage] = usePage(suspended);
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const act = useAction();
  const list = useLoad(
    async () => ok(await api.GET('/v1/users', { params: { query: { page, include_suspended: suspended } } })),
    [page, suspended],
  );
  const patch = async (u: User, body: { role?: Role; suspended?: boolean }, done: string) => {
    setNotice(null);
    if (
      await act.run(async () =>
        ok(await api.PATCH('/v1/users/{id}', { params: { path: { id: u.id } }, body })),
      )
    ) {
      setNotice(done);
      list.reload();
    }
  };
  return (
    <>
      <SettingsHead
        title={t('settings.section.users')}
        hint={t('users.intro')}
        newLabel={t('users.new')}
        onNew={isAdmin ? () => setCreating(true) : undefined}
      />
      <label className="check">
        <input type="checkbox" checked={suspended} onChange={(e) => setSuspended(e.target.checked)} />
        {t('users.includeSuspended')}
      </label>
      <ErrorNote message={act.error} />
      {notice ? (
        <p role="status" className="settings-ok">
          {notice}
        </p>
      ) : null}
      <LoadState load={list} t={t} />
      <SettingsTable
        rows={list.data?.data}
        columns={[
          t('users.name'),
          t('users.email'),
          t('users.role'),
          t('users.created'),
          t('users.suspended'),
          isAdmin && t('settings.actions'),
        ]}
        row={(u) => (
          <tr key={u.id} className={u.suspended_at ? 'archived' : undefined} data-user={u.email}>
            <td>
              {userLabel(u)}
              {u.id === me ? <span className="settings-muted"> {t('users.you')}</span> : null}
            </td>
            <td>{u.email}</td>
            <td>
              {isAdmin ? (
                <select
                  aria-label={t('users.roleOf', { name: userLabel(u) })}
                  value={u.role}
                  // one's own role is changed by another admin: the last admin demoting themselves is a 409
                  disabled={act.busy || u.id === me}
                  aria-describedby={u.id === me ? 'users-self-hint' : undefined}
                  onChange={(e) =>
                    patch(
                      u,
                      { role: e.target.value as Role },
                      t('users.roleChanged', {
                        name: userLabel(u),
                        role: t(`users.role.${e.target.value}` as SettingsKey),
                      }),
                    )
                  }
                >
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {t(`users.role.${r}` as SettingsKey)}
                    </option>
                  ))}
                </select>
              ) : (
                t(`users.role.${u.role}` as SettingsKey)
              )}
            </td>
            <td>{formatDateTime(u.created_at, lang)}</td>
            <td>{u.suspended_at ? formatDateTime(u.suspended_at, lang) : '—'}</td>
            {isAdmin ? (
              <td className="settings-row-actions">
                {u.suspended_at ? (
                  <button
                    type="button"
                    disabled={act.busy}
                    onClick={() =>
                      patch(u, { suspended: false }, t('users.reactivated', { name: userLabel(u) }))
                    }
                  >
                    {t('users.reactivate')}
                  </button>
                ) : u.id === me ? (
                  // suspending oneself would end one's session; the last admin's is a 409
                  <button type="button" className="danger" disabled aria-describedby="users-self-hint">
                    {t('users.suspend')}
                  </button>
                ) : (
                  <ConfirmButton
                    danger
                    label={t('users.suspend')}
                    title={t('users.suspendTitle')}
                    question={t('users.suspendQuestion', { name: userLabel(u) })}
                    confirm={t('users.suspend')}
                    action={async () =>
                      ok(
                        await api.PATCH('/v1/users/{id}', {
                          params: { path: { id: u.id } },
                          body: { suspended: true },
                        }),
                      )
                    }
                    onDone={() => {
                      setNotice(t('users.suspendedDone', { name: userLabel(u) }));
                      list.reload();
                    }}
                  />
                )}
                <ConfirmButton
                  label={t('users.signOut')}
                  title={t('users.signOutTitle')}
                  question={t('users.signOutQuestion', { name: userLabel(u) })}
                  confirm={t('users.signOut')}
                  action={async () =>
                    ok(await api.DELETE('/v1/users/{id}/sessions', { params: { path: { id: u.id } } }))
                  }
                  onDone={() => setNotice(t('users.signedOut', { name: userLabel(u) }))}
                />
              </td>
            ) : null}
          </tr>
        )}
      />
      {isAdmin && list.data?.data.some((u) => u.id === me) ? (
        <p className="settings-hint" id="users-self-hint">
          {t('users.selfHint')}
        </p>
      ) : null}
      <Pager pagination={list.data?.pagination} onPage={setPage} />
      <Dialog title={t('users.new')} open={creating} onClose={() => setCreating(false)}>
        {creating ? <CreateUser onChanged={list.reload} onClose={() => setCreating(false)} /> : null}
      </Dialog>
    </>
  );
}

function CreateUser(props: { onChanged: () => void; onClose: () => void }) {
  const t = useSettingsT();
  const validity = useConsoleValidity();
  const [email, setEmail] = useState('');
  const [first, setFirst] = useState('');
  const [last, setLast] = useState('');
  const [role, setRole] = useState<Role>('reviewer');
  const [password, setPassword] = useState('');
  const [created, setCreated] = useState<{ email: string; password: string | null } | null>(null);
  const act = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await act.run(async () => {
      const res = await api.POST('/v1/users', {
        body: {
          email,
          first_name: first,
          last_name: last,
          role,
          ...(password ? { password } : {}),
        },
      });
      // the one refusal an admin meets often, said in the console's language
      const refused = res.error as { details?: { path?: string }[] } | undefined;
      if (res.response.status === 409 && refused?.details?.some((d) => d.path === 'email'))
        throw new Error(t('users.emailTaken', { email: email.trim() }));
      const u = ok(res);
      setCreated({ email: u.email, password: u.password ?? null });
      props.onChanged();
    });
  };
  if (created)
    return (
      <CreatedPanel onClose={props.onClose}>
        <p role="status">{t('users.createdDone', { email: created.email })}</p>
        {created.password ? (
          <OnceSecret
            label={t('users.password')}
            value={created.password}
            note={t('users.passwordShownOnce')}
          />
        ) : null}
      </CreatedPanel>
    );
  return (
    <form className="settings-form" onSubmit={submit}>
      <label>
        {t('users.email')}
        <input
          type="email"
          required
          maxLength={320}
          {...validity}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </label>
      <div className="settings-grid">
        <label>
          {t('users.firstName')}
          <input maxLength={100} value={first} onChange={(e) => setFirst(e.target.value)} />
        </label>
        <label>
          {t('users.lastName')}
          <input maxLength={100} value={last} onChange={(e) => setLast(e.target.value)} />
        </label>
      </div>
      <label>
        {t('users.role')}
        <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {t(`users.role.${r}` as SettingsKey)}
            </option>
          ))}
        </select>
      </label>
      <p className="settings-hint">{t(`users.roleHint.${role}` as SettingsKey)}</p>
      <label>
        {t('users.passwordOptional')}
        <input
          type="password"
          autoComplete="new-password"
          minLength={10}
          maxLength={200}
          {...validity}
          value={password}
          aria-describedby="user-password-hint"
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      <p id="user-password-hint" className="settings-hint">
        {t('users.passwordHint')}
      </p>
      <FormActions
        error={act.error}
        busy={act.busy}
        submitLabel={t('settings.create')}
        onCancel={props.onClose}
      />
    </form>
  );
}
