import { requestLabel } from './package-request.ts';
import type { InstallState } from './use-package-install.ts';

/** The busy line while a preview or an install runs. */
export function InstallProgress({ state }: { state: InstallState }) {
  if (state.step === 'previewing') {
    return (
      <p className="loading" role="status" aria-busy="true">
        {state.request.source === 'registry' ? 'Fetching' : 'Sending'} and checking {requestLabel(state.request)}…
      </p>
    );
  }
  if (state.step === 'installing') {
    return (
      <p className="loading" role="status" aria-busy="true">
        Installing {state.previewed.preview.name}@{state.previewed.preview.version}: unpacking, checking and starting its channel…
      </p>
    );
  }
  return null;
}
