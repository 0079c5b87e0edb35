/** The sign-in form: e-mail and password, and the workspace when the e-mail is in several. */
import { type FormEvent, useState } from 'react';
import { ApiProblem } from '../api/client.ts';
import { useT } from './i18n.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { useSession } from './session.tsx';

export function LoginPage() {
  const t = useT();
  const { signIn, ended } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [workspace, setWorkspace] = useState('');
  const [needWorkspace, setNeedWorkspace] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(email.trim(), password, workspace.trim() || undefined);
    } catch (err) {
      const problem = err instanceof ApiProblem ? err : null;
      const body = problem?.body as { details?: { path?: string }[] } | undefined;
      if (problem?.status === 400 && body?.details?.some((d) => d.path === 'workspace')) {
        // the workspace field appears with its hint, which says it in the console's language: the
        // server's English refusal after it ("Connexion refusée : This e-mail signs in to...") said
        // the same thing twice, half of it in English
        setNeedWorkspace(true);
        return;
      }
      // wrong credentials and the lockout after too many, the refusals met most: in the console's
      // language (the server's is English), the lockout's wait in minutes, not "546 seconds"
      const wait = problem?.status === 429 ? /retry in (\d+) seconds/.exec((err as Error).message) : null;
      const message =
        problem?.status === 401
          ? t('login.badCredentials')
          : wait
            ? t('login.tooMany', { minutes: Math.max(1, Math.ceil(Number(wait[1]) / 60)) })
            : (err as Error).message;
      setError(t('login.failed', { message }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="login" id="content">
      <form className="login-card" onSubmit={submit} aria-labelledby="login-title">
        <p className="brand">{t('app.name')}</p>
        <h1 id="login-title">{t('login.title')}</h1>
        {ended ? (
          <p className="note" role="status">
            {t('login.expired')}
          </p>
        ) : null}
        <label>
          {t('login.email')}
          <input
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label>
          {t('login.password')}
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {needWorkspace ? (
          <label>
            {t('login.workspace')}
            {/* shown by a refusal that asks for it: the focus goes to it (it stayed on the password) */}
            <input
              name="workspace"
              // biome-ignore lint/a11y/noAutofocus: it appears because the answer asked for it
              autoFocus
              value={workspace}
              onChange={(e) => setWorkspace(e.target.value)}
            />
            <small role="status">{t('login.workspaceHint')}</small>
          </label>
        ) : null}
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('login.busy') : t('login.submit')}
        </button>
        <LanguageSwitch />
      </form>
    </main>
  );
}
