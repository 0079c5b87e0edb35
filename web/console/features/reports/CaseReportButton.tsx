/** Asks for the case report (a PDF made in the background); it then lists with the case's documents. */
import { useState } from 'react';
import { api, unwrap } from '../../api/client.ts';
import { useAction, useActT } from '../act-i18n.ts';

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
                body: {},
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
