/**
 * One check in full: its status and result per type (AML hits side by side with the screened person,
 * to confirm or ignore; eKYC decision and fraud signals; ID document verdicts), everything else in
 * its data, and the review (approve / reject, or override a decided one) with a comment.
 */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { api, consoleCall, unwrap } from '../../api/client.ts';
import { useFormatDate } from '../../shell/i18n.tsx';
import { useCanWrite } from '../../shell/session.tsx';
import { useAction, useActT } from '../act-i18n.ts';

type Envelope = { id: string; type: string; status: string };
type Json = Record<string, unknown>;

/** The check's own endpoint (the type's path), read with its data. */
function readCheck(type: string, id: string): Promise<Json> {
  return consoleCall<Json>('GET', `/v1/checks/${encodeURIComponent(type)}/${encodeURIComponent(id)}`);
}

function Value({ v }: { v: unknown }) {
  if (v === null || v === undefined || v === '') return <span className="muted">—</span>;
  if (Array.isArray(v))
    return <>{v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(', ')}</>;
  if (typeof v === 'object') return <>{JSON.stringify(v)}</>;
  return <>{String(v)}</>;
}

/** A flat view of an object's plain fields. */
function Facts({ data, keys }: { data: Json | null | undefined; keys?: string[] }) {
  if (!data) return null;
  const entries = Object.entries(data).filter(([k, v]) =>
    keys ? keys.includes(k) : typeof v !== 'object' || v === null,
  );
  return (
    <dl className="facts">
      {entries.map(([k, v]) => (
        <div key={k}>
          <dt>{k.replace(/_/g, ' ')}</dt>
          <dd>
            <Value v={v} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function AmlHits({ check, onChanged }: { check: Json; onChanged: () => void }) {
  const t = useActT();
  const canWrite = useCanWrite();
  const data = check.data as { hits?: Json[]; subject?: Json | null };
  const hits = data.hits ?? [];
  const { busy, error, run } = useAction();
  const review = (hitId: string, action: 'confirm' | 'ignore') =>
    run(async () => {
      unwrap(
        await api.PATCH('/v1/checks/aml/{id}/hits/review', {
          params: { path: { id: check.id as string } },
          body: { action, hit_ids: [hitId] },
        }),
      );
      onChanged();
    });
  if (!hits.length) return <p className="muted">{t('check.noHits')}</p>;
  return (
    <section aria-label={t('check.hits', { count: hits.length })}>
      <h4>{t('check.hits', { count: hits.length })}</h4>
      {error ? (
        <p className="error" role="alert">
          {t('act.failed', { message: error })}
        </p>
      ) : null}
      {hits.map((h) => (
        <div key={h.id as string} className="hit">
          <div className="hit-side">
            <h5>{t('check.subject')}</h5>
            <Facts data={data.subject ?? null} />
          </div>
          <div className="hit-side">
            <h5>
              {t('check.listed')}: {String(h.name)}{' '}
              <span className="muted small">{t('check.score', { score: Number(h.score).toFixed(2) })}</span>
            </h5>
            <Facts data={h.entity as Json} />
            <p className="small">
              {(h.list_types as string[]).join(', ')} · {t('check.hitStatus', { status: String(h.status) })}
            </p>
            {canWrite ? (
              <div className="act-buttons">
                <button type="button" disabled={busy} onClick={() => void review(h.id as string, 'confirm')}>
                  {t('check.confirm')}
                </button>
                <button type="button" disabled={busy} onClick={() => void review(h.id as string, 'ignore')}>
                  {t('check.ignore')}
                </button>
              </div>
            ) : null}
          </div>
        </div>
      ))}
    </section>
  );
}

function TypeResult({ check, onChanged }: { check: Json; onChanged: () => void }) {
  const data = (check.data ?? {}) as Json;
  switch (check.type) {
    case 'aml':
      return <AmlHits check={check} onChanged={onChanged} />;
    case 'ekyc':
      return <Facts data={data.vendor as Json | undefined} />;
    default:
      return <Facts data={data} />;
  }
}

function ReviewForm({ check, onChanged }: { check: Json; onChanged: () => void }) {
  const t = useActT();
  const [comment, setComment] = useState('');
  const [override, setOverride] = useState(false);
  const { busy, error, run } = useAction();
  const decided = check.status === 'approved' || check.status === 'rejected';
  const submitWith = (action: 'approve' | 'reject') => (e?: FormEvent) => {
    e?.preventDefault();
    void run(async () => {
      await consoleCall('PATCH', `/v1/checks/${check.type}/${check.id}/review`, {
        action,
        comment: comment || null,
        ...(decided ? { override: true } : {}),
      });
      setComment('');
      onChanged();
    });
  };
  if (decided && !override) {
    return (
      <label className="inline">
        <input type="checkbox" checked={override} onChange={(e) => setOverride(e.target.checked)} />{' '}
        {t('check.override')}
      </label>
    );
  }
  return (
    <form className="act-form review" onSubmit={submitWith('approve')} aria-label={t('check.review')}>
      <label>
        {t('check.comment')}
        <textarea value={comment} onChange={(e) => setComment(e.target.value)} rows={2} />
      </label>
      {error ? (
        <p className="error" role="alert">
          {t('act.failed', { message: error })}
        </p>
      ) : null}
      <div className="act-buttons">
        <button type="submit" className="primary" disabled={busy}>
          {t('check.approve')}
        </button>
        <button type="button" className="danger" disabled={busy} onClick={() => submitWith('reject')()}>
          {t('check.reject')}
        </button>
      </div>
    </form>
  );
}

export function CheckPanel(props: {
  caseId: string;
  check: Envelope;
  entityName: string;
  onChanged: () => void;
}) {
  const t = useActT();
  const formatDate = useFormatDate();
  const canWrite = useCanWrite();
  const [full, setFull] = useState<Json | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    readCheck(props.check.type, props.check.id).then(setFull, (e: Error) => setError(e.message));
  }, [props.check.type, props.check.id]);
  useEffect(load, [load]);
  const changed = () => {
    load();
    props.onChanged();
  };
  if (error) return <p className="error">{error}</p>;
  if (!full) return <p className="muted">…</p>;
  const review = ((full.data as Json | undefined)?.review ?? null) as Json | null;
  const reviewer = review?.user as { email?: string } | null | undefined;
  return (
    <section className="check-panel" aria-label={`${props.check.type} · ${props.entityName}`}>
      <Facts
        data={{
          [t('check.status')]: full.status,
          [t('check.result')]: (full.data as Json | undefined)?.result,
        }}
      />
      <TypeResult check={full} onChanged={changed} />
      {review?.reviewed_at ? (
        <p className="small muted">
          {t('check.reviewed', {
            who: reviewer?.email ?? String(review.reviewer_type ?? ''),
            when: formatDate(review.reviewed_at as string),
          })}
          {review.comment ? ` — ${String(review.comment)}` : ''}
        </p>
      ) : null}
      {canWrite && full.type !== 'company_monitoring' ? (
        <ReviewForm check={full} onChanged={changed} />
      ) : null}
      <details>
        <summary>{t('check.details')}</summary>
        <pre className="json">{JSON.stringify(full.data, null, 2)}</pre>
      </details>
    </section>
  );
}
