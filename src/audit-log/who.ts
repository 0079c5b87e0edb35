import type { Principal } from '../http/auth.ts';
import type { NestedUserOut } from '../users/nested-user.ts';

/**
 * The console user behind a /v1 request as resources name it (reviewer of a check, of AML hits):
 * null for an API key. Named as the user was when the session was read.
 */
export function sessionNestedUser(principal: Principal): NestedUserOut | null {
  const u = principal.user;
  return u ? { id: u.id, first_name: u.firstName, last_name: u.lastName, email: u.email } : null;
}
