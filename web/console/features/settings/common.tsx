/**
 * Pieces every workspace settings page uses: the API's response shapes, loading a resource with
 * its error, the error note, a modal dialog, the pager, a confirmation button, a secret shown once.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { paths } from '../../api/schema';
import { shownTotal } from '../../api/totals.ts';
import { type DialogProps, ModalDialog } from '../../shared/Dialog.tsx';
import { useLang } from '../../shell/i18n.tsx';
import { useFieldLabel } from '../field-label.ts';
import { knownRefusal } from '../known-refusals.ts';
import { type SettingsT, useSettingsT } from './i18n.ts';

/** The JSON body of a 200 (or 201) answer of `M` on path `P`. */
export type Json<P extends keyof paths, M extends 'get' | 'post' | 'patch' = 'get'> = paths[P] extends {
  [K in M]: { responses: infer R };
}
  ? R extends { 200: { content: { 'application/json': infer T } } }
    ? T
    : R extends { 201: { content: { 'application/json': infer T } } }
      ? T
      : never
  : never;

/** The JSON request body of `M` on path `P`. */
export type Body<P extends keyof paths, M extends 'post' | 'patch'> = paths[P] extends {
  [K in M]: { requestBody?: { content: { 'application/json': infer B } } };
}
  ? B
  : never;

/** The query parameters of GET on path `P`. */
export type Query<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? NonNullable<Q>
  : never;

export type Pagination = { page: number; limit: number; count: number; count_estimated?: boolean };

/** What an openapi-fetch call answers, as far as these pages read it. */
export type Answer<T> = { data?: T; error?: unknown; response: Response };

export class RequestFailed extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** The server's message of a failed answer (the error body's `message`, with its fields). */
export function failure(res: Answer<unknown>): RequestFailed {
  const body = res.error as { message?: string; details?: { path?: string; message?: string }[] } | undefined;
  const main = body?.message ?? res.response.statusText;
  // details name each refused field; the ones the message already says are left out
  const details = (body?.details ?? [])
    // a detail that only repeats the message (a taken e-mail) is said once
    .filter((d) => !d.message || !main.includes(d.message))
    .map((d) =>
      d.message?.includes(d.path ?? '') ? d.message : [d.path, d.message].filter(Boolean).join(': '),
    )
    .filter((d): d is string => Boolean(d) && !main.includes(d as string));
  const message = [main, ...details].filter(Boolean).join(' — ');
  return new RequestFailed(res.response.status, message);
}

/** The body of a successful answer, or throws the server's message. */
export function ok<T>(res: Answer<T>): T {
  if (res.error !== undefined || !res.response.ok) throw failure(res);
  return res.data as T;
}

/** Loads with `fn` now and on `reload()`; `deps` restart it. */
export function useLoad<T>(fn: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<RequestFailed | null>(null);
  const [version, setVersion] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller lists what fn reads; version reloads
  const load = useCallback(fn, [...deps, version]);
  useEffect(() => {
    let live = true;
    load().then(
      (d) => {
        if (!live) return;
        setData(d);
        setError(null);
      },
      (e: unknown) => {
        if (!live) return;
        setError(e instanceof RequestFailed ? e : new RequestFailed(0, String((e as Error)?.message ?? e)));
      },
    );
    return () => {
      live = false;
    };
  }, [load]);
  return { data, error, reload: () => setVersion((v) => v + 1) };
}

/**
 * The page of a list shown under `filters`: 1 again whenever a filter changes, whoever changes it
 * (the page's own controls or another component's, like a webhook row's Deliveries button), so a
 * narrower list never opens on a page past its end. The page is kept with the filters it was chosen
 * under: no effect, no extra load of the old page.
 */
export function usePage(...filters: unknown[]): [number, (page: number) => void] {
  const key = JSON.stringify(filters);
  const [chosen, setChosen] = useState({ key, page: 1 });
  const setPage = useCallback((page: number) => setChosen({ key, page }), [key]);
  return [chosen.key === key ? chosen.page : 1, setPage];
}

/** Runs a write, keeping its error and whether it is under way. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async (fn: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      return true;
    } catch (e) {
      setError((e as Error).message || String(e));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(null) };
}

export function ErrorNote({ message: given }: { message: string | null | undefined }) {
  const { lang } = useLang();
  const label = useFieldLabel();
  if (!given) return null;
  const message = knownRefusal(given, lang, label) ?? given;
  // a template's syntax error quotes the line with a caret under the fault: in a monospaced block,
  // lines kept, or the caret points nowhere
  const quotesCode = /\n-*\^/.test(message);
  return (
    <p className={quotesCode ? 'settings-error is-code' : 'settings-error'} role="alert">
      {message}
    </p>
  );
}

/** A load failure: 403 says the role, others the server's message. */
export function LoadFailed({ error, t }: { error: RequestFailed; t: SettingsT }) {
  return (
    <p className="settings-error" role="alert">
      {error.status === 403 ? t('settings.forbidden') : t('settings.loadFailed', { message: error.message })}
    </p>
  );
}

export function Loading() {
  const t = useSettingsT();
  return <p className="settings-muted">{t('settings.loading')}</p>;
}

/**
 * A load's state above what it loaded: its failure, or "Loading…" until the first answer. A reload
 * keeps the data shown: nothing is said while it runs.
 */
export function LoadState({
  load,
  t,
}: {
  load: { data: unknown; error: RequestFailed | null };
  t: SettingsT;
}) {
  return (
    <>
      {load.error ? <LoadFailed error={load.error} t={t} /> : null}
      {!load.data && !load.error ? <Loading /> : null}
    </>
  );
}

/**
 * The settings pages' modal dialog (see ModalDialog): the settings look, and a title id of its own
 * for each dialog (a page holds several: its form's and each row's ConfirmButton). `wide`: a form
 * whose content needs more than the usual width (the webhook form's two columns of event names).
 */
export function Dialog(props: DialogProps & { wide?: boolean }) {
  const { wide, ...rest } = props;
  const titleId = useRef(`settings-dialog-${Math.random().toString(36).slice(2)}`).current;
  return (
    <ModalDialog {...rest} className={wide ? 'settings-dialog wide' : 'settings-dialog'} titleId={titleId} />
  );
}

/** Previous / next over a paginated list. */
export function Pager({
  pagination,
  onPage,
}: {
  pagination: Pagination | undefined;
  onPage: (p: number) => void;
}) {
  const t = useSettingsT();
  const pages = pagination ? Math.max(1, Math.ceil(pagination.count / pagination.limit)) : 1;
  // the list shrank under its last page (its last row suspended, revoked, archived or deleted):
  // back to the new last page rather than an empty one with no way back
  const past = pagination !== undefined && pagination.page > pages;
  useEffect(() => {
    if (past) onPage(pages);
  }, [past, pages, onPage]);
  if (!pagination) return null;
  const count = shownTotal(pagination.count, pagination.count_estimated);
  if (pages <= 1) return <p className="settings-muted">{t('settings.total', { count })}</p>;
  return (
    <nav className="settings-pager" aria-label={t('settings.pages')}>
      <button type="button" disabled={pagination.page <= 1} onClick={() => onPage(pagination.page - 1)}>
        {t('settings.previous')}
      </button>
      <span>{t('settings.pageOf', { page: pagination.page, pages, count })}</span>
      <button type="button" disabled={pagination.page >= pages} onClick={() => onPage(pagination.page + 1)}>
        {t('settings.next')}
      </button>
    </nav>
  );
}

/** A button that asks in a dialog before running `action`. */
export function ConfirmButton(props: {
  label: string;
  title: string;
  question: string;
  confirm: string;
  danger?: boolean;
  action: () => Promise<unknown>;
  onDone: () => void;
}) {
  const t = useSettingsT();
  const [open, setOpen] = useState(false);
  const act = useAction();
  return (
    <>
      <button type="button" className={props.danger ? 'danger' : undefined} onClick={() => setOpen(true)}>
        {props.label}
      </button>
      <Dialog title={props.title} open={open} onClose={() => setOpen(false)}>
        <p>{props.question}</p>
        <ErrorNote message={act.error} />
        <div className="settings-actions">
          <button type="button" onClick={() => setOpen(false)}>
            {t('settings.cancel')}
          </button>
          <button
            type="button"
            className={props.danger ? 'danger' : 'primary'}
            disabled={act.busy}
            onClick={async () => {
              if (await act.run(props.action)) {
                setOpen(false);
                props.onDone();
              }
            }}
          >
            {props.confirm}
          </button>
        </div>
      </Dialog>
    </>
  );
}

/** A secret answered once (a new API key, a generated password): shown with a copy button. */
export function OnceSecret({ label, value, note }: { label: string; value: string; note: string }) {
  const t = useSettingsT();
  const [copied, setCopied] = useState(false);
  return (
    <div className="settings-secret">
      <label>
        {label}
        <input readOnly value={value} onFocus={(e) => e.currentTarget.select()} data-testid="once-secret" />
      </label>
      <button
        type="button"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(value);
            setCopied(true);
          } catch {
            setCopied(false);
          }
        }}
      >
        {copied ? t('settings.copied') : t('settings.copy')}
      </button>
      <p className="settings-warning">{note}</p>
    </div>
  );
}

export function formatDateTime(
  iso: string | null | undefined,
  lang: string,
  /** With seconds (the audit log, whose entries are told apart by them). */
  seconds = false,
): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(lang === 'fr' ? 'fr-FR' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: seconds ? 'medium' : 'short',
  });
}

export function userLabel(
  u: { first_name?: string | null; last_name?: string | null; email?: string | null } | null | undefined,
): string {
  if (!u) return '—';
  return [u.first_name, u.last_name].filter(Boolean).join(' ') || u.email || '—';
}
