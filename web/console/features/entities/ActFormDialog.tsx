/**
 * A button that opens a form in a dialog, for the case's entity and relation forms: the fields,
 * then the server's refusal (announced) and Save (disabled, and saying so, while the write runs)
 * and Cancel. The caller keeps `open`: its submit closes the dialog once the write went through,
 * and what the form reads (the case's companies) is read when it opens.
 */
import type { FormEvent, ReactNode } from 'react';
import { useActT } from '../act-i18n.ts';
import { Dialog } from '../case/Dialog.tsx';

export function ActFormDialog(props: {
  openLabel: string;
  title: string;
  open: boolean;
  setOpen: (open: boolean) => void;
  onSubmit: (e: FormEvent) => void;
  busy: boolean;
  error: string | null;
  children: ReactNode;
}) {
  const t = useActT();
  const close = () => props.setOpen(false);
  return (
    <>
      <button type="button" onClick={() => props.setOpen(true)}>
        {props.openLabel}
      </button>
      <Dialog title={props.title} open={props.open} onClose={close}>
        <form className="act-form" onSubmit={props.onSubmit}>
          {props.children}
          {props.error ? (
            <p className="error" role="alert">
              {t('act.failed', { message: props.error })}
            </p>
          ) : null}
          <div className="act-buttons">
            <button type="submit" className="primary" disabled={props.busy}>
              {props.busy ? t('act.busy') : t('act.save')}
            </button>
            <button type="button" onClick={close}>
              {t('act.cancel')}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
