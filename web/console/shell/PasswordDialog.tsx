/**
 * Changing one's own password (POST /console/api/password): the first admin is told at first start
 * to change the printed one after signing in, and every user may need to. The server signs the
 * user's other browsers out; this one stays signed in.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { ApiProblem, consoleCall } from '../api/client.ts';
import { Dialog, DialogActions } from '../features/case/Dialog.tsx';
import { useT } from './i18n.tsx';

/** How long "Password changed." stays. */
const NOTICE_MS = 8000;

export function PasswordButton() {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  // the notice goes by itself after a while (it says what happened, nothing to do about it)
  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => setDone(false), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [done]);
  const reset = () => {
    setCurrent('');
    setNext('');
    setAgain('');
    setError(null);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (next !== again) return setError(t('password.mismatch'));
    setBusy(true);
    setError(null);
    try {
      await consoleCall('POST', '/console/api/password', { current_password: current, new_password: next });
      reset();
      setOpen(false);
      setDone(true);
    } catch (err) {
      // the server's words are English: its two refusals are said in the console's language
      const field =
        err instanceof ApiProblem
          ? (err.body as { details?: { path?: string }[] })?.details?.[0]?.path
          : null;
      setError(
        field === 'current_password'
          ? t('password.wrongCurrent')
          : field === 'new_password'
            ? t('password.tooShort')
            : (err as Error).message,
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        onClick={() => {
          reset();
          setDone(false);
          setOpen(true);
        }}
      >
        {t('password.open')}
      </button>
      {/* out of the top bar, whose buttons and text are white on its dark background; the notice
          floats under it (inside it, it pushed the group of buttons aside), and its live region is
          there before anything is said in it, so a screen reader announces it */}
      {createPortal(
        <div role="status" className="password-done" data-shown={done || undefined}>
          {done ? (
            <>
              {t('password.changed')}
              <button type="button" aria-label={t('password.dismiss')} onClick={() => setDone(false)}>
                ×
              </button>
            </>
          ) : null}
        </div>,
        document.body,
      )}
      {createPortal(
        <Dialog title={t('password.title')} open={open} onClose={() => setOpen(false)}>
          <form onSubmit={submit} className="case-form">
            <label>
              {t('password.current')}
              <input
                type="password"
                autoComplete="current-password"
                required
                value={current}
                onChange={(e) => setCurrent(e.target.value)}
              />
            </label>
            <label>
              {t('password.new')}
              <input
                type="password"
                autoComplete="new-password"
                required
                minLength={10}
                value={next}
                onChange={(e) => setNext(e.target.value)}
              />
            </label>
            <label>
              {t('password.again')}
              <input
                type="password"
                autoComplete="new-password"
                required
                value={again}
                onChange={(e) => setAgain(e.target.value)}
              />
            </label>
            <p className="muted small">{t('password.hint')}</p>
            <DialogActions
              error={error}
              busy={busy}
              cancelLabel={t('password.cancel')}
              submitLabel={t('password.submit')}
              onCancel={() => setOpen(false)}
            />
          </form>
        </Dialog>,
        document.body,
      )}
    </>
  );
}
