import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { api, setUnauthorizedHandler } from '../api/api-client.ts';
import { decodeToken, isExpired, type TokenClaims } from './decode-token.ts';
import { roleAllows, type Permission } from './role-permissions.ts';
import { clearToken, readToken, storeToken } from './token-storage.ts';

export interface Session {
  claims: TokenClaims | undefined;
  /** Why the last session ended, when it was not the user's choice. */
  endReason: string | undefined;
  /** Whether the signed-in role may do this (disabled actions instead of 403s). */
  can: (permission: Permission) => boolean;
  signIn: (token: string) => TokenClaims | undefined;
  signOut: (reason?: string) => void;
}

const SessionContext = createContext<Session | undefined>(undefined);

function currentClaims(): TokenClaims | undefined {
  const token = readToken();
  const claims = token ? decodeToken(token) : undefined;
  return claims && !isExpired(claims) ? claims : undefined;
}

/** Holds who is signed in; a 401 from the API signs out and opens the sign-in page. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const [claims, setClaims] = useState(currentClaims);
  const [endReason, setEndReason] = useState<string>();
  const signOut = useCallback(
    (reason?: string) => {
      clearToken();
      setClaims(undefined);
      setEndReason(reason);
      navigate('/sign-in', { replace: true });
    },
    [navigate],
  );
  useEffect(() => setUnauthorizedHandler(() => signOut('Your session has ended; sign in again.')), [signOut]);
  // What the role holds, as the API says (roles beyond the seeded ones included); until it
  // answers, the seeded roles' table decides.
  const [permissions, setPermissions] = useState<ReadonlySet<string>>();
  useEffect(() => {
    setPermissions(undefined);
    if (!claims) return;
    let current = true;
    api.get<{ permissions: string[] }>('/api/auth/me').then(
      (me) => current && setPermissions(new Set(me.permissions)),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [claims]);
  const session = useMemo<Session>(
    () => ({
      claims,
      endReason,
      can: (permission) => claims !== undefined && (permissions ? permissions.has(permission) : roleAllows(claims.role, permission)),
      signIn(token) {
        const decoded = decodeToken(token);
        if (decoded && !isExpired(decoded)) {
          storeToken(token.trim());
          setClaims(decoded);
          setEndReason(undefined);
        }
        return decoded;
      },
      signOut,
    }),
    [claims, endReason, permissions, signOut],
  );
  return <SessionContext value={session}>{children}</SessionContext>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
