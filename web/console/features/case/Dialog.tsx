/**
 * The case pages' modal dialog (see ModalDialog): the case look and its fixed title id. Also used
 * by the entity, check, portal link and password dialogs.
 */
import { type DialogProps, ModalDialog } from '../../shared/Dialog.tsx';

export function Dialog(props: DialogProps) {
  return <ModalDialog {...props} className="case-dialog" titleId="case-dialog-title" />;
}

/**
 * The end of a dialog's form, and of the console's other action forms (launch checks, new case):
 * its error (announced), then Cancel (or Close) and the submit button, at the right. The submit is
 * disabled while the action runs, or while `disabled` says the form cannot be sent yet. A form with
 * nothing to cancel (a page's) has no `onCancel`: the row holds the submit alone.
 */
export function DialogActions(props: {
  error: string | null | undefined;
  busy: boolean;
  disabled?: boolean;
  cancelLabel?: string;
  submitLabel: string;
  onCancel?: () => void;
}) {
  return (
    <>
      {props.error ? (
        <p role="alert" className="case-error">
          {props.error}
        </p>
      ) : null}
      <div className="case-form-actions">
        {props.onCancel ? (
          <button type="button" className="case-button" onClick={props.onCancel}>
            {props.cancelLabel}
          </button>
        ) : null}
        <button type="submit" className="case-button is-primary" disabled={props.busy || props.disabled}>
          {props.submitLabel}
        </button>
      </div>
    </>
  );
}
