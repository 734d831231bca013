import type { ReactNode } from 'react';

/**
 * Scrolls the element with id `to` into view: a button rather than an `#id` link, because a
 * hash change is a navigation, which the editor's unsaved-changes guard would stop to ask about.
 */
export function JumpButton({ to, children }: { to: string; children: ReactNode }) {
  return (
    <button type="button" className="link" onClick={() => document.getElementById(to)?.scrollIntoView({ behavior: 'smooth', block: 'start' })}>
      {children}
    </button>
  );
}
