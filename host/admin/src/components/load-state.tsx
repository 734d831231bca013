import type { ReactNode } from 'react';
import { errorMessage } from '../api/api-error.ts';
import type { ApiData } from '../api/use-api-data.ts';

/**
 * The loading, error and empty states every page shows the same way; renders `children(data)`
 * once loaded and not empty.
 */
export function LoadState<T>({
  state,
  isEmpty,
  empty,
  children,
}: {
  state: ApiData<T>;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (state.error !== undefined) return <p className="error" role="alert">{errorMessage(state.error)}</p>;
  if (state.data === undefined) return <p className="loading" aria-busy="true">Loading…</p>;
  if (isEmpty?.(state.data)) return <p className="empty">{empty ?? 'Nothing here yet.'}</p>;
  return <>{children(state.data)}</>;
}
