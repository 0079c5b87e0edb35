/**
 * The signing step of an `electronic_signature` action (docs/electronic-signature.md, "The portal's
 * signing API"): opening it starts the request (the document is frozen then); the signer reads the
 * whole document, agrees, types their name or draws a signature, asks for a code by e-mail, enters
 * it and signs. Or declines, with a reason. The page goes by `signature.status`.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { HttpError } from '../shared/http.ts';
import {
  type Action,
  type DocumentParts,
  type PortalApi,
  type SignatureState,
  signatureAsks,
} from './api.ts';
import { apiErrorText } from './api-errors.ts';
import { DocumentFrame } from './DocumentFrame.tsx';
import { type Translate, useI18n } from './i18n.tsx';
import { SignaturePad } from './SignaturePad.tsx';

interface Props {
  api: PortalApi;
  action: Action;
  onAction: (a: Action) => void;
  onSubmitted: (a: Action) => void;
  onError: (err: unknown) => void;
  announce: (text: string) => void;
}

/** What went wrong, in the page's language, from the error's code (api-errors.ts). */
const failure = apiErrorText;

/** The field a 400 names (`details[0].path`), if any. */
const fieldOf = (err: HttpError) =>
  (err.body as { details?: { path?: string }[] } | null)?.details?.[0]?.path;

/** Why the code was refused, from the action read again after the refusal. */
function codeRefusal(t: Translate, code: SignatureState['code'] | undefined): string {
  if (!code?.sent_at) return t('codeNone');
  if (code.attempts_left <= 0) return t('codeExhausted');
  if (code.expires_at && new Date(code.expires_at).getTime() <= Date.now()) return t('codeExpired');
  return t('codeWrong', { n: code.attempts_left });
}

/** Downloads a blob under `name` (the link is made, clicked and dropped). */
function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * A file name from the document's name: letters, digits, spaces, `_` and `-` kept, apostrophes
 * dropped within a word (`Client's`), each run of anything else one space, spaces collapsed
 * ("Long agreement — «quotes» & <tags>" gave "Long agreement  quotes  tags").
 */
const fileName = (name: string, suffix = '') =>
  `${
    name
      .replace(/['’]/g, '')
      .replace(/[^\p{L}\p{N} _-]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim() || 'document'
  }${suffix}.pdf`;

/**
 * The signed PDF's download, for the page that says everything was received (it replaces the
 * checklist, where the signed step has its own button): one button per signed document, `detail`
 * telling apart two of the same name.
 */
export function SignedDocumentDownload({
  api,
  action,
  detail,
}: {
  api: PortalApi;
  action: Action;
  detail?: string;
}) {
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const sig = action.signature;
  if (sig?.status !== 'signed' || !sig.signed_document_url) return null;
  const name = detail ? `${sig.document_name} (${detail})` : sig.document_name;
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const blob = await api.signedDocument(action.id);
      save(blob, fileName(name, ` (${t('signedSuffix')})`));
    } catch (err) {
      setError(failure(t, err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="signed-download">
      <button type="button" onClick={() => void download()} disabled={busy}>
        {t('downloadSignedNamed', { name })}
      </button>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function SignatureStep({ api, action, onAction, onSubmitted, onError, announce }: Props) {
  const { t, lang } = useI18n();
  const id = useId();
  const sig = action.signature;
  const [html, setHtml] = useState<DocumentParts | null>(null);
  const [error, setError] = useState<string | null>(null);
  // a refused code: said from the action read again (attempts left, expiry), in the page's language
  const [codeRefused, setCodeRefused] = useState(false);
  const [nameRefused, setNameRefused] = useState(false);
  const signerName = sig?.signer.name ?? '';
  const [busy, setBusy] = useState<string | null>(null);
  const [agreed, setAgreed] = useState(false);
  const [mode, setMode] = useState<'typed' | 'drawn'>('typed');
  const [typed, setTyped] = useState('');
  const [drawn, setDrawn] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [declining, setDeclining] = useState(false);
  // opening the decline form moves the focus into its reason (the link that opened it is gone)
  const reasonField = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (declining) reasonField.current?.focus();
  }, [declining]);
  const [reason, setReason] = useState('');
  // a code just sent moves the focus into the code's field: the button that sent it was disabled
  // while sending, which dropped the focus to the page's start (walk 54)
  const codeField = useRef<HTMLInputElement>(null);
  const [codeJustSent, setCodeJustSent] = useState(0);
  useEffect(() => {
    if (codeJustSent) codeField.current?.focus();
  }, [codeJustSent]);
  const started = useRef(false);

  // the code's moments (when a new one may be asked for, when this one expires) change what the
  // page offers: it looks again at each, without a timer running in between
  const [now, setNow] = useState(() => Date.now());
  const resendAt = sig?.code?.resend_available_at ?? null;
  const expiresAt = sig?.code?.expires_at ?? null;
  useEffect(() => {
    // compared with the time they are read at (a page open for a while kept its first `now`)
    setNow(Date.now());
    const timers = [resendAt, expiresAt]
      .map((at) => (at ? Date.parse(at) - Date.now() : Number.NaN))
      .filter((wait) => wait > 0)
      .map((wait) => setTimeout(() => setNow(Date.now()), wait + 250));
    return () => {
      for (const timer of timers) clearTimeout(timer);
    };
  }, [resendAt, expiresAt]);

  const live = signatureAsks(sig);

  // opening the action starts the request (once per page: a reopened page records a new visit)
  useEffect(() => {
    if (started.current || !live) return;
    started.current = true;
    api.signature(action.id, 'start').then(onAction, (err) => {
      setError(failure(t, err));
      onError(err);
    });
  }, [api, action.id, live, onAction, onError, t]);

  // the frozen document, once there is one
  const htmlUrl = sig?.document_html_url ?? null;
  useEffect(() => {
    if (!htmlUrl || sig?.status !== 'ongoing') return;
    let gone = false;
    api.signatureDocumentParts(action.id).then(
      (parts) => !gone && setHtml(parts),
      (err) => {
        if (gone) return;
        setError(failure(t, err));
        onError(err);
      },
    );
    return () => {
      gone = true;
    };
  }, [api, action.id, htmlUrl, sig?.status, onError, t]);

  const run = useCallback(
    async (step: string, work: () => Promise<Action>, done?: (a: Action) => void) => {
      setError(null);
      setCodeRefused(false);
      setBusy(step);
      try {
        const updated = await work();
        (done ?? onAction)(updated);
        return updated;
      } catch (err) {
        const refusedCode = err instanceof HttpError && err.status === 400 && fieldOf(err) === 'code';
        // a typed name that is not the one on record: said so (the generic "reload the page" could
        // not help); no try of the code was spent, the server checks the name first
        const refusedName = err instanceof HttpError && err.status === 400 && fieldOf(err) === 'typed_name';
        setNameRefused(refusedName);
        // the server says why in English: the page says it from the action's code state instead
        if (refusedName) setError(t('typedNameMismatch', { name: signerName }));
        else if (!refusedCode) setError(failure(t, err));
        onError(err);
        // a refused code spends an attempt: read the action again for the attempts left; a step
        // that moved on meanwhile (signed or declined in another tab: 409; a code already sent from
        // there: 429) is shown as it now stands, the code's field with it
        if (err instanceof HttpError && [400, 409, 429].includes(err.status)) {
          api.session().then((s) => {
            const fresh = s.actions.find((a) => a.id === action.id);
            // a step finished elsewhere may finish the checklist: the whole session is read again
            if (fresh) (err.status === 409 ? onSubmitted : onAction)(fresh);
            if (refusedCode) setCodeRefused(true);
          }, onError);
        }
        return null;
      } finally {
        setBusy(null);
      }
    },
    [api, action.id, onAction, onSubmitted, onError, t, signerName],
  );

  const download = (which: 'pdf' | 'signed') =>
    run(which, async () => {
      const blob =
        which === 'pdf' ? await api.signatureDocument(action.id, 'pdf') : await api.signedDocument(action.id);
      save(
        blob,
        fileName(sig?.document_name ?? 'document', which === 'signed' ? ` (${t('signedSuffix')})` : ''),
      );
      return action;
    });

  if (!sig) return null;
  const name = sig.document_name;
  const date = (iso: string | null) =>
    iso ? new Date(iso).toLocaleString(lang, { dateStyle: 'long', timeStyle: 'short' }) : '';

  if (sig.status === 'signed') {
    return (
      <div className="signature done-signature">
        <p className="hint">{t('signedOn', { name, date: date(sig.signed_at) })}</p>
        {sig.signed_document_url ? (
          <button type="button" onClick={() => void download('signed')} disabled={busy !== null}>
            {t('downloadSigned')}
          </button>
        ) : null}
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    );
  }
  if (sig.status === 'ended') {
    return (
      <div className="signature">
        <p className="hint">{t('signatureEnded')}</p>
      </div>
    );
  }
  if (sig.status === 'declined') {
    return (
      <div className="signature">
        <p className="hint">{t('declinedOn', { date: date(sig.declined_at) })}</p>
        {sig.decline_reason ? <p className="quote">{sig.decline_reason}</p> : null}
      </div>
    );
  }

  const codeInfo = sig.code;
  const codeSent = Boolean(codeInfo?.sent_at);
  // a code with no attempt left, or past its time, cannot sign: said before a click is spent on it
  const spent =
    codeSent && codeInfo
      ? codeInfo.attempts_left <= 0
        ? ('codeExhausted' as const)
        : codeInfo.expires_at && Date.parse(codeInfo.expires_at) <= now
          ? ('codeExpired' as const)
          : null
      : null;
  const resendWait = resendAt !== null && Date.parse(resendAt) > now ? resendAt : null;
  const signature = mode === 'typed' ? typed.trim() : drawn;
  const canSign = agreed && Boolean(signature) && /^\d{6}$/.test(code) && codeSent && !spent && busy === null;

  const sendCode = () =>
    // the mail is written in the page's language (the server cannot tell which one the page chose)
    run('code', () => api.signature(action.id, 'send-code', { language: lang })).then((a) => {
      if (!a) return;
      announce(t('codeSent', { email: a.signature?.signer.email_hint ?? '' }));
      setCodeJustSent((n) => n + 1);
    });

  const sign = () =>
    run(
      'sign',
      () =>
        // the signed document's block is written in the page's language too
        api.signature(action.id, 'sign', {
          code,
          agreed: true,
          language: lang,
          ...(mode === 'typed' ? { typed_name: typed.trim() } : { drawn_signature_png_base64: drawn }),
        }),
      (a) => {
        announce(t('signedAnnounce', { name }));
        onSubmitted(a);
      },
    );

  const decline = () =>
    run(
      'decline',
      () => api.signature(action.id, 'decline', { reason: reason.trim() }),
      (a) => {
        announce(t('declinedAnnounce'));
        onSubmitted(a);
      },
    );

  return (
    <div className="signature">
      <h4 id={`${id}-doc`}>{t('documentToSign', { name })}</h4>
      {sig.document_pages ? <p className="hint">{t('documentPages', { n: sig.document_pages })}</p> : null}
      {html !== null ? (
        <DocumentFrame parts={html} title={t('documentToSign', { name })} />
      ) : (
        <p aria-busy="true">{t('documentLoading')}</p>
      )}
      {sig.document_url ? (
        <div className="buttons">
          <button
            type="button"
            className="link plain"
            onClick={() => void download('pdf')}
            disabled={busy !== null}
          >
            {t('downloadPdf')}
          </button>
        </div>
      ) : null}

      <label className="agree">
        <input type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.currentTarget.checked)} />
        <span>{t('agree')}</span>
      </label>

      <fieldset className="slot">
        <legend>{t('yourSignature')}</legend>
        <div className="choice" role="radiogroup" aria-label={t('signatureHow')}>
          <label>
            <input
              type="radio"
              name={`${id}-mode`}
              checked={mode === 'typed'}
              onChange={() => setMode('typed')}
            />
            <span>{t('signatureTyped')}</span>
          </label>
          <label>
            <input
              type="radio"
              name={`${id}-mode`}
              checked={mode === 'drawn'}
              onChange={() => {
                // a new pad starts blank: no earlier drawing is kept behind it
                setDrawn(null);
                setMode('drawn');
              }}
            />
            <span>{t('signatureDrawn')}</span>
          </label>
        </div>
        {mode === 'typed' ? (
          <>
            <label className="field">
              <span>{t('typedNameLabel')}</span>
              <input
                type="text"
                autoComplete="name"
                value={typed}
                maxLength={200}
                aria-describedby={`${id}-typed-hint`}
                aria-invalid={nameRefused || undefined}
                onChange={(e) => {
                  setTyped(e.currentTarget.value);
                  setNameRefused(false);
                }}
              />
            </label>
            {/* the name on record as a hint, not a placeholder: in grey in the field it read as filled in */}
            <p className="hint" id={`${id}-typed-hint`}>
              {t('typedNameHint', { name: sig.signer.name })}
            </p>
          </>
        ) : (
          <>
            <p className="hint" id={`${id}-pad`}>
              {t('drawHint')}
            </p>
            <SignaturePad onChange={setDrawn} labelledBy={`${id}-pad`} />
          </>
        )}
      </fieldset>

      <fieldset className="slot">
        <legend>{t('codeTitle')}</legend>
        {sig.signer.email_hint ? (
          <p className="hint">
            {codeSent
              ? t('codeSentTo', { email: sig.signer.email_hint })
              : t('codeWillBeSent', { email: sig.signer.email_hint })}
          </p>
        ) : (
          <p className="error">{t('noEmail')}</p>
        )}
        {sig.signer.email_hint ? (
          <div className="buttons">
            <button
              type="button"
              className={codeSent ? '' : 'primary'}
              onClick={() => void sendCode()}
              disabled={busy !== null || resendWait !== null}
            >
              {busy === 'code' ? t('codeSending') : codeSent ? t('resendCode') : t('sendCode')}
            </button>
            {resendWait ? (
              <span className="hint">
                {t('codeResendFrom', {
                  time: new Date(resendWait).toLocaleTimeString(lang, { timeStyle: 'short' }),
                })}
              </span>
            ) : null}
          </div>
        ) : null}
        {codeSent ? (
          <>
            <label className="field">
              <span>{t('codeLabel')}</span>
              <input
                ref={codeField}
                type="text"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]{6}"
                maxLength={6}
                disabled={spent !== null}
                value={code}
                onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
              />
            </label>
            {spent ? (
              <p className="hint">{t(spent)}</p>
            ) : codeInfo?.expires_at ? (
              <p className="hint">
                {t('codeValidUntil', {
                  time: new Date(codeInfo.expires_at).toLocaleTimeString(lang, { timeStyle: 'short' }),
                  n: codeInfo.attempts_left,
                })}
              </p>
            ) : null}
          </>
        ) : null}
      </fieldset>

      {error || codeRefused ? (
        <p className="error" role="alert">
          {error ?? codeRefusal(t, codeInfo)}
        </p>
      ) : null}

      <div className="buttons submit-row">
        <button type="button" className="primary" disabled={!canSign} onClick={() => void sign()}>
          {busy === 'sign' ? t('signing') : t('sign')}
        </button>
        {!canSign && busy === null ? (
          <span className="hint">{t(signHint(agreed, signature, codeSent, spent))}</span>
        ) : null}
      </div>

      <div className="decline">
        {declining ? (
          <fieldset className="slot">
            <legend>{t('declineTitle')}</legend>
            <label className="field">
              <span>{t('declineReason')}</span>
              <textarea
                ref={reasonField}
                value={reason}
                maxLength={1000}
                rows={3}
                onChange={(e) => setReason(e.currentTarget.value)}
              />
            </label>
            <div className="buttons">
              <button
                type="button"
                className="danger"
                disabled={!reason.trim() || busy !== null}
                onClick={() => void decline()}
              >
                {t('declineConfirm')}
              </button>
              <button type="button" onClick={() => setDeclining(false)}>
                {t('cancel')}
              </button>
            </div>
          </fieldset>
        ) : (
          <button type="button" className="link" onClick={() => setDeclining(true)}>
            {t('decline')}
          </button>
        )}
      </div>
    </div>
  );
}

/** What is still missing before Sign is enabled. */
function signHint(
  agreed: boolean,
  signature: string | null,
  codeSent: boolean,
  spent: 'codeExhausted' | 'codeExpired' | null,
) {
  if (!agreed) return 'needAgree' as const;
  if (!signature) return 'needSignature' as const;
  if (!codeSent) return 'needCodeSent' as const;
  if (spent) return spent;
  return 'needCode' as const;
}
