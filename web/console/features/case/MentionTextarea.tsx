/**
 * A note's or comment's text box that can mention a workspace user: typing `@` then letters lists
 * the active users whose name or e-mail begins so (a listbox under the box: arrow keys move, Enter or
 * a click inserts `@First Last`, Escape closes it until the query changes). The box stays a plain textarea, so typing, pasting
 * and undo behave as everywhere; who each inserted name points at is kept beside it (mentions.ts).
 */
import { type KeyboardEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import { useCaseT } from './i18n.ts';
import { type Mention, type MentionUser, matchingUsers, mentionQuery } from './mentions.ts';

export function MentionTextarea(props: {
  id: string;
  value: string;
  onChange: (value: string, mentions: Mention[]) => void;
  mentions: Mention[];
  users: MentionUser[];
  rows: number;
  placeholder?: string;
}) {
  const t = useCaseT();
  const listId = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  // the query whose list Escape closed (its `@` position and text): typing on opens it again
  const [dismissed, setDismissed] = useState<string | null>(null);
  // where the caret goes once an inserted name is in the box: set as the DOM is written, before the
  // next key is handled (a frame later, keys typed meanwhile landed before it: "hankst")
  const pendingCaret = useRef<number | null>(null);
  useLayoutEffect(() => {
    const at = pendingCaret.current;
    if (at === null || !box.current) return;
    pendingCaret.current = null;
    box.current.focus();
    box.current.setSelectionRange(at, at);
  });

  const found = mentionQuery(props.value, caret);
  const key = found ? `${found.at}:${found.query}` : null;
  const options = found && key !== dismissed ? matchingUsers(props.users, found.query) : [];
  const open = options.length > 0;
  const current = Math.min(active, options.length - 1);

  const track = (el: HTMLTextAreaElement) => setCaret(el.selectionStart ?? el.value.length);

  const choose = (user: MentionUser) => {
    if (!found) return;
    const inserted = `@${user.name} `;
    const next = props.value.slice(0, found.at) + inserted + props.value.slice(caret);
    const at = found.at + inserted.length;
    const mentions = props.mentions.some((m) => m.id === user.id && m.label === user.name)
      ? props.mentions
      : [...props.mentions, { id: user.id, label: user.name }];
    props.onChange(next, mentions);
    setCaret(at);
    setActive(0);
    pendingCaret.current = at;
  };

  const onKeyDown = (ev: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!open) return;
    if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      ev.preventDefault();
      const step = ev.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + options.length) % options.length);
    } else if (ev.key === 'Enter' || ev.key === 'Tab') {
      ev.preventDefault();
      choose(options[current] as MentionUser);
    } else if (ev.key === 'Escape') {
      // closes the list only, not the dialog or form around the box
      ev.preventDefault();
      ev.stopPropagation();
      setDismissed(key);
    }
  };

  return (
    <span className="case-mention-box">
      <textarea
        ref={box}
        id={props.id}
        value={props.value}
        rows={props.rows}
        placeholder={props.placeholder}
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? `${listId}-${current}` : undefined}
        aria-description={t('case.mention.hint')}
        onChange={(e) => {
          track(e.target);
          setActive(0);
          props.onChange(e.target.value, props.mentions);
        }}
        onSelect={(e) => track(e.currentTarget)}
        onKeyDown={onKeyDown}
        onBlur={() => setDismissed(key)}
        onFocus={() => setDismissed(null)}
      />
      {open ? (
        <div id={listId} role="listbox" aria-label={t('case.mention.list')} className="case-mention-list">
          {options.map((u, i) => (
            // the focus stays in the box (aria-activedescendant); -1 only lets a pointer land on it
            <div
              key={u.id}
              tabIndex={-1}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === current}
              // mousedown, not click: the box keeps the focus (and its caret) while the list is used
              onMouseDown={(e) => {
                e.preventDefault();
                choose(u);
              }}
            >
              <span>{u.name}</span>
              {u.name !== u.email ? <span className="case-muted"> {u.email}</span> : null}
            </div>
          ))}
        </div>
      ) : null}
    </span>
  );
}
