/**
 * The portal page: reads the link's token, loads the session, and shows the checklist, the
 * "everything received" screen, or why the link does not work.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { HttpError } from '../shared/http.ts';
import { pickLanguage } from '../shared/i18n.ts';
import { ActionCard } from './ActionCard.tsx';
import { accentColours } from './accent.ts';
import { type Action, PortalApi, type Session, signatureAsks } from './api.ts';
import { API_ERROR_KEYS, apiErrorText } from './api-errors.ts';
import { I18n, translator, useI18n } from './i18n.tsx';
import { actionTitle, portalName } from './labels.ts';
import { LANGUAGES, type Messages } from './messages.ts';
import { SignedDocumentDownload } from './SignatureStep.tsx';
import { signedDocumentDetails } from './signed-documents.ts';
import { useLinkToken } from './token.ts';

/**
 * How often the page reads its session again while a step is being checked (an identity capture is
 * verified within seconds): the contact learns there whether to send it again. Only while the page
 * is visible; a session read is one indexed request.
 */
const CHECKING_POLL_MS = 3000;

type View =
  | { kind: 'loading' }
  | { kind: 'no-token' }
  | { kind: 'expired'; signing: boolean; code: string | null }
  | { kind: 'offline' }
  | { kind: 'error'; error: unknown }
  | { kind: 'ready'; session: Session };

/** The codes of a refused link (src/portal/auth.ts): each has its own text. */
const LINK_REFUSALS: ReadonlySet<string> = new Set([
  'PORTAL_LINK_MISSING',
  'PORTAL_LINK_UNKNOWN',
  'PORTAL_LINK_REVOKED',
  'PORTAL_LINK_EXPIRED',
  'PORTAL_SIGNING_LINK_EXPIRED',
]);

/**
 * What a refused link's page says, from the refusal's code (api-errors.ts's table: withdrawn,
 * never valid, expired, an expired signing link: the server says so, in any tab); any other 401
 * says it no longer works, for whichever reason. A signing link seen in this tab says how to get a
 * new one whatever the code: each visit through the invitation replaces it.
 */
function refusalText(signing: boolean, code: string | null): keyof Messages {
  if (signing) return 'expiredSigningText';
  if (code && LINK_REFUSALS.has(code) && code in API_ERROR_KEYS) {
    return API_ERROR_KEYS[code as keyof typeof API_ERROR_KEYS];
  }
  return 'expiredText';
}

/**
 * Whether this tab's link was seen with a signing step: a refused signing link then says how to get
 * a new one (a new visit through the invitation's link issues it). Kept with the token, per tab.
 */
const SIGNING_KEY = 'vericase.portal.signing';
const remembered = (token: string | null): boolean => {
  try {
    return token !== null && sessionStorage.getItem(SIGNING_KEY) === token;
  } catch {
    return false;
  }
};
const remember = (token: string, signing: boolean) => {
  try {
    if (signing) sessionStorage.setItem(SIGNING_KEY, token);
    else sessionStorage.removeItem(SIGNING_KEY);
  } catch {
    // storage refused: only the generic message then
  }
};

/** Only a plain colour reaches the stylesheet. */
const COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** Only http(s) addresses are followed (a javascript: URL would run in the page). */
function safeRedirect(url: string | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
}

/**
 * The page for the tab's link. Another link opened in the same tab starts over: everything shown
 * belongs to one link's session, so a new token is a new session (its own state, from scratch).
 */
export function App() {
  const token = useLinkToken();
  return <PortalSession key={token ?? ''} token={token} />;
}

function PortalSession({ token }: { token: string | null }) {
  const api = useMemo(() => (token ? new PortalApi(token) : null), [token]);
  const [view, setView] = useState<View>(token ? { kind: 'loading' } : { kind: 'no-token' });
  const [logo, setLogo] = useState<string | null>(null);
  const [status, setStatus] = useState('');

  const session = view.kind === 'ready' ? view.session : null;
  const lang = pickLanguage(LANGUAGES, session?.portal.default_language);
  const i18n = useMemo(() => ({ lang, t: translator(lang) }), [lang]);

  /** A refused link (401: expired, replaced, unknown) or an offline portal (403) ends the page. */
  const fail = useCallback(
    (err: unknown) => {
      if (err instanceof HttpError && err.status === 401) {
        const code = (err.body as { code?: unknown } | null)?.code;
        setView({
          kind: 'expired',
          signing: remembered(token),
          code: typeof code === 'string' ? code : null,
        });
      } else if (err instanceof HttpError && err.status === 403) setView({ kind: 'offline' });
    },
    [token],
  );

  // A session read answers for the moment it was sent. One overtaken by a later read, or by a change
  // made on this page meanwhile (an upload, a removal, a submission: the action it answered replaces
  // its copy at once), would put back what was there before; it is dropped, and in the second case
  // the session is read again.
  const reads = useRef(0);
  const changes = useRef(0);
  const load = useCallback(async (): Promise<void> => {
    if (!api) return;
    const read = ++reads.current;
    const changesBefore = changes.current;
    try {
      const session = await api.session();
      if (read !== reads.current) return;
      if (changes.current !== changesBefore) return load();
      remember(
        api.token,
        session.scope === 'check' && session.actions.some((a) => a.type === 'electronic_signature'),
      );
      setView({ kind: 'ready', session });
    } catch (err) {
      if (read !== reads.current) return;
      if (err instanceof HttpError && (err.status === 401 || err.status === 403)) fail(err);
      else setView({ kind: 'error', error: err });
    }
  }, [api, fail]);

  useEffect(() => {
    void load();
  }, [load]);

  // branding: language, title, accent colour, logo
  const portal = session?.portal;
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  useEffect(() => {
    if (!portal) return;
    document.title = portalName(i18n.t, portal.name);
    if (portal.accent_color && COLOUR.test(portal.accent_color)) {
      const root = document.documentElement.style;
      const { onAccent, accentText } = accentColours(portal.accent_color);
      root.setProperty('--accent', portal.accent_color);
      root.setProperty('--on-accent', onAccent);
      root.setProperty('--accent-text', accentText);
    }
    // the next link's portal may have no colour of its own: this one's does not stay behind
    return () => {
      for (const name of ['--accent', '--on-accent', '--accent-text'])
        document.documentElement.style.removeProperty(name);
    };
  }, [portal, i18n.t]);
  const logoUrl = portal?.logo_url ?? null;
  useEffect(() => {
    if (!api || !logoUrl) return;
    let url: string | null = null;
    api.logo(logoUrl).then(
      (u) => {
        url = u;
        setLogo(u);
      },
      () => setLogo(null),
    );
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [api, logoUrl]);

  // while a step is being checked, read the session again now and then: the result shows in place
  const checking = session?.actions.some((a) => a.checking) ?? false;
  useEffect(() => {
    if (!checking) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void load();
    }, CHECKING_POLL_MS);
    return () => clearInterval(timer);
  }, [checking, load]);

  // a step that was received and came back to be sent again is said aloud (the screen may change
  // from "everything received" back to the checklist under the contact's eyes)
  const states = useRef(new Map<string, Action['state']>());
  useEffect(() => {
    if (!session) return;
    const cameBack = session.actions.filter(
      (a) => !a.signature && a.state === 'retry' && states.current.get(a.id) === 'submitted',
    );
    states.current = new Map(session.actions.map((a) => [a.id, a.state]));
    if (cameBack.length)
      setStatus(cameBack.map((a) => i18n.t('stepCameBack', { what: actionTitle(i18n.t, a) })).join(' '));
  }, [session, i18n]);

  const replaceAction = useCallback((a: Action) => {
    changes.current++;
    setView((v) =>
      v.kind === 'ready'
        ? {
            kind: 'ready',
            session: { ...v.session, actions: v.session.actions.map((x) => (x.id === a.id ? a : x)) },
          }
        : v,
    );
  }, []);

  // a submit can finish the checklist and trigger a wait step: the session says, so read it again
  const onSubmitted = useCallback(
    (a: Action) => {
      replaceAction(a);
      void load();
    },
    [replaceAction, load],
  );

  return (
    <I18n.Provider value={i18n}>
      {portal ? (
        <header className="bar">
          <div className="bar-inner">
            {logo ? (
              <img
                className="logo"
                src={logo}
                alt={i18n.t('logoAlt', { name: portalName(i18n.t, portal.name) })}
              />
            ) : null}
            <span className="portal-name">{portalName(i18n.t, portal.name)}</span>
          </div>
        </header>
      ) : (
        <div className="bar-empty" />
      )}
      <main id="main">
        {view.kind === 'loading' ? <p aria-busy="true">{i18n.t('loading')}</p> : null}
        {view.kind === 'no-token' ? <Notice title="noTokenTitle" text="noTokenText" /> : null}
        {view.kind === 'expired' ? (
          <Notice title="expiredTitle" text={refusalText(view.signing, view.code)} />
        ) : null}
        {view.kind === 'offline' ? <Notice title="offlineTitle" text="offlineText" /> : null}
        {view.kind === 'error' ? <ErrorNotice error={view.error} retry={load} /> : null}
        {view.kind === 'ready' && api ? (
          // the server says whether everything asked was received: a step to send again, a declined
          // signature and one closed by the operator (or signed, then rejected) keep the checklist,
          // which says how each stands (the page once decided here, and missed the closed ones)
          view.session.all_submitted ? (
            <Done api={api} session={view.session} redirect={safeRedirect(view.session.redirect_url)} />
          ) : (
            <Checklist
              api={api}
              session={view.session}
              onAction={replaceAction}
              onSubmitted={onSubmitted}
              onError={fail}
              announce={setStatus}
            />
          )
        ) : null}
        <div className="visually-hidden" role="status" aria-live="polite">
          {status}
        </div>
      </main>
    </I18n.Provider>
  );
}

/** A heading that takes focus when shown, so a screen change is announced and Tab starts there. */
function FocusHeading({ children }: { children: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}

function Notice({ title, text }: { title: keyof Messages; text: keyof Messages }) {
  const { t } = useI18n();
  return (
    <div className="notice" role="alert">
      <FocusHeading>{t(title)}</FocusHeading>
      <p>{t(text)}</p>
    </div>
  );
}

function ErrorNotice({ error, retry }: { error: unknown; retry: () => void }) {
  const { t } = useI18n();
  return (
    <div className="notice" role="alert">
      <FocusHeading>{t('errorTitle')}</FocusHeading>
      <p>{apiErrorText(t, error)}</p>
      <button type="button" className="primary" onClick={retry}>
        {t('retry')}
      </button>
    </div>
  );
}

interface ChecklistProps {
  api: PortalApi;
  session: Session;
  onAction: (a: Action) => void;
  onSubmitted: (a: Action) => void;
  onError: (err: unknown) => void;
  announce: (text: string) => void;
}

/**
 * The checklist's count. Done: given (sent, approved, signed). A signature declined, or closed
 * without the signer, was neither given nor is still asked: it is left out of both numbers (a
 * declined one read "1 of 1 done"). Once nothing asks anything of the contact, the summary says so
 * rather than counting.
 */
function progress(actions: Action[]) {
  const asks = (a: Action) =>
    a.signature ? signatureAsks(a.signature) : a.state === 'todo' || a.state === 'retry';
  const closed = (a: Action) => a.signature?.status === 'declined' || a.signature?.status === 'ended';
  const counted = actions.filter((a) => !closed(a));
  return {
    done: counted.filter((a) => !asks(a)).length,
    total: counted.length,
    asking: actions.some(asks),
  };
}

function Checklist({ api, session, onAction, onSubmitted, onError, announce }: ChecklistProps) {
  const { t, lang } = useI18n();
  const { done, total, asking } = progress(session.actions);
  const expires = new Date(session.expires_at).toLocaleDateString(lang, { dateStyle: 'long' });
  // a list of signatures only sends no file: its intro does not say "each file is saved"
  const signing = session.actions.every((a) => a.signature);
  const company = session.case.company_name;
  const intro = company
    ? t(signing ? 'introSign' : 'intro', { company })
    : t(signing ? 'introSignNoCompany' : 'introNoCompany');
  return (
    <>
      <h1>{t('greeting', { name: session.contact.first_name })}</h1>
      <p className="intro">{intro}</p>
      <div className="summary">
        <h2 id="checklist">{t('checklist')}</h2>
        <span>{asking ? t('progressSummary', { done, total }) : t('progressNothingLeft')}</span>
      </div>
      <ol className="actions" aria-labelledby="checklist">
        {session.actions.map((a) => (
          <ActionCard
            key={a.id}
            api={api}
            action={a}
            onAction={onAction}
            onSubmitted={onSubmitted}
            onError={onError}
            announce={announce}
          />
        ))}
      </ol>
      <p className="hint expires">{t('expiresOn', { date: expires })}</p>
    </>
  );
}

function Done({ api, session, redirect }: { api: PortalApi; session: Session; redirect: string | null }) {
  const { t, lang } = useI18n();
  // the checklist is gone: the signed documents stay downloadable here (docs/electronic-signature.md)
  const signed = session.actions.filter(
    (a) => a.signature?.status === 'signed' && a.signature.signed_document_url,
  );
  const details = signedDocumentDetails(signed, lang);
  return (
    <div className="done">
      <div className="done-mark" aria-hidden="true">
        ✓
      </div>
      <FocusHeading>{t('doneTitle')}</FocusHeading>
      <p>{t('doneText', { name: session.contact.first_name })}</p>
      {session.actions.some((a) => a.checking) ? <p className="hint checking">{t('doneChecking')}</p> : null}
      {signed.map((a) => (
        <SignedDocumentDownload key={a.id} api={api} action={a} detail={details.get(a.id)} />
      ))}
      {session.wait_step ? (
        <div className="waiting">
          <h2>{t('reviewing', { title: session.wait_step.title })}</h2>
          <p>{t('reviewingText')}</p>
        </div>
      ) : null}
      {redirect ? (
        <div className="redirect">
          <p>{t('redirectText')}</p>
          <a className="button primary" href={redirect} rel="noreferrer">
            {t('continue')}
          </a>
        </div>
      ) : null}
    </div>
  );
}
