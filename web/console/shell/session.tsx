/**
 * The signed-in user: read from GET /console/api/session at load, set by the sign-in, cleared by the
 * sign-out or by any 401 (the session expired or was revoked), which brings back the sign-in page
 * with a note; read again after a 403, which may say the user's role changed. The role here only shapes the page; the server enforces it on every call.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { ApiProblem, consoleCall, onForbidden, onUnauthorized, setCsrfToken } from '../api/client.ts';
import { forgetDrafts } from '../shared/draft.ts';

export type Role = 'admin' | 'reviewer' | 'viewer';

export interface ConsoleSession {
  user: { id: string; email: string; first_name: string; last_name: string; role: Role };
  workspace: { id: string; name: string };
  csrf_token: string;
  expires_at: string;
}

interface SessionState {
  session: ConsoleSession | null;
  /** The session ended under the user (expired, revoked): the sign-in page says so. */
  ended: boolean;
  loading: boolean;
  signIn: (email: string, password: string, workspace?: string) => Promise<void>;
  signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<ConsoleSession | null>(null);
  const [loading, setLoading] = useState(true);
  const [ended, setEnded] = useState(false);

  const start = useCallback((s: ConsoleSession | null) => {
    setCsrfToken(s?.csrf_token ?? null);
    setSession(s);
  }, []);

  useEffect(() => {
    // 204 (null): no session cookie, nobody signed in from this browser; 401: this browser's session
    // ended while the page was closed (expired, signed out elsewhere): the sign-in page says so, as
    // when it ends under an open page
    consoleCall<ConsoleSession | null>('GET', '/console/api/session')
      .then(start, (err: unknown) => {
        if (err instanceof ApiProblem && err.status === 401) setEnded(true);
        start(null);
      })
      .finally(() => setLoading(false));
  }, [start]);

  useEffect(
    () =>
      onUnauthorized(() => {
        setSession((current) => {
          if (current) setEnded(true);
          return null;
        });
        setCsrfToken(null);
      }),
    [],
  );

  // a refusal (403) may mean the role changed under the page (an admin made this user a viewer): the
  // session read again brings the new role, and with it the page without the buttons it no longer
  // allows (only while signed in: a 403 of the sign-in page itself has no session to read)
  useEffect(
    () =>
      onForbidden(() => {
        consoleCall<ConsoleSession | null>('GET', '/console/api/session').then(
          (s) => {
            if (!s) return;
            // the same user kept as it was: no new session object, no page drawn again for nothing
            // (a viewer's refused read would otherwise redraw what depends on the session each time)
            setSession((current) =>
              current && JSON.stringify(current.user) !== JSON.stringify(s.user) ? s : current,
            );
          },
          () => undefined, // a 401 here is said by onUnauthorized
        );
      }),
    [],
  );

  const signIn = useCallback(
    async (email: string, password: string, workspace?: string) => {
      const s = await consoleCall<ConsoleSession>('POST', '/console/api/login', {
        email,
        password,
        ...(workspace ? { workspace } : {}),
      });
      setEnded(false);
      start(s);
    },
    [start],
  );

  const signOut = useCallback(async () => {
    await consoleCall('POST', '/console/api/logout').catch(() => undefined);
    forgetDrafts();
    start(null);
  }, [start]);

  const value = useMemo(
    () => ({ session, loading, ended, signIn, signOut }),
    [session, loading, ended, signIn, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}

/** The signed-in user's role (the console only shows writes a role may make). */
export function useRole(): Role {
  return useSession().session?.user.role ?? 'viewer';
}

/** Reviewers and admins write cases and checks; viewers read. */
export function useCanWrite(): boolean {
  return useRole() !== 'viewer';
}
