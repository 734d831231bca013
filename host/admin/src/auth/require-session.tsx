import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useSession } from './session-context.tsx';

/** Renders its children when signed in, else goes to the sign-in page. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { claims } = useSession();
  return claims ? children : <Navigate to="/sign-in" replace />;
}
