/** Asks for the case report (a PDF made in the background) and says when it is ready. */
import { useEffect, useRef, useState } from 'react';
import { api, unwrap } from '../../api/client.ts';
import { useAction, useActT } from '../act-i18n.ts';

/** The browser's IANA time zone (`Europe/Paris`), or undefined when it gives none. */
function browserZone(): string | undefined {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
}

/** How often, and how many times, the case's reports are counted again after a request. */
const POLL_MS = 2000;
const POLLS = 90;

/** The case's reports, counted (null when the list could not be read). */
async function reportCount(caseId: string): Promise<number | null> {
  const res = await api.GET('/v1/cases/{id}/documents', {
    params: { path: { id: caseId }, query: { type: 'case_report' } },
  });
  return res.data ? res.data.data.length : null;
}

export function CaseReportButton(props: {
  caseId: string;
  /** The report is ready: the documents list is read again, and "Open" shows it. */
  onReady?: () => void;
  onOpen?: () => void;
}) {
  const t = useActT();
  const { busy, error, run } = useAction();
  // requested → waiting for the report; ready → it is in the documents; slow → still not after the polls
  const [state, setState] = useState<'idle' | 'requested' | 'ready' | 'slow'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const { onReady } = props;

  const waitFor = (before: number, left: number) => {
    timer.current = setTimeout(async () => {
      const now = await reportCount(props.caseId);
      if (now !== null && now > before) {
        setState('ready');
        onReady?.();
      } else if (left <= 1) setState('slow');
      else waitFor(before, left - 1);
    }, POLL_MS);
  };

  return (
    <>
      <button
        type="button"
        disabled={busy}
        onClick={() =>
          void run(async () => {
            if (timer.current) clearTimeout(timer.current);
            const before = (await reportCount(props.caseId)) ?? 0;
            unwrap(
              await api.POST('/v1/cases/{id}/generate-report', {
                params: { path: { id: props.caseId } },
                // in the zone the console shows every time in (the browser's), not the API's default
                body: browserZone() ? { timezone: browserZone() } : {},
              }),
            );
            setState('requested');
            waitFor(before, POLLS);
          })
        }
      >
        {t('report.button')}
      </button>
      {state === 'requested' || state === 'slow' ? (
        <span role="status" className="muted small" data-testid="case-report-status">
          {t(state === 'requested' ? 'report.requested' : 'report.slow')}
        </span>
      ) : null}
      {state === 'ready' ? (
        <span role="status" className="muted small" data-testid="case-report-status">
          {t('report.ready')}{' '}
          {props.onOpen ? (
            <button type="button" className="case-link" onClick={props.onOpen}>
              {t('report.open')}
            </button>
          ) : null}
        </span>
      ) : null}
      {error ? (
        <span role="alert" className="error small">
          {t('act.failed', { message: error })}
        </span>
      ) : null}
    </>
  );
}
