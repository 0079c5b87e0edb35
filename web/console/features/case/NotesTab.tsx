/**
 * The case's notes with their comments (GET /v1/cases/{id}/notes), a note to add (POST /v1/notes)
 * and a comment under each note (POST /v1/notes/{id}/comments). What is typed here is plain text:
 * it is sent HTML-escaped (the API takes HTML), so `<b>` or `a<b` is stored and shown as typed; the
 * server turns its line breaks into `<br />` and bare URLs into links.
 */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { api } from '../../api/client.ts';
import { formatDateTime, problemMessage, useCaseT } from './i18n.ts';
import { RichText } from './RichText.tsx';
import { type NoteOut, userName } from './types.ts';

export function NotesTab(props: {
  caseId: string;
  canWrite: boolean;
  version: number;
  onChanged: () => void;
}) {
  const t = useCaseT();
  const [notes, setNotes] = useState<NoteOut[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    // a case holds at most 25 notes (src/notes/schemas.ts): one page of 100 has them all
    const res = await api.GET('/v1/cases/{id}/notes', {
      params: { path: { id: props.caseId }, query: { limit: 100, sort: 'created_at.desc' } },
    });
    if (res.error) setError(problemMessage(res.error, t));
    else setNotes(res.data.data);
  }, [props.caseId, t]);

  useEffect(() => {
    void props.version;
    void load();
  }, [load, props.version]);

  return (
    <div className="case-notes" data-testid="case-notes">
      {props.canWrite ? (
        <Composer
          label={t('case.notes.new')}
          submitLabel={t('case.notes.add')}
          send={async (content) => {
            const res = await api.POST('/v1/notes', {
              body: { case_id: props.caseId, content: plainTextToHtml(content) },
            });
            if (res.error) return problemMessage(res.error, t);
            await load();
            return null;
          }}
        />
      ) : null}
      {error ? (
        <p role="alert" className="case-error">
          {error}
        </p>
      ) : null}
      {notes === null ? <p>{t('case.loading')}</p> : null}
      {notes?.length === 0 ? <p className="case-muted">{t('case.notes.none')}</p> : null}
      <ol className="case-note-list">
        {notes?.map((n) => (
          <li key={n.id} className="case-note">
            <Byline author={userName(n.author) ?? t(`case.actor.${n.author_type}`)} at={n.created_at} />
            <RichText html={n.content} />
            {n.comments.length ? (
              <ol className="case-comments" aria-label={t('case.notes.comments')}>
                {n.comments.map((c) => (
                  <li key={c.id}>
                    <Byline
                      author={userName(c.author) ?? t(`case.actor.${c.author_type}`)}
                      at={c.created_at}
                    />
                    <RichText html={c.content} />
                  </li>
                ))}
              </ol>
            ) : null}
            {props.canWrite ? (
              <Composer
                label={t('case.notes.newComment')}
                submitLabel={t('case.notes.comment')}
                small
                send={async (content) => {
                  const res = await api.POST('/v1/notes/{id}/comments', {
                    params: { path: { id: n.id } },
                    body: { content: plainTextToHtml(content) },
                  });
                  if (res.error) return problemMessage(res.error, t);
                  await load();
                  return null;
                }}
              />
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}

/**
 * Plain text as HTML that reads the same: `&`, `<`, `>` and quotes escaped. Line breaks are left for
 * the server, which turns them into `<br />` (src/notes/content.ts).
 */
export function plainTextToHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function Byline({ author, at }: { author: string; at: string }) {
  return (
    <p className="case-byline">
      <strong>{author}</strong> <time dateTime={at}>{formatDateTime(at)}</time>
    </p>
  );
}

function Composer(props: {
  label: string;
  submitLabel: string;
  small?: boolean;
  send: (content: string) => Promise<string | null>;
}) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    const problem = await props.send(text);
    setBusy(false);
    setError(problem);
    if (!problem) setText('');
  };
  return (
    <form onSubmit={submit} className={props.small ? 'case-composer is-small' : 'case-composer'}>
      <label>
        <span className={props.small ? 'case-visually-hidden' : undefined}>{props.label}</span>
        <textarea
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={props.small ? 2 : 3}
          placeholder={props.small ? props.label : undefined}
        />
      </label>
      <button type="submit" className="case-button" disabled={busy || !text.trim()}>
        {props.submitLabel}
      </button>
      {error ? (
        <p role="alert" className="case-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}
