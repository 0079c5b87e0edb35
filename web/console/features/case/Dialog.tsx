/**
 * The case pages' modal dialog (see ModalDialog): the case look and its fixed title id. Also used
 * by the entity, check, portal link and password dialogs.
 */
import { type DialogProps, ModalDialog } from '../../shared/Dialog.tsx';

export function Dialog(props: DialogProps) {
  return <ModalDialog {...props} className="case-dialog" titleId="case-dialog-title" />;
}

/**
 * The end of a dialog's form: its error (announced), then Cancel and the submit button, which is
 * disabled while the action runs.
 */
export function DialogActions(props: {
  error: string | null | undefined;
  busy: boolean;
  cancelLabel: string;
  submitLabel: string;
  onCancel: () => void;
}) {
  return (
    <>
      {props.error ? (
        <p role="alert" className="case-error">
          {props.error}
        </p>
      ) : null}
      <div className="case-form-actions">
        <button type="button" className="case-button" onClick={props.onCancel}>
          {props.cancelLabel}
        </button>
        <button type="submit" className="case-button is-primary" disabled={props.busy}>
          {props.submitLabel}
        </button>
      </div>
    </>
  );
}
