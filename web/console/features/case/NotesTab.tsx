/**
 * The case's notes with their comments (GET /v1/cases/{id}/notes), a note to add (POST /v1/notes)
 * and a comment under each note (POST /v1/notes/{id}/comments). What is typed here is plain text:
 * it is sent HTML-escaped (the API takes HTML), so `<b>` or `a<b` is stored and shown as typed; the
 * server turns its line breaks into `<br />` and bare URLs into links. A workspace user chosen after
 * `@` is sent as the API's mention of that user (MentionTextarea.tsx, mentions.ts).
 */
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { api } from '../../api/client.ts';
import { workspaceUsers } from '../../api/users.ts';
import { useDraft } from '../../shared/draft.ts';
import { formatDateTime, problemMessage, useCaseT } from './i18n.ts';
import { MentionTextarea } from './MentionTextarea.tsx';
import { type MentionUser, textToHtml } from './mentions.ts';
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
  // who can be mentioned: the workspace's active users, read once (none offered if they cannot be read)
  const [users, setUsers] = useState<MentionUser[]>([]);
  useEffect(() => {
    if (!props.canWrite) return;
    let live = true;
    workspaceUsers(false).then(
      (all) => live && setUsers(all),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [props.canWrite]);

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
          draftKey={`note:${props.caseId}`}
          label={t('case.notes.new')}
          submitLabel={t('case.notes.add')}
          users={users}
          send={async (content) => {
            const res = await api.POST('/v1/notes', {
              body: { case_id: props.caseId, content },
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
                draftKey={`comment:${n.id}`}
                label={t('case.notes.newComment')}
                submitLabel={t('case.notes.comment')}
                small
                users={users}
                send={async (content) => {
                  const res = await api.POST('/v1/notes/{id}/comments', {
                    params: { path: { id: n.id } },
                    body: { content },
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

function Byline({ author, at }: { author: string; at: string }) {
  return (
    <p className="case-byline">
      <strong>{author}</strong> <time dateTime={at}>{formatDateTime(at)}</time>
    </p>
  );
}

function Composer(props: {
  /** Where its draft is kept across the case's tabs (draft.ts). */
  draftKey: string;
  label: string;
  submitLabel: string;
  small?: boolean;
  users: MentionUser[];
  /** Sends the content as HTML; answers the problem to show, or null once stored. */
  send: (content: string) => Promise<string | null>;
}) {
  const [{ text, mentions }, setDraft] = useDraft(props.draftKey);
  const boxId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    const problem = await props.send(textToHtml(text, mentions));
    setBusy(false);
    setError(problem);
    if (!problem) setDraft({ text: '', mentions: [] });
  };
  return (
    <form onSubmit={submit} className={props.small ? 'case-composer is-small' : 'case-composer'}>
      {/* the label points at the box (htmlFor), not around it: the user list beside the box is no
          part of its name */}
      <div className="case-composer-field">
        <label htmlFor={boxId} className={props.small ? 'case-visually-hidden' : undefined}>
          {props.label}
        </label>
        <MentionTextarea
          id={boxId}
          value={text}
          mentions={mentions}
          users={props.users}
          onChange={(value, chosen) => setDraft({ text: value, mentions: chosen })}
          rows={props.small ? 2 : 3}
          placeholder={props.small ? props.label : undefined}
        />
      </div>
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
