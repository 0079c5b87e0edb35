/**
 * The console's one modal dialog, on the native <dialog>: showModal makes the rest of the page inert
 * (focus stays inside) and Escape closes it; focus goes back to the element that opened it when it
 * closes, or when it is unmounted while open. The case pages and the settings pages each wrap it
 * with their own look (`className`) and title id.
 */
import { type ReactNode, useEffect, useRef } from 'react';

export interface DialogProps {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}

export function ModalDialog(props: DialogProps & { className: string; titleId: string }) {
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
      className={props.className}
      aria-labelledby={props.titleId}
      onClose={() => {
        opener.current?.focus();
        opener.current = null;
        if (props.open) props.onClose();
      }}
    >
      {props.open ? (
        <>
          <h2 id={props.titleId}>{props.title}</h2>
          {props.children}
        </>
      ) : null}
    </dialog>
  );
}
