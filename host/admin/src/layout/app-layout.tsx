import { useEffect, useId, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { ErrorBoundary } from '../components/error-boundary.tsx';
import { useSession } from '../auth/session-context.tsx';

const MENU: { label: string; to: string; end?: boolean; indent?: boolean }[] = [
  { label: 'Workflows', to: '/workflows', end: true },
  { label: 'Memory', to: '/workflows/memory', indent: true },
  { label: 'Channels', to: '/channels', end: true },
  { label: 'Install', to: '/channels/packages', indent: true },
  { label: 'Sources', to: '/sources' },
  { label: 'Runs', to: '/runs' },
  { label: 'Subscribers', to: '/subscribers' },
  { label: 'Dead letters', to: '/dead-letters' },
  { label: 'Skipped events', to: '/skipped-events' },
];

/**
 * The menu, who is signed in, and the current page. Below 768 px the menu folds into a bar above
 * the page behind a Menu button (styles.css) that unfolds it; choosing a page folds it again.
 */
export function AppLayout() {
  const { claims, signOut } = useSession();
  const { pathname } = useLocation();
  const menuId = useId();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [pathname]);
  return (
    <div className="layout">
      <nav aria-label="Main" className={menuOpen ? 'menu-open' : undefined}>
        <div className="nav-bar">
          <strong className="brand">bot host</strong>
          <button type="button" className="menu-button" aria-expanded={menuOpen} aria-controls={menuId} onClick={() => setMenuOpen(!menuOpen)}>
            Menu
          </button>
        </div>
        <ul id={menuId}>
          {MENU.map((item) => (
            <li key={item.to} className={item.indent ? 'indent' : undefined}>
              <NavLink to={item.to} end={item.end ?? false}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="who">
          {claims?.sub} ({claims?.role})
          <button type="button" onClick={() => signOut()}>
            Sign out
          </button>
        </div>
      </nav>
      <main>
        {/* Keyed by path: leaving a failed page clears the failure. */}
        <ErrorBoundary key={pathname}>
          <Outlet />
        </ErrorBoundary>
      </main>
    </div>
  );
}
