/** Asks for the case report (a PDF made in the background); it then lists with the case's documents. */
import { useState } from 'react';
import { api, unwrap } from '../../api/client.ts';
import { useAction, useActT } from '../act-i18n.ts';

/** The browser's IANA time zone (`Europe/Paris`), or undefined when it gives none. */
function browserZone(): string | undefined {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
}

export function CaseReportButton(props: { caseId: string }) {
  const t = useActT();
  const { busy, error, run } = useAction();
  const [requested, setRequested] = useState(false);
  return (
    <>
      <button
        type="button"
        disabled={busy}
        onClick={() =>
          void run(async () => {
            unwrap(
              await api.POST('/v1/cases/{id}/generate-report', {
                params: { path: { id: props.caseId } },
                // in the zone the console shows every time in (the browser's), not the API's default
                body: browserZone() ? { timezone: browserZone() } : {},
              }),
            );
            setRequested(true);
          })
        }
      >
        {t('report.button')}
      </button>
      {requested ? (
        <span role="status" className="muted small">
          {t('report.requested')}
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
