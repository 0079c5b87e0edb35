import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/connect.ts';
import type { Role } from '../http/auth.ts';
import { isRole } from './permissions.ts';

/** Session lifetimes (VERICASE_SESSION_TTL_HOURS, VERICASE_SESSION_IDLE_MINUTES). */
export interface SessionTimes {
  ttlHours: number;
  idleMinutes: number;
}

/** last_seen_at is written at most this often (a session is not a write per request). */
const TOUCH_EVERY_MS = 30_000;

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface NewSession {
  id: string;
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

/** Opens a session for a user: the token goes in the cookie, only its SHA-256 is stored. */
export async function createSession(
  db: Db,
  user: { id: string; workspace_id: string },
  times: SessionTimes,
  client: { ip: string | null; userAgent: string | null },
): Promise<NewSession> {
  const token = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  const id = randomUUID();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + times.ttlHours * 3_600_000);
  // the user's sessions over for a week are dropped (sign-ins and sign-outs stay in the audit log)
  const weekAgo = new Date(now.getTime() - 7 * 86_400_000);
  await db
    .deleteFrom('console_sessions')
    .where('user_id', '=', user.id)
    .where((eb) => eb.or([eb('expires_at', '<', weekAgo), eb('revoked_at', '<', weekAgo)]))
    .execute();
  await db
    .insertInto('console_sessions')
    .values({
      id,
      workspace_id: user.workspace_id,
      user_id: user.id,
      token_hash: hashSessionToken(token),
      csrf_token: csrfToken,
      created_at: now,
      last_seen_at: now,
      expires_at: expiresAt,
      ip: client.ip,
      user_agent: client.userAgent?.slice(0, 500) ?? null,
    })
    .execute();
  return { id, token, csrfToken, expiresAt };
}

export interface ActiveSession {
  sessionId: string;
  csrfToken: string;
  expiresAt: Date;
  workspaceId: string;
  workspaceName: string;
  user: { id: string; email: string; firstName: string; lastName: string; role: Role };
}

/**
 * The live session a cookie token opens, or null: unknown, revoked, past its absolute expiry, idle
 * for longer than the idle timeout, or its user suspended (or given a role we do not know).
 * Touches last_seen_at (at most every 30 s).
 */
export async function resolveSession(
  db: Db,
  token: string,
  times: SessionTimes,
): Promise<ActiveSession | null> {
  const row = await db
    .selectFrom('console_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .innerJoin('workspaces as w', 'w.id', 's.workspace_id')
    .select([
      's.id as session_id',
      's.csrf_token',
      's.expires_at',
      's.last_seen_at',
      's.revoked_at',
      'w.id as workspace_id',
      'w.name as workspace_name',
      'u.id as user_id',
      'u.email',
      'u.first_name',
      'u.last_name',
      'u.role',
      'u.suspended_at',
    ])
    .where('s.token_hash', '=', hashSessionToken(token))
    .executeTakeFirst();
  if (!row || row.revoked_at || row.suspended_at || !isRole(row.role)) return null;
  const now = Date.now();
  const expiresAt = new Date(row.expires_at);
  const lastSeen = new Date(row.last_seen_at).getTime();
  if (expiresAt.getTime() <= now) return null;
  if (lastSeen + times.idleMinutes * 60_000 <= now) return null;
  if (now - lastSeen >= TOUCH_EVERY_MS) {
    await db
      .updateTable('console_sessions')
      .set({ last_seen_at: new Date(now) })
      .where('id', '=', row.session_id)
      .execute();
  }
  return {
    sessionId: row.session_id,
    csrfToken: row.csrf_token,
    expiresAt,
    workspaceId: row.workspace_id,
    workspaceName: row.workspace_name,
    user: {
      id: row.user_id,
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      role: row.role,
    },
  };
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db
    .updateTable('console_sessions')
    .set({ revoked_at: new Date() })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every live session of a user (suspension, an admin's revocation), but `keep`. Returns how many. */
export async function revokeUserSessions(db: Db, userId: string, keep?: string): Promise<number> {
  let q = db
    .updateTable('console_sessions')
    .set({ revoked_at: new Date() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keep) q = q.where('id', '!=', keep);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** The X-CSRF-Token header matches the session's token (compared in constant time). */
export function csrfMatches(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
