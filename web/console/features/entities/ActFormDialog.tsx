/**
 * A button that opens a form in a dialog, for the case's entity and relation forms: the fields,
 * then the server's refusal (announced; under its field when the form says so: `fields`), and Cancel and Save (disabled, and saying so, while the
 * write runs) in the row every case dialog ends with (DialogActions). Its state (useActFormDialog) is the caller's: what the form reads (the case's
 * companies) is read when it opens, and its submit is the caller's write.
 */
import { type FormEvent, type ReactNode, useState } from 'react';
import { ActFailed } from '../ActFailed.tsx';
import { useAction, useActT } from '../act-i18n.ts';
import { Dialog, DialogActions } from '../case/Dialog.tsx';
import { RefusalContext, refusedPath } from './field-refusal.tsx';

/**
 * An ActFormDialog's state: open or not, its write under way or refused. `submit(write, done)` is
 * the form's submit handler: it runs the write, then closes the dialog and calls `done` once the
 * write went through; a refused one leaves the dialog open with the server's message.
 */
export function useActFormDialog() {
  const [open, setOpen] = useState(false);
  const { busy, error, run } = useAction();
  const submit = (write: () => Promise<void>, done: () => void) => (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      await write();
      setOpen(false);
      done();
    });
  };
  return { open, setOpen, busy, error, submit };
}

export function ActFormDialog(props: {
  openLabel: string;
  title: string;
  dialog: ReturnType<typeof useActFormDialog>;
  onSubmit: (e: FormEvent) => void;
  /** The fields that say a refusal naming them under themselves (FieldRefusal); others after the form. */
  fields?: readonly string[];
  children: ReactNode;
}) {
  const t = useActT();
  const { open, setOpen, busy, error } = props.dialog;
  const close = () => setOpen(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        {props.openLabel}
      </button>
      <Dialog title={props.title} open={open} onClose={close}>
        <form className="act-form" onSubmit={props.onSubmit}>
          <RefusalContext.Provider value={error}>{props.children}</RefusalContext.Provider>
          {props.fields?.includes(refusedPath(error) ?? '') ? null : <ActFailed error={error} />}
          {/* the case dialogs' one row of actions (Cancel, then Save, at the right), not a copy of its own */}
          <DialogActions
            error={null}
            busy={busy}
            cancelLabel={t('act.cancel')}
            submitLabel={busy ? t('act.busy') : t('act.save')}
            onCancel={close}
          />
        </form>
      </Dialog>
    </>
  );
}
