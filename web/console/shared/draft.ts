/**
 * What is being typed in a note or comment box, kept for this browser tab (sessionStorage) under a
 * key of its own (the case's new note, a note's comment): switching the case's tabs unmounts the
 * notes, and a draft must not be lost with them (the console walk lost one going to Activity and
 * back), as a case review's comment is not. Sent or emptied, it is forgotten. A browser that keeps
 * no session storage (a private mode refusing it) keeps the draft while the box is shown only.
 * Signing out forgets every draft: the next user of this tab does not find them.
 */
import { useCallback, useState } from 'react';
import type { Mention } from '../features/case/mentions.ts';

export type Draft = { text: string; mentions: Mention[] };
const EMPTY: Draft = { text: '', mentions: [] };
const PREFIX = 'vericase.console.draft.';

function read(key: string): Draft {
  try {
    const raw = sessionStorage.getItem(PREFIX + key);
    const parsed = raw ? (JSON.parse(raw) as Draft) : null;
    return parsed && typeof parsed.text === 'string' && Array.isArray(parsed.mentions) ? parsed : EMPTY;
  } catch {
    return EMPTY;
  }
}

function write(key: string, draft: Draft): void {
  try {
    if (draft.text) sessionStorage.setItem(PREFIX + key, JSON.stringify(draft));
    else sessionStorage.removeItem(PREFIX + key);
  } catch {
    // storage full or refused: the draft lives in the page only
  }
}

/** The draft under `key` and its setter (which keeps it). */
export function useDraft(key: string): [Draft, (draft: Draft) => void] {
  const [draft, setDraft] = useState<Draft>(() => read(key));
  const set = useCallback(
    (next: Draft) => {
      setDraft(next);
      write(key, next);
    },
    [key],
  );
  return [draft, set];
}

/** Forgets every draft of this tab (at sign-out). */
export function forgetDrafts(): void {
  try {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith(PREFIX)) sessionStorage.removeItem(key);
  } catch {
    // no storage: nothing kept
  }
}
