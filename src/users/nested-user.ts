import { type Static, Type } from 'typebox';
import type { Db } from '../db/connect.ts';
import type { UserRow } from '../db/schema.ts';
import { Nullable, Uuid } from '../http/common-schemas.ts';
import { UUID_RE } from '../shared/pg-errors.ts';

/**
 * A console user as other resources name it (the reference's NestedUser): the reviewer of a case
 * or check, the author of a note or comment, the assignee of a case, the author of an activity.
 */
export const NestedUser = Type.Object(
  {
    id: Uuid,
    first_name: Type.String(),
    last_name: Type.String(),
    // no format check on the way out: the first admin is admin@localhost (a dotless domain, which the
    // serializer's e-mail format refuses), and a stored address must always be answered
    email: Type.String({ description: 'The e-mail the user signs in with' }),
  },
  { description: 'A console user of the workspace' },
);
export type NestedUserOut = Static<typeof NestedUser>;

/** The user who acted, or null when it was not a console user (API key, system, contact). */
export const NullableNestedUser = Nullable(NestedUser);

export function presentNestedUser(
  u: Pick<UserRow, 'id' | 'first_name' | 'last_name' | 'email'>,
): NestedUserOut {
  return { id: u.id, first_name: u.first_name, last_name: u.last_name, email: u.email };
}

/**
 * The workspace's users among `ids`, in one query (lists resolve every author/assignee of a page
 * at once). Ids that are not user ids (null, free-text assignee ids) are skipped; suspended users
 * are found too, since what they did stays theirs.
 */
export async function nestedUsersById(
  db: Db,
  workspaceId: string,
  ids: Iterable<string | null | undefined>,
): Promise<Map<string, NestedUserOut>> {
  const wanted = [...new Set([...ids].filter((id): id is string => !!id && UUID_RE.test(id)))];
  const out = new Map<string, NestedUserOut>();
  if (!wanted.length) return out;
  const rows = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'email'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', wanted)
    .execute();
  for (const r of rows) out.set(r.id, presentNestedUser(r));
  return out;
}

/** One user of the workspace as a NestedUser, or null (unknown id, or not a user id). */
export async function nestedUserById(
  db: Db,
  workspaceId: string,
  id: string | null | undefined,
): Promise<NestedUserOut | null> {
  return (await nestedUsersById(db, workspaceId, [id])).get(id ?? '') ?? null;
}
