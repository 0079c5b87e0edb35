/**
 * A modal dialog on the native <dialog> (showModal: the rest of the page is inert, so focus stays
 * inside; Escape closes), which gives focus back to the element that opened it when it closes.
 */
import { type ReactNode, useEffect, useRef } from 'react';

export function Dialog(props: { title: string; open: boolean; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) {
      opener.current = document.activeElement as HTMLElement | null;
      d.showModal();
    } else if (!props.open && d.open) {
      d.close();
    }
  }, [props.open]);
  useEffect(
    () => () => {
      // unmounted while open: focus goes back too
      opener.current?.focus();
    },
    [],
  );
  return (
    <dialog
      ref={ref}
      className="case-dialog"
      aria-labelledby="case-dialog-title"
      onClose={() => {
        opener.current?.focus();
        opener.current = null;
        if (props.open) props.onClose();
      }}
    >
      {props.open ? (
        <>
          <h2 id="case-dialog-title">{props.title}</h2>
          {props.children}
        </>
      ) : null}
    </dialog>
  );
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
