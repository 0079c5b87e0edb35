import type { UserRow } from '../db/schema.ts';
import { iso, isoOrNull } from '../shared/time.ts';

/** Never exposes password_hash. */
export function presentUser(u: UserRow) {
  return {
    id: u.id,
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    role: u.role,
    created_at: iso(u.created_at),
    suspended_at: isoOrNull(u.suspended_at),
  };
}
