import type { Db } from '../db/connect.ts';
import { badRequest } from '../http/errors.ts';

/**
 * User mentions in note and comment content, as the reference writes them:
 * `<span data-type="mention" data-id="user:<user id>"></span>`. The server fills in `data-label`
 * and the inner text (`@First Last`, or the e-mail of a user without a name) from the workspace's
 * users, whatever the request put there: a mention always names the user it points at. A mention
 * of anyone else (an unknown or another workspace's user, or an id that is not `user:<id>`) is a
 * 400 naming `content`. (The reference also notifies the user; vericase has no notifications.)
 *
 * cleanContent (content.ts) rewrites each mention span to one shape, its text a marker, so the
 * lookup below reads one shape whatever attribute order or inner markup the request used; whatever
 * tags the mention held go with it.
 */
const USER_ID = /^user:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The attribute value as written by sanitize-html (entities for `&` and `"`), read back. */
const attributeText = (s: string) => s.replace(/&quot;/g, '"').replace(/&amp;/g, '&');

export async function fillMentions(
  db: Db,
  workspaceId: string,
  html: string,
  marker: string,
): Promise<string> {
  const mention = new RegExp(`<span data-type="mention" data-id="([^"]*)">${marker}</span>`, 'g');
  const ids = new Map<string, string>();
  for (const m of html.matchAll(mention)) {
    const dataId = attributeText(m[1]);
    const user = USER_ID.exec(dataId);
    if (!user) {
      throw badRequest(`content: a mention's data-id must be user:<user id>; it is "${dataId}"`, 'content');
    }
    ids.set(m[1], user[1].toLowerCase());
  }
  if (!ids.size) return html.replaceAll(marker, '');
  const users = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'email'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...new Set(ids.values())])
    .execute();
  const labels = new Map(
    users.map((u) => [u.id, [u.first_name, u.last_name].filter((p) => p.trim()).join(' ') || u.email]),
  );
  for (const [written, id] of ids) {
    if (!labels.has(id)) {
      throw badRequest(
        `content mentions ${attributeText(written)}, who is not a user of this workspace`,
        'content',
      );
    }
  }
  return html
    .replace(mention, (_whole, written: string) => {
      const label = escapeHtml(labels.get(ids.get(written) as string) as string);
      return `<span data-type="mention" data-id="${written}" data-label="${label}">@${label}</span>`;
    })
    .replaceAll(marker, '');
}
