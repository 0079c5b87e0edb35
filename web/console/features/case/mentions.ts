/**
 * User mentions in what is typed into a note or a comment. The box stays plain text: choosing a user
 * writes `@First Last` and remembers who it names; sending turns each remembered `@First Last` still
 * in the text into the API's mention markup (`<span data-type="mention" data-id="user:<id>">`,
 * src/notes/mentions.ts) and escapes the rest. A mention edited away is plain text again, so what
 * is sent never names someone the text no longer shows.
 */

export type Mention = { id: string; label: string };
export type MentionUser = { id: string; name: string; email: string };

/** `@` at the start or after a space, then letters (a second word allowed): the query typed so far. */
const TRIGGER = /(?:^|\s)@(\p{L}[\p{L}\p{M}'’.-]*(?: [\p{L}\p{M}'’.-]*)?)$/u;

/** The query being typed before the caret, and where its `@` is, or null when none is. */
export function mentionQuery(text: string, caret: number): { query: string; at: number } | null {
  const before = text.slice(0, caret);
  const m = TRIGGER.exec(before);
  if (!m) return null;
  const query = m[1] as string;
  return { query, at: caret - query.length - 1 };
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The users whose name (from the start of any of its words) or e-mail begins with the query. */
export function matchingUsers(users: MentionUser[], query: string, max = 8): MentionUser[] {
  const q = fold(query.trim());
  if (!q) return [];
  return users
    .filter((u) => {
      const name = fold(u.name);
      const words = name.split(/\s+/).map((_, i, all) => all.slice(i).join(' '));
      return words.some((w) => w.startsWith(q)) || fold(u.email).startsWith(q);
    })
    .slice(0, max);
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * The text as the HTML the API takes: escaped, so `<b>` or `a<b` reads as typed (line breaks are
 * left for the server, src/notes/content.ts), each remembered `@label` that starts a word becoming
 * that user's mention. Longer labels are tried first so `@Ann Lee` is not read as `@Ann`.
 */
export function textToHtml(text: string, mentions: Mention[] = []): string {
  const byLength = [...mentions].sort((a, b) => b.label.length - a.label.length);
  let html = '';
  let i = 0;
  while (i < text.length) {
    const wordStart = i === 0 || /\s/.test(text[i - 1] as string);
    const hit =
      wordStart && text[i] === '@' ? byLength.find((m) => text.startsWith(m.label, i + 1)) : undefined;
    if (hit) {
      html += `<span data-type="mention" data-id="user:${escapeHtml(hit.id)}">@${escapeHtml(hit.label)}</span>`;
      i += hit.label.length + 1;
    } else {
      html += escapeHtml(text[i] as string);
      i++;
    }
  }
  return html;
}
