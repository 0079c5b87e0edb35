/**
 * The case's tags: each removable, and a field to add one (an existing workspace tag, suggested from
 * GET /v1/tags, or a new label, which the server creates).
 */
import { type FormEvent, useEffect, useState } from 'react';
import { api } from '../../api/client.ts';
import { useCaseT } from './i18n.ts';
import { useCaseWrite } from './use-case-write.ts';

export function TagsBox(props: { caseId: string; tags: string[]; canWrite: boolean; onChanged: () => void }) {
  const t = useCaseT();
  const [label, setLabel] = useState('');
  const [known, setKnown] = useState<string[]>([]);
  const { busy, error, send } = useCaseWrite();

  useEffect(() => {
    if (!props.canWrite) return;
    void api.GET('/v1/tags', { params: { query: { limit: 100 } } }).then((res) => {
      if (res.data) setKnown(res.data.data.map((x) => x.label));
    });
  }, [props.canWrite]);

  const change = async (method: 'POST' | 'DELETE', tags: string[]) => {
    const opts = { params: { path: { id: props.caseId } }, body: { tags } };
    const sent = await send(() =>
      method === 'POST' ? api.POST('/v1/cases/{id}/tags', opts) : api.DELETE('/v1/cases/{id}/tags', opts),
    );
    if (!sent) return false;
    props.onChanged();
    return true;
  };

  const add = async (ev: FormEvent) => {
    ev.preventDefault();
    const value = label.trim();
    if (!value) return;
    if (await change('POST', [value])) setLabel('');
  };

  return (
    <div className="case-box" data-testid="case-tags">
      <h2>{t('case.tags.title')}</h2>
      {props.tags.length === 0 ? <p className="case-muted">{t('case.tags.none')}</p> : null}
      <ul className="case-tags">
        {props.tags.map((tag) => (
          <li key={tag} className="case-tag">
            {tag}
            {props.canWrite ? (
              <button
                type="button"
                className="case-tag-remove"
                aria-label={t('case.tags.remove', { tag })}
                disabled={busy}
                onClick={() => void change('DELETE', [tag])}
              >
                ×
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {props.canWrite ? (
        <form onSubmit={add} className="case-inline-form">
          <label>
            <span className="case-visually-hidden">{t('case.tags.add')}</span>
            <input
              value={label}
              onChange={(e) => setLabel(e.target.value)}
              list="case-known-tags"
              maxLength={100}
              placeholder={t('case.tags.placeholder')}
            />
          </label>
          <datalist id="case-known-tags">
            {known
              .filter((k) => !props.tags.includes(k))
              .map((k) => (
                <option key={k} value={k} />
              ))}
          </datalist>
          <button type="submit" className="case-button" disabled={busy || !label.trim()}>
            {t('case.tags.add')}
          </button>
        </form>
      ) : null}
      {error ? (
        <p role="alert" className="case-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
