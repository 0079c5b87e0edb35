/** One entry of the checklist: an action's slots while it takes files, else what was received. */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { type Action, type PortalApi, type RetryReason, signatureAsks } from './api.ts';
import { apiErrorText } from './api-errors.ts';
import { useI18n } from './i18n.tsx';
import { actionDescription, actionTitle, slotTitle } from './labels.ts';
import type { Messages } from './messages.ts';
import { movedOn } from './moved-on.ts';
import { SignatureStep } from './SignatureStep.tsx';
import { SlotField } from './SlotField.tsx';

interface Props {
  api: PortalApi;
  action: Action;
  onAction: (a: Action) => void;
  onSubmitted: (a: Action) => void;
  onError: (err: unknown) => void;
  announce: (text: string) => void;
}

const STATE_KEY = {
  todo: 'stateTodo',
  retry: 'stateRetry',
  submitted: 'stateSubmitted',
  approved: 'stateApproved',
} as const;

/** What the step says when it came back: its reason when the service could say one. */
const REASON_KEY: Record<RetryReason, keyof Messages> = {
  unreadable: 'reasonUnreadable',
  expired: 'reasonExpired',
  too_old: 'reasonTooOld',
  wrong_document: 'reasonWrongDocument',
  details_mismatch: 'reasonDetailsMismatch',
  face_mismatch: 'reasonFaceMismatch',
  selfie_unusable: 'reasonSelfieUnusable',
  document_and_selfie_unusable: 'reasonDocumentAndSelfieUnusable',
};

/**
 * Once a step is sent its Send button is gone, and the focus fell to the page's start: it goes to
 * the next step still asking (todo or retry), else back to this step's heading (which says it was
 * received). A keyboard or screen reader user carries on from there.
 */
function focusAfterSend(actionId: string): void {
  requestAnimationFrame(() => {
    const cards = [...document.querySelectorAll<HTMLElement>('li.action[data-action-id]')];
    const at = cards.findIndex((c) => c.dataset.actionId === actionId);
    const asking = (c: HTMLElement) =>
      c.classList.contains('state-todo') || c.classList.contains('state-retry');
    const next = [...cards.slice(at + 1), ...cards.slice(0, Math.max(at, 0))].find(asking);
    (next ?? cards[at])?.querySelector<HTMLElement>('h3')?.focus();
  });
}

export function ActionCard({ api, action, onAction, onSubmitted, onError, announce }: Props) {
  const { t } = useI18n();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // files of this step being sent by its fields: Send waits for them, as a step sent meanwhile
  // refuses the file still on its way (and the page, showing the step received, lost it unsaid)
  const [sending, setSending] = useState(0);
  const onSending = useCallback((delta: 1 | -1) => setSending((n) => n + delta), []);
  const editable = action.state === 'todo' || action.state === 'retry';
  // "this step changed meanwhile" is about the change the page just caught up with: it goes with
  // the step's next change (approved after being sent, asked again...), where it stayed for good
  const caughtUpFrom = useRef<string | null>(null);
  const shownState = useRef(action.state);
  useEffect(() => {
    if (action.state === shownState.current) return;
    shownState.current = action.state;
    // the change caught up with is the step leaving the contact's hands (sent, approved): the
    // notice stays with it. A step asking again (retry) is a later change, even when the page
    // never saw the states in between (a CI run saw the notice stay beside "Please send it again")
    const asksAgain = action.state === 'todo' || action.state === 'retry';
    if (caughtUpFrom.current !== null && !asksAgain) caughtUpFrom.current = null;
    else {
      caughtUpFrom.current = null;
      setError(null);
    }
  }, [action.state]);
  const title = actionTitle(t, action);
  const description = actionDescription(t, action);
  const headingId = `action-${action.id}`;
  // a signature goes by its own status (a declined one is a rejected check, yet nothing is to redo)
  const signature = action.type === 'electronic_signature' ? action.signature : null;
  const badge =
    signature?.status === 'signed'
      ? ('stateSigned' as const)
      : signature?.status === 'declined'
        ? ('stateDeclined' as const)
        : signature?.status === 'ended'
          ? ('stateEnded' as const)
          : action.checking
            ? ('stateChecking' as const)
            : (STATE_KEY[action.state] ?? 'stateTodo');
  const badgeClass =
    signature?.status === 'signed'
      ? 'approved'
      : signature?.status === 'declined'
        ? 'retry'
        : signature?.status === 'ended'
          ? 'ended' // closed by the operator: neither the green of a signature nor a thing to redo
          : action.state;
  // what the step asks is said while it asks it: not on a signature signed, declined or closed
  const asking = signature ? signatureAsks(signature) : true;
  // files still listed for a submitted action (the server may keep none once it has them)
  const received = action.slots.flatMap((slot) => slot.files.map((file) => ({ slot, file })));

  const submitHintId = useId();
  const submitHint = sending > 0 ? t('waitUploads') : !action.can_submit ? t('missingFiles') : null;

  const submit = async () => {
    if (sending > 0) return;
    setError(null);
    setSubmitting(true);
    try {
      const updated = await api.submit(action.id);
      announce(t('submitted', { what: title }));
      onSubmitted(updated);
      focusAfterSend(action.id);
    } catch (err) {
      if (movedOn(err)) stepMovedOn();
      else setError(apiErrorText(t, err));
      onError(err);
    } finally {
      setSubmitting(false);
    }
  };

  // the step was sent, approved or removed meanwhile: say so, and show it as it is now
  const stepMovedOn = () => {
    caughtUpFrom.current = action.state;
    setError(t('stepMovedOn'));
    onSubmitted(action);
  };

  return (
    <li
      className={`action state-${badgeClass === 'ended' ? 'ended' : action.state}`}
      data-action-id={action.id}
      data-action-type={action.type}
    >
      <section aria-labelledby={headingId}>
        <div className="action-head">
          <h3 id={headingId} tabIndex={-1}>
            {title}
          </h3>
          <span className={`badge badge-${badgeClass}`}>{t(badge)}</span>
        </div>
        <p className="entity">{t('forEntity', { name: action.entity.name })}</p>
        {description && asking ? <p className="description">{description}</p> : null}
        {action.state === 'retry' && !signature ? (
          <p className="hint retry-reason">
            {t(action.retry_reason ? REASON_KEY[action.retry_reason] : 'retryHint')}
          </p>
        ) : null}
        {signature ? (
          <SignatureStep
            api={api}
            action={action}
            onAction={onAction}
            onSubmitted={onSubmitted}
            onError={onError}
            announce={announce}
          />
        ) : editable ? (
          <>
            {action.slots.map((slot) => (
              <SlotField
                key={slot.key}
                api={api}
                action={action}
                slot={slot}
                editable
                onAction={onAction}
                onMovedOn={stepMovedOn}
                onSending={onSending}
                onError={onError}
                announce={announce}
              />
            ))}
            {error ? (
              <p className="error" role="alert">
                {error}
              </p>
            ) : null}
            <div className="buttons submit-row">
              <button
                type="button"
                className="primary"
                disabled={!action.can_submit || submitting || sending > 0}
                aria-describedby={submitHint ? submitHintId : undefined}
                onClick={() => void submit()}
              >
                {submitting ? t('submitting') : t('submit')}
              </button>
              {submitHint ? (
                <span className="hint" id={submitHintId}>
                  {submitHint}
                </span>
              ) : null}
            </div>
          </>
        ) : (
          <>
            {error ? (
              <p className="error" role="alert">
                {error}
              </p>
            ) : null}
            <p className="hint">{t(action.checking ? 'checkingHint' : 'receivedHint')}</p>
            {received.length ? (
              <ul className="files received">
                {received.map(({ slot, file }) => (
                  <li key={file.id}>
                    <span className="file-name">{file.name}</span>
                    <span className="file-size">{slotTitle(t, slot)}</span>
                  </li>
                ))}
              </ul>
            ) : null}
          </>
        )}
      </section>
    </li>
  );
}
