/**
 * The case's risk: level, score, comment, and (for writers) a new assessment through
 * POST /v1/cases/{id}/risks. The server refuses it when the workspace computes risk itself; its
 * message is shown.
 */
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client.ts';
import { Dialog, DialogActions } from './Dialog.tsx';
import { formatDateTime, useCaseT } from './i18n.ts';
import type { CaseDetailed, RiskLevel } from './types.ts';
import { useCaseWrite } from './use-case-write.ts';

const LEVELS: RiskLevel[] = ['not_defined', 'low', 'medium', 'high', 'critical', 'prohibited'];

export function RiskBox(props: {
  caseId: string;
  risk: CaseDetailed['risk'];
  canWrite: boolean;
  onChanged: () => void;
}) {
  const t = useCaseT();
  const [open, setOpen] = useState(false);
  // nothing chosen for a case with no risk yet: Save without a choice would record a level nobody
  // picked (Low moves the next review years away); the current level otherwise
  const [level, setLevel] = useState<RiskLevel | ''>(props.risk?.level ?? '');
  const [comment, setComment] = useState('');
  // Save with no level: said under the field in the console's words (the browser's bubble, in its
  // own language, went by; the walk read it as "Save does nothing")
  const [noLevel, setNoLevel] = useState(false);
  const write = useCaseWrite();
  const risk = props.risk;

  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    const sent = await write.send(() =>
      api.POST('/v1/cases/{id}/risks', {
        params: { path: { id: props.caseId } },
        body: { level: level as RiskLevel, comment: comment.trim() || null },
      }),
    );
    if (!sent) return;
    setOpen(false);
    setComment('');
    props.onChanged();
  };

  return (
    <div className="case-box" data-testid="case-risk">
      <h2>{t('case.risk.title')}</h2>
      {risk ? (
        <>
          <p>
            <span className={`case-risk is-${risk.level}`}>{t(`case.risk.${risk.level}`)}</span>
            {risk.score !== null ? (
              <span className="case-muted"> · {t('case.risk.score', { score: risk.score })}</span>
            ) : null}
          </p>
          {risk.comment ? <blockquote>{risk.comment}</blockquote> : null}
          <p className="case-muted">{formatDateTime(risk.updated_at)}</p>
        </>
      ) : (
        <p className="case-muted">{t('case.risk.none')}</p>
      )}
      {props.canWrite ? (
        <button
          type="button"
          className="case-button"
          onClick={() => {
            setNoLevel(false);
            setOpen(true);
          }}
        >
          {t('case.risk.set')}
        </button>
      ) : null}
      <Dialog title={t('case.risk.set')} open={open} onClose={() => setOpen(false)}>
        <form onSubmit={submit} className="case-form">
          <label>
            {t('case.risk.level')}
            <select
              required
              value={level}
              aria-invalid={noLevel || undefined}
              aria-describedby={noLevel ? 'case-risk-no-level' : undefined}
              onInvalid={(e) => {
                e.preventDefault();
                setNoLevel(true);
                e.currentTarget.focus();
              }}
              onChange={(e) => {
                setNoLevel(false);
                setLevel(e.target.value as RiskLevel);
              }}
            >
              <option value="" disabled>
                {t('case.risk.choose')}
              </option>
              {LEVELS.map((l) => (
                <option key={l} value={l}>
                  {t(`case.risk.${l}`)}
                </option>
              ))}
            </select>
          </label>
          {noLevel ? (
            <p role="alert" className="case-error" id="case-risk-no-level">
              {t('case.risk.chooseFirst')}
            </p>
          ) : null}
          <label>
            {t('case.risk.comment')}
            <textarea value={comment} onChange={(e) => setComment(e.target.value)} rows={3} />
          </label>
          <DialogActions
            error={write.error}
            busy={write.busy}
            cancelLabel={t('case.cancel')}
            submitLabel={t('case.save')}
            onCancel={() => setOpen(false)}
          />
        </form>
      </Dialog>
    </div>
  );
}
