/**
 * The workspace's users by id, suspended ones included, for naming an assignee (a case carries only
 * its assignee_id in lists). Every role may read them (GET /v1/users); read once per page shown.
 */
import { useEffect, useState } from 'react';
import { api, unwrap } from './client.ts';

export type UserChoice = { id: string; name: string; email: string; suspended: boolean; role: string };

export async function workspaceUsers(includeSuspended: boolean): Promise<UserChoice[]> {
  const all: UserChoice[] = [];
  for (let page = 1; ; page++) {
    const list = unwrap(
      await api.GET('/v1/users', {
        params: { query: { page, limit: 100, include_suspended: includeSuspended } },
      }),
    );
    for (const u of list.data)
      all.push({
        id: u.id,
        name: [u.first_name, u.last_name].filter(Boolean).join(' ') || u.email,
        email: u.email,
        suspended: u.suspended_at !== null,
        role: u.role,
      });
    if (page * 100 >= list.pagination.count || list.data.length === 0) return all;
  }
}

/** The users (suspended included), or null while they load or when they cannot be read. */
export function useWorkspaceUsers(): UserChoice[] | null {
  const [users, setUsers] = useState<UserChoice[] | null>(null);
  useEffect(() => {
    let live = true;
    workspaceUsers(true).then(
      (u) => live && setUsers(u),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return users;
}
